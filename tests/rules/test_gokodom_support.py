"""Builders shared by the GokoDom tests (no tests here)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from rules.contract import (
    EntrantState,
    EventState,
    GameState,
    MatchState,
    Participant,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.gokodom import ENGINE
from rules.formats.gokodom.results import SEAT_PATTERN

SEED = "gokodom-tests"


def entrant(entrant_id: str, colour: str = "red", **flags: Any) -> EntrantState:
    return EntrantState(id=entrant_id, name=entrant_id.upper(), flags={"colour": colour, **flags})


def field(count: int) -> tuple[EntrantState, ...]:
    """Players p1..pN, alternately Red and Blue."""
    return tuple(entrant(f"p{i}", "red" if i % 2 else "blue") for i in range(1, count + 1))


def games(spec: str, first: int | None = 0) -> tuple[GameState, ...]:
    """Games from seat 0's view: '1' win, '0' loss, '=' draw; seats A-B-B-A-A-B."""
    out = []
    for index, char in enumerate(spec):
        scores = {"1": (1, 0), "0": (0, 1), "=": (0.5, 0.5)}[char]
        seat = None
        if first is not None:
            seat = first if SEAT_PATTERN[index] == "A" else 1 - first
        out.append(GameState(index + 1, scores, first=seat))
    return tuple(out)


def match(
    code: str,
    number: int,
    *players: str,
    spec: str = "",
    **details: Any,
) -> MatchState:
    return MatchState(
        code,
        number,
        tuple(Participant(p) for p in players),
        games=games(spec) if spec else (),
        details=details,
    )


def swiss_round(
    number: int,
    matches: Sequence[MatchState],
    status: RoundStatus = RoundStatus.COMPLETED,
    **details: Any,
) -> RoundState:
    return RoundState(number, f"Round {number}", status, tuple(matches), "swiss", details=details)


def state(
    entrants: Sequence[EntrantState],
    rounds: Sequence[RoundState] = (),
    settings: Mapping[str, Any] | None = None,
    draws: Sequence[Any] = (),
) -> EventState:
    return EventState("gokodom", dict(settings or {}), tuple(entrants), tuple(rounds), tuple(draws))


def plan(event: EventState, seed: str = SEED) -> Any:
    """The next round, with the draws made for it (the source's new draws) as plan.draws,
    the way the service layer stores them."""
    source = DrawSource(seed, event.draws)
    outcome = ENGINE.next_round(event, source)
    if isinstance(outcome, RoundPlan):
        known = {d.key for d in event.draws}
        made = tuple(d for d in source.new if d.key not in known)
        outcome = dataclasses.replace(outcome, draws=(*outcome.draws, *made))
    return outcome


def play(
    event: EventState,
    round_plan: RoundPlan,
    results: Mapping[str, str | Mapping[str, Any]] | None = None,
    default: str = "111",
) -> EventState:
    """Add ``round_plan`` as a completed round; each match plays ``default`` games (seat 0
    wins 3-0) unless ``results`` gives a games spec or a details mapping for its code."""
    results = results or {}
    matches = []
    for planned in round_plan.matches:
        given = results.get(planned.code, default)
        details = dict(planned.details)
        spec = ""
        if isinstance(given, str):
            spec = given if not planned.is_bye else ""
        else:
            details.update(given)
            spec = str(details.pop("spec", ""))
        first = details.get("first_seat", 0)
        matches.append(
            MatchState(
                planned.code,
                round_plan.number,
                planned.participants,
                games=games(spec, first) if spec else (),
                details=details,
            )
        )
    rnd = RoundState(
        round_plan.number,
        round_plan.label,
        RoundStatus.COMPLETED,
        tuple(matches),
        round_plan.stage,
        details=round_plan.details,
    )
    known = {d.key for d in event.draws}
    draws = tuple(d for d in round_plan.draws if d.key not in known)
    return dataclasses.replace(event, rounds=(*event.rounds, rnd), draws=(*event.draws, *draws))
