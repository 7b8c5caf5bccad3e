"""Official times and match winners, online and live.

A submission is ``{"time": seconds, "correct": bool}``. Online, ``time`` is the time from
the password request to the submission and only the last submission counts; live, each
``time`` is the precision timer's reading for that attempt (the timer is reset after each
submission and restarts when the competitor lets go of it again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.contract import Number, Problem, Reason
from rules.words import message

from .schedule import LIVE_LIMIT, LIVE_PENALTY, ONLINE_TIME_LIMIT, ONLINE_WRONG_TIME

ONLINE_RULE = "Online Stage"
LIVE_RULE = "Grading (Live Stage Only)"
SEED_RULE = "Seed and Rank"


def clock(seconds: Number) -> str:
    """22:00, 9:58.4"""
    whole = int(seconds)
    rest = seconds - whole
    text = f"{whole // 60}:{whole % 60:02d}"
    if rest:
        text += f"{float(rest):.2f}".lstrip("0").rstrip("0")
    return text


@dataclass(frozen=True)
class Submission:
    time: Number
    correct: bool


def parse(raw: Any, place: str, who: str) -> tuple[list[Submission], list[Problem]]:
    """A seat's submissions from game details (a list of {"time", "correct"})."""
    if raw is None:
        return [], []
    items = raw if isinstance(raw, list | tuple) else [raw]
    found: list[Submission] = []
    for index, item in enumerate(items):
        time = item.get("time") if isinstance(item, Mapping) else None
        correct = item.get("correct") if isinstance(item, Mapping) else None
        if (
            not isinstance(time, int | float | Fraction)
            or isinstance(time, bool)
            or not isinstance(correct, bool)
            or time < 0
        ):
            return [], [Problem("wpf.submission", f"{place}[{index}]", params={"name": who})]
        found.append(Submission(time, correct))
    return found, []


def online_time(
    submissions: Sequence[Submission], place: str, who: str
) -> tuple[Number, list[Problem]]:
    """ "A player's official time for each puzzle is 22 minutes if their submission is
    incorrect. Otherwise, it is the time between the start of the password request and the
    time of submission." Only the last submission counts; none counts as incorrect."""
    for index, sub in enumerate(submissions):
        if sub.time > ONLINE_TIME_LIMIT:
            return ONLINE_WRONG_TIME, [
                Problem(
                    "wpf.online_late",
                    f"{place}[{index}].time",
                    params={"name": who, "time": clock(sub.time)},
                )
            ]
    if not submissions or not submissions[-1].correct:
        return ONLINE_WRONG_TIME, []
    return submissions[-1].time, []


def live_time(
    submissions: Sequence[Submission], place: str, who: str
) -> tuple[Number | None, list[Problem]]:
    """The official live time: the attempts' timer readings added up, plus "a one-minute
    penalty" for each incorrect answer; None when no answer was correct."""
    for index, sub in enumerate(submissions[:-1]):
        if sub.correct:
            return None, [
                Problem("wpf.after_correct", f"{place}[{index + 1}]", params={"name": who})
            ]
    if not submissions or not submissions[-1].correct:
        return None, []
    wrong = len(submissions) - 1
    total: Number = sum((s.time for s in submissions), Fraction(0)) + LIVE_PENALTY * wrong
    if isinstance(total, Fraction) and total.denominator == 1:
        total = total.numerator
    return total, []


@dataclass(frozen=True)
class Verdict:
    winner: int  # seat
    reason: Reason


def online_winner(times: tuple[Number, Number], seeds: tuple[int, int]) -> Verdict:
    """ "The player with the faster (smaller) official time will win the match." and "In
    the rare case of a tie, the player with the better seed wins.\""""
    a, b = times
    if a != b:
        seat = 0 if a < b else 1
        return Verdict(
            seat,
            Reason(
                "wpf.faster",
                rule=ONLINE_RULE,
                params={"time": clock(times[seat]), "other": clock(times[1 - seat])},
            ),
        )
    seat = 0 if seeds[0] < seeds[1] else 1
    return Verdict(
        seat,
        Reason("wpf.tie_seed", rule=SEED_RULE, params={"time": clock(a), "seed": seeds[seat]}),
    )


def live_winner(times: tuple[Number | None, Number | None], seeds: tuple[int, int]) -> Verdict:
    """ "the competitor with the worse seed (not rank) wins the match if they solve the
    puzzle in less than 10 minutes and they solve it faster than the other competitor (with
    the better seed). Otherwise, the competitor with the better seed wins the match.\""""
    better = 0 if seeds[0] < seeds[1] else 1
    worse = 1 - better
    mine, theirs = times[worse], times[better]
    if mine is not None and mine < LIVE_LIMIT and (theirs is None or mine < theirs):
        solved = {"seed": seeds[worse], "time": clock(mine)}
        if theirs is None:
            won = Reason("wpf.live_worse_seed.alone", rule=LIVE_RULE, params=solved)
        else:
            won = Reason(
                "wpf.live_worse_seed", rule=LIVE_RULE, params={**solved, "other": clock(theirs)}
            )
        return Verdict(worse, won)
    why: dict[str, Any]
    if mine is None:
        why = message("wpf.live_better_seed.no_solve")
    elif mine >= LIVE_LIMIT:
        why = message("wpf.live_better_seed.not_under", time=clock(mine))
    else:
        assert theirs is not None
        why = (
            message("wpf.live_better_seed.not_faster", time=clock(mine), other=clock(theirs))
            if mine != theirs
            else message("wpf.live_better_seed.equal", time=clock(mine))
        )
    return Verdict(
        better,
        Reason("wpf.live_better_seed", rule=LIVE_RULE, params={"seed": seeds[better], "why": why}),
    )
