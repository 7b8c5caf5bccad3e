"""Checker for the Freestyle tournament (freestyle.txt; decisions in docs/formats/freestyle.md).

Verifies: the Round 1 rating order and group snake ("1, 8, 9, 16 ..."), the group seeds, that
every group is a complete round robin with one game per pair, the Round 1 A/B parity rule,
the higher seed in seat 0 from Round 2 on, the digit rules of the Round 2 and Round 3
groupings, that each later group draws its players from the groupings' source groups
(one per Round 1 group in Round 2; two #1s and two #2s from different groups in Round 3),
no Round 2 pair meeting again in Round 3, the semi-finals (a #1 of one group against the #2
of the other), and tie games replayed in the last two rounds.

The group ranking chain is replayed from the document ("Later Rounds": steps 1-4 in the
current round, then 6-8 for each earlier round, then a tie-breaker game; decisions 7-12):
every complete group table of the standings must list its players in that order, the Round 2
groups must hold the places the chosen grouping names (B1, Y2, ...; decision 15), the Round 3
groups the #1s and #2s of theirs, the semi-finals a #1 against the other group's #2, and
the final ranking the results of the final and the third-place game.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules import absence
from rules.checkers.common import Report, ids, pair_key, played_rounds
from rules.contract import EventState, GroupState, MatchState, RoundState, Standings

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
CHAIN = (
    "Later Rounds: the rankings are determined as follows, with the steps applied until each "
    "player has a unique ranking (1. wins, 2. head-to-head, 3. points difference, 4. among "
    "tied only, 6-8 prior rounds, 9. tie-breaker game)"
)
PLACES2 = "The possible groupings are: 1: (B1,Y2,R3,G4) . (B2,Y3,R4,G1) . (B3,Y4,R1,G2) ..."
PLACES3 = "Round 3 groups: 1: (T1, E1, B2, S2) & (B1, S1, T2, E2); 2: ...; 3: ..."
FINAL = "Finals: The winners of the two semi-finals play; the losing players play off for 3rd/4th"

# The document's tables, transcribed (Round 1 groups B, Y, R, G; decision 3).
GROUPINGS2 = {
    1: ("B1 Y2 R3 G4", "B2 Y3 R4 G1", "B3 Y4 R1 G2", "B4 Y1 R2 G3"),
    2: ("B1 Y2 R4 G3", "B2 Y4 R3 G1", "B3 Y1 R2 G4", "B4 Y3 R1 G2"),
    3: ("B1 Y3 R2 G4", "B2 Y4 R1 G3", "B3 Y1 R4 G2", "B4 Y2 R3 G1"),
    4: ("B1 Y3 R4 G2", "B2 Y1 R3 G4", "B3 Y4 R2 G1", "B4 Y2 R1 G3"),
    5: ("B1 Y4 R2 G3", "B2 Y3 R1 G4", "B3 Y2 R4 G1", "B4 Y1 R3 G2"),
    6: ("B1 Y4 R3 G2", "B2 Y1 R4 G3", "B3 Y2 R1 G4", "B4 Y3 R2 G1"),
}
# Round 2 groups T, E, B, S in the printed order of the chosen grouping (decision 16).
GROUPINGS3 = {
    1: ("T1 E1 B2 S2", "B1 S1 T2 E2"),
    2: ("T1 B1 E2 S2", "E1 S1 T2 B2"),
    3: ("T1 S1 B2 E2", "B1 E1 T2 S2"),
}
ROUND1_KEYS = ("B", "Y", "R", "G")
ROUND2_KEYS = ("T", "E", "B", "S")


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
                    code="freestyle.check.met_again",
                    round=3,
                    entrant=pair[0],
                    first=pair[0],
                    second=pair[1],
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
                        code="freestyle.check.replay",
                        round=rnd.number,
                        match=match.code,
                        match_code=match.code,
                    )
    check_chain(state, report, standings)
    return report


def _check_round_one(state: EventState, report: Report, rnd: RoundState) -> None:
    order = [str(e) for e in rnd.details.get("rating_order", [])]
    ratings = {e.id: e.rating or 0 for e in state.entrants}
    for above, below in itertools.pairwise(order):
        if ratings[below] > ratings[above]:
            report.add(
                SNAKE,
                code="freestyle.check.rating_order",
                round=1,
                entrant=below,
                below=below,
                below_rating=ratings[below],
                above=above,
                above_rating=ratings[above],
            )
    groups = {g.key: list(g.entrants) for g in rnd.groups}
    keys = [g.key for g in rnd.groups]
    for index, entrant in enumerate(order):
        key = keys[snake(index)] if len(keys) == 4 else None
        if key is not None and entrant not in groups[key]:
            report.add(
                SNAKE,
                code="freestyle.check.snake",
                round=1,
                entrant=entrant,
                expected=key,
                who=entrant,
                number=index + 1,
            )
    for key, members in groups.items():
        if members != [e for e in order if e in members]:
            report.add(
                GROUP_SEEDS,
                code="freestyle.check.group_seeds",
                round=1,
                group=key,
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
                code="freestyle.check.parity",
                round=1,
                match=match.code,
                match_code=match.code,
                a=a,
                b=b,
                seed=want_a,
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
                code="freestyle.check.no_meeting",
                round=rnd.number,
                entrant=pair[0],
                first=pair[0],
                second=pair[1],
                group=group.key,
            )
        for pair in sorted({p for p in found if found.count(p) > 1 or p not in wanted}):
            report.add(
                EVERYONE,
                code="freestyle.check.meet_twice",
                round=rnd.number,
                entrant=pair[0],
                first=pair[0],
                second=pair[1],
                group=group.key,
            )
        for match in matches:
            people = ids(match)
            if rnd.number > 1 and len(people) == 2:
                seeds = [p.details.get("group_seed") for p in match.participants]
                if seeds[0] is not None and seeds[1] is not None and int(seeds[0]) > int(seeds[1]):
                    report.add(
                        CHOOSER,
                        code="freestyle.check.chooser",
                        round=rnd.number,
                        match=match.code,
                        match_code=match.code,
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
            code="freestyle.check.grouping",
            round=rnd.number,
            digits=digits,
            grouping=grouping,
            chosen=chosen,
        )
    source = {e: key for key, members in before.items() for e in members}
    for group in rnd.groups:
        origins = [source.get(e) for e in group.entrants]
        if len(set(origins)) != len(origins):
            report.add(
                ROUND2 if rnd.number == 2 else ROUND3,
                code="freestyle.check.same_origin",
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
                code="freestyle.check.semi_same_group",
                round=rnd.number,
                match=match.code,
                match_code=match.code,
                group=origin.get(people[0]),
            )


# -- the ranking chain -------------------------------------------------------------------

Game = tuple[str, str, Fraction, Fraction]  # two players and their game points


def round_games(state: EventState, rnd: RoundState) -> list[Game]:
    """A group round's counted games: a player who withdrew during the round has his games
    void ("his games ... do not count")."""
    entrants = state.entrants_by_id
    games: list[Game] = []
    for match in rnd.matches:
        people = ids(match)
        if len(people) != 2 or not match.games:
            continue
        if not all(entrants[p].active_in_round(rnd.number) for p in people):
            continue
        a, b = match.games[-1].scores
        if a is None or b is None:
            continue
        games.append((people[0], people[1], Fraction(a), Fraction(b)))
    return games


def _tally(players: Sequence[str], games: Sequence[Game], among: bool) -> dict[str, Any]:
    """Wins and points difference per player (only games among ``players`` if ``among``);
    per game when the players played different numbers of games (decision 11)."""
    wins: dict[str, Fraction] = dict.fromkeys(players, Fraction(0))
    diff: dict[str, Fraction] = dict.fromkeys(players, Fraction(0))
    played: dict[str, int] = dict.fromkeys(players, 0)
    inside = set(players)
    for x, y, px, py in games:
        if among and not (x in inside and y in inside):
            continue
        for me, mine, theirs in ((x, px, py), (y, py, px)):
            if me not in inside:
                continue
            played[me] += 1
            wins[me] += 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
            diff[me] += mine - theirs
    if len(set(played.values())) > 1:
        return {
            "wins": {p: wins[p] / played[p] if played[p] else Fraction(0) for p in players},
            "diff": {p: diff[p] / played[p] if played[p] else Fraction(0) for p in players},
        }
    return {"wins": wins, "diff": diff}


def _met_all(players: Sequence[str], games: Sequence[Game]) -> bool:
    met = {pair_key(x, y) for x, y, _, _ in games}
    return all(pair_key(a, b) in met for a, b in itertools.combinations(players, 2))


def chain_steps(
    number: int, games_by_round: Mapping[int, Sequence[Game]], group_games: Sequence[Game]
) -> list[Callable[[Sequence[str]], dict[str, Fraction] | None]]:
    """The document's steps for a group of round ``number``, as functions of the tied set
    (None: the step does not apply to that set)."""

    def current(key: str, among: bool) -> Callable[[Sequence[str]], dict[str, Fraction]]:
        return lambda tied: _tally(tied, group_games, among)[key]

    steps: list[Callable[[Sequence[str]], dict[str, Fraction] | None]] = [
        current("wins", False),  # 1. number of wins
        current("wins", True),  # 2. head-to-head
        current("diff", False),  # 3. points difference within the whole group
        current("diff", True),  # 4. points difference among the tied only
    ]
    for earlier in range(number - 1, 0, -1):  # 5: the round before, then before that
        before = games_by_round.get(earlier, [])

        def head_to_head(
            tied: Sequence[str], before: Sequence[Game] = before
        ) -> dict[str, Fraction] | None:
            # decision 10: only when every pair of the tied met in that round
            if not _met_all(tied, before):
                return None
            result: dict[str, Fraction] = _tally(tied, before, True)["wins"]
            return result

        def record(
            key: str, before: Sequence[Game] = before
        ) -> Callable[[Sequence[str]], dict[str, Fraction]]:
            return lambda tied: _tally(tied, before, False)[key]

        steps += [head_to_head, record("wins"), record("diff")]  # 6, 7, 8
    return steps


def rank_group(
    players: Sequence[str],
    steps: Sequence[Callable[[Sequence[str]], dict[str, Fraction] | None]],
    tiebreak: Callable[[Sequence[str]], Any],
) -> list[list[str]]:
    """The group's order as tiers, best first; a tier of several players is a tie that
    nothing in the record breaks (no tie-breaker game recorded for it)."""
    if len(players) <= 1:
        return [list(players)]
    for step in steps:
        keys = step(players)
        if keys is None or len(set(keys.values())) == 1:
            continue
        # a step that splits the tied: each part still tied starts again (decision 8)
        tiers: list[list[str]] = []
        for value in sorted(set(keys.values()), reverse=True):
            part = [p for p in players if keys[p] == value]
            tiers += rank_group(part, steps, tiebreak)
        return tiers
    return _tiebreaker(list(players), tiebreak)


def _tiebreaker(players: list[str], tiebreak: Callable[[Sequence[str]], Any]) -> list[list[str]]:
    """9. a tie-breaker game: the recorded winner goes first and the others stay tied for the
    next game; a recorded full order settles everyone (decision 12)."""
    if len(players) <= 1:
        return [players] if players else []
    value = tiebreak(players)
    if isinstance(value, list | tuple) and sorted(map(str, value)) == sorted(players):
        return [[str(v)] for v in value]
    if isinstance(value, str) and value in players:
        rest = [p for p in players if p != value]
        return [[value], *_tiebreaker(rest, tiebreak)]
    return [sorted(players)]


def group_order(
    state: EventState,
    rnd: RoundState,
    group: GroupState,
    games_by_round: Mapping[int, Sequence[Game]],
) -> list[list[str]]:
    entrants = state.entrants_by_id
    members = [e for e in group.entrants if entrants[e].active_in_round(rnd.number)]
    inside = set(members)
    group_games = [g for g in games_by_round.get(rnd.number, []) if g[0] in inside]
    draws = {d.key: d.value for d in state.draws}
    prefix = f"round-{rnd.number}/group-{group.key}/tiebreaker/"

    def tiebreak(tied: Sequence[str]) -> Any:
        return draws.get(prefix + "+".join(sorted(tied)))

    return rank_group(members, chain_steps(rnd.number, games_by_round, group_games), tiebreak)


def _complete(rnd: RoundState, group: GroupState, state: EventState) -> bool:
    entrants = state.entrants_by_id
    return all(
        m.games
        for m in rnd.matches
        if m.group == group.key
        and len(ids(m)) == 2
        and all(entrants[p].active_in_round(rnd.number) for p in ids(m))
    )


def check_chain(state: EventState, report: Report, standings: Standings | None) -> None:
    """Replay the ranking of every complete group and hold the standings, the later
    groupings, the semi-finals and the final ranking to it."""
    rounds = played_rounds(state)
    entrants = state.entrants_by_id
    games_by_round = {r.number: round_games(state, r) for r in rounds if r.groups}
    places: dict[int, dict[str, list[str]]] = {}
    tables = {t.key: t for t in standings.tables} if standings is not None else {}
    for rnd in rounds:
        if not rnd.groups:
            continue
        places[rnd.number] = {}
        for group in rnd.groups:
            if not _complete(rnd, group, state):
                continue
            tiers = group_order(state, rnd, group, games_by_round)
            tier_of = {p: i for i, tier in enumerate(tiers) for p in tier}
            # withdrawn between rounds: the others move up one place (the advancing list)
            places[rnd.number][group.key] = [
                p for tier in tiers for p in tier if entrants[p].active_in_round(rnd.number + 1)
            ]
            table = tables.get(f"round-{rnd.number}/group-{group.key}")
            if table is None:
                continue
            rows = [r.entrant for r in table.rows if r.entrant in tier_of]
            report.rows += len(rows)
            for above, below in itertools.pairwise(rows):
                if tier_of[below] < tier_of[above]:
                    report.add(
                        CHAIN,
                        code="freestyle.check.chain",
                        round=rnd.number,
                        entrant=below,
                        number=rnd.number,
                        group=group.key,
                        below=below,
                        above=above,
                        expected=[list(t) for t in tiers],
                        recorded=rows,
                    )
                    break
        nxt = next((r for r in rounds if r.number == rnd.number + 1), None)
        if nxt is None:
            continue
        if rnd.number == 1:
            _hold_grouping(report, nxt, places[1], GROUPINGS2, ROUND1_KEYS, PLACES2, True)
        elif rnd.number == 2:
            _hold_grouping(report, nxt, places[2], GROUPINGS3, ROUND2_KEYS, PLACES3, False)
    if 3 in places:
        _hold_knockout(state, report, rounds, places[3], tables)


def _hold_grouping(
    report: Report,
    rnd: RoundState,
    before: Mapping[str, list[str]],
    table: Mapping[int, tuple[str, ...]],
    keys: tuple[str, ...],
    rule: str,
    seeded: bool,
) -> None:
    """The next round's groups hold the places the chosen grouping names; in Round 2 seeded
    by place (#1 first, decision 15), in Round 3 the #1s before the #2s (decision 17)."""
    try:
        chosen = table[int(rnd.details.get("grouping", 0))]
    except (KeyError, TypeError, ValueError):
        return
    if len(before) != len(keys) or len(rnd.groups) != len(chosen):
        return
    # Round 1 groups are B, Y, R, G; the Round 2 groups T, E, B, S are those of the printed
    # grouping in order (decision 16), and so are the record's keys
    if set(before) != set(keys):
        return
    for group, spec in zip(rnd.groups, chosen, strict=True):
        items = spec.split()
        if seeded:
            items.sort(key=lambda item: int(item[1:]))
        wanted: list[str] = []
        for item in items:
            members = before[item[0]]
            place = int(item[1:])
            if place > len(members):
                return  # a group too small to fill the grouping: not judged here
            wanted.append(members[place - 1])
        recorded = list(group.entrants)
        if seeded:
            ok = recorded == wanted
        else:
            ok = set(recorded) == set(wanted) and set(recorded[:2]) == set(wanted[:2])
        if not ok:
            report.add(
                rule,
                code="freestyle.check.group_holds",
                round=rnd.number,
                expected=wanted,
                recorded=recorded,
                group=group.key,
                number=rnd.number,
                wanted=", ".join(wanted),
                spec=spec,
                held=", ".join(recorded),
            )


def _hold_knockout(
    state: EventState,
    report: Report,
    rounds: Sequence[RoundState],
    groups: Mapping[str, list[str]],
    tables: Mapping[str, Any],
) -> None:
    """Semi-finals: each #1 against the other group's #2, the #1 as the higher seed (seat
    0); the final between the semi-final winners, third place between the losers; the final
    ranking from those two matches."""
    if len(groups) != 2 or any(len(m) < 2 for m in groups.values()):
        return
    (one, two) = [groups[key] for key in sorted(groups)]
    semis = next((r for r in rounds if r.number == 4), None)
    if semis is None:
        return
    wanted = {frozenset((one[0], two[1])): one[0], frozenset((two[0], one[1])): two[0]}
    winners: list[str] = []
    losers: list[str] = []
    for match in semis.matches:
        people = ids(match)
        if len(people) != 2:
            continue
        top = wanted.get(frozenset(people))
        if top is None or people[0] != top:
            report.add(
                SEMIS,
                code="freestyle.check.semis",
                round=4,
                match=match.code,
                match_code=match.code,
                players=" v ".join(people),
                first_one=one[0],
                second_two=two[1],
                second_one=two[0],
                first_two=one[1],
            )
        won = _knockout_winner(match)
        if won is not None:
            winners.append(people[won])
            losers.append(people[1 - won])
    final = next((r for r in rounds if r.number == 5), None)
    if final is None or len(winners) != 2:
        return
    results: dict[str, tuple[str, str]] = {}
    for match in final.matches:
        people = ids(match)
        want = winners if match.code == "F" else losers if match.code == "3P" else None
        if want is None or len(people) != 2:
            continue
        if set(people) != set(want):
            report.add(
                FINAL,
                code="freestyle.check.final_pair",
                round=5,
                match=match.code,
                match_code=match.code,
                first=want[0],
                second=want[1],
                recorded_first=people[0],
                recorded_second=people[1],
            )
        won = _knockout_winner(match)
        if won is not None:
            results[match.code] = (people[won], people[1 - won])
    table = tables.get("final")
    if table is None or "F" not in results:
        return
    order = [*results["F"], *results.get("3P", ())]
    shown = [r.entrant for r in table.rows][: len(order)]
    report.rows += len(shown)
    if shown != order:
        report.add(
            FINAL,
            code="freestyle.check.final_ranking",
            expected=order,
            recorded=shown,
            begins=", ".join(shown),
            given=", ".join(order),
        )


def _knockout_winner(match: MatchState) -> int | None:
    """The seat that won the deciding (last) game, None when nothing decided it; an absent
    player's match is won by the other without play (freestyle.md, Absence)."""
    if absence.unplayed(match):
        gone = absence.seats(match)
        return 1 - gone[0] if len(gone) == 1 else None
    if not match.games:
        return None
    a, b = match.games[-1].scores
    if a is None or b is None or a == b:
        return None
    return 0 if a > b else 1
