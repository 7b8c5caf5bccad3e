"""Scoring one match: who wins, from the submissions the director entered.

Game details read: ``submissions`` - one entry per seat, each a list of
``{"time": seconds, "correct": bool}`` (see timing.py). Without it, the game's ``scores``
are taken as the official times already worked out (online: 22:00 for a wrong answer;
live: None for no correct answer). Match details read: ``judges_winner`` (a seat index):
"Judges' decisions are final."
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rules import absence
from rules.contract import EventState, MatchScore, MatchState, Number, Problem, Reason

from . import timing
from .schedule import MATCHES, ONLINE_TIME_LIMIT, ONLINE_WRONG_TIME, Stage
from .words import NO_SOLVE

BYE_RULE = "Eligibility"


def seeds_of(state: EventState) -> tuple[str | None, ...]:
    """The seed list recorded on round 1 (``details["seeds"]``); empty before round 1."""
    if not state.rounds:
        return ()
    raw = state.rounds[0].details.get("seeds", ())
    return tuple(None if s is None else str(s) for s in raw)


def seat_seeds(state: EventState, match: MatchState) -> tuple[int, ...] | None:
    seeds = seeds_of(state)
    found: list[int] = []
    for participant in match.participants:
        if participant.entrant is not None and participant.entrant in seeds:
            found.append(seeds.index(participant.entrant) + 1)
        elif isinstance(participant.details.get("seed"), int):
            found.append(participant.details["seed"])
        else:
            return None
    return tuple(found)


def absent(state: EventState, match: MatchState, seat: int) -> bool:
    """A virtual bye player, or a finalist who is no longer present ("they will be replaced
    with a virtual "bye" player")."""
    entrant = match.participants[seat].entrant
    if entrant is None:
        return True
    if entrant in absence.in_match(match) and not match.games:
        return True  # checked in as absent for this match (wpf_playoffs.md, Absence)
    known = state.entrants_by_id.get(entrant)
    return known is not None and not known.active_in_round(match.round_number)


def _refused(problem: Problem) -> MatchScore:
    return MatchScore(points=(0, 0), complete=False, problems=(problem,))


def _won(winner: int, reasons: Sequence[Reason], **details: object) -> MatchScore:
    points = (1, 0) if winner == 0 else (0, 1)
    times = details.get("official_times")
    summary = ""
    if isinstance(times, list):
        summary = " - ".join(NO_SOLVE if t is None else timing.clock(t) for t in times)
    return MatchScore(
        points=points,
        winner=winner,
        summary=summary or ("1-0" if winner == 0 else "0-1"),
        reasons=tuple(reasons),
        details=details,
    )


def score(state: EventState, match: MatchState, revealed: bool) -> MatchScore:
    spec = MATCHES.get(match.code)
    if spec is None:
        return _refused(Problem("wpf.code", "code", params={"match": match.code}))
    if len(match.participants) != 2:
        return _refused(Problem("wpf.players", "participants", params={"match": spec.code}))
    seeds = seat_seeds(state, match)
    if seeds is None:
        return _refused(Problem("wpf.seed_unknown", "participants", params={"match": spec.code}))
    pair = (seeds[0], seeds[1])
    better = 0 if pair[0] < pair[1] else 1
    public = spec.stage is Stage.LIVE or revealed
    common: dict[str, object] = {"seeds": list(pair), "stage": spec.stage.value, "public": public}
    gone = [absent(state, match, seat) for seat in (0, 1)]
    if any(gone):
        winner = better if all(gone) else gone.index(False)
        bye = (
            Reason("wpf.bye.both", rule=BYE_RULE) if all(gone) else Reason("wpf.bye", rule=BYE_RULE)
        )
        return _won(winner, [bye], **common)
    judged = match.details.get("judges_winner")
    if judged in (0, 1) and not isinstance(judged, bool):
        return _won(
            judged,
            [Reason("wpf.judges", rule="Grading (Live Stage Only)")],
            **common,
        )
    if not match.games:
        return MatchScore(points=(0, 0), complete=False, details=common)
    game = match.games[0]
    times, problems = _official_times(state, match, spec.stage)
    if problems:
        return MatchScore(points=(0, 0), complete=False, problems=tuple(problems), details=common)
    if spec.stage is Stage.ONLINE:
        a, b = times
        assert a is not None and b is not None
        verdict = timing.online_winner((a, b), pair)
    else:
        verdict = timing.live_winner((times[0], times[1]), pair)
    scored = _won(verdict.winner, [verdict.reason], official_times=list(times), **common)
    return MatchScore(
        points=scored.points,
        winner=scored.winner,
        summary=scored.summary,
        reasons=scored.reasons,
        game_scores=(tuple(times),) if game else (),
        details=scored.details,
    )


def _official_times(
    state: EventState, match: MatchState, stage: Stage
) -> tuple[list[Number | None], list[Problem]]:
    game = match.games[0]
    names = [
        state.entrants_by_id[p.entrant].name
        if p.entrant in state.entrants_by_id
        else str(p.entrant)
        for p in match.participants
    ]
    raw = game.details.get("submissions")
    times: list[Number | None] = []
    problems: list[Problem] = []
    if raw is None:
        if len(game.scores) != 2:
            return [], [Problem("wpf.scores", "games[0].scores")]
        for seat, value in enumerate(game.scores):
            place = f"games[0].scores[{seat}]"
            if value is not None and (isinstance(value, bool) or value < 0):
                problems.append(Problem("wpf.time", place, params={"name": names[seat]}))
            elif stage is Stage.ONLINE and (
                value is None or (value > ONLINE_TIME_LIMIT and value != ONLINE_WRONG_TIME)
            ):
                problems.append(Problem("wpf.online_time", place, params={"name": names[seat]}))
            times.append(value)
        return times, problems
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        return [], [Problem("wpf.submissions", "games[0].details.submissions")]
    for seat, entry in enumerate(raw):
        place = f"games[0].details.submissions[{seat}]"
        subs, found = timing.parse(entry, place, names[seat])
        problems.extend(found)
        if stage is Stage.ONLINE:
            time, found = timing.online_time(subs, place, names[seat])
            times.append(time)
        else:
            live, found = timing.live_time(subs, place, names[seat])
            times.append(live)
        problems.extend(found)
    return [_plain(t) for t in times], problems


def _plain(value: Number | None) -> Number | None:
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value
