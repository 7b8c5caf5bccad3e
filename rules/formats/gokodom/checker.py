"""Checker for GokoDom Season III (gokodom.txt; decisions in docs/formats/gokodom.md).

Verifies: the number of Swiss rounds (I.B), that every player still in sits once a round,
Byes by Request (I.E, II.B.8), at most one assigned bye (II.H), no rematch while a pairing
without one exists (II.F.1), the A-B-B-A-A-B seats and the match result of every match
(IV.A), each Swiss result code and its match points (II.B, II.C), the Swiss table's match
points, defaults, Solkoff (III.A.3 with the virtual opponents of II.I and V.A), cumulative
score and round codes, the order by points, fewest defaults, Solkoff, cumulative
(III.A 1-4), the top eight seeded into the bracket (III.B: 1-8, 4-5, 2-7, 3-6) and each
later elimination match between the winners of the matches that feed it.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction

import rustworkx

from rules import absence
from rules.checkers.common import (
    Report,
    check_once_per_round,
    ids,
    played_rounds,
    same,
    setting,
    who,
)
from rules.contract import EventState, MatchState, RoundState, RoundStatus, Standings

ROUNDS = "I.B For N players, ceil(log2(N)) rounds will be played"
BR = "I.E ... receive a Bye by Request. This privilege may not be used during the final Swiss round"
BYE = "II.H the last unpaired player on the list will receive a Bye in that round"
REMATCH = "II.F.1 Has not yet been played"
SEATS = "IV.A.1 A-B-B-A-A-B"
RESULT = "IV.A.4 A player wins the match if after 3 or 4 games, s/he has 3 game points"
POINTS = "II.C Results of W, WD, and WB are worth 2 match points ... D, DD, and BR 1"
ORDER = "III.A 1. Total match points 2. Fewest defaults 3. Solkoff 4. Cumulative score"
SOLKOFF = "III.A.3 Solkoff score, the sum of all opponents' total match points"
SEEDING = "III.B seeded into the elimination rounds by rank"
ONE_SEAT = "II.F each player will be paired (once a round)"
ABSENT = "gokodom.md, Absence: an absent player is not paired (a BR, else an L or an LD)"
PATTERN = "ABBAAB"
VALUE = {"W": 2, "WD": 2, "WB": 2, "D": 1, "DD": 1, "BR": 1, "L": 0, "LD": 0}
BRACKET = {"QF1": (1, 8), "QF2": (4, 5), "QF3": (2, 7), "QF4": (3, 6)}
FEEDS = {"SF1": ("QF1", "QF2"), "SF2": ("QF3", "QF4"), "F": ("SF1", "SF2")}


def decided(points: tuple[Fraction, Fraction], games: int) -> int | None:
    """IV.A.4: the seat that has won after ``games`` games, or None."""
    need = 3 if games <= 4 else Fraction(7, 2)
    for seat in (0, 1):
        if points[seat] >= need:
            return seat
    return None


def match_games(report: Report, rnd: RoundState, match: MatchState) -> int | None:
    """Check a played match's games; return the winning seat, -1 for a 3-3 tie."""
    first = match.games[0].first
    points = (Fraction(0), Fraction(0))
    for index, game in enumerate(match.games):
        if first is not None and game.first is not None:
            want = first if PATTERN[index] == "A" else 1 - first
            if game.first != want:
                report.add(
                    SEATS,
                    code="gokodom.check.seats",
                    round=rnd.number,
                    match=match.code,
                    game=game.number,
                    match_code=match.code,
                    want=want,
                    seat=game.first,
                )
        a, b = (Fraction(s) if s is not None else Fraction(0) for s in game.scores)
        if (a, b) not in ((1, 0), (0, 1), (Fraction(1, 2), Fraction(1, 2))):
            report.add(
                "IV.A.3 Winning a game awards 1 game point; drawing 0.5",
                code="gokodom.check.game_score",
                round=rnd.number,
                match=match.code,
                game=game.number,
                match_code=match.code,
                score=f"{a}-{b}",
            )
        points = (points[0] + a, points[1] + b)
        if decided(points, index + 1) is not None and index + 1 < len(match.games):
            report.add(
                RESULT,
                code="gokodom.check.decided",
                round=rnd.number,
                match=match.code,
                match_code=match.code,
                game=index + 1,
                more=len(match.games) - index - 1,
            )
            return decided(points, index + 1)
    winner = decided(points, len(match.games))
    if winner is None and not (len(match.games) == 6 and points[0] == points[1]):
        report.add(
            RESULT,
            code="gokodom.check.no_result",
            round=rnd.number,
            match=match.code,
            match_code=match.code,
            score=f"{points[0]}-{points[1]}",
            games=len(match.games),
        )
        return None
    return -1 if winner is None else winner


