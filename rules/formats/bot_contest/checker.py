"""Checker for the bot contest (bot_contest.txt; decisions in docs/formats/bot_contest.md).

Verifies the seeding gauntlet (every entry against every reference, two games, each moving
first once), each game's contest points (STEP 4 bonuses plus own points), the seed order
(STEP 5), the brackets of every stage-two round replayed from the results (who plays, the
bye, the fold "seed 1 plays seed N" with the repeat rule, who drops and who is out), the
stop rule, the final round robin, and the gauntlet and final standings totals and order.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import rustworkx

from rules import words
from rules.checkers.common import Report, check_once_per_round, ids, played_rounds, same, setting
from rules.contract import EventState, GameEnding, MatchState, RoundState, Standings

GAUNTLET = "STEP 3: a match against each of the three seed programs - a total of six games"
BONUS = "STEP 4: 1000 for winning as X, 1200 as O, 500 for tieing as X, 600 as O, plus points"
SEEDS = "STEP 5: sorted according to the total points scored in all six games"
BYE = "Stage two STEP 1: the highest seeded entry that has not yet received a bye gets a bye"
FOLD = "Stage two STEP 2: seed 1 plays seed N in a match; seed 2 plays N-1; etc."
REPEAT = 'AND THEN: I will try to avoid having two programs play "repeat" matches'
MOVE = "STEP 3: A loss will drop it to the loser's bracket, or will eliminate it"
STOP = "EVENTUALLY: 2K entries left in the winners bracket ... roughly K (decision 33)"
FINAL = "EVERYONE WILL PLAY EVERYONE ELSE IN THE FINAL ROUND"
TOTAL = "The scores over all games played will be summed and the winner ... highest"
TWO_GAMES = "Each match consists of 2 games on the same board, each getting a chance to go first"
# a bracket and an empty place, as said inside a finding
BRACKETS = {
    "winners": words.message("bot_contest.check.bracket.winners"),
    "losers": words.message("bot_contest.check.bracket.losers"),
}
NOBODY = words.message("bot_contest.check.nobody")


def check(state: EventState, standings: Standings | None = None) -> Report:
    report = Report()
    rounds = played_rounds(state)
    if not rounds:
        return report
    refs = [e.id for e in state.entrants if e.flags.get("reference")]
    entries = [e for e in state.entrants if not e.flags.get("reference")]
    totals: dict[str, Fraction] = defaultdict(Fraction)
    points: dict[str, Fraction] = defaultdict(Fraction)
    gauntlet = rounds[0]
    report.rounds += 1
    wanted: set[tuple[str, ...]] = {
        (e.id, r) for e in entries if e.active_in_round(1) for r in refs
    }
    found: set[tuple[str, ...]] = {tuple(ids(m)) for m in gauntlet.matches}
    for pair in sorted(wanted - found):
        report.add(
            GAUNTLET,
            code="bot_contest.check.no_gauntlet_match",
            round=1,
            entrant=pair[0],
            reference=pair[1],
            who=pair[0],
        )
    for pair in sorted(found - wanted):
        report.add(
            GAUNTLET,
            code="bot_contest.check.not_gauntlet",
            round=1,
            entrant=pair[0],
            players=" v ".join(pair),
        )
    for match in gauntlet.matches:
        report.pairings += 1
        _score(state, report, gauntlet, match, totals, points)
    seeds = _check_seeds(report, rounds, entries, refs, totals, points)
    finals = _check_brackets(state, report, rounds[1:], seeds)
    if standings is not None:
        _check_standings(report, standings, totals, points, finals, state, rounds)
    return report


def _score(
    state: EventState,
    report: Report,
    rnd: RoundState,
    match: MatchState,
    totals: dict[str, Fraction],
    points: dict[str, Fraction],
) -> list[Fraction] | None:
    """Add a two-game match's contest points; return the game wins per seat."""
    people = ids(match)
    if len(people) != 2 or not match.games:
        return None
    report.scores += 1
    if len(match.games) != 2:
        report.add(
            TWO_GAMES,
            code="bot_contest.check.games",
            round=rnd.number,
            match=match.code,
            match_code=match.code,
            count=len(match.games),
        )
        return None
    firsts = [g.first if g.first is not None else i for i, g in enumerate(match.games)]
    if sorted(firsts) != [0, 1]:
        report.add(
            TWO_GAMES,
            code="bot_contest.check.same_first",
            round=rnd.number,
            match=match.code,
            firsts=firsts,
            match_code=match.code,
        )
    bonus = {
        ("win", True): setting(state, "win_first_bonus", 1000),
        ("win", False): setting(state, "win_second_bonus", 1200),
        ("tie", True): setting(state, "tie_first_bonus", 500),
        ("tie", False): setting(state, "tie_second_bonus", 600),
    }
    referee = setting(state, "result_from", "points") == "referee"
    wins = [Fraction(0), Fraction(0)]
    for game, first in zip(match.games, firsts, strict=True):
        a, b = game.scores
        if a is None or b is None:
            report.add(
                TWO_GAMES,
                code="bot_contest.check.no_score",
                round=rnd.number,
                match=match.code,
                game=game.number,
                match_code=match.code,
            )
            return None
        board = rnd.details.get("board")
        if board and game.details.get("board", board) != board:
            report.add(
                "For each round, a different starting board will be used (decision 37)",
                code="bot_contest.check.board",
                round=rnd.number,
                match=match.code,
                game=game.number,
                match_code=match.code,
                board=game.details.get("board"),
                round_board=board,
            )
        winner: int | None = None if a == b else (0 if a > b else 1)
        if referee or game.ending is not GameEnding.NORMAL:
            # decision 26: the referee's result decides a game that did not end normally
            said = game.details.get("result")
            winner = None if said not in ("X", "O") else first if said == "X" else 1 - first
        for seat, mine in enumerate((a, b)):
            who = people[seat]
            result = "tie" if winner is None else "win" if winner == seat else "loss"
            extra = bonus.get((result, seat == first), 0)
            totals[who] += Fraction(extra) + Fraction(mine)
            points[who] += Fraction(mine)
            wins[seat] += {"win": Fraction(1), "tie": Fraction(1, 2), "loss": Fraction(0)}[result]
    return wins


