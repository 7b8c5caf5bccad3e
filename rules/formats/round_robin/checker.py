"""Checker for the plain round robin (docs/formats/round_robin.md; FIDE C.05 Annex 1).

Verifies: draw numbers (by seed, then rating, then name; or the recorded lot), every
round's pairings and seats against the Berger table (the shared primitive rules/berger.py,
itself checked against the printed tables), rounds off for odd fields and withdrawn
opponents, no pair meeting twice in one cycle, every match's game count and scores, and,
when standings are given, each row's points and tiebreak values and the order they imply.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from typing import Any

from rules import absence, berger
from rules.checkers.common import Report, ids, pair_key, played_rounds, same, setting
from rules.contract import EventState, GameEnding, Standings

BERGER = "Berger tables (FIDE C.05 Annex 1)"
ONCE = "Every entrant meets every other once per cycle"
NUMBERS = "Draw numbers: by seed, then rating (highest first), then name; or a recorded lot"
SCORES = "A game is two scores; the higher wins, equal is a draw"
STANDINGS = "Standings: points, then the tiebreaks in order; entrants equal on all share a rank"
ABSENT = (
    "round_robin.md, Absence: an absent player's game is a forfeit (or, by setting, not played)"
)


def check(state: EventState, standings: Standings | None = None) -> Report:
    report = Report()
    rounds = played_rounds(state)
    if not rounds:
        return report
    numbers = _draw_numbers(state, report)
    cycles = int(setting(state, "cycles", 1))
    roles = list(setting(state, "roles", ["white", "black"]))
    table = berger.schedule(len(numbers), cycles)
    entrants = state.entrants_by_id
    per_cycle = len(table) // cycles if cycles else len(table)
    met: dict[tuple[str, str], int] = defaultdict(int)
    for rnd in rounds:
        report.rounds += 1
        if rnd.number > len(table):
            report.add(
                BERGER,
                code="round_robin.check.beyond",
                round=rnd.number,
                number=rnd.number,
                rounds=len(table),
            )
            continue
        if per_cycle and (rnd.number - 1) % per_cycle == 0:
            met.clear()
        expected: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        for pairing in table[rnd.number - 1]:
            first = numbers[pairing.first - 1]
            second = numbers[pairing.second - 1] if pairing.second else None
            present = [
                e
                for e in (first, second)
                if e is not None and e in entrants and entrants[e].active_in_round(rnd.number)
            ]
            if second is not None and len(present) == 2:
                expected.append(((first, second), (roles[0], roles[1])))
            else:
                expected.extend(((e,), ("",)) for e in present)
        actual = [
            (
                tuple(ids(m)),
                tuple(p.role for p in m.participants) if len(m.participants) == 2 else ("",),
            )
            for m in rnd.matches
        ]
        for item in expected:
            if item in actual:
                actual.remove(item)
                continue
            where: dict[str, Any] = {
                "round": rnd.number,
                "entrant": item[0][0],
                "expected": list(item[0]),
                "number": rnd.number,
                "first": item[0][0],
            }
            if len(item[0]) == 2:
                report.add(
                    BERGER,
                    code="round_robin.check.berger_pair",
                    second=item[0][1],
                    role=item[1][0],
                    **where,
                )
            else:
                report.add(BERGER, code="round_robin.check.berger_off", **where)
        for item in actual:
            match = next(m for m in rnd.matches if tuple(ids(m)) == item[0])
            report.add(
                BERGER,
                code="round_robin.check.not_berger",
                round=rnd.number,
                match=match.code,
                participants=list(item[0]),
                match_code=match.code,
                players=" v ".join(item[0]),
                number=rnd.number,
            )
        for match in rnd.matches:
            report.pairings += 1
            players = ids(match)
            if len(players) == 2:
                key = pair_key(players[0], players[1])
                met[key] += 1
                if met[key] > 1:
                    report.add(
                        ONCE,
                        code="round_robin.check.meet_again",
                        round=rnd.number,
                        match=match.code,
                        first=players[0],
                        second=players[1],
                    )
            _check_games(state, report, rnd.number, match)
            gone = absence.in_match(match)
            if gone - set(players) or gone - absence.in_round(rnd):
                report.add(
                    ABSENT,
                    code="round_robin.check.absent",
                    round=rnd.number,
                    match=match.code,
                    match_code=match.code,
                    names=", ".join(sorted(gone)),
                )
    if standings is not None:
        _check_standings(state, report, standings, rounds)
    return report


def _draw_numbers(state: EventState, report: Report) -> list[str]:
    recorded = [str(e) for e in state.rounds[0].details.get("draw_numbers", [])]
    starters = [e for e in state.entrants if e.active_in_round(1)]
    if setting(state, "draw_numbers", "seed") == "lot":
        draw = state.draw("draw-numbers")
        wanted = [str(e) for e in draw.value] if draw is not None else recorded
    else:
        wanted = [
            e.id
            for e in sorted(
                starters,
                key=lambda e: (e.seed is None, e.seed or 0, -(e.rating or 0), e.name),
            )
        ]
    # a director's swap in round 1 exchanges two draw numbers for the whole table (decision
    # in docs/formats/round_robin.md); it is reported as the override it is
    for first, second in state.rounds[0].details.get("draw_numbers_swapped", []):
        wanted = [
            str(second) if e == str(first) else str(first) if e == str(second) else e
            for e in wanted
        ]
    if recorded and recorded != wanted:
        report.add(
            NUMBERS,
            code="round_robin.check.draw_numbers",
            round=1,
            recorded=recorded,
            expected=wanted,
        )
    return recorded or wanted


def _check_games(state: EventState, report: Report, number: int, match: Any) -> None:
    if match.is_bye or not match.games:
        return
    report.scores += 1
    games = int(setting(state, "games_per_match", 1))
    if len(match.games) != games:
        report.add(
            SCORES,
            code="round_robin.check.games",
            round=number,
            match=match.code,
            match_code=match.code,
            count=len(match.games),
            games=games,
        )
    for game in match.games:
        scores = game.scores
        if len(scores) != 2 or any(s is None or s < 0 for s in scores):
            report.add(
                SCORES,
                code="round_robin.check.scores",
                round=number,
                match=match.code,
                scores=list(scores),
                game=game.number,
                match_code=match.code,
            )
        elif game.ending is GameEnding.BYE:
            report.add(
                SCORES,
                code="round_robin.check.game_bye",
                round=number,
                match=match.code,
                game=game.number,
                match_code=match.code,
            )


class _Tally:
    def __init__(self) -> None:
        self.points: dict[str, Fraction] = defaultdict(Fraction)
        self.wins: dict[str, int] = defaultdict(int)
        self.diff: dict[str, Fraction] = defaultdict(Fraction)
        self.score_for: dict[str, Fraction] = defaultdict(Fraction)
        self.against: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
        self.results: dict[str, list[tuple[str, Fraction]]] = defaultdict(list)


def _tally(state: EventState, rounds: list[Any]) -> _Tally:
    value = {
        r: Fraction(setting(state, f"{r}_points", d)).limit_denominator(1000)
        for r, d in (("win", 1.0), ("draw", 0.5), ("loss", 0.0), ("bye", 0.0))
    }
    tally = _Tally()
    for rnd in rounds:
        for match in rnd.matches:
            players = ids(match)
            if match.is_bye and players:
                tally.points[players[0]] += value["bye"]
                continue
            if len(players) == 2 and absence.unplayed(match):
                _absent_points(state, match, players, value, tally)
                continue
            if len(players) != 2 or not match.games:
                continue
            a, b = players
            for game in match.games:
                sa, sb = game.scores
                if sa is None or sb is None:
                    continue
                for me, other, mine, theirs in ((a, b, sa, sb), (b, a, sb, sa)):
                    result = "win" if mine > theirs else "loss" if mine < theirs else "draw"
                    tally.points[me] += value[result]
                    tally.against[(me, other)] += value[result]
                    tally.wins[me] += result == "win"
                    tally.diff[me] += Fraction(mine) - Fraction(theirs)
                    tally.score_for[me] += Fraction(mine)
                    share = {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}
                    tally.results[me].append((other, share[result]))
    return tally


def _absent_points(
    state: EventState, match: Any, players: list[str], value: dict[str, Fraction], tally: _Tally
) -> None:
    """A game left unplayed by an absence scores its points (and head-to-head) only."""
    gone = absence.in_match(match)
    games = int(setting(state, "games_per_match", 1))
    forfeit = setting(state, "absent_result", "forfeit") != "bye"
    for me, other in ((players[0], players[1]), (players[1], players[0])):
        if forfeit:
            points = games * value["loss" if me in gone else "win"]
        else:
            points = Fraction(0) if me in gone else value["bye"]
        tally.points[me] += points
        tally.against[(me, other)] += points


def _check_standings(
    state: EventState, report: Report, standings: Standings, rounds: list[Any]
) -> None:
    tally = _tally(state, rounds)
    table = standings.tables[0]
    keys = [
        "points",
        *setting(
            state, "tiebreaks", ["head_to_head", "sonneborn_berger", "wins", "score_difference"]
        ),
    ]
    everyone = [row.entrant for row in table.rows]

    def value(key: str, entrant: str, among: list[str]) -> Fraction:
        if key == "points":
            return tally.points[entrant]
        if key == "head_to_head":
            return sum((tally.against[(entrant, o)] for o in among if o != entrant), Fraction())
        if key == "sonneborn_berger":
            return sum((tally.points[o] * r for o, r in tally.results[entrant]), Fraction())
        if key == "wins":
            return Fraction(tally.wins[entrant])
        if key == "score_difference":
            return tally.diff[entrant]
        return tally.score_for[entrant]

    # each value is taken among those equal on every earlier key, as the chain applies it
    full: dict[str, tuple[Fraction, ...]] = {}
    for entrant in everyone:
        values: list[Fraction] = []
        for index, key in enumerate(keys):
            among = [
                o
                for o in everyone
                if all(
                    value(k, o, everyone) == value(k, entrant, everyone)
                    for k in keys[:index]
                    if k != "head_to_head"
                )
            ]
            values.append(value(key, entrant, among))
        full[entrant] = tuple(values)
    for row in table.rows:
        report.rows += 1
        for index, key in enumerate(keys):
            shown = row.values.get(key)
            if shown is None and key == "head_to_head":
                continue
            if not same(shown, full[row.entrant][index]):
                report.add(
                    STANDINGS,
                    code="round_robin.check.value",
                    entrant=row.entrant,
                    column=key,
                    shown=shown,
                    expected=float(full[row.entrant][index]),
                    who=row.entrant,
                    value=f"{float(full[row.entrant][index]):g}",
                )
    for above, below in itertools.pairwise(table.rows):
        a, b = full[above.entrant], full[below.entrant]
        if b > a or (a == b) != (above.rank == below.rank):
            report.add(
                STANDINGS,
                code="round_robin.check.order",
                entrant=below.entrant,
                above=above.entrant,
                above_rank=above.rank,
                below=below.entrant,
                below_rank=below.rank,
            )