def _swiss_codes(report: Report, rnd: RoundState, match: MatchState) -> dict[str, str]:
    people = ids(match)
    if match.is_bye:
        return {people[0]: str(match.details.get("result", "WB"))} if people else {}
    if "results" in match.details:
        return {str(k): str(v) for k, v in match.details["results"].items()}
    if match.games:
        winner = match_games(report, rnd, match)
        if winner is None:
            return {}
        if winner == -1:
            return {p: "D" for p in people}
        return {p: "W" if seat == winner else "L" for seat, p in enumerate(people)}
    # II.A.6 "If the match was unplayed": a match is unplayed once its round is over or the
    # TO marks it so; until then it is still to be played, not two losses by default
    if rnd.status is not RoundStatus.COMPLETED and not match.details.get("unplayed"):
        return {}
    messages = set(match.details.get("messages", []))
    if len(messages & set(people)) == 2:
        return {p: "DD" for p in people}
    return {p: "WD" if p in messages else "LD" for p in people}


def _no_rematch_possible(players: Sequence[str], met: set[frozenset[str]]) -> bool:
    graph: rustworkx.PyGraph = rustworkx.PyGraph()
    graph.add_nodes_from(list(players))
    for i, j in itertools.combinations(range(len(players)), 2):
        if frozenset((players[i], players[j])) not in met:
            graph.add_edge(i, j, 1)
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return 2 * len(matching) == len(players)


def check(state: EventState, standings: Standings | None = None) -> Report:
    report = Report()
    rounds = played_rounds(state)
    swiss = [r for r in rounds if r.stage == "swiss"]
    if not swiss:
        return report
    entrants = state.entrants_by_id
    starters = [e.id for e in state.entrants if e.active_in_round(1)]
    total = int(setting(state, "swiss_rounds", 0)) or math.ceil(math.log2(max(2, len(starters))))
    if len(swiss) > total:
        report.add(
            ROUNDS,
            code="gokodom.check.rounds",
            rounds=len(swiss),
            expected=total,
            players=len(starters),
        )
    removed: set[str] = set()
    met: set[frozenset[str]] = set()
    codes: dict[str, dict[int, str]] = defaultdict(dict)
    handshake = bool(setting(state, "handshake_counts_as_met", True))
    for rnd in swiss:
        report.rounds += 1
        active = [
            e for e in starters if e not in removed and entrants[e].active_in_round(rnd.number)
        ]
        check_once_per_round(report, ONE_SEAT, rnd, active)
        asked = {e for e in active if rnd.number in entrants[e].flags.get("bye_requests", [])}
        last = rnd.number == total
        brs = {ids(m)[0] for m in rnd.matches if m.is_bye and m.details.get("result") == "BR"}
        wanted_br = set() if last else asked
        for entrant in sorted(brs ^ wanted_br):
            report.add(
                BR,
                code="gokodom.check.br.unasked" if entrant in brs else "gokodom.check.br.paired",
                round=rnd.number,
                entrant=entrant,
                player=entrant,
            )
        # an absent player without a Bye by Request sits out with an L or an LD
        # (gokodom.md, Absence): neither a bye nor a player to pair
        gone = absence.in_round(rnd)
        outs = [m for m in rnd.matches if m.is_bye and absence.in_match(m)]
        for match in outs:
            out = ids(match)[0] if ids(match) else ""
            if out not in gone or match.details.get("result") not in ("L", "LD", "BR"):
                report.add(
                    ABSENT,
                    code="gokodom.check.absent",
                    round=rnd.number,
                    match=match.code,
                    entrant=out,
                    match_code=match.code,
                    player=out,
                )
        unpaired = {ids(m)[0] for m in outs if ids(m)} - brs
        wbs = [
            m
            for m in rnd.matches
            if m.is_bye and m.details.get("result") != "BR" and not absence.in_match(m)
        ]
        to_pair = len(active) - len(brs) - len(unpaired)
        if len(wbs) != to_pair % 2:
            report.add(
                BYE,
                code="gokodom.check.byes",
                round=rnd.number,
                number=rnd.number,
                count=len(wbs),
                players=to_pair,
            )
        paired = [p for m in rnd.matches if not m.is_bye for p in ids(m)]
        rematches = [m for m in rnd.matches if not m.is_bye and frozenset(ids(m)) in met]
        if rematches and _no_rematch_possible(paired, met):
            report.add(
                REMATCH,
                code="gokodom.check.rematch",
                round=rnd.number,
                match=rematches[0].code,
                match_code=rematches[0].code,
                players=" and ".join(ids(rematches[0])),
            )
        for match in rnd.matches:
            report.pairings += 1
            result = _swiss_codes(report, rnd, match)
            report.scores += bool(result)
            for entrant, code in result.items():
                codes[entrant][rnd.number] = code
                if code == "LD":
                    removed.add(entrant)
            if not match.is_bye and (handshake or set(result.values()) != {"DD"}):
                met.add(frozenset(ids(match)))
    _check_swiss_table(report, state, standings, codes, swiss, solkoff_of(state))
    _check_knockout(report, rounds, swiss, codes)
    return report