def _check_seeds(
    report: Report,
    rounds: Sequence[RoundState],
    entries: Sequence[Any],
    refs: Sequence[str],
    totals: dict[str, Fraction],
    points: dict[str, Fraction],
) -> list[str]:
    if len(rounds) < 2:
        return []
    seeds = [str(e) for e in rounds[1].details.get("seeds", [])]
    start = rounds[1].number
    wanted = {e.id for e in entries if e.active_in_round(start)}
    if set(seeds) != wanted:
        report.add(
            SEEDS,
            code="bot_contest.check.seeds",
            round=start,
            missing=sorted(wanted - set(seeds)),
            extra=sorted(set(seeds) - wanted),
        )
    for index in range(1, len(seeds)):
        high, low = seeds[index - 1], seeds[index]
        if (totals[low], points[low]) > (totals[high], points[high]):
            report.add(
                SEEDS,
                code="bot_contest.check.seed_order",
                round=start,
                entrant=low,
                seed=index + 1,
                who=low,
                total=f"{float(totals[low]):g}",
                above=high,
                above_total=f"{float(totals[high]):g}",
            )
    return seeds


def _fewest_repeats(players: Sequence[str], met: set[frozenset[str]]) -> int:
    if len(players) < 2:
        return 0
    graph: rustworkx.PyGraph = rustworkx.PyGraph()
    graph.add_nodes_from(list(players))
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            if frozenset((a, players[j])) not in met:
                graph.add_edge(i, j, 1)
    fresh = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return len(players) // 2 - len(fresh)


