"""Check-in: entrants absent for the round being drafted (issue 21).

Before a round is drafted, the director (or, where the format lets players act, the player)
marks who cannot play it. The service passes them to the engine in ``EventState.absent``;
each engine's ``next_round`` leaves them out of that round as its format's rules say
(docs/formats/<key>.md, "Absence"), with a reason for each, and records them:

- round details ``"absent"``: the absent entrants the round accounts for (entrant ids);
- match details ``"absent"``: on a match kept in the round but not played because of an
  absence (a forfeit in a round robin, a walkover in a knockout), the absent entrant ids.
  ``score_match`` scores such a match without games; games entered later (the player came
  after all) take over.

So pages, checkers and replays read an absence from the record, never from the check-in
rows, which are only the input of the next draft.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from typing import Any

from rules.contract import (
    EngineError,
    EventState,
    MatchState,
    NextRound,
    PlannedMatch,
    Problem,
    Reason,
    RoundPlan,
    RoundState,
)

KEY = "absent"


def absent_now(state: EventState, number: int) -> list[str]:
    """The absent entrants still in the event for round ``number``, in registration order
    (an absence given for someone who has withdrawn changes nothing)."""
    wanted = set(state.absent)
    return [e.id for e in state.entrants if e.id in wanted and e.active_in_round(number)]


def recorded(details: Mapping[str, Any]) -> set[str]:
    """The entrant ids a round's or a match's details record as absent."""
    value = details.get(KEY)
    if not isinstance(value, list | tuple):
        return set()
    return {str(v) for v in value}


def in_round(rnd: RoundState) -> set[str]:
    return recorded(rnd.details)


def in_match(match: MatchState) -> set[str]:
    return recorded(match.details)


def unplayed(match: MatchState) -> bool:
    """A match kept in the round but not played because of an absence (no games entered)."""
    return bool(in_match(match)) and not match.games


def seats(match: MatchState) -> list[int]:
    """The seats of the absent entrants of a match."""
    gone = in_match(match)
    return [i for i, p in enumerate(match.participants) if p.entrant in gone]


def reason(name: str, outcome: Any, rule: str, entrant: str) -> Reason:
    """ "Ann is absent: <outcome>." with the rule or decision it applies; ``outcome`` is
    the format's message (rules.words.message) for what the absence does."""
    return Reason(
        "absent", rule=rule, params={"entrant": entrant, "name": name, "outcome": outcome}
    )


def refuse(state: EventState, absent: Collection[str], why: str) -> EngineError:
    """A format (or a stage of one) where an absence cannot be honoured: the director must
    mark the entrants present, or withdraw them."""
    names = ", ".join(state.entrant(e).name for e in absent)
    return EngineError(
        [
            Problem(
                "absent.refused",
                "absent",
                params={"absent": list(absent), "names": names, "why": why},
            )
        ]
    )


def mark_matches(state: EventState, outcome: NextRound, what: Any, rule: str) -> NextRound:
    """Keep every two-player match of an absent entrant in the plan, marked (match details
    ``"absent"``) with a reason each: a walkover in a knockout, scored by the format's
    ``score_match``. The plan's details record every absent entrant it marked."""
    if not isinstance(outcome, RoundPlan):
        return outcome
    gone = set(absent_now(state, outcome.number))
    if not gone:
        return outcome
    matches: list[PlannedMatch] = []
    marked: list[str] = []
    for match in outcome.matches:
        here = [p.entrant for p in match.participants if p.entrant in gone and p.entrant]
        if not here or len(match.participants) < 2:
            matches.append(match)
            continue
        marked += here
        why = tuple(reason(state.entrant(e).name, what, rule, e) for e in here)
        matches.append(
            dataclasses.replace(
                match, reasons=(*match.reasons, *why), details={**match.details, KEY: here}
            )
        )
    if not marked:
        return outcome
    return dataclasses.replace(
        outcome, matches=tuple(matches), details={**outcome.details, KEY: marked}
    )