def _solkoff(
    state: EventState,
    swiss: list[RoundState],
    codes: Mapping[str, Mapping[int, str]],
    opponents: Mapping[str, list[tuple[int, str | None]]],
) -> dict[str, int]:
    """Each player's Solkoff: the sum of the total match points of every opponent met, the
    virtual ones included (II.I, V.A): a bye's virtual opponent starts with the player's
    points before that round, loses an assigned bye or draws a requested one, then draws
    every later Swiss round; a player removed by an LD keeps the points he had before that
    round, loses it, then draws every later round; a withdrawn player the same from the
    round he left (decision 8). "Later rounds" are the Swiss rounds in the record (decision 7).
    """
    numbers = [r.number for r in swiss]
    entrants = state.entrants_by_id

    def through(entrant: str, last: int) -> int:
        return sum(VALUE.get(c, 0) for r, c in codes.get(entrant, {}).items() if r <= last)

    def later(number: int) -> int:
        return sum(1 for n in numbers if n > number)

    total: dict[str, int] = {}
    for entrant in {*codes, *opponents}:
        mine = codes.get(entrant, {})
        removed = min((r for r, c in mine.items() if c == "LD"), default=None)
        left = entrants[entrant].withdrawn_after_round if entrant in entrants else None
        if removed is not None and (left is None or removed <= left):
            total[entrant] = through(entrant, removed - 1) + later(removed)
        elif left is not None and left < max(numbers, default=0):
            total[entrant] = through(entrant, left) + later(left)
        else:
            total[entrant] = through(entrant, max(numbers, default=0))
    result: dict[str, int] = {}
    for entrant, met in opponents.items():
        value = 0
        for number, other in met:
            if other is None:  # the bye's virtual opponent
                bye = codes.get(entrant, {}).get(number, "WB")
                value += through(entrant, number - 1) + (1 if bye == "BR" else 0) + later(number)
            else:
                value += total.get(other, 0)
        result[entrant] = value
    return result


def _check_swiss_table(
    report: Report,
    state: EventState,
    standings: Standings | None,
    codes: dict[str, dict[int, str]],
    swiss: list[RoundState],
    solkoff: Mapping[str, int],
) -> None:
    if standings is None:
        return
    table = next((t for t in standings.tables if t.key == "swiss"), None)
    if table is None:
        return
    keys: dict[str, tuple[int, int, int, int]] = {}
    labels = {c.key: c.label for c in table.columns}
    for row in table.rows:
        report.rows += 1
        mine = codes.get(row.entrant, {})
        points = sum(VALUE.get(c, 0) for c in mine.values())
        defaults = sum(1 for c in mine.values() if c == "DD")
        cumulative = sum(
            sum(VALUE.get(mine.get(r.number, ""), 0) for r in swiss[: i + 1])
            for i in range(len(swiss))
        )
        keys[row.entrant] = (points, -defaults, solkoff.get(row.entrant, 0), cumulative)
        for column, value in (
            ("match_points", points),
            ("defaults", defaults),
            ("solkoff", solkoff.get(row.entrant, 0)),
            ("cumulative", cumulative),
        ):
            if not same(row.values.get(column), value):
                report.add(
                    SOLKOFF if column == "solkoff" else POINTS,
                    code="gokodom.check.column",
                    entrant=row.entrant,
                    column=column,
                    player=who(state, row.entrant),
                    label=labels.get(column, column),
                    shown=str(row.values.get(column)),
                    value=value,
                )
    # removed (LD) and withdrawn players sit below every player still in (decisions 8, 9)
    live = [r for r in table.rows if r.status not in ("removed", "withdrawn")]
    for above, below in itertools.pairwise(live):
        if keys[below.entrant] > keys[above.entrant]:
            report.add(
                ORDER,
                code="gokodom.check.order",
                entrant=below.entrant,
                below=who(state, below.entrant),
                above=who(state, above.entrant),
            )


