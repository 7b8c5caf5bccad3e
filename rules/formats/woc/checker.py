"""Checker for the WOC qualifying rounds (woc.txt II.2, II.3.1, II.6, II.7, Appendix A).

Verifies the field and playing system by size, the number of rounds, that every player in
the event sits exactly once a round and nobody after withdrawing, the BYE (only for an odd
field, and rule (a) on byes), round robins against the Berger tables (Black = first seat),
Swiss round 1 (group A against group B, A alternately Black and White), the hard rule (a)
in later rounds and, on fields of at most 10, the round's rule-by-rule cost (b)-(g) against
an exhaustive search. With standings: points, disc count, BQ and their order.

Game scores (empties to the winner, resignations, time defaults, penalties) are taken from
the engine's ``score_match``: the disc adjustments of IV.6 and IV.8 are what it scores, and
this checker verifies what is built on them (points, BQ, order), not the adjustments.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rules import absence, berger, words
from rules.checkers.common import (
    Report,
    check_once_per_round,
    ids,
    num,
    played_rounds,
    same,
    setting,
)
from rules.contract import EventState, MatchState, Problem, RoundState, Standings
from rules.formats.woc import checker_swiss as sw

SYSTEM = "woc II.2 Playing System (a-d by number of players)"
SWISS_DAYS = "woc II.2 If a Swiss system is to be used, seven rounds ... and six on the second"
ROUND1 = "woc II.6.1 paired against each other, with the player from group A assigned black"
ALTERNATE = "woc II.6.1 the player from group A assigned alternately black and white"
RULE_A = "woc II.6.2(a) two players who have already played against each other cannot be paired"
WITHDRAW = "woc II.7 A player who has withdrawn will not be considered for the purposes of pairing"
BYE_RULE = 'woc II.7 a dummy player called "BYE" will be introduced into the pairing process'
ONE_SEAT = "Every player in the event plays once in each round (II.6, II.7)"
BERGER = "woc II.2 a-b round robin by the Berger tables (decision 8: first seat is Black)"
POINTS = "woc II.3.1 one point will be awarded for each win and half a point for each draw"
BQ = "woc Appendix A 3 The Brightwell Quotient (BQ)"
ORDER = "woc II.3.1 ties ... by descending BQ ... then disc-count ... then random means"
SCORE = "woc IV.6/IV.8 game score"


def expected_system(size: int) -> str:
    if size <= 8:
        return "double_round_robin"
    if size <= 14:
        return "round_robin"
    return "modified_swiss" if size <= 24 else "swiss"


def check(state: EventState, standings: Standings | None = None) -> Report:
    report = Report()
    # the qualifying rounds of the first two days; play-offs and finals are not checked yet
    rounds = [r for r in played_rounds(state) if r.stage in ("swiss", "round_robin", "")]
    if not rounds:
        return report
    details = rounds[0].details
    field = [str(e) for e in details.get("field", [])]
    _check_field(state, report, field)
    system = str(details.get("system", ""))
    if setting(state, "system", "auto") == "auto" and system != expected_system(len(field)):
        report.add(
            SYSTEM,
            code="woc.check.system",
            round=1,
            players=len(field),
            system=system,
            expected=expected_system(len(field)),
        )
    swiss = system in ("swiss", "modified_swiss")
    planned = int(setting(state, "rounds", 0)) or (
        13 if swiss else berger.rounds_needed(len(field), 2 if system.startswith("double") else 1)
    )
    if swiss and not int(setting(state, "rounds", 0)) and int(details.get("rounds", 13)) != 13:
        report.add(
            SWISS_DAYS,
            code="woc.check.swiss_rounds",
            round=1,
            planned=str(details.get("rounds")),
        )
    if len(rounds) > planned:
        report.add(
            SWISS_DAYS if swiss else SYSTEM,
            code="woc.check.too_many_rounds",
            rounds=len(rounds),
            planned=planned,
        )
    entrants = state.entrants_by_id
    engine = _engine()
    players = {e: sw.History(country=entrants[e].country) for e in field if e in entrants}
    bye_points = num(setting(state, "bye_points", 1.0))
    for rnd in rounds:
        report.rounds += 1
        # an entrant checked in as absent is not paired (woc.md, Absence: a round not played)
        gone = absence.in_round(rnd)
        present = [
            e
            for e in field
            if e in entrants and entrants[e].active_in_round(rnd.number) and e not in gone
        ]
        check_once_per_round(report, ONE_SEAT, rnd, present)
        if not swiss:  # the Berger table says who has a round off (odd field, withdrawals)
            _check_berger(report, rnd, details, system, present)
        elif rnd.number == 1:
            _check_byes(report, rnd, present)
            _check_round_one(state, report, rnd, present)
        else:
            _check_byes(report, rnd, present)
            _check_swiss(report, rnd, players, present, system == "modified_swiss")
        for match in rnd.matches:
            report.pairings += 1
            _record(state, report, engine, rnd, match, players, bye_points)
    if standings is not None:
        _check_standings(state, report, standings, rounds, field, players, engine)
    return report


def _engine() -> Any:
    from rules.formats.woc import ENGINE

    return ENGINE


def _check_field(state: EventState, report: Report, field: list[str]) -> None:
    present = [e for e in state.entrants if e.active_in_round(1)]
    extra = [e.id for e in present if e.flags.get("host_additional")]
    regular = [e.id for e in present if not e.flags.get("host_additional")]
    wanted = set(regular) | (set(extra) if len(regular) % 2 else set())
    if set(field) != wanted:
        report.add(
            "woc II.2 the host country may enter an additional player ... to prevent a bye",
            code="woc.check.field",
            round=1,
            missing=sorted(wanted - set(field)),
            extra=sorted(set(field) - wanted),
        )


def _check_byes(report: Report, rnd: RoundState, present: list[str]) -> None:
    byes = [m for m in rnd.matches if m.is_bye]
    allowed = len(present) % 2
    if len(byes) > allowed:
        report.add(
            BYE_RULE,
            code="woc.check.byes",
            round=rnd.number,
            match=byes[-1].code,
            byes=[m.code for m in byes],
            number=rnd.number,
            count=len(byes),
            players=len(present),
        )


def _check_berger(
    report: Report, rnd: RoundState, details: Any, system: str, present: list[str]
) -> None:
    numbers = [str(e) for e in details.get("draw_numbers", [])]
    table = berger.schedule(len(numbers), 2 if system == "double_round_robin" else 1)
    if not numbers or rnd.number > len(table):
        report.add(
            BERGER,
            code="woc.check.berger.no_round",
            round=rnd.number,
            number=rnd.number,
        )
        return
    wanted: set[tuple[str, ...]] = set()
    for pairing in table[rnd.number - 1]:
        black = numbers[pairing.first - 1]
        white = numbers[pairing.second - 1] if pairing.second else None
        here = [e for e in (black, white) if e is not None and e in present]
        wanted |= {tuple(here)} if white is not None and len(here) == 2 else {(e,) for e in here}
    actual = {
        tuple(ids(m))
        for m in rnd.matches
        if m.is_bye or [p.role for p in m.participants] == ["black", "white"]
    }
    for item in sorted(wanted ^ actual):
        report.add(
            BERGER,
            code="woc.check.berger.missing" if item in wanted else "woc.check.berger.extra",
            round=rnd.number,
            entrant=item[0],
            pairing=list(item),
            number=rnd.number,
            # a game as "Black (Black) v White", a round off as the player alone
            seats=(
                words.message("woc.check.berger.game", black=item[0], white=item[1])
                if len(item) == 2
                else " (Black) v ".join(item)
            ),
        )


def _check_round_one(state: EventState, report: Report, rnd: RoundState, field: list[str]) -> None:
    entrants = state.entrants_by_id
    group_a = {e for e in field if entrants[e].flags.get("group_a")}
    group_b = set(field) - group_a
    mixed = min(len(group_a), len(group_b))
    games = sorted((m for m in rnd.matches if not m.is_bye), key=lambda m: m.table or 0)
    count = 0
    for match in games:
        black, white = ids(match)
        if (black in group_a) == (white in group_a):
            continue
        a_black = black in group_a
        if a_black != (count % 2 == 0):
            report.add(
                ALTERNATE,
                code=(
                    "woc.check.alternate.black" if count % 2 == 0 else "woc.check.alternate.white"
                ),
                round=1,
                match=match.code,
                entrant=black if a_black else white,
                table=match.table,
                draw=count + 1,
            )
        count += 1
    if count != mixed:
        report.add(
            ROUND1,
            code="woc.check.round_one",
            round=1,
            expected=mixed,
            found=count,
        )


def _check_swiss(
    report: Report,
    rnd: RoundState,
    players: dict[str, sw.History],
    present: list[str],
    modified: bool,
) -> None:
    seated: list[tuple[str, str]] = []
    for match in rnd.matches:
        people = ids(match)
        if match.is_bye and people:
            seated.append((people[0], sw.BYE))
            if not sw.allowed(people[0], sw.BYE, players, modified):
                report.add(
                    RULE_A,
                    code="woc.check.bye_again",
                    round=rnd.number,
                    match=match.code,
                    entrant=people[0],
                    player=people[0],
                )
            continue
        if len(people) != 2 or any(p not in players for p in people):
            continue
        black, white = people
        seated.append((black, white))
        if not sw.allowed(black, white, players, modified):
            report.add(
                RULE_A,
                code="woc.check.met",
                round=rnd.number,
                match=match.code,
                entrant=black,
                opponent=white,
                player=black,
                times=players[black].met.get(white, 0),
            )
    if not 2 <= len(present) <= sw.EXHAUSTIVE_LIMIT or len(seated) * 2 < len(present):
        return
    actual = sw.total([sw.pair_cost(b, w, players, modified) for b, w in seated])
    best = sw.optimum(present, players, modified)
    if best is None or actual <= best[0]:
        return
    first = next(i for i in range(len(sw.RULES)) if actual[i] != best[0][i])
    rule = sw.RULES[first]
    report.add(
        sw.RULE_NAMES[rule],
        code="woc.check.better_pairing",
        round=rnd.number,
        rule_costs=dict(zip(sw.RULES, actual, strict=True)),
        best_costs=dict(zip(sw.RULES, best[0], strict=True)),
        best=best[1],
        number=rnd.number,
        letter=rule,
        best_cost=best[0][first],
        cost=actual[first],
    )


def _problems(problems: Sequence[Problem]) -> Any:
    """The engine's problems with a game's score, each said by its own code, joined by
    semicolons as one nested message."""
    said: list[Any] = [
        {"code": p.code, "params": dict(p.params)} if _says(p) else p.text for p in problems
    ]
    if not said:
        return ""
    joined = said[-1]
    for part in reversed(said[:-1]):
        joined = words.message("woc.check.score.and", first=part, rest=joined)
    return joined


def _says(problem: Problem) -> bool:
    """Whether a problem's code and parameters say its text (not a text of its own)."""
    try:
        return bool(problem.code) and words.render(problem.code, problem.params) == problem.text
    except (KeyError, IndexError, ValueError):
        return False


