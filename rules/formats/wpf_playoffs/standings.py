"""Standings: the current ranks with seed, losses, bracket and the reason for each rank.

Two tables once the playoffs start: ``overall`` (everything: the director's view) and
``public`` (what visitors may see: online results stay hidden until they are revealed).
Before round A there is an ``eligibility`` table instead of the ranks' history.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from rules import words
from rules.contract import (
    Column,
    Decided,
    EventState,
    Reason,
    StandingRow,
    Standings,
    StandingsTable,
)
from rules.words import gettext_noop as _
from rules.words import message

from . import eligibility
from .ladder import Ladder, Played
from .replay import Replay, replay, revealed
from .schedule import BRACKET_LABELS, MATCHES, SESSIONS, bracket_of
from .words import WON, WON_SWAPPED

COLUMNS = (
    Column("seed", _("Seed")),
    Column("losses", _("Losses")),
    Column(
        "bracket", _("Bracket"), _("Winner's: no loss; Loser's: one loss; Placement: two or more.")
    ),
    Column("wins", _("Wins")),
)
HIDDEN = Reason("wpf.hidden", rule="Online Stage")


def _label(played: Replay, seed: int) -> str:
    return played.entrant(seed) or f"bye-{seed}"


def _reason(rank: int, history: list[Played], played: Replay) -> dict[str, Any]:
    """Why the player holds ``rank``: the last swap of ranks, and the matches since."""
    swaps = [p for p in history if p.swapped]
    if not swaps:
        kept = ", ".join(p.code for p in history)
        if kept:
            return message("wpf.rank.seed_kept", rank=rank, kept=kept)
        return message("wpf.rank.seed", rank=rank)
    last = swaps[-1]
    shown = {
        "rank": rank,
        "match": last.code,
        "before": last.rank_before,
        "opponent": _label(played, last.opponent),
    }
    kept = ", ".join(p.code for p in history[history.index(last) + 1 :])
    if last.won:
        if kept:
            return message("wpf.rank.won_kept", **shown, kept=kept)
        return message("wpf.rank.won", **shown)
    if kept:
        return message("wpf.rank.lost_kept", **shown, kept=kept)
    return message("wpf.rank.lost", **shown)


def _rows(state: EventState, played: Replay) -> tuple[list[StandingRow], list[Decided]]:
    ladder: Ladder = played.ladder
    undecided = {
        code
        for session in SESSIONS
        for code in (m.code for m in session.matches)
        if code not in played.scores or played.scores[code].winner is None
    }
    open_ranks = {r for code in undecided for r in MATCHES[code].ranks}
    entrants = state.entrants_by_id
    rows: list[StandingRow] = []
    for rank in range(1, len(ladder.order) + 1):
        seed = ladder.at(rank)
        entrant = played.entrant(seed)
        losses = ladder.losses[seed]
        history = ladder.history[seed]
        known = entrants.get(entrant) if entrant else None
        if entrant is None:
            status = "virtual"
        elif known is not None and not known.active:
            status = "withdrawn"
        elif losses >= 2:
            status = "eliminated"
        else:
            status = ""
        why = _reason(rank, history, played)
        rows.append(
            StandingRow(
                entrant=_label(played, seed),
                rank=rank,
                values={
                    "seed": seed,
                    "losses": losses,
                    "bracket": BRACKET_LABELS[bracket_of(losses)],
                    "wins": sum(1 for p in history if p.won),
                },
                status=status,
                details={
                    "seed": seed,
                    "losses": losses,
                    "bracket": bracket_of(losses).value,
                    "virtual": entrant is None,
                    "rank_final": rank not in open_ranks,
                    # the English for readers of the record; the page says reason_message
                    "reason": words.render(why["code"], why["params"]),
                    "reason_message": why,
                    "history": [
                        {
                            "round": p.session,
                            "code": p.code,
                            "opponent": _label(played, p.opponent),
                            "opponent_seed": p.opponent,
                            "won": p.won,
                            "rank_before": p.rank_before,
                            "rank_after": p.rank_after,
                            "swapped": p.swapped,
                        }
                        for p in history
                    ],
                },
            )
        )
    decided: list[Decided] = []
    for upper, lower in itertools.pairwise(rows):
        last = ladder.history[upper.details["seed"]]
        if last and last[-1].opponent == lower.details["seed"]:
            decided.append(
                Decided(
                    upper.entrant,
                    lower.entrant,
                    "head_to_head",
                    (WON_SWAPPED if last[-1].swapped else WON).format(match=last[-1].code),
                )
            )
    return rows, decided


def _eligibility(state: EventState, settings: Mapping[str, Any]) -> Standings:
    best = int(settings["best_rounds"])
    found, problems = eligibility.candidates(state.entrants, best)
    chosen, _refused = eligibility.eligible(found, int(settings["eligible_top"]))
    seeding, _problems = eligibility.seed(
        state.entrants, None, players=16, top=int(settings["eligible_top"]), best=best
    )
    seeds = {e: i + 1 for i, e in enumerate(seeding.seeds) if e is not None}
    chosen_ids = {c.entrant for c in chosen}
    ordered = sorted(found, key=lambda c: c.score, reverse=True)
    rows = []
    for place, candidate in enumerate(ordered, start=1):
        rows.append(
            StandingRow(
                entrant=candidate.entrant,
                rank=place,
                values={
                    "eligibility_score": candidate.score,
                    "attending": candidate.attending,
                    "eligible": candidate.entrant in chosen_ids,
                    "seed": seeds.get(candidate.entrant),
                },
                status="qualified" if candidate.entrant in seeds else "",
            )
        )
    notes = [Reason(p.code, rule=eligibility.RULE, params=p.params) for p in problems]
    table = StandingsTable(
        key="eligibility",
        title=_("Eligibility"),
        columns=(
            Column(
                "eligibility_score", _("Eligibility score"), _("The six best GP rounds added up.")
            ),
            Column("attending", _("Attending")),
            Column("eligible", _("Eligible")),
            Column("seed", _("Seed")),
        ),
        rows=tuple(rows),
        notes=tuple(notes),
    )
    return Standings(tables=(table,))


def build_standings(state: EventState, settings: Mapping[str, Any]) -> Standings:
    if not state.rounds:
        return _eligibility(state, settings)
    played = replay(state)
    rows, decided = _rows(state, played)
    final = played.complete_sessions == len(SESSIONS)
    notes = tuple(Reason(p.code, params=p.params) for p in played.problems)
    overall = StandingsTable("overall", _("Ranks"), COLUMNS, tuple(rows), tuple(decided), notes)
    if revealed(state):
        public = StandingsTable("public", _("Ranks"), COLUMNS, tuple(rows), tuple(decided))
    else:
        hidden = sorted(rows, key=lambda r: r.details["seed"])
        public = StandingsTable(
            "public",
            _("Seeds"),
            (Column("seed", _("Seed")),),
            tuple(
                StandingRow(
                    entrant=r.entrant,
                    rank=r.details["seed"],
                    values={"seed": r.details["seed"]},
                    status="virtual" if r.details["virtual"] else "",
                    details={"hidden": True},
                )
                for r in hidden
            ),
            notes=(HIDDEN,),
        )
    return Standings(tables=(overall, public), final=final)