def expected_pairs(members: Sequence[str], met: set[frozenset[str]]) -> list[tuple[str, str]]:
    """Highest remaining seed against the lowest remaining it has not met, as long as the
    rest can still be paired with the fewest repeats possible (decision 31)."""
    budget = _fewest_repeats(members, met)
    rest = list(members)
    pairs: list[tuple[str, str]] = []
    while len(rest) > 1:
        high = rest[0]
        for low in reversed(rest[1:]):
            cost = int(frozenset((high, low)) in met)
            others = [p for p in rest if p not in (high, low)]
            if cost + _fewest_repeats(others, met) <= budget:
                pairs.append((high, low))
                budget -= cost
                rest = others
                break
        else:
            # only an odd list (a bracket the record got wrong) gets here: the top seed
            # cannot be placed in a best pairing, so it is left out
            rest = rest[1:]
    return pairs


def _check_brackets(
    state: EventState, report: Report, rounds: Sequence[RoundState], seeds: list[str]
) -> list[str]:
    k = int(setting(state, "k", 2))
    target = setting(state, "losers_target", None)
    target = k if target is None else int(target)
    entrants = state.entrants_by_id
    winners: list[str] = list(seeds)
    losers: list[str] = []
    byes: dict[str, int] = defaultdict(int)
    met: set[frozenset[str]] = set()
    order = {e: i for i, e in enumerate(seeds)}
    for rnd in rounds:
        report.rounds += 1
        winners = [e for e in winners if entrants[e].active_in_round(rnd.number)]
        losers = [e for e in losers if entrants[e].active_in_round(rnd.number)]
        if rnd.stage == "final":
            _check_final(report, rnd, sorted(winners + losers, key=order.__getitem__), k, target)
            return sorted(winners + losers, key=order.__getitem__)
        recorded = rnd.details.get("brackets")
        if recorded is not None and (
            list(recorded.get("winners", [])) != winners
            or list(recorded.get("losers", [])) != losers
        ):
            report.add(
                MOVE,
                code="bot_contest.check.brackets",
                round=rnd.number,
                expected={"winners": winners, "losers": losers},
                number=rnd.number,
            )
        plays = {
            "winners": len(winners) > 2 * k,
            "losers": len(losers) > max(target, 2 * k + target - len(winners)),
        }
        if not any(plays.values()):
            report.add(
                STOP,
                code="bot_contest.check.no_bracket_plays",
                round=rnd.number,
                number=rnd.number,
            )
        check_once_per_round(
            report,
            FOLD,
            rnd,
            [
                e
                for bracket, members in (("winners", winners), ("losers", losers))
                if plays[bracket]
                for e in members
            ],
        )
        moved: dict[str, list[str]] = {"winners": [], "losers": []}
        dropped: list[str] = []
        for bracket, members in (("winners", winners), ("losers", losers)):
            matches = [m for m in rnd.matches if m.bracket == bracket]
            if not plays[bracket]:
                if matches:
                    report.add(
                        STOP,
                        code="bot_contest.check.should_stop",
                        round=rnd.number,
                        bracket=BRACKETS[bracket],
                        number=rnd.number,
                        count=len(members),
                    )
                continue
            rest = list(members)
            bye_matches = [m for m in matches if m.is_bye]
            if len(members) % 2:
                fewest = min(byes[e] for e in members)
                chosen = next(e for e in members if byes[e] == fewest)
                given = [ids(m)[0] for m in bye_matches]
                if given != [chosen]:
                    report.add(
                        BYE,
                        code="bot_contest.check.bye",
                        round=rnd.number,
                        entrant=chosen,
                        given=given,
                        bracket=BRACKETS[bracket],
                        chosen=chosen,
                        given_to=", ".join(given) or NOBODY,
                    )
                rest.remove(chosen)
            elif bye_matches:
                report.add(
                    BYE,
                    code="bot_contest.check.even_bye",
                    round=rnd.number,
                    match=bye_matches[0].code,
                    bracket=BRACKETS[bracket],
                )
            for m in bye_matches:
                byes[ids(m)[0]] += 1
            wanted = {frozenset(p) for p in expected_pairs(rest, met)}
            games = [m for m in matches if not m.is_bye]
            for match in games:
                report.pairings += 1
                people = ids(match)
                pair = frozenset(people)
                if pair not in wanted:
                    rule = REPEAT if pair in met else FOLD
                    report.add(
                        rule,
                        code="bot_contest.check.pairs",
                        round=rnd.number,
                        match=match.code,
                        expected=sorted(sorted(p) for p in wanted),
                        match_code=match.code,
                        players=" and ".join(people),
                    )
                met.add(pair)
                wins = _score(
                    state, report, rnd, match, defaultdict(Fraction), defaultdict(Fraction)
                )
                if wins is None or wins[0] == wins[1]:
                    continue
                loser = people[1] if wins[0] > wins[1] else people[0]
                (moved["losers"] if bracket == "winners" else dropped).append(loser)
            report.pairings += len(bye_matches)
        winners = [e for e in winners if e not in moved["losers"]]
        losers = sorted(
            [e for e in losers if e not in dropped] + moved["losers"], key=order.__getitem__
        )
    return []