def _record(
    state: EventState,
    report: Report,
    engine: Any,
    rnd: RoundState,
    match: MatchState,
    players: dict[str, sw.History],
    bye_points: Fraction,
) -> None:
    """Update the Swiss histories with a match: points, colours, floats, meetings."""
    people = ids(match)
    if match.is_bye and people and people[0] in players:
        players[people[0]].points += bye_points
        players[people[0]].met[sw.BYE] = players[people[0]].met.get(sw.BYE, 0) + 1
        return
    if len(people) != 2 or any(p not in players for p in people) or not match.games:
        return
    report.scores += 1
    score = engine.score_match(state, match)
    if not score.valid:
        report.add(
            SCORE,
            code="woc.check.score",
            round=rnd.number,
            match=match.code,
            problems=_problems(score.problems),
        )
        return
    black, white = people
    ((b_discs, w_discs),) = score.game_scores[:1] or [(0, 0)]
    result = (
        Fraction(1) if b_discs > w_discs else Fraction(0) if b_discs < w_discs else Fraction(1, 2)
    )
    if score.points and not same(score.points[0], result):
        report.add(
            POINTS,
            code="woc.check.points",
            round=rnd.number,
            match=match.code,
            match_code=match.code,
            black_discs=str(b_discs),
            white_discs=str(w_discs),
            scored=str(score.points[0]),
        )
    a, b = players[black], players[white]
    if a.points != b.points:
        high, low = (a, b) if a.points > b.points else (b, a)
        high.last_float, low.last_float = "down", "up"
    a.points += result
    b.points += 1 - result
    a.colours.append(sw.BLACK)
    b.colours.append(sw.WHITE)
    a.met[white] = a.met.get(white, 0) + 1
    b.met[black] = b.met.get(black, 0) + 1


