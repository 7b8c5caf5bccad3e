"""The World Othello Championship engine: qualifying rounds, game scores, standings."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, TypeAlias

from rules import absence
from rules.contract import (
    Column,
    DrawSourceProtocol,
    EngineError,
    EntrantState,
    EventState,
    Finished,
    MatchScore,
    MatchState,
    NeedsDecision,
    NextRound,
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
)
from rules.engine_base import SettingsMixin
from rules.formats.woc import (
    brightwell,
    finals,
    history,
    lists,
    stages,
    swiss,
    swiss_budget,
    swiss_pruned,
    system,
)
from rules.formats.woc.scoring import score_game
from rules.formats.woc.words import BQ_HELP
from rules.tiebreaks import Ranking, show_number
from rules.words import gettext_noop as _
from rules.words import message
from rules.words_common import ROUND

# The largest pairing budget a director may set: a draft is paired in the web request,
# which the deployment lets run 150 s (docs/operations.md, WEB_TIMEOUT).
MOST_SECONDS = 120

# What the provisional list is computed from: settings, tally, each BQ, the ranking, the
# withdrawn, and C.
Computed: TypeAlias = tuple[
    dict[str, Any],
    history.Tally,
    dict[str, brightwell.Brightwell],
    Ranking,
    set[str],
    Fraction,
]


class WocEngine(SettingsMixin):
    key = "woc"
    name = _("World Othello Championship")
    # score_match reads the match, its round's stage and the settings only: saving a result
    # need not load the whole event (tournaments/services/results.py): 4 s a save at 1,000
    # entrants before (issue 24)
    scores_match_alone = True
    settings = (
        Setting(
            "system",
            "auto",
            _("Playing system of the first two days; 'auto' chooses by field size (II.2)."),
            system.SYSTEMS,
        ),
        Setting("rounds", 0, _("Qualifying rounds; 0 takes the system's number (13 for a Swiss).")),
        Setting("c", 6, _("The Brightwell constant C (Appendix A 2: 6 at the WOC).")),
        Setting(
            "bye_points", 1.0, _("Points for a bye (a round against the dummy BYE)."), (0, 0.5, 1)
        ),
        Setting("bye_discs", 32, _("Discs counted in the disc count for a bye.")),
        Setting(
            "final_stages",
            True,
            _("Play the playoffs, semi-finals and finals after the qualifying rounds (II.3, III)."),
        ),
        Setting(
            "pairing_seconds",
            swiss_budget.SECONDS,
            _(
                "Time budget of a Swiss round's pairing, in seconds of work on the reference "
                "machine (counted as solver work, so a draft never depends on the clock). When "
                "the proof of optimality does not finish within it, the draft offers the best "
                "pairing found and says how far from the optimum it can be."
            ),
        ),
    )

    def validate_settings(self, settings: Mapping[str, Any]) -> list[Problem]:
        problems = super().validate_settings(settings)
        rounds = settings.get("rounds", 0)
        if isinstance(rounds, int) and not isinstance(rounds, bool) and not 0 <= rounds <= 50:
            problems.append(Problem("woc.setting.rounds", "rounds"))
        c = settings.get("c", 6)
        if isinstance(c, int | float) and not isinstance(c, bool) and c < 0:
            problems.append(Problem("woc.setting.c", "c"))
        seconds = settings.get("pairing_seconds", swiss_budget.SECONDS)
        if isinstance(seconds, int | float) and not 0 <= seconds <= MOST_SECONDS:
            problems.append(
                Problem(
                    "woc.setting.pairing_seconds",
                    "pairing_seconds",
                    params={"most": MOST_SECONDS},
                )
            )
        discs = settings.get("bye_discs", 32)
        if isinstance(discs, int | float) and not 0 <= discs <= 64:
            problems.append(Problem("woc.setting.bye_discs", "bye_discs"))
        return problems

    # -- pairing -------------------------------------------------------------------------

    def next_round(self, state: EventState, draws: DrawSourceProtocol) -> NextRound:
        settings = self.resolved(state)
        plan = system.plan(state, settings)
        done = [r for r in state.rounds if history.qualifying(r.stage)]
        number = len(done) + 1
        if number > plan.rounds:
            if settings["final_stages"] and self._qualifying_complete(state, settings):
                names = state.entrants_by_id
                return _walkovers(
                    state,
                    stages.plan_next(
                        self.progress(state), len(state.rounds) + 1, lambda e: names[e].name
                    ),
                )
            return Finished(
                Reason(
                    "woc.finished",
                    rule="woc II.2",
                    params={
                        "rounds": plan.rounds,
                        "system": plan.system,
                        "system_name": system.SYSTEM_NAMES[plan.system],
                    },
                )
            )
        details: dict[str, Any] = {}
        reasons = list(plan.reasons)
        if number == 1:
            details.update(plan.details())
        if not plan.swiss:
            matches, numbers = system.round_robin(state, settings, draws, plan)
            if number == 1:
                details["draw_numbers"] = numbers
            stage = "round_robin"
        elif number == 1:
            matches = system.swiss_round_one(state, draws, plan)
            stage = "swiss"
        else:
            matches, round_reason, proof = self._swiss_round(state, settings, plan, number)
            reasons.append(round_reason)
            details["pairing_proof"] = proof
            stage = "swiss"
        absent = [e for e in absence.absent_now(state, number) if e in plan.field]
        if absent:
            # woc.md, Absence: not paired; the round counts as one not played (Appendix A 3)
            details[absence.KEY] = absent
            reasons.extend(
                absence.reason(
                    state.entrant(e).name,
                    message("woc.absent.swiss"),
                    "woc Appendix A 3(a, c)",
                    e,
                )
                for e in absent
            )
        if plan.swiss:
            day = 1 if number <= 7 else 2
            reasons.append(
                Reason(
                    "woc.swiss.day",
                    rule="woc II.2",
                    params={"number": number, "rounds": plan.rounds, "day": day},
                )
            )
        return RoundPlan(
            number=len(state.rounds) + 1,
            label=ROUND.format(n=number),
            matches=tuple(matches),
            stage=stage,
            reasons=tuple(reasons),
            details=details,
        )

    def swiss_players(self, state: EventState, number: int) -> list[swiss.SwissPlayer]:
        settings = self.resolved(state)
        plan = system.plan(state, settings)
        tally = self._tally(state, settings)
        by_id = state.entrants_by_id
        players = []
        for entrant in plan.field:
            if not plays_in(by_id[entrant], number) or entrant in state.absent:
                continue
            record = tally.record(entrant)
            opponents = dict(record.opponents)
            if record.byes:
                opponents[swiss.BYE] = record.byes
            players.append(
                swiss.SwissPlayer(
                    id=entrant,
                    points=record.points,
                    seats=tuple(record.seats),
                    last_float=record.last_float,
                    opponents=opponents,
                    country=by_id[entrant].country,
                    name=by_id[entrant].name,
                )
            )
        discs = {p.id: tally.record(p.id).discs for p in players}
        players.sort(key=lambda p: (-p.points, -discs[p.id], p.label, p.id))
        return players

    def _swiss_round(
        self, state: EventState, settings: Mapping[str, Any], plan: system.Plan, number: int
    ) -> tuple[list[PlannedMatch], Reason, dict[str, object]]:
        players = self.swiss_players(state, number)
        modified = plan.system == "modified_swiss"
        try:
            # the fast route proves each round optimal (a lower bound met, or an exact
            # solve) within the director's budget; the round records how
            budget = swiss_budget.Budget.seconds(float(settings["pairing_seconds"]))
            outcome = swiss_pruned.pair(players, modified, budget=budget)
            pairings = outcome.pairings
        except swiss.PairingImpossible as error:
            raise EngineError(
                [
                    Problem(
                        "woc.pairing.impossible",
                        "rounds",
                        params={"number": number, "error": message(error.code)},
                    )
                ]
            ) from error
        matches: list[PlannedMatch] = []
        for pairing in pairings:
            cost = dict(zip(swiss.RULES, pairing.cost.costs, strict=True))
            if pairing.white is None:
                matches.append(
                    PlannedMatch(
                        code=f"R{number}-BYE",
                        participants=(Participant(pairing.black),),
                        reasons=pairing.reasons,
                        details={"pairing_cost": cost},
                    )
                )
                continue
            table = len(matches) + 1
            matches.append(
                PlannedMatch(
                    code=f"R{number}-T{table}",
                    participants=(
                        Participant(pairing.black, "black"),
                        Participant(pairing.white, "white"),
                    ),
                    table=table,
                    reasons=pairing.reasons,
                    details={"pairing_cost": cost},
                )
            )
        totals = swiss.total([p.cost for p in pairings])
        summary = dict(zip(swiss.RULES, totals, strict=True))
        if outcome.proven:
            reason = Reason(
                "woc.pairing.optimal",
                rule="woc II.6.2",
                params={"totals": summary, "modified": modified, "breaches": breaches(summary)},
            )
        else:
            reason = unproven_reason(outcome, summary, players, modified, settings)
        return matches, reason, outcome.details()

    # -- scoring -------------------------------------------------------------------------

    def score_match(self, state: EventState, match: MatchState) -> MatchScore:
        if "kind" in match.details or self._final_round(state, match.round_number):
            return finals.score_final_match(match)
        if match.is_bye:
            settings = self.resolved(state)
            points = brightwell.as_fraction(settings["bye_points"])
            return MatchScore(
                points=(points,),
                winner=0 if points == 1 else None,
                summary="bye",
                game_scores=((int(settings["bye_discs"]),),),
                reasons=(
                    Reason(
                        "woc.bye.score",
                        rule="woc II.7 (bye score: event setting)",
                        params={"points": show_number(points), "discs": settings["bye_discs"]},
                    ),
                ),
            )
        if len(match.participants) != 2:
            return _refused(Problem("woc.match.players", "participants"))
        if len(match.games) != 1:
            return _refused(Problem("woc.match.games", "games", params={"count": len(match.games)}))
        # a Swiss match is one game (II.5): its errors need not say which
        result, problems = score_game(match.games[0], "games[0]", numbered=False)
        if result is None:
            return MatchScore(points=(0, 0), complete=False, problems=tuple(problems))
        summary = f"{result.scores[0]}-{result.scores[1]}"
        game = match.games[0]
        # a record's bare result ("decided" without discs) has no score to show; a forfeit
        # typed without discs has one, the format's 64-0 (issue 28, item 1)
        if game.details.get("decided") is not None and all(v is None for v in game.scores):
            summary = "1-0" if result.winner == 0 else "0-1" if result.winner == 1 else "½-½"
        return MatchScore(
            points=result.points,
            winner=result.winner,
            summary=summary,
            reasons=result.reasons,
            game_scores=(result.scores,),
        )

    # -- standings -----------------------------------------------------------------------

    def _final_round(self, state: EventState, number: int) -> bool:
        return any(r.number == number and not history.qualifying(r.stage) for r in state.rounds)

    def _tally(self, state: EventState, settings: Mapping[str, Any]) -> history.Tally:
        return history.collect(
            state,
            self.scorer(state),
            brightwell.as_fraction(settings["bye_points"]),
            int(settings["bye_discs"]),
        )

    def scorer(self, state: EventState) -> Callable[[MatchState], MatchScore]:
        """``score_match`` for one state, with the score of a plain one-game match (whole
        disc counts, no game details) kept by its game: such a score depends on the game
        alone, and a large field repeats the same few thousand games."""
        final_rounds = {r.number for r in state.rounds if not history.qualifying(r.stage)}
        known: dict[tuple[object, ...], MatchScore] = {}

        def score(match: MatchState) -> MatchScore:
            games = match.games
            if (
                len(games) != 1
                or len(match.participants) != 2
                or "kind" in match.details
                or match.round_number in final_rounds
                or games[0].details
            ):
                return self.score_match(state, match)
            game = games[0]
            if not all(type(value) is int for value in game.scores):
                return self.score_match(state, match)
            key = (game.number, game.ending, *game.scores)
            found = known.get(key)
            if found is None:
                found = known[key] = self.score_match(state, match)
            return found

        return score

    # The provisional list of the last state ranked, while that state lives: the standings
    # task ranks a state, then its contention asks for the same state's progress, which
    # ranked the whole field again (a second at 10,000 entrants). States are immutable, so
    # the same object has the same list; a weak reference drops it with the state.
    _last: tuple[weakref.ref[EventState], Computed] | None = None

    def _provisional(self, state: EventState) -> Computed:
        last = self._last
        if last is not None and last[0]() is state:
            return last[1]
        settings = self.resolved(state)
        tally = self._tally(state, settings)
        ids = self._listed(state, tally)
        c = brightwell.as_fraction(settings["c"])
        withdrawn = brightwell.withdrawn_ids(state)
        values = {e: brightwell.brightwell(e, tally, withdrawn, c) for e in ids}
        names = {e.id: e.name for e in state.entrants}
        ranking = brightwell.provisional(ids, tally, values, state.draws, names)
        computed = (settings, tally, values, ranking, withdrawn, c)
        self._last = (weakref.ref(state, self._forget), computed)
        return computed

    def _forget(self, gone: weakref.ref[EventState]) -> None:
        last = self._last
        if last is not None and last[0] is gone:
            self._last = None

    def progress(self, state: EventState, computed: Computed | None = None) -> stages.Progress:
        """The final stages as the recorded matches leave them (II.3.2 onwards)."""
        settings, tally, _, ranking, withdrawn, _ = computed or self._provisional(state)
        unresolved = [tier for tier in ranking.tiers if len(tier) > 1]
        enabled = bool(settings["final_stages"]) and self._qualifying_complete(state, settings)
        points = {e: tally.records[e].points for e in ranking.order}
        return stages.progress(state, ranking.order, points, withdrawn, unresolved, enabled)

    def standings(self, state: EventState) -> Standings:
        computed = self._provisional(state)
        tally, values, ranking, withdrawn = computed[1], computed[2], computed[3], computed[4]
        ranks = ranking.ranks()
        rows = [
            provisional_row(entrant, ranks[entrant], tally, values, withdrawn)
            for entrant in ranking.order
        ]
        return self._standings(state, computed, tuple(rows), self._qualifying_complete)

    def _standings(
        self,
        state: EventState,
        computed: Computed,
        rows: tuple[StandingRow, ...],
        complete: bool | Callable[[EventState, Mapping[str, Any]], bool],
    ) -> Standings:
        """The standings from the provisional list's figures and rows; ``complete``:
        whether the qualifying rounds are over, or how to tell."""
        settings, tally, ranking, c = computed[0], computed[1], computed[3], computed[5]
        names = {e.id: e.name for e in state.entrants}
        if not isinstance(complete, bool):
            complete = complete(state, settings)
        pending: list[NeedsDecision] = []
        if complete:
            for tier in ranking.tiers:
                if len(tier) > 1:
                    pending.append(
                        NeedsDecision(
                            code="woc.lot.list",
                            key=brightwell.lot_key(tier),
                            options=tier,
                            params={"names": ", ".join(names[e] for e in tier)},
                        )
                    )
        columns = (
            Column("points", _("Points"), _("1 per win, 0.5 per draw (II.3.1).")),
            Column("bq", _("BQ"), BQ_HELP.format(c=show_number(c))),
            Column("discs", _("Discs"), _("Disc count (Appendix A 4).")),
        )
        table = StandingsTable(
            key="overall",
            title=_("Provisional list") if complete else _("Standings"),
            columns=columns,
            rows=rows,
            decided=ranking.decided,
        )
        if not complete:
            return Standings(tables=(table,), pending=tuple(pending), final=False)
        if not settings["final_stages"]:
            return Standings(tables=(table,), pending=tuple(pending), final=True)
        return self._final_tables(state, table, tally, tuple(pending), computed)

    # -- incremental standings (issue 33, item 1) -----------------------------------------

    def standings_work(self, state: EventState) -> tuple[Standings, object | None]:
        """``standings(state)`` kept as a :class:`rules.formats.woc.incremental.Work`: a
        result then updates the points, discs and Brightwell terms of its two players and
        their opponents, and re-places only those in the provisional list."""
        from rules.formats.woc.incremental import Work

        work = Work(self, state)
        return work.result(state), work

    def standings_after(
        self, work: object, state: EventState, changed: frozenset[tuple[int, str]]
    ) -> tuple[Standings, object] | None:
        from rules.formats.woc.incremental import Work

        if not isinstance(work, Work) or work.engine is not self:
            return None
        if not work.update(state, changed):
            return None
        return work.result(state), work

    def _final_tables(
        self,
        state: EventState,
        provisional: StandingsTable,
        tally: history.Tally,
        pending: tuple[NeedsDecision, ...],
        computed: Computed | None,
    ) -> Standings:
        prog = self.progress(state, computed)
        points = prog.points
        tables: list[StandingsTable] = [provisional]
        ifrl = lists.ifrl_rows(prog)
        if ifrl is not None:
            tables.append(lists.table("ifrl", _("Individual final ranking list"), ifrl, points))
        final = lists.final_rows(prog)
        entrants = state.entrants_by_id
        women, note = lists.women_rows(prog, entrants)
        if women is not None:
            tables.append(
                lists.table("women", _("Women's final ranking list"), women, points, note)
            )
        rank = {e: r for e, r, _ in (ifrl or [])}
        team_rows, notes = lists.team_rows(state.entrants, tally, rank)
        if team_rows:
            tables.append(lists.team_table(team_rows, notes))
        over = final is not None or prog.ifrl is None
        if final is not None:
            tables.insert(0, lists.table("final", "Final ranking", final, points))
        return Standings(tables=tuple(tables), pending=pending, final=over)

    def _listed(self, state: EventState, tally: history.Tally) -> list[str]:
        """The field, plus anyone with a game (an imported record may hold late entrants)."""
        try:
            field = set(system.plan(state, self.resolved(state)).field)
        except EngineError:
            field = set()
        return [e.id for e in state.entrants if e.id in field or tally.records[e.id].games]

    def _qualifying_complete(self, state: EventState, settings: Mapping[str, Any]) -> bool:
        rounds = [r for r in state.rounds if history.qualifying(r.stage)]
        if not rounds or any(r.status is not RoundStatus.COMPLETED for r in rounds):
            return False
        try:
            return len(rounds) >= system.plan(state, settings).rounds
        except EngineError:
            return False


def provisional_row(
    entrant: str,
    rank: int,
    tally: history.Tally,
    values: Mapping[str, brightwell.Brightwell],
    withdrawn: set[str],
) -> StandingRow:
    """An entrant's row of the provisional list (points, BQ and its parts, discs)."""
    record = tally.records[entrant]
    return StandingRow(
        entrant=entrant,
        rank=rank,
        values={
            "points": brightwell.plain(record.points),
            "bq": brightwell.plain(values[entrant].value),
            "discs": record.discs,
        },
        status="withdrawn" if entrant in withdrawn else "",
        details={
            "brightwell": values[entrant].parts(),
            "games": sum(1 for g in record.games if g.opponent is not None),
            "byes": record.byes,
        },
    )