def _check_final(
    report: Report, rnd: RoundState, finalists: list[str], k: int, target: int
) -> None:
    recorded = [str(e) for e in rnd.details.get("finalists", [])]
    if recorded and recorded != finalists:
        report.add(
            FINAL,
            code="bot_contest.check.finalists",
            round=rnd.number,
            expected=finalists,
            recorded=recorded,
        )
    wanted = {frozenset((a, b)) for i, a in enumerate(finalists) for b in finalists[i + 1 :]}
    found: list[frozenset[str]] = []
    for match in rnd.matches:
        report.pairings += 1
        found.append(frozenset(ids(match)))
    for pair in wanted - set(found):
        report.add(
            FINAL,
            code="bot_contest.check.final_missing",
            round=rnd.number,
            entrant=sorted(pair)[0],
            players=" and ".join(sorted(pair)),
        )
    for pair in {p for p in found if p not in wanted or found.count(p) > 1}:
        report.add(
            FINAL,
            code="bot_contest.check.final_once",
            round=rnd.number,
            entrant=sorted(pair)[0],
            players=" and ".join(sorted(pair)),
        )


def _check_standings(
    report: Report,
    standings: Standings,
    totals: dict[str, Fraction],
    points: dict[str, Fraction],
    finalists: list[str],
    state: EventState,
    rounds: Sequence[RoundState],
) -> None:
    tables = {t.key: t for t in standings.tables}
    checks: list[tuple[str, dict[str, Fraction], dict[str, Fraction], str]] = []
    if "gauntlet" in tables:
        checks.append(("gauntlet", totals, points, BONUS))
    final = next((r for r in rounds if r.stage == "final"), None)
    if final is not None and "final" in tables:
        f_totals: dict[str, Fraction] = defaultdict(Fraction)
        f_points: dict[str, Fraction] = defaultdict(Fraction)
        for match in final.matches:
            _score(state, Report(), final, match, f_totals, f_points)
        checks.append(("final", f_totals, f_points, TOTAL))
    for key, tot, pts, rule in checks:
        rows = tables[key].rows
        for row in rows:
            report.rows += 1
            for column, figures in (("total", tot), ("game_points", pts)):
                if not same(row.values.get(column), figures[row.entrant]):
                    report.add(
                        rule,
                        code="bot_contest.check.value",
                        entrant=row.entrant,
                        table=key,
                        column=column,
                        who=row.entrant,
                        shown=row.values.get(column),
                        value=f"{float(figures[row.entrant]):g}",
                    )
        # decision 24: an entry withdrawn during the gauntlet keeps its row but is not ranked
        for above, below in itertools.pairwise([r for r in rows if r.status != "withdrawn"]):
            if (tot[below.entrant], pts[below.entrant]) > (tot[above.entrant], pts[above.entrant]):
                report.add(
                    rule,
                    code="bot_contest.check.order",
                    entrant=below.entrant,
                    table=key,
                    below=below.entrant,
                    above=above.entrant,
                )