def _check_standings(
    state: EventState,
    report: Report,
    standings: Standings,
    rounds: list[RoundState],
    field: list[str],
    players: dict[str, sw.History],
    engine: Any,
) -> None:
    table = next((t for t in standings.tables if any(c.key == "bq" for c in t.columns)), None)
    if table is None:
        return
    c = num(setting(state, "c", 6))
    bye_discs = num(setting(state, "bye_discs", 32))
    entrants = state.entrants_by_id
    withdrawn = {e for e in field if e in entrants and not entrants[e].active}
    discs: dict[str, Fraction] = defaultdict(Fraction)
    game_discs: dict[str, Fraction] = defaultdict(Fraction)
    opponents: dict[str, list[str]] = defaultdict(list)
    substitutes: dict[str, int] = defaultdict(int)
    for rnd in rounds:
        seen = set()
        for match in rnd.matches:
            people = ids(match)
            seen |= set(people)
            if match.is_bye and people:
                discs[people[0]] += bye_discs
                substitutes[people[0]] += 1
                continue
            if len(people) != 2 or not match.games:
                continue
            score = engine.score_match(state, match)
            if not score.valid:
                continue
            for seat, me in enumerate(people):
                other = people[1 - seat]
                mine = num(score.game_scores[0][seat])
                discs[me] += mine
                if other in withdrawn:
                    substitutes[me] += 1
                else:
                    game_discs[me] += mine
                    opponents[me].append(other)
        # Appendix A 3 c: "each bye received (or unplayed round)", a withdrawn player's
        # rounds after he left included (docs/formats/woc.md, the withdrawn player's own BQ)
        for entrant in field:
            if entrant not in seen and entrant in entrants:
                substitutes[entrant] += 1
    keys: dict[str, tuple[Fraction, ...]] = {}
    for row in table.rows:
        report.rows += 1
        me = row.entrant
        if me not in players:
            continue
        points = players[me].points
        bq = (
            game_discs[me]
            # an opponent missing from the field is already a finding of the record
            + c * sum((players[o].points for o in opponents[me] if o in players), Fraction())
            + substitutes[me] * (32 + c * points)
        )
        keys[me] = (points, bq, discs[me])
        for column, rule, value in (
            ("points", POINTS, points),
            ("bq", BQ, bq),
            ("discs", ORDER, discs[me]),
        ):
            if not same(row.values.get(column), value):
                report.add(
                    rule,
                    code="woc.check.column",
                    entrant=me,
                    column=column,
                    shown=row.values.get(column),
                    expected=float(value),
                    player=me,
                    shown_as=str(row.values.get(column)),
                    gives=f"{float(value):g}",
                )
    rows = [r for r in table.rows if r.entrant in keys]
    for above, below in itertools.pairwise(rows):
        if keys[below.entrant] > keys[above.entrant]:
            report.add(
                ORDER,
                code="woc.check.order",
                entrant=below.entrant,
                below=below.entrant,
                above=above.entrant,
            )
        elif keys[below.entrant] < keys[above.entrant] and above.rank == below.rank:
            report.add(
                ORDER,
                code="woc.check.shared_rank",
                entrant=below.entrant,
                above=above.entrant,
                below=below.entrant,
                rank=above.rank,
            )
