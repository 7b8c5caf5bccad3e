"""Play a whole event with random legal results: for tests, benchmarks and demonstrations.

All randomness comes from the ``random.Random`` passed in; draws go through a DrawSource
seeded from it and are kept in the returned state like the service would store them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules import variations
from rules.contract import (
    DrawRecord,
    EntrantState,
    EventState,
    Finished,
    GameEnding,
    GameState,
    MatchState,
    NeedsDecision,
    Participant,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.woc.engine import WocEngine
from rules.formats.woc.finals import score_final_match
from rules.variations import Variations

COUNTRIES = ("JPN", "FRA", "USA", "GBR", "NED", "THA", "CHN", "ITA", "GER", "AUS", "BEL")


def field(size: int, rng: random.Random, *, group_a: int = 4) -> tuple[EntrantState, ...]:
    """``size`` entrants with countries and ``group_a`` former semi-finalists."""
    chosen = set(rng.sample(range(size), min(group_a, size)))
    return tuple(
        EntrantState(
            id=f"p{index + 1}",
            name=f"Player {index + 1:04d}",
            country=rng.choice(COUNTRIES),
            flags={"group_a": True} if index in chosen else {},
        )
        for index in range(size)
    )


def late_entrant(number: int, rng: random.Random) -> EntrantState:
    return EntrantState(id=f"p{number}", name=f"Player {number:04d}", country=rng.choice(COUNTRIES))


def random_game(rng: random.Random, vary: Variations = variations.NONE) -> GameState:
    """A legal game record: mostly normal endings, some resignations and time defaults; with
    ``vary``, more time defaults (IV.6, with or without a second flag) and 32-32 draws."""
    if vary.draws and rng.random() < vary.draws:
        return GameState(1, (32, 32))
    if vary.defaults and rng.random() < vary.defaults:
        total = rng.randint(20, 64)
        black = rng.randint(0, total)
        details: dict[str, Any] = {"defaulter": rng.randint(0, 1)}
        if rng.random() < 0.3:
            details["second_flag"] = rng.choice(("defaulter", "non_defaulter"))
        return GameState(1, (black, total - black), ending=GameEnding.TIME_DEFAULT, details=details)
    roll = rng.random()
    if roll < 0.05:
        return GameState(
            1, (None, None), ending=GameEnding.RESIGNATION, details={"defaulter": rng.randint(0, 1)}
        )
    total = rng.randint(20, 64)
    black = rng.randint(0, total)
    if roll < 0.1:
        return GameState(
            1,
            (black, total - black),
            ending=GameEnding.TIME_DEFAULT,
            details={"defaulter": rng.randint(0, 1)},
        )
    return GameState(1, (black, total - black))


def play(
    entrants: Sequence[EntrantState],
    rng: random.Random,
    settings: Mapping[str, Any] | None = None,
    *,
    engine: WocEngine | None = None,
    limit: int = 60,
    finals: bool = False,
    vary: Variations = variations.NONE,
) -> EventState:
    """Pair and play rounds until the engine says the event is finished. Without ``finals``
    the event is set to stop after the qualifying rounds (setting ``final_stages``).

    ``vary``: late entries (registered before round 1: the field and system are fixed then,
    II.2), withdrawals after a qualifying round (II.7: never to return, never to qualify),
    time defaults and draws, and director overrides in the qualifying rounds (two players
    swapped between Swiss pairings; a colour change in a round robin, whose Berger pairings
    stay)."""
    engine = engine or WocEngine()
    seed = str(rng.getrandbits(64))
    chosen = dict(settings or {})
    if not finals:
        chosen.setdefault("final_stages", False)
    people = variations.late_entrants(
        tuple(entrants), vary.late_entries, lambda n: late_entrant(n, rng)
    )
    state = EventState("woc", chosen, people)
    for _ in range(limit):
        source = DrawSource(seed, state.draws)
        outcome = engine.next_round(state, source)
        if isinstance(outcome, Finished):
            return state
        if isinstance(outcome, NeedsDecision) and outcome.code == "woc.lot":
            lot = DrawRecord(outcome.key, source.shuffle(outcome.key, list(outcome.options)))
            state = EventState(
                state.format, state.settings, state.entrants, state.rounds, (*state.draws, lot)
            )
            continue
        if isinstance(outcome, NeedsDecision):
            raise RuntimeError(outcome.text)
        planned = outcome.matches
        qualifying = outcome.stage in ("swiss", "round_robin")
        if qualifying:
            # round 1 pairs group A against group B table by table: a colour change only
            swap = outcome.stage == "swiss" and outcome.number > 1
            planned = variations.override(planned, rng, vary.overrides, swap=swap)
        matches = tuple(
            MatchState(
                code=m.code,
                round_number=outcome.number,
                participants=m.participants,
                games=() if m.is_bye else _games(m.details, rng, vary),
                table=m.table,
                details=_choice(m.details, rng),
            )
            for m in planned
        )
        played = RoundState(
            outcome.number,
            outcome.label,
            RoundStatus.COMPLETED,
            matches,
            stage=outcome.stage,
            details=outcome.details,
        )
        state = EventState(
            state.format,
            state.settings,
            state.entrants,
            (*state.rounds, played),
            (*state.draws, *source.new),
        )
        if qualifying:
            state = variations.withdraw(
                state, rng, vary.withdrawals, outcome.number, keep=6, limit=1
            )
    raise RuntimeError(f"the event did not finish within {limit} rounds")


def _choice(details: Mapping[str, Any], rng: random.Random) -> Mapping[str, Any]:
    if details.get("best_of") == 1:
        return {**details, "choice": rng.choice(("colour", "draw_win"))}
    return details


def _games(
    details: Mapping[str, Any], rng: random.Random, vary: Variations = variations.NONE
) -> tuple[GameState, ...]:
    """One game in a qualifying round; after the Swiss, games with ``first`` (the seat with
    Black): one for a single game, two or three for a best of three (III.1)."""
    kind = details.get("kind")
    if kind is None:
        return (random_game(rng, vary),)
    black = rng.randint(0, 1)
    games = []
    for number in range(1, details.get("best_of", 1) + 1):
        game = random_game(rng)
        scores = game.scores if black == 0 else (game.scores[1], game.scores[0])
        games.append(
            GameState(number, scores, first=black, ending=game.ending, details=game.details)
        )
        probe = MatchState(
            "probe",
            0,
            (Participant("a"), Participant("b")),
            tuple(games),
            details={**details, "choice": "colour"},
        )
        result = score_final_match(probe)
        if result.complete or number == 3:
            break
        black = 1 - black if number == 1 else rng.randint(0, 1)
    return tuple(games)


def play_event(count: int, rng: random.Random, vary: Variations = variations.NONE) -> EventState:
    """A whole event of ``count`` entrants, from ``rng`` alone: the entry point the registry
    finds (rules/registry.py) for ``simulate_event`` and the simulated demos."""
    return play(field(count, rng), rng, finals=True, vary=vary)
