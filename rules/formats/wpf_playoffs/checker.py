"""Checker for the WPF GP Playoffs (wpf_playoffs.txt, decisions in docs/formats/wpf_playoffs.md).

The match table is transcribed here again from the document ("Brackets" and "Heats for the
Live Stage"), independently of the engine's copy. The checker replays the ladder from the
seeds: each match must pair the players holding its two ranks (better rank in seat 0), sit
in its bracket (and its players' losses must fit that bracket), and be won as the grading
rules say; a win by the worse rank swaps the two ranks. With standings: the final order is
the rank order and each row's losses are the record's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules import absence, words
from rules.checkers.common import Report, played_rounds, same, setting
from rules.contract import EventState, MatchState, Standings

W, L, P, C = "winners", "losers", "placement", "championship"
# (code, better rank, worse rank, bracket) per engine round: A-G online, then heats 1-5.
TABLE: tuple[tuple[tuple[str, int, int, str], ...], ...] = (
    (("A1", 1, 16, W), ("A2", 2, 15, W), ("A3", 3, 14, W), ("A4", 4, 13, W),
     ("A5", 5, 12, W), ("A6", 6, 11, W), ("A7", 7, 9, W), ("A8", 8, 10, W)),
    (("B1", 1, 8, W), ("B2", 2, 7, W), ("B3", 3, 6, W), ("B4", 4, 5, W),
     ("B9", 9, 16, L), ("B10", 10, 15, L), ("B11", 11, 14, L), ("B12", 12, 13, L)),
    (("C5", 5, 12, L), ("C6", 6, 11, L), ("C7", 7, 10, L), ("C8", 8, 9, L)),
    (("D1", 1, 4, W), ("D2", 2, 3, W), ("D5", 5, 8, L), ("D6", 6, 7, L),
     ("D9", 9, 12, P), ("D10", 10, 11, P), ("D13", 13, 16, P), ("D14", 14, 15, P)),
    (("E3", 3, 5, L), ("E4", 4, 6, L), ("E7", 7, 9, P), ("E8", 8, 10, P),
     ("E11", 11, 13, P), ("E12", 12, 14, P)),
    (("F5", 5, 6, P), ("F7", 7, 8, P), ("F9", 9, 10, P), ("F11", 11, 12, P),
     ("F13", 13, 14, P), ("F15", 15, 16, P)),
    (("G6", 6, 7, P), ("G8", 8, 9, P), ("G10", 10, 11, P), ("G12", 12, 13, P),
     ("G14", 14, 15, P)),
    (("F1", 1, 2, W), ("F3", 3, 4, L)),
    (("G2", 2, 3, L), ("G4", 4, 5, P)),
    (("H7", 7, 8, P), ("H9", 9, 10, P)),
    (("H3", 3, 4, P), ("H5", 5, 6, P)),
    (("FINAL", 1, 2, C),),
)  # fmt: skip
ONLINE_ROUNDS = 7
ONLINE_WRONG = 22 * 60
LIVE_LIMIT = 10 * 60
PENALTY = 60

TABLE_RULE = "Brackets: The list of matches and their relevant data (Player Ranks)"
BRACKET_RULE = "Brackets: Winner's - not lost any matches; Loser's - exactly one; Placement - two"
SWAP = "If the player with the worse rank wins, then the two players swap their ranks"
ONLINE = "Online Stage: official time is 22 minutes if their submission is incorrect"
LIVE = "Grading: the competitor with the worse seed wins ... in less than 10 minutes and faster"
SEEDS = "Eligibility: the 16 eligible players with the highest eligibility scores, seeded by score"
ORDER = "the rank of the players determine the finishing order"
# the brackets' names and the empty seat, as said inside a finding
BRACKETS = {
    W: words.message("wpf_playoffs.check.bracket.winners"),
    L: words.message("wpf_playoffs.check.bracket.losers"),
    P: words.message("wpf_playoffs.check.bracket.placement"),
    C: words.message("wpf_playoffs.check.bracket.championship"),
}
VIRTUAL_BYE = words.message("wpf_playoffs.check.virtual_bye")
NOBODY = words.message("wpf_playoffs.check.nobody")


def check(state: EventState, standings: Standings | None = None) -> Report:
    report = Report()
    rounds = played_rounds(state)
    if not rounds:
        return report
    seeds = [None if s is None else str(s) for s in rounds[0].details.get("seeds", [])]
    _check_seeds(state, report, seeds)
    ladder = list(range(1, len(seeds) + 1))  # index r - 1 holds the seed of rank r
    losses: dict[int, int] = defaultdict(int)  # by seed
    entrants = state.entrants_by_id
    for rnd in rounds:
        report.rounds += 1
        if rnd.number > len(TABLE):
            report.add(
                TABLE_RULE,
                code="wpf_playoffs.check.beyond",
                round=rnd.number,
                number=rnd.number,
            )
            continue
        by_code = {m.code: m for m in rnd.matches}
        for code in sorted(set(by_code) - {row[0] for row in TABLE[rnd.number - 1]}):
            report.add(
                TABLE_RULE,
                code="wpf_playoffs.check.not_a_match",
                round=rnd.number,
                match=code,
                match_code=code,
            )
        swaps = []
        for code, better, worse, bracket in TABLE[rnd.number - 1]:
            match = by_code.get(code)
            if match is None:
                report.add(
                    TABLE_RULE,
                    code="wpf_playoffs.check.missing",
                    round=rnd.number,
                    match=code,
                    match_code=code,
                    better=better,
                    worse=worse,
                )
                continue
            report.pairings += 1
            if worse > len(ladder):
                continue
            better_seed = (ladder[better - 1], ladder[worse - 1])
            want = (seeds[better_seed[0] - 1], seeds[better_seed[1] - 1])
            got = tuple(p.entrant for p in match.participants)
            if got != want:
                report.add(
                    TABLE_RULE,
                    code="wpf_playoffs.check.pairs",
                    round=rnd.number,
                    match=code,
                    expected=list(want),
                    recorded=list(got),
                    match_code=code,
                    better=better,
                    worse=worse,
                    first=want[0] or VIRTUAL_BYE,
                    second=want[1] or VIRTUAL_BYE,
                    seated=", ".join(str(g) for g in got),
                )
            pair_losses = (losses[better_seed[0]], losses[better_seed[1]])
            if match.bracket and match.bracket != bracket:
                report.add(
                    BRACKET_RULE,
                    code="wpf_playoffs.check.bracket",
                    round=rnd.number,
                    match=code,
                    match_code=code,
                    bracket=BRACKETS[bracket],
                    recorded=match.bracket,
                )
            if not _fits(bracket, pair_losses):
                report.add(
                    BRACKET_RULE,
                    code="wpf_playoffs.check.losses",
                    round=rnd.number,
                    match=code,
                    losses=list(pair_losses),
                    match_code=code,
                    bracket=BRACKETS[bracket],
                    better_lost=pair_losses[0],
                    worse_lost=pair_losses[1],
                )
            winner = _winner(
                state, report, match, want, better_seed, rnd.number <= ONLINE_ROUNDS, entrants
            )
            if winner is None:
                continue
            report.scores += 1
            losses[better_seed[1 - winner]] += 1
            if winner == 1:
                swaps.append((better, worse))
        for better, worse in swaps:
            ladder[better - 1], ladder[worse - 1] = ladder[worse - 1], ladder[better - 1]
    if standings is not None:
        _check_standings(report, standings, ladder, seeds, losses)
    return report


def _fits(bracket: str, losses: tuple[int, int]) -> bool:
    if bracket == C:
        return sorted(losses) == [0, 1]
    wanted = {W: (0, 0), L: (1, 1)}.get(bracket)
    if wanted is not None:
        return losses == wanted
    return min(losses) >= 2


def _official_online(submissions: Sequence[Mapping[str, Any]]) -> int:
    if not submissions:
        return ONLINE_WRONG
    last = submissions[-1]
    return int(last["time"]) if last.get("correct") else ONLINE_WRONG


def _official_live(submissions: Sequence[Mapping[str, Any]]) -> int | None:
    total = 0
    for item in submissions:
        total += int(item["time"])
        if item.get("correct"):
            return total
        total += PENALTY
    return None


def _winner(
    state: EventState,
    report: Report,
    match: MatchState,
    players: tuple[str | None, str | None],
    seeds: tuple[int, int],
    online: bool,
    entrants: Mapping[str, Any],
) -> int | None:
    """Seat of the winner by the grading rules (0: the better rank), or None if unplayed."""
    better_seed = 0 if seeds[0] < seeds[1] else 1
    absent = absence.in_match(match)  # wpf_playoffs.md, Absence: as a virtual bye
    gone = [
        players[s] is None
        or not entrants[str(players[s])].active_in_round(match.round_number)
        or (str(players[s]) in absent and not match.games)
        for s in (0, 1)
    ]
    if any(gone):
        expected = better_seed if all(gone) else gone.index(False)
    elif "judges_winner" in match.details:
        return int(match.details["judges_winner"])
    elif not match.games:
        return None
    else:
        subs = match.games[0].details.get("submissions")
        if subs is None:
            return None  # official times typed in directly: not re-graded here
        if online:
            times: list[int | None] = [_official_online(s) for s in subs]
            a, b = times
            assert a is not None and b is not None
            expected = 0 if a < b else 1 if b < a else better_seed
        else:
            times = [_official_live(s) for s in subs]
            worse = 1 - better_seed
            mine, theirs = times[worse], times[better_seed]
            won = mine is not None and mine < LIVE_LIMIT and (theirs is None or mine < theirs)
            expected = worse if won else better_seed
    return expected


def _check_seeds(state: EventState, report: Report, seeds: Sequence[str | None]) -> None:
    best = int(setting(state, "best_rounds", 6))
    top = int(setting(state, "eligible_top", 30))
    scores: dict[str, Fraction] = {}
    for entrant in state.entrants:
        if "gp_total" in entrant.flags:
            scores[entrant.id] = Fraction(entrant.flags["gp_total"])
        else:
            rounds = sorted((Fraction(s) for s in entrant.flags.get("gp_scores", [])), reverse=True)
            scores[entrant.id] = sum(rounds[:best], Fraction())
    ranked = sorted(scores.values(), reverse=True)
    cut = ranked[top - 1] if len(ranked) >= top else (ranked[-1] if ranked else Fraction())
    eligible = [e.id for e in state.entrants if e.flags.get("attending") and scores[e.id] >= cut]
    eligible.sort(key=lambda e: -scores[e])
    wanted = eligible[:16]
    real = [s for s in seeds if s is not None]
    # players level with the 16th score at the cut may go either way: a recorded draw (or
    # the GP position) decides which of them is invited, so any of them may fill the places
    last = scores[wanted[-1]] if len(wanted) == 16 else None
    sure = {e for e in wanted if last is None or scores[e] > last}
    level = {e for e in eligible if last is not None and scores[e] == last}
    fits = sure <= set(real) and set(real) <= sure | level and len(real) == len(wanted)
    if len(seeds) != 16 or not fits or real != seeds[: len(real)]:
        report.add(
            SEEDS,
            code="wpf_playoffs.check.seeds",
            round=1,
            expected=wanted,
            recorded=list(seeds),
        )
    positions = {e.id: e.flags.get("gp_position") for e in state.entrants}
    for index in range(1, len(real)):
        a, b = real[index - 1], real[index]
        if scores.get(b, Fraction()) == scores.get(a, Fraction()):
            pa, pb = positions.get(a), positions.get(b)
            if isinstance(pa, int) and isinstance(pb, int) and pb < pa:
                report.add(
                    SEEDS,
                    code="wpf_playoffs.check.gp_position",
                    round=1,
                    entrant=b,
                    who=b,
                    seed=index + 1,
                    above=a,
                )
        if scores.get(real[index], Fraction()) > scores.get(real[index - 1], Fraction()):
            report.add(
                SEEDS,
                code="wpf_playoffs.check.higher_score",
                round=1,
                entrant=real[index],
                who=real[index],
                seed=index + 1,
                above=real[index - 1],
            )


def _check_standings(
    report: Report,
    standings: Standings,
    ladder: Sequence[int],
    seeds: Sequence[str | None],
    losses: Mapping[int, int],
) -> None:
    table = next((t for t in standings.tables if t.key == "overall"), None)
    if table is None:
        return
    rows = list(table.rows)
    for rank, seed in enumerate(ladder, start=1):
        entrant = seeds[seed - 1]
        report.rows += 1
        row = rows[rank - 1] if rank <= len(rows) else None
        want = entrant if entrant is not None else None
        if row is None or (want is not None and row.entrant != want):
            report.add(
                ORDER,
                code="wpf_playoffs.check.rank",
                entrant=str(want),
                rank=rank,
                holder=want or VIRTUAL_BYE,
                shown=row.entrant if row else NOBODY,
            )
            continue
        if want is not None and not same(row.values.get("losses"), losses[seed]):
            report.add(
                ORDER,
                code="wpf_playoffs.check.lost",
                entrant=want,
                who=want,
                lost=losses[seed],
                shown=row.values.get("losses"),
            )
