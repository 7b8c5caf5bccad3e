"""Stage one: the seeding gauntlet against the reference programs, and the seed order."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.contract import Decided, DrawSourceProtocol, EventState, Number, RoundStatus
from rules.formats.bot_contest import scoring
from rules.formats.bot_contest.words import DRAWN_BY_LOT
from rules.tiebreaks import Step, rank
from rules.words import gettext_noop as _

GAUNTLET_STAGE = "gauntlet"
BRACKET_STAGE = "brackets"
FINAL_STAGE = "final"
# the purpose a seeding draw records (the engine says it as bot_contest.draw.seeding_tie)
SEEDING_DRAW = _("order of entries tied on gauntlet total and game points")


def is_reference(state: EventState, entrant: str) -> bool:
    return bool(state.entrant(entrant).flags.get("reference", False))


def references(state: EventState) -> list[str]:
    return [e.id for e in state.entrants if e.flags.get("reference", False)]


def competitors(state: EventState, round_number: int = 1) -> list[str]:
    """Entries that compete (OPEN-QUESTION 24): every entry not flagged as a reference and
    still in the event for ``round_number``."""
    return [
        e.id
        for e in state.entrants
        if not e.flags.get("reference", False) and e.active_in_round(round_number)
    ]


@dataclass
class GauntletRow:
    entrant: str
    total: Number = 0
    game_points: Number = 0
    games: int = 0
    wins: int = 0
    ties: int = 0
    losses: int = 0
    by_reference: dict[str, Number] = field(default_factory=dict)


def gauntlet_rows(state: EventState, settings: Mapping[str, Any]) -> dict[str, GauntletRow]:
    """Each gauntlet entry's total: bonus plus its own points, over its (up to) six games."""
    rows: dict[str, GauntletRow] = {}
    for rnd in state.rounds:
        if rnd.stage != GAUNTLET_STAGE or rnd.status is RoundStatus.DRAFT:
            continue
        for match in rnd.matches:
            if match.is_bye:
                continue
            entrant, reference = (p.entrant for p in match.participants)
            if entrant is None or reference is None:
                continue
            row = rows.setdefault(entrant, GauntletRow(entrant))
            games, problems = scoring.match_games(state, match, settings)
            if problems:
                continue
            for game in games:
                points = scoring.contest_points(game, 0, settings)
                row.total += points
                row.game_points += game.scores[0]
                row.games += 1
                row.by_reference[reference] = row.by_reference.get(reference, 0) + points
                if game.winner is None:
                    row.ties += 1
                elif game.winner == 0:
                    row.wins += 1
                else:
                    row.losses += 1
    return rows


@dataclass(frozen=True)
class Seeding:
    order: list[str]  # seed order; entries a draw has not split yet keep name order
    decided: tuple[Decided, ...]
    unresolved: list[list[str]]  # tied groups still waiting for their draw
    draw_keys: list[str]  # draws used


def tie_key(place: int) -> str:
    return f"seeding/tie-{place}"


def seed_order(
    state: EventState,
    settings: Mapping[str, Any],
    seeded: Sequence[str],
    draws: DrawSourceProtocol | None,
) -> Seeding:
    """Order by gauntlet total, then total game points, then a recorded random draw
    (OPEN-QUESTION 25). Without a draw source, only draws already recorded are used."""
    rows = gauntlet_rows(state, settings)
    empty = GauntletRow("")
    steps = [
        Step("total", _("Gauntlet total"), lambda t: {e: rows.get(e, empty).total for e in t}),
        Step(
            "game_points",
            _("Game points"),
            lambda t: {e: rows.get(e, empty).game_points for e in t},
        ),
    ]
    names = {e.id: e.name for e in state.entrants}
    ranking = rank(list(seeded), steps, initial=lambda t: sorted(t, key=lambda e: names[e]))
    order: list[str] = []
    decided = list(ranking.decided)
    unresolved: list[list[str]] = []
    keys: list[str] = []
    for tier in ranking.tiers:
        if len(tier) == 1:
            order.extend(tier)
            continue
        key = tie_key(len(order) + 1)
        purpose = SEEDING_DRAW
        drawn: list[str] | None = None
        if draws is not None:
            drawn = draws.shuffle(key, sorted(tier), purpose=purpose)
        else:
            record = state.draw(key)
            if record is not None and sorted(map(str, record.value)) == sorted(tier):
                drawn = [str(v) for v in record.value]
        if drawn is None:
            unresolved.append(list(tier))
            order.extend(tier)
            continue
        keys.append(key)
        order.extend(drawn)
        for ahead, behind in itertools.pairwise(drawn):
            decided.append(Decided(ahead, behind, "draw", DRAWN_BY_LOT.format(key=key)))
    return Seeding(order, tuple(decided), unresolved, keys)


def recorded_seeds(state: EventState) -> list[str] | None:
    """The seed order as fixed when stage two began."""
    for rnd in state.rounds:
        if rnd.stage == BRACKET_STAGE or rnd.stage == FINAL_STAGE:
            seeds = rnd.details.get("seeds")
            if seeds is not None:
                return [str(s) for s in seeds]
    return None
