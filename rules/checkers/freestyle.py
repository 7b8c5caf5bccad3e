"""Checker for the Freestyle tournament (freestyle.txt; decisions in docs/formats/freestyle.md).

Verifies: the Round 1 rating order and group snake ("1, 8, 9, 16 ..."), the group seeds, that
every group is a complete round robin with one game per pair, the Round 1 A/B parity rule,
the higher seed in seat 0 from Round 2 on, the digit rules of the Round 2 and Round 3
groupings, that each later group draws its players from the groupings' source groups
(one per Round 1 group in Round 2; two #1s and two #2s from different groups in Round 3),
no Round 2 pair meeting again in Round 3, the semi-finals (a #1 of one group against the #2
of the other), and tie games replayed in the last two rounds.

Group places are checked as far as the first step of the ranking (number of wins): the
later steps need the earlier rounds and a tiebreaker game, and are not replayed here.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

from rules.checkers.common import Report, ids, pair_key, played_rounds
from rules.contract import EventState, RoundState, Standings

SNAKE = "Round 1: listed in descending order of points, then assigned to groups as shown (snake)"
GROUP_SEEDS = "Players in each group are seeded by their Ranking Points, 1 - N"
EVERYONE = "In each round, play is by Group, with each player playing against everyone else"
PARITY = "If the sum of the two seeds is even the higher seeded player is A; if odd, the lower"
CHOOSER = "After the first round: the higher seeded player has the choice of being A or B"
DIGIT2 = "For Round 2, the function is used repeatedly until a number in the range 1-6 comes up"
DIGIT3 = "For Round 3: 1, 4, 7: grouping #1. 2, 5, 8: #2. 3, 6, 9: #3. 0: try again."
ROUND2 = "Each Round 2 group has a #1, #2, #3, #4 from different Round 1 Groups"
ROUND3 = "Round 3 groups are made up of two #1's and two #2's, all from different Round 2 Groups"
NO_REPEAT = "No matches are repeated from Round 2 to Round 3"
SEMIS = "Each semi-final has a #1 from one group and the #2 from the other group"
REPLAY = "If a semi-final or final game is a tie game, it is replayed"
WINS = "Rankings: 1. Number of wins (tie games count as half-wins)"


def snake(index: int) -> int:
    block, position = divmod(index, 4)
    return position if block % 2 == 0 else 3 - position


def _first_valid(digits: list[int], valid: dict[int, int]) -> int | None:
    for digit in digits:
        if digit in valid:
            return valid[digit]
    return None


def check(state: EventState, standings: Standings | None = None) -> Report:
    report = Report()
    rounds = played_rounds(state)
    entrants = state.entrants_by_id
    places: dict[int, dict[str, list[str]]] = {}
    pairs_by_round: dict[int, set[tuple[str, str]]] = {}
    for rnd in rounds:
        report.rounds += 1
        present = [
            e for g in rnd.groups for e in g.entrants if entrants[e].active_in_round(rnd.number)
        ]
        if rnd.number == 1:
            _check_round_one(state, report, rnd)
        elif rnd.number in (2, 3):
            _check_grouping(state, report, rnd, places)
        elif rnd.number == 4:
            _check_semis(report, rnd, places)
        if rnd.groups:
            places[rnd.number] = _check_groups(report, rnd, set(present))
        pairs_by_round[rnd.number] = {pair_key(*ids(m)) for m in rnd.matches if len(ids(m)) == 2}
        if rnd.number == 3:
            for pair in sorted(pairs_by_round[3] & pairs_by_round.get(2, set())):
                report.add(
                    NO_REPEAT,
                    f"{pair[0]} and {pair[1]} met in Round 2 and again in Round 3.",
                    round=3,
                    entrant=pair[0],
                )
        for match in rnd.matches:
            report.pairings += 1
            if rnd.number >= 4 and match.games:
                report.scores += 1
                *earlier, last = match.games
                if any(g.scores[0] != g.scores[1] for g in earlier) or (
                    last.scores[0] == last.scores[1]
                ):
                    report.add(
                        REPLAY,
                        f"{match.code}: every game but the last must be a tie "
                        "and the last decisive.",
                        round=rnd.number,
                        match=match.code,
                    )
    return report


def _check_round_one(state: EventState, report: Report, rnd: RoundState) -> None:
    order = [str(e) for e in rnd.details.get("rating_order", [])]
    ratings = {e.id: e.rating or 0 for e in state.entrants}
    for above, below in itertools.pairwise(order):
        if ratings[below] > ratings[above]:
            report.add(
                SNAKE,
                f"{below} (rating {ratings[below]}) is listed below {above} "
                f"(rating {ratings[above]}).",
                round=1,
                entrant=below,
            )
    groups = {g.key: list(g.entrants) for g in rnd.groups}
    keys = [g.key for g in rnd.groups]
    for index, entrant in enumerate(order):
        key = keys[snake(index)] if len(keys) == 4 else None
        if key is not None and entrant not in groups[key]:
            report.add(
                SNAKE,
                f"{entrant}, number {index + 1} of the rating list, belongs in group {key}.",
                round=1,
                entrant=entrant,
                expected=key,
            )
    for key, members in groups.items():
        if members != [e for e in order if e in members]:
            report.add(
                GROUP_SEEDS,
                f"Group {key} is not seeded in rating order.",
                round=1,
                expected=[e for e in order if e in members],
                recorded=members,
            )
    for match in rnd.matches:
        if len(match.participants) != 2:
            continue
        raw = [p.details.get("group_seed") for p in match.participants]
        if raw[0] is None or raw[1] is None:
            continue
        a, b = int(raw[0]), int(raw[1])
        want_a = min(a, b) if (a + b) % 2 == 0 else max(a, b)
        roles = {p.role: int(p.details["group_seed"]) for p in match.participants}
        if roles.get("A") != want_a:
            report.add(
                PARITY,
                f"{match.code}: seeds {a} and {b} make seed {want_a} A.",
                round=1,
                match=match.code,
            )


def _check_groups(report: Report, rnd: RoundState, present: set[str]) -> dict[str, list[str]]:
    """Each group a complete round robin; returns each group's players by wins (best first)."""
    wins: dict[str, Fraction] = defaultdict(Fraction)
    result: dict[str, list[str]] = {}
    for group in rnd.groups:
        members = [e for e in group.entrants if e in present]
        matches = [m for m in rnd.matches if m.group == group.key]
        found = [pair_key(*ids(m)) for m in matches if len(ids(m)) == 2]
        wanted = {pair_key(a, b) for a, b in itertools.combinations(members, 2)}
        for pair in sorted(wanted - set(found)):
            report.add(
                EVERYONE,
                f"{pair[0]} and {pair[1]} do not meet in group {group.key}.",
                round=rnd.number,
                entrant=pair[0],
            )
        for pair in sorted({p for p in found if found.count(p) > 1 or p not in wanted}):
            report.add(
                EVERYONE,
                f"{pair[0]} and {pair[1]} meet twice, or are not both in group {group.key}.",
                round=rnd.number,
                entrant=pair[0],
            )
        for match in matches:
            people = ids(match)
            if rnd.number > 1 and len(people) == 2:
                seeds = [p.details.get("group_seed") for p in match.participants]
                if seeds[0] is not None and seeds[1] is not None and int(seeds[0]) > int(seeds[1]):
                    report.add(
                        CHOOSER,
                        f"{match.code}: the higher seed sits second.",
                        round=rnd.number,
                        match=match.code,
                    )
            if len(people) != 2 or not match.games:
                continue
            a, b = match.games[-1].scores
            if a is None or b is None:
                continue
            wins[people[0]] += 1 if a > b else Fraction(1, 2) if a == b else 0
            wins[people[1]] += 1 if b > a else Fraction(1, 2) if a == b else 0
        result[group.key] = sorted(members, key=lambda e: -wins[e])
    return result