def _check_knockout(
    report: Report,
    rounds: list[RoundState],
    swiss: list[RoundState],
    codes: dict[str, dict[int, str]],
) -> None:
    winners: dict[str, str | None] = {}
    for rnd in rounds:
        if rnd.stage != "knockout":
            continue
        report.rounds += 1
        seeds = [str(s) for s in rnd.details.get("seeds", [])]
        if seeds:
            points = [sum(VALUE.get(c, 0) for c in codes.get(s, {}).values()) for s in seeds]
            if points != sorted(points, reverse=True):
                report.add(
                    SEEDING,
                    code="gokodom.check.seeds",
                    round=rnd.number,
                    seeds=seeds,
                    points=points,
                )
        for match in rnd.matches:
            report.pairings += 1
            people = ids(match)
            if match.code in BRACKET and seeds:
                want = [seeds[s - 1] for s in BRACKET[match.code] if s <= len(seeds)]
                if sorted(people) != sorted(want):
                    report.add(
                        SEEDING,
                        code="gokodom.check.bracket",
                        round=rnd.number,
                        match=match.code,
                        expected=want,
                        recorded=people,
                        match_code=match.code,
                        seed=BRACKET[match.code][0],
                        against=BRACKET[match.code][1],
                        wanted=" v ".join(want),
                        found=" v ".join(people),
                    )
            if match.code in FEEDS:
                want = [w for w in (winners.get(c) for c in FEEDS[match.code]) if w]
                if sorted(people) != sorted(want):
                    report.add(
                        SEEDING,
                        code="gokodom.check.feeds",
                        round=rnd.number,
                        match=match.code,
                        match_code=match.code,
                        first=FEEDS[match.code][0],
                        second=FEEDS[match.code][1],
                        found=" v ".join(people),
                    )
            winners[match.code] = _advances(report, rnd, match)


def _advances(report: Report, rnd: RoundState, match: MatchState) -> str | None:
    people = ids(match)
    if "advances" in match.details:
        return str(match.details["advances"])
    if len(people) == 1:
        return people[0]
    if absence.unplayed(match):  # the absent player loses by default (gokodom.md, Absence)
        present = [p for p in people if p not in absence.in_match(match)]
        return present[0] if len(present) == 1 else None
    if not match.games:
        messages = [p for p in people if p in match.details.get("messages", [])]
        return messages[0] if len(messages) == 1 else None
    winner = match_games(report, rnd, match)
    return people[winner] if winner is not None and winner >= 0 else None


def solkoff_of(state: EventState) -> dict[str, int]:
    """Every player's Solkoff as the rule document gives it: opponents are the players met
    (a handshake counts when ``handshake_counts_as_met``, decision 2) and each bye's virtual
    opponent."""
    swiss = [r for r in played_rounds(state) if r.stage == "swiss"]
    handshake = bool(setting(state, "handshake_counts_as_met", True))
    report = Report()
    codes: dict[str, dict[int, str]] = defaultdict(dict)
    opponents: dict[str, list[tuple[int, str | None]]] = defaultdict(list)
    for rnd in swiss:
        for match in rnd.matches:
            result = _swiss_codes(report, rnd, match)
            for entrant, code in result.items():
                codes[entrant][rnd.number] = code
            people = ids(match)
            if match.is_bye and people and not absence.in_match(match):
                opponents[people[0]].append((rnd.number, None))
            elif result and (handshake or set(result.values()) != {"DD"}):
                # a match still to be played has met nobody yet
                for me in people:
                    opponents[me].extend((rnd.number, o) for o in people if o != me)
    return _solkoff(state, swiss, codes, opponents)
