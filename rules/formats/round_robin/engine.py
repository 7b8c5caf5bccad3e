"""A plain round robin by Berger tables: the engine that proves the contract end to end.

Every entrant meets every other once per cycle, on the schedule of the FIDE Berger tables
(rules/berger.py); draw numbers come from the seeds (or a recorded lot). A game is two
scores, the higher wins; each game gives win/draw/loss points; the standings order by
points, then the tiebreaks the director chose, and entrants still equal share a rank.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules import absence, berger
from rules.contract import (
    Column,
    DrawSourceProtocol,
    EngineError,
    EntrantState,
    EventState,
    Finished,
    GameEnding,
    MatchScore,
    MatchState,
    NextRound,
    Number,
    Participant,
    PlannedMatch,
    Problem,
    Reason,
    RoundPlan,
    RoundStatus,
    Setting,
    StandingRow,
    Standings,
    StandingsTable,
    SwapPlan,
)
from rules.engine_base import SettingsMixin
from rules.formats.round_robin.words import TIEBREAKS_HELP
from rules.reranking import Reranker, find_match
from rules.tiebreaks import Step, rank
from rules.words import gettext_noop as _
from rules.words import message
from rules.words_common import ROUND

# Short column labels; the step names above are used in the reasons.
COLUMN_LABELS = {
    "points": _("Pts"),
    "head_to_head": _("H2H"),
    "sonneborn_berger": _("SB"),
    "wins": _("Won"),
    "score_difference": _("Diff"),
    "score_for": _("For"),
}
TIEBREAKS = {
    "head_to_head": _("Head-to-head points among the tied"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "wins": _("Games won"),
    "score_difference": _("Score difference"),
    "score_for": _("Score for"),
}


class RoundRobinEngine(SettingsMixin):
    key = "round_robin"
    # score_match reads the match and the settings only: saving a result need not load the
    # whole event (tournaments/services/results.py)
    scores_match_alone = True
    name = _("Round robin (Berger tables)")
    settings = (
        Setting(
            "cycles", 1, _("How many times each pair meets (2: a double round robin)."), (1, 2)
        ),
        Setting("games_per_match", 1, _("Games in each match; seats alternate game by game.")),
        Setting("win_points", 1.0, _("Points for a game won.")),
        Setting("draw_points", 0.5, _("Points for a game drawn (equal scores).")),
        Setting("loss_points", 0.0, _("Points for a game lost.")),
        Setting("bye_points", 0.0, _("Points for a round off (odd fields, withdrawn opponents).")),
        Setting(
            "draw_numbers",
            "seed",
            _("How draw numbers are given: by seed (then rating) or by a recorded lot."),
            ("seed", "lot"),
        ),
        Setting(
            "tiebreaks",
            ["head_to_head", "sonneborn_berger", "wins", "score_difference"],
            TIEBREAKS_HELP.format(keys=", ".join(TIEBREAKS)),
        ),
        Setting("roles", ["white", "black"], _("Names of the first and second seat.")),
        Setting(
            "absent_result",
            "forfeit",
            _(
                "A game whose player is checked in as absent: 'forfeit' (the opponent wins "
                "it, the absent player loses it) or 'bye' (not played: the absent player "
                "scores nothing, the opponent has the round off and its bye points)."
            ),
            ("forfeit", "bye"),
        ),
    )

    def validate_settings(self, settings: Mapping[str, Any]) -> list[Problem]:
        problems = super().validate_settings(settings)
        tiebreaks = settings.get("tiebreaks", []) if isinstance(settings, Mapping) else []
        if not isinstance(tiebreaks, list | tuple):
            problems.append(Problem("round_robin.setting.tiebreaks", "tiebreaks"))
            tiebreaks = []
        for key in tiebreaks:
            if not isinstance(key, str) or key not in TIEBREAKS:
                problems.append(
                    Problem(
                        "round_robin.setting.tiebreak",
                        "tiebreaks",
                        params={"key": str(key), "allowed": ", ".join(TIEBREAKS)},
                    )
                )
        games = settings.get("games_per_match", 1)
        if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= 10:
            problems.append(Problem("round_robin.setting.games", "games_per_match"))
        return problems

    # -- pairing -------------------------------------------------------------------------

    def draw_numbers(self, state: EventState, draws: DrawSourceProtocol | None) -> list[str]:
        """Entrant ids in draw-number order (index 0 is number 1)."""
        if state.rounds and "draw_numbers" in state.rounds[0].details:
            return [str(e) for e in state.rounds[0].details["draw_numbers"]]
        entrants = [e for e in state.entrants if e.active_in_round(1)]
        by_seed = sorted(entrants, key=_seed_order)
        ids = [e.id for e in by_seed]
        if self.resolved(state)["draw_numbers"] == "lot" and draws is not None:
            return draws.shuffle("draw-numbers", ids, purpose="draw numbers for the round robin")
        return ids

    def plan_swap(self, state: EventState, number: int, first: str, second: str) -> SwapPlan:
        """A hand swap in a draft round. The Berger table fixes every round from the draw
        numbers, so a swap of two opponents (their seats, so colours) changes nothing later;
        in round 1 two players of different matches exchange their draw numbers, and every
        later round follows the table with the new numbers; in a later round the table
        would pair one of them with the same opponent again, and the swap is refused."""
        rnd = state.rounds[number - 1]
        together = any({first, second} <= set(m.entrant_ids) for m in rnd.matches)
        if together:
            return SwapPlan()
        numbers = self.draw_numbers(state, None)
        if number == 1:
            swapped = [second if e == first else first if e == second else e for e in numbers]
            exchanged = [*rnd.details.get("draw_numbers_swapped", []), [first, second]]
            return SwapPlan(
                details={
                    **rnd.details,
                    "draw_numbers": swapped,
                    "draw_numbers_swapped": exchanged,
                },
                note="Their draw numbers are exchanged: every later round follows the Berger "
                "table with the new numbers.",
            )
        entrants = state.entrants_by_id
        # after the swap ``second`` sits where ``first`` sat: against first's opponent, or
        # out of the round where first had the bye
        opponent = next(
            (o for m in rnd.matches if first in m.entrant_ids for o in m.entrant_ids if o != first),
            None,
        )
        place = {e: i + 1 for i, e in enumerate(numbers)}
        pair = {place[second], place.get(opponent or "")}
        schedule = berger.schedule(len(numbers), self.resolved(state)["cycles"])
        again = next(
            (
                r
                for r, pairings in enumerate(schedule, start=1)
                if r != number and any({p.first, p.second} == pair for p in pairings)
            ),
            None,
        )
        name = entrants[second].name
        if again is None:
            meets = message("round_robin.swap.leaves_order", name=name)
        elif opponent in entrants:
            meets = message(
                "round_robin.swap.meets_again",
                name=name,
                opponent=entrants[opponent or ""].name,
                round=number,
                again=again,
            )
        else:
            meets = message("round_robin.swap.off_again", name=name, round=number, again=again)
        return SwapPlan(
            refused=Problem("round_robin.swap_after_round_1", "second", params={"meets": meets})
        )

    def next_round(self, state: EventState, draws: DrawSourceProtocol) -> NextRound:
        settings = self.resolved(state)
        numbers = self.draw_numbers(state, draws)
        if len(numbers) < 2:
            raise EngineError([Problem("round_robin.too_few", "entrants")])
        late = [e.name for e in state.entrants if e.active and e.id not in numbers]
        if late:
            raise EngineError(
                [
                    Problem(
                        "round_robin.late_entry",
                        "entrants",
                        params={"names": ", ".join(sorted(late))},
                    )
                ]
            )
        schedule = berger.schedule(len(numbers), settings["cycles"])
        number = len(state.rounds) + 1
        if number > len(schedule):
            return Finished(
                Reason(
                    "round_robin.finished",
                    rule="Berger tables",
                    params={"rounds": len(schedule)},
                )
            )
        entrants = state.entrants_by_id
        roles = settings["roles"]
        absent = set(absence.absent_now(state, number))
        matches: list[PlannedMatch] = []
        byes: list[PlannedMatch] = []
        for pairing in schedule[number - 1]:
            first = numbers[pairing.first - 1]
            second = numbers[pairing.second - 1] if pairing.second else None
            where = {"round": number, "first": pairing.first, "second": pairing.second}
            table_reason = (
                Reason("round_robin.berger", rule="Berger tables", params=where)
                if pairing.second
                else Reason("round_robin.berger.off", rule="Berger tables", params=where)
            )
            gone = [
                e
                for e in (first, second)
                if e is not None and not entrants[e].active_in_round(number)
            ]
            if second is None or gone:
                for present in (first, second):
                    if present is None or present in gone:
                        continue
                    why = (
                        Reason(
                            "round_robin.opponent_withdrawn",
                            params={"entrant": gone[0], "name": entrants[gone[0]].name},
                        )
                        if gone
                        else Reason("round_robin.odd_field")
                    )
                    byes.append(
                        PlannedMatch(
                            code=f"R{number}-BYE-{present}",
                            participants=(Participant(present),),
                            reasons=(table_reason, why),
                        )
                    )
                continue
            # an absent player's game keeps its place in the table: the Berger schedule
            # fixes every later round, so the game is forfeited (or not played), not moved
            gone_today = [e for e in (first, second) if e in absent]
            matches.append(
                PlannedMatch(
                    code=f"R{number}-T{len(matches) + 1}",
                    participants=(Participant(first, roles[0]), Participant(second, roles[1])),
                    table=len(matches) + 1,
                    reasons=(
                        table_reason,
                        *(_absent_reason(entrants[e].name, e, settings) for e in gone_today),
                    ),
                    details={absence.KEY: gone_today} if gone_today else {},
                )
            )
        for index, bye in enumerate(byes):
            matches.append(
                PlannedMatch(
                    code=f"R{number}-BYE{index + 1}",
                    participants=bye.participants,
                    reasons=bye.reasons,
                )
            )
        details: dict[str, Any] = {}
        if number == 1:
            details["draw_numbers"] = numbers
        if absent:
            details[absence.KEY] = [e for e in numbers if e in absent]
        cycle_rounds = len(schedule) // settings["cycles"]
        label = ROUND.format(n=number)
        round_of = {"round": number, "rounds": len(schedule)}
        schedule_reason = (
            Reason(
                "round_robin.schedule.cycle",
                rule="Berger tables",
                params={
                    **round_of,
                    "cycle": (number - 1) // cycle_rounds + 1,
                    "cycles": settings["cycles"],
                },
            )
            if settings["cycles"] > 1
            else Reason("round_robin.schedule", rule="Berger tables", params=round_of)
        )
        return RoundPlan(
            number=number,
            label=label,
            matches=tuple(matches),
            reasons=(schedule_reason,),
            details=details,
        )

    # -- scoring -------------------------------------------------------------------------

    def score_match(self, state: EventState, match: MatchState) -> MatchScore:
        settings = self.resolved(state)
        if match.is_bye:
            return MatchScore(
                points=(_num(settings["bye_points"]),),
                summary=_("bye"),
                reasons=(Reason("round_robin.bye"),),
            )
        if absence.unplayed(match):
            return _score_absence(match, settings)
        problems: list[Problem] = []
        expected = settings["games_per_match"]
        if len(match.games) != expected:
            given = len(match.games)
            problems.append(
                Problem(
                    "round_robin.game_count",
                    "games",
                    params={
                        "expected": expected,
                        "given": given,
                        "has": (
                            message("round_robin.games.one")
                            if expected == 1
                            else message("round_robin.games.many", count=expected)
                        ),
                        "entered": (
                            message("round_robin.entered.one")
                            if given == 1
                            else message("round_robin.entered.many", count=given)
                        ),
                    },
                )
            )
        points: list[Number] = [Fraction(0), Fraction(0)]
        game_scores: list[tuple[Number | None, ...]] = []
        for index, game in enumerate(match.games):
            place = f"games[{index}]"
            if len(game.scores) != 2 or any(s is None for s in game.scores):
                problems.append(
                    Problem(
                        "round_robin.score_missing",
                        f"{place}.scores",
                        params={"game": game.number},
                    )
                )
                continue
            a, b = game.scores
            assert a is not None and b is not None
            if a < 0 or b < 0:
                problems.append(
                    Problem(
                        "round_robin.score_negative",
                        f"{place}.scores",
                        params={"game": game.number},
                    )
                )
                continue
            if game.ending is GameEnding.BYE:
                problems.append(
                    Problem(
                        "round_robin.ending",
                        f"{place}.ending",
                        params={"game": game.number},
                    )
                )
                continue
            for seat, result in enumerate(_results(a, b)):
                points[seat] += _num(settings[f"{result}_points"])
            game_scores.append((a, b))
        if problems:
            return MatchScore(points=(0, 0), complete=False, problems=tuple(problems))
        winner = None if points[0] == points[1] else (0 if points[0] > points[1] else 1)
        if expected == 1:
            summary = "-".join(_show(s) for s in game_scores[0] if s is not None)
        else:
            summary = f"{_show(points[0])}-{_show(points[1])}"
        return MatchScore(
            points=tuple(points), winner=winner, summary=summary, game_scores=tuple(game_scores)
        )

    # -- standings -----------------------------------------------------------------------

    def standings(self, state: EventState) -> Standings:
        settings = self.resolved(state)
        tally = _Tally()
        for rnd in state.rounds:
            if rnd.status is RoundStatus.DRAFT:
                continue
            for match in rnd.matches:
                if not match.games and not match.is_bye and not absence.unplayed(match):
                    continue
                score = self.score_match(state, match)
                if not score.valid:
                    continue
                tally.add(match, score, settings)
        ids = [e.id for e in state.entrants]
        points = {e: tally.points[e] for e in ids}
        steps = [Step("points", _("Points"), lambda tied: {e: points[e] for e in tied})]
        for key in settings["tiebreaks"]:
            steps.append(Step(key, TIEBREAKS[key], _tiebreak(key, tally, points)))
        names = {e.id: e.name for e in state.entrants}
        ranking = rank(ids, steps, initial=lambda tier: sorted(tier, key=lambda e: names[e]))
        ranks = ranking.ranks()
        withdrawn = {e.id for e in state.entrants if not e.active}
        columns = tuple(Column(step.key, COLUMN_LABELS[step.key], step.label) for step in steps)
        # Each points level built once (a scan of the field per entrant was quadratic), and
        # head-to-head among a level computed once for all its members.
        levels: dict[Number, list[str]] = {}
        for e in ids:
            levels.setdefault(points[e], []).append(e)
        among_level: dict[Number, Mapping[str, Number]] = {}
        rows = []
        for entrant in ranking.order:
            values: dict[str, Any] = {
                step.key: step.values([entrant])[entrant] for step in steps[:1]
            }
            level = levels[points[entrant]]
            for step in steps[1:]:
                # head-to-head is shown among those level on points, as it is applied
                if step.key == "head_to_head" and len(level) == 1:
                    values[step.key] = None  # nobody level on points: nothing to compare
                    continue
                if step.key == "head_to_head":
                    if points[entrant] not in among_level:
                        among_level[points[entrant]] = step.values(level)
                    values[step.key] = among_level[points[entrant]][entrant]
                    continue
                values[step.key] = step.values([entrant])[entrant]
            rows.append(
                StandingRow(
                    entrant=entrant,
                    rank=ranks[entrant],
                    values={k: _plain(v) for k, v in values.items()},
                    status="withdrawn" if entrant in withdrawn else "",
                    details={
                        "played": tally.played[entrant],
                        "wins": tally.wins[entrant],
                        "draws": tally.draws[entrant],
                        "losses": tally.losses[entrant],
                        "byes": tally.byes[entrant],
                    },
                )
            )
        finished = len(state.rounds) == berger.rounds_needed(
            len(self.draw_numbers(state, None)), settings["cycles"]
        ) and all(r.status is RoundStatus.COMPLETED for r in state.rounds)
        return Standings(
            tables=(
                StandingsTable(
                    key="overall",
                    title=_("Standings"),
                    columns=columns,
                    rows=tuple(rows),
                    decided=ranking.decided,
                ),
            ),
            final=finished,
        )

    # -- incremental standings (issue 33, item 1) -----------------------------------------

    def standings_work(self, state: EventState) -> tuple[Standings, object | None]:
        """``standings(state)`` kept as a :class:`_Work`: the tally, each Sonneborn-Berger
        sum, the ranking by :class:`rules.reranking.Reranker` and the rows, so that a
        result only touches its two rows, their opponents' Sonneborn-Berger and the rows
        whose rank moved."""
        work = _Work(self, state)
        return work.result(), work

    def standings_after(
        self, work: object, state: EventState, changed: frozenset[tuple[int, str]]
    ) -> tuple[Standings, object] | None:
        if not isinstance(work, _Work) or work.engine is not self:
            return None
        if not work.update(state, changed):
            return None
        return work.result(), work


class _Tally:
    def __init__(self) -> None:
        self.points: dict[str, Number] = defaultdict(lambda: Fraction(0))
        self.wins: dict[str, int] = defaultdict(int)
        self.draws: dict[str, int] = defaultdict(int)
        self.losses: dict[str, int] = defaultdict(int)
        self.byes: dict[str, int] = defaultdict(int)
        self.played: dict[str, int] = defaultdict(int)
        self.score_for: dict[str, Number] = defaultdict(lambda: Fraction(0))
        self.score_against: dict[str, Number] = defaultdict(lambda: Fraction(0))
        # (entrant, opponent) -> points the entrant scored against that opponent, and the
        # list of game results (1, 1/2, 0) for Sonneborn-Berger
        self.against: dict[tuple[str, str], Number] = defaultdict(lambda: Fraction(0))
        self.game_results: dict[str, list[tuple[str, Fraction]]] = defaultdict(list)

    def add(
        self,
        match: MatchState,
        score: MatchScore,
        settings: Mapping[str, Any],
        sign: int = 1,
    ) -> None:
        """Adds the match (``sign`` -1: takes back what adding it gave, for a result
        corrected in the incremental standings)."""
        if match.is_bye:
            entrant = match.participants[0].entrant
            if entrant is not None:
                self.points[entrant] += sign * score.points[0]
                self.byes[entrant] += sign
            return
        a, b = (p.entrant for p in match.participants)
        if a is None or b is None:
            return
        if absence.unplayed(match):
            # no game was played: the points (and head-to-head) count, the game-based
            # tiebreaks (Sonneborn-Berger, games won, scores) see nothing
            for seat, (me, other) in enumerate(((a, b), (b, a))):
                self.points[me] += sign * score.points[seat]
                self.against[(me, other)] += sign * score.points[seat]
            return
        for seat, (me, other) in enumerate(((a, b), (b, a))):
            self.points[me] += sign * score.points[seat]
            self.against[(me, other)] += sign * score.points[seat]
            self.played[me] += sign
        for scores in score.game_scores:
            sa, sb = scores
            assert sa is not None and sb is not None
            for me, other, mine, theirs in ((a, b, sa, sb), (b, a, sb, sa)):
                self.score_for[me] += sign * mine
                self.score_against[me] += sign * theirs
                result = _results(mine, theirs)[0]
                if result == "win":
                    self.wins[me] += sign
                    game = (other, Fraction(1))
                elif result == "draw":
                    self.draws[me] += sign
                    game = (other, Fraction(1, 2))
                else:
                    self.losses[me] += sign
                    game = (other, Fraction(0))
                if sign > 0:
                    self.game_results[me].append(game)
                else:
                    self.game_results[me].remove(game)


def _absent_reason(name: str, entrant: str, settings: Mapping[str, Any]) -> Reason:
    if settings["absent_result"] == "bye":
        outcome = message("round_robin.absent.bye")
    else:
        outcome = message("round_robin.absent.forfeit")
    return absence.reason(name, outcome, "round_robin.md, Absence", entrant)


def _score_absence(match: MatchState, settings: Mapping[str, Any]) -> MatchScore:
    """A game not played because of an absence (docs/formats/round_robin.md, Absence)."""
    gone = absence.seats(match)
    games = settings["games_per_match"]
    if settings["absent_result"] == "bye":
        # the absent player scores nothing; the one who came has the round off
        points = tuple(
            Fraction(0) if seat in gone else _num(settings["bye_points"]) for seat in (0, 1)
        )
        return MatchScore(
            points=points,
            summary=_("not played"),
            reasons=(Reason("round_robin.absent_bye"),),
            details={"absent": [match.participants[s].entrant for s in gone]},
        )
    points = tuple(
        games * _num(settings["loss_points"] if seat in gone else settings["win_points"])
        for seat in (0, 1)
    )
    winner = None if len(gone) == 2 else 1 - gone[0]
    return MatchScore(
        points=points,
        winner=winner,
        summary=_("forfeit"),
        reasons=(_forfeit_reason(games, both=winner is None),),
        details={"absent": [match.participants[s].entrant for s in gone]},
    )


def _forfeit_reason(games: int, both: bool) -> Reason:
    if both:
        if games > 1:
            return Reason("round_robin.absent_forfeit.both_games")
        return Reason("round_robin.absent_forfeit.both")
    if games > 1:
        return Reason("round_robin.absent_forfeit.games")
    return Reason("round_robin.absent_forfeit")


def _tiebreak(key: str, tally: _Tally, points: Mapping[str, Number]) -> Any:
    if key == "head_to_head":

        def head_to_head(tied: Sequence[str]) -> dict[str, Number]:
            # linear in the games played, not quadratic in the size of the tied group
            members = set(tied)
            totals: dict[str, Number] = {e: Fraction(0) for e in tied}
            for (me, other), value in tally.against.items():
                if me in members and other in members:
                    totals[me] += value
            return totals

        return head_to_head
    if key == "sonneborn_berger":
        return lambda tied: {
            e: sum((points[o] * r for o, r in tally.game_results[e]), Fraction(0)) for e in tied
        }
    if key == "wins":
        return lambda tied: {e: tally.wins[e] for e in tied}
    if key == "score_difference":
        return lambda tied: {e: tally.score_for[e] - tally.score_against[e] for e in tied}
    if key == "score_for":
        return lambda tied: {e: tally.score_for[e] for e in tied}
    raise KeyError(key)


def _results(a: Number, b: Number) -> tuple[str, str]:
    if a > b:
        return ("win", "loss")
    if a < b:
        return ("loss", "win")
    return ("draw", "draw")


def _num(value: Any) -> Number:
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000)
    assert isinstance(value, int | Fraction)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


def _show(value: Number | None) -> str:
    if value is None:
        return "-"
    value = _plain(value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def _seed_order(entrant: EntrantState) -> tuple[int, int, int, str]:
    return (
        0 if entrant.seed is not None else 1,
        entrant.seed or 0,
        -(entrant.rating or 0),
        entrant.name,
    )


class _Work:
    """The round robin's standings and what they were made from (``standings_work``)."""

    def __init__(self, engine: RoundRobinEngine, state: EventState) -> None:
        self.engine = engine
        self.state = state
        settings = self.settings = engine.resolved(state)
        tally = self.tally = _Tally()
        for rnd in state.rounds:
            if rnd.status is RoundStatus.DRAFT:
                continue
            for match in rnd.matches:
                score = self._scored(match)
                if score is not None:
                    tally.add(match, score, settings)
        self.ids = ids = [e.id for e in state.entrants]
        self.place = {e: i for i, e in enumerate(ids)}
        names = {e.id: e.name for e in state.entrants}
        self.withdrawn = {e.id for e in state.entrants if not e.active}
        self.points: dict[str, Number] = {e: tally.points[e] for e in ids}
        self.against: dict[str, dict[str, Number]] = {e: {} for e in ids}
        for (me, other), value in tally.against.items():
            self.against.setdefault(me, {})[other] = value
        self.keys = list(settings["tiebreaks"])
        self.sb: dict[str, Number] = {}
        if "sonneborn_berger" in self.keys:
            self.sb = {e: self._sonneborn_berger(e) for e in ids}
        steps = [Step("points", _("Points"), self._points)]
        steps += [Step(key, TIEBREAKS[key], self._values(key)) for key in self.keys]
        self.steps = steps
        absolute = 1 + self.keys.index("head_to_head") if "head_to_head" in self.keys else None
        self.ranker = Reranker(
            ids,
            steps,
            absolute or len(steps),
            initial=lambda tier: sorted(tier, key=lambda e: names[e]),
        )
        self.columns = tuple(
            Column(step.key, COLUMN_LABELS[step.key], step.label) for step in steps
        )
        # entrants by points (in the field's order), and head-to-head within each level
        self.levels: dict[Number, list[str]] = {}
        for e in ids:
            self.levels.setdefault(self.points[e], []).append(e)
        self.among: dict[Number, Mapping[str, Number]] = {}
        self.rows: dict[str, StandingRow] = {}
        self.finished = len(state.rounds) == berger.rounds_needed(
            len(engine.draw_numbers(state, None)), settings["cycles"]
        ) and all(r.status is RoundStatus.COMPLETED for r in state.rounds)
        self.fresh = set(ids)  # rows to build (again)

    def _scored(self, match: MatchState) -> MatchScore | None:
        """The score ``standings`` adds up for ``match``, or None when it adds nothing."""
        if not match.games and not match.is_bye and not absence.unplayed(match):
            return None
        score = self.engine.score_match(self.state, match)
        return score if score.valid else None

    def _points(self, tied: Sequence[str]) -> dict[str, Number]:
        return {e: self.points[e] for e in tied}

    def _sonneborn_berger(self, entrant: str) -> Number:
        points = self.points
        return sum(
            (points[o] * r for o, r in self.tally.game_results.get(entrant, ())), Fraction(0)
        )

    def _head_to_head(self, tied: Sequence[str]) -> dict[str, Number]:
        members = set(tied)
        totals: dict[str, Number] = {}
        for e in tied:
            total: Number = Fraction(0)
            for other, value in self.against.get(e, {}).items():
                if other in members:
                    total += value
            totals[e] = total
        return totals

    def _values(self, key: str) -> Any:
        tally = self.tally
        if key == "head_to_head":
            return self._head_to_head
        if key == "sonneborn_berger":
            return lambda tied: {e: self.sb[e] for e in tied}
        if key == "wins":
            return lambda tied: {e: tally.wins[e] for e in tied}
        if key == "score_difference":
            return lambda tied: {e: tally.score_for[e] - tally.score_against[e] for e in tied}
        return lambda tied: {e: tally.score_for[e] for e in tied}

    def update(self, state: EventState, changed: frozenset[tuple[int, str]]) -> bool:
        """Takes the changed matches' results from the tally and adds the new ones; False
        when a match is not found in both states (not a change of results only)."""
        numbers = {r.number: r for r in state.rounds}
        pairs = []
        for number, code in changed:
            old, new = find_match(self.state, number, code), find_match(state, number, code)
            if old is None or new is None or old.entrant_ids != new.entrant_ids:
                return False
            pairs.append((numbers[number].status is not RoundStatus.DRAFT, old, new))
        old_state, touched = self.state, set[str]()
        for counted, old, new in pairs:
            if not counted:
                continue
            self.state = old_state
            before = self._scored(old)
            self.state = state
            after = self._scored(new)
            if before is not None:
                self.tally.add(old, before, self.settings, -1)
            if after is not None:
                self.tally.add(new, after, self.settings)
            touched.update(e for e in new.entrant_ids if e is not None)
        self.state = state
        tally, points = self.tally, self.points
        moved = {e for e in touched if e in points and points[e] != tally.points[e]}
        levels = {points[e] for e in touched if e in points}
        for e in moved:
            self.levels[points[e]].remove(e)
            if not self.levels[points[e]]:
                del self.levels[points[e]]
            points[e] = tally.points[e]
            level = self.levels.setdefault(points[e], [])
            level.insert(bisect_left(level, self.place[e], key=self.place.__getitem__), e)
        levels.update(points[e] for e in touched if e in points)
        for a in touched:
            for b in touched:
                if a != b and a in self.against:
                    value = tally.against.get((a, b))
                    if value is not None:
                        self.against[a][b] = value
        again = set(touched)
        if self.sb:
            near = set(touched)
            for e in moved:
                near.update(o for o, _ in tally.game_results.get(e, ()))
            for e in near:
                if e in self.sb:
                    value = self._sonneborn_berger(e)
                    if value != self.sb[e]:
                        self.sb[e] = value
                        again.add(e)
        if "head_to_head" in self.keys:
            # head-to-head is shown among those level on points: their rows change
            for value in levels:
                self.among.pop(value, None)
                again.update(self.levels.get(value, ()))
        self.ranker.update(again)
        self.fresh |= again
        return True

    def result(self) -> Standings:
        ranking = self.ranker.ranking
        ranks = ranking.ranks()
        rows, fresh, old = [], self.fresh, self.rows
        for entrant in ranking.order:
            row = old.get(entrant)
            if entrant in fresh or row is None:
                row = old[entrant] = self._row(entrant, ranks[entrant])
            elif row.rank != ranks[entrant]:  # only moved: its figures are the same
                row = old[entrant] = dataclasses.replace(row, rank=ranks[entrant])
            rows.append(row)
        self.fresh = set()
        return Standings(
            tables=(
                StandingsTable(
                    key="overall",
                    title=_("Standings"),
                    columns=self.columns,
                    rows=tuple(rows),
                    decided=ranking.decided,
                ),
            ),
            final=self.finished,
        )

    def _row(self, entrant: str, rank: int) -> StandingRow:
        tally = self.tally
        values: dict[str, Any] = {"points": _plain(self.points[entrant])}
        for step in self.steps[1:]:
            if step.key == "head_to_head":
                value = self.points[entrant]
                level = self.levels[value]
                if len(level) == 1:
                    values[step.key] = None
                    continue
                among = self.among.get(value)
                if among is None:
                    among = self.among[value] = self._head_to_head(level)
                values[step.key] = _plain(among[entrant])
                continue
            values[step.key] = _plain(step.values([entrant])[entrant])
        return StandingRow(
            entrant=entrant,
            rank=rank,
            values=values,
            status="withdrawn" if entrant in self.withdrawn else "",
            details={
                "played": tally.played[entrant],
                "wins": tally.wins[entrant],
                "draws": tally.draws[entrant],
                "losses": tally.losses[entrant],
                "byes": tally.byes[entrant],
            },
        )


ENGINE = RoundRobinEngine()