def _walkovers(state: EventState, outcome: NextRound) -> NextRound:
    """woc.md, Absence: in the final stages an absent player's match is kept and lost by
    walkover (finals.score_final_match); both absent, nobody wins it."""
    return absence.mark_matches(state, outcome, message("woc.absent.walkover"), "woc.md")


def plays_in(entrant: EntrantState, number: int) -> bool:
    """Whether ``entrant`` is paired in qualifying round ``number`` (II.7)."""
    if entrant.withdrawn_after_round is not None:
        return number <= entrant.withdrawn_after_round
    return entrant.active


def _refused(problem: Problem) -> MatchScore:
    return MatchScore(points=(0, 0), complete=False, problems=(problem,))


def breaches(summary: Mapping[str, int]) -> str:
    """II.6.2's breaches rule by rule, as shown: "(b) 0, (c) 1, ..."."""
    return ", ".join(f"({k}) {v}" for k, v in summary.items())


def unproven_reason(
    outcome: swiss_pruned.Outcome,
    summary: Mapping[str, int],
    players: list[swiss.SwissPlayer],
    modified: bool,
    settings: Mapping[str, Any],
) -> Reason:
    """The draft's word when the proof did not finish within the budget: what the pairing
    breaks, how far the optimum can be from it (the floor against its cost, rule by rule:
    the rules before the first one where they differ are at the optimum), and the choice."""
    scale = swiss.weights(swiss.field_of(players))
    floor = outcome.bound if outcome.bound is not None else 0
    least: dict[str, int] = {}
    for rule, weight in zip(swiss.RULES, scale, strict=True):
        least[rule], floor = divmod(floor, weight)
    first = next((r for r in swiss.RULES if least[r] < summary[r]), swiss.RULES[-1])
    settled = swiss.RULES[: swiss.RULES.index(first)]
    between = {"rule": first, "least": least[first], "cost": summary[first]}
    if settled:
        optimum = message(
            "woc.pairing.optimum.settled",
            settled_first=settled[0],
            settled_last=settled[-1],
            **between,
        )
    else:
        optimum = message("woc.pairing.optimum", **between)
    seconds = settings["pairing_seconds"]
    return Reason(
        "woc.pairing.unproven",
        rule="woc II.6.2",
        params={
            "totals": summary,
            "modified": modified,
            "rule": first,
            "least": least[first],
            "seconds": seconds,
            "budget": show_number(seconds),
            "breaches": breaches(summary),
            "optimum": optimum,
        },
    )