def _check_grouping(
    state: EventState, report: Report, rnd: RoundState, places: dict[int, dict[str, list[str]]]
) -> None:
    before = places.get(rnd.number - 1, {})
    digits = [int(d) for d in rnd.details.get("digits", [])]
    if rnd.number == 2:
        chosen = _first_valid(digits, {d: d for d in range(1, 7)})
        rule = DIGIT2
    else:
        chosen = _first_valid(digits, {d: (d - 1) % 3 + 1 for d in range(1, 10)})
        rule = DIGIT3
    grouping = rnd.details.get("grouping")
    if digits and grouping is not None and chosen != int(grouping):
        report.add(
            rule,
            f"The digits {digits} choose grouping {chosen}; the record uses {grouping}.",
            round=rnd.number,
            digits=digits,
            grouping=grouping,
        )
    source = {e: key for key, members in before.items() for e in members}
    for group in rnd.groups:
        origins = [source.get(e) for e in group.entrants]
        if len(set(origins)) != len(origins):
            report.add(
                ROUND2 if rnd.number == 2 else ROUND3,
                f"Group {group.key} takes two players from the same earlier group.",
                round=rnd.number,
                group=group.key,
                origins=origins,
            )


def _check_semis(report: Report, rnd: RoundState, places: dict[int, dict[str, list[str]]]) -> None:
    groups = places.get(3, {})
    origin = {e: key for key, members in groups.items() for e in members}
    for match in rnd.matches:
        people = ids(match)
        if len(people) == 2 and origin.get(people[0]) == origin.get(people[1]):
            report.add(
                SEMIS,
                f"{match.code} pairs two players of Round 3 group {origin.get(people[0])}.",
                round=rnd.number,
                match=match.code,
            )
