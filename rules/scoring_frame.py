"""What a format needs of an event to score one match, and nothing more.

Saving a result scores one match inside the match's row lock. Loading every game of a
1,000-entrant event for that took seconds (issue 24), so an engine says how little it reads:

- ``scores_match_alone``: the match, its round (number, status, stage, details) and the
  settings;
- ``scores_match_in_frame``: besides, every entrant, every round without its matches (status,
  stage, groups, details) and the recorded draws: the "frame" of the event.

An engine with neither is given the whole event. tests/rules/test_scoring_frame.py scores
every match of simulated events of every format both ways and requires the same score, so a
flag that claims too little fails there; the database side builds the same views
(tournaments/services/results.py) and is compared with these functions.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from rules.contract import EventState, MatchState, RoundState

View = Literal["alone", "frame", "event"]


def view_of(engine: object) -> View:
    """How much of the event ``engine.score_match`` reads."""
    if getattr(engine, "scores_match_alone", False):
        return "alone"
    if getattr(engine, "scores_match_in_frame", False):
        return "frame"
    return "event"


def match_alone(state: EventState, round_number: int, code: str) -> EventState:
    """The settings and the match's round holding that one match (its entrants only)."""
    rnd, match = _find(state, round_number, code)
    seated = {p.entrant for p in match.participants if p.entrant is not None}
    return EventState(
        format=state.format,
        settings=state.settings,
        entrants=tuple(e for e in state.entrants if e.id in seated),
        rounds=(dataclasses.replace(rnd, matches=(match,), groups=()),),
    )


def frame(state: EventState, round_number: int, code: str) -> EventState:
    """Every entrant, round and draw of the event; of the matches, only the one scored."""
    _rnd, match = _find(state, round_number, code)
    return dataclasses.replace(
        state,
        rounds=tuple(
            dataclasses.replace(r, matches=(match,) if r.number == round_number else ())
            for r in state.rounds
        ),
        absent=(),
    )


def _find(state: EventState, round_number: int, code: str) -> tuple[RoundState, MatchState]:
    for rnd in state.rounds:
        if rnd.number == round_number:
            for match in rnd.matches:
                if match.code == code:
                    return rnd, match
    raise KeyError(f"round {round_number}, match {code}")
