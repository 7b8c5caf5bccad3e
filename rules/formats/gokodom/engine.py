"""The GokoDom engine: next_round, score_match and standings behind the contract."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rules import absence
from rules.contract import (
    DrawSourceProtocol,
    EngineError,
    EventState,
    MatchScore,
    MatchState,
    NeedsDecision,
    NextRound,
    Number,
    Problem,
    Reason,
    RoundPlan,
    RoundStatus,
    Standings,
)
from rules.engine_base import SettingsMixin
from rules.words import gettext_noop as _
from rules.words import message

from . import schedule
from .context import SETTINGS, Context, auto_rounds, build, entrant_problems, stages_of
from .knockout import knockout_outcome
from .plan_knockout import next_knockout_round
from .plan_swiss import plan_swiss_round
from .record import SWISS, stage_of, swiss_outcome
from .results import MATCH_POINTS, RESULT_REASONS, Result, tally_games
from .standings import build_standings


class GokodomEngine(SettingsMixin):
    key = "gokodom"
    # score_match reads the Swiss round count (settings, the first round's order or the
    # active players) and the match's round (rules/scoring_frame.py): a save need not load
    # the whole event
    scores_match_in_frame = True
    name = _("GokoDom (Swiss qualifier, top-8 elimination)")
    settings = SETTINGS

    def validate_settings(self, settings: Mapping[str, Any]) -> list[Problem]:
        problems = super().validate_settings(settings)
        rounds = settings.get("swiss_rounds", 0)
        if isinstance(rounds, int) and not 0 <= rounds <= 20:
            problems.append(Problem("gokodom.setting.swiss_rounds", "swiss_rounds"))
        start = settings.get("first_round_start", "")
        if start and schedule.parse_date(start) is None:
            problems.append(
                Problem(
                    "gokodom.setting.first_round_start",
                    "first_round_start",
                    params={"value": start},
                )
            )
        for key in ("round_days", "last_swiss_round_days", "playoff_days", "knockout_round_days"):
            days = settings.get(key, 7)
            if isinstance(days, int | float) and not 1 <= days <= 60:
                problems.append(
                    Problem("gokodom.setting.days", key, params={"key": key, "days": days})
                )
        last = settings.get("last_swiss_round_days", 14)
        if isinstance(last, int | float) and last > 14:
            problems.append(Problem("gokodom.setting.last_round_days", "last_swiss_round_days"))
        return problems

    # -- next round ----------------------------------------------------------------------

    def next_round(self, state: EventState, draws: DrawSourceProtocol) -> NextRound:
        settings = self.resolved(state)
        ctx = build(state, settings)
        self._check(state, ctx)
        decision = _swiss_decision(ctx)
        if decision is not None:
            return decision
        swiss = ctx.rounds(state, SWISS)
        outcome: NextRound
        if len(swiss) < ctx.swiss_rounds:
            outcome = plan_swiss_round(state, ctx, draws, len(swiss) + 1)
        else:
            outcome = _walkovers(state, next_knockout_round(state, ctx, draws))
        if isinstance(outcome, RoundPlan):
            # Draws made through ``draws`` are the source's to report (the service stores
            # source.new); repeating them in plan.draws stored each draw twice.
            outcome = _with_dates(state, ctx, outcome)
        return outcome

    def _check(self, state: EventState, ctx: Context) -> None:
        problems = entrant_problems(state, ctx.swiss_rounds)
        players = ctx.initial_order or [e.id for e in state.entrants if e.active]
        if len(players) < 2:
            problems.append(Problem("gokodom.too_few", "entrants"))
        if ctx.initial_order is not None:
            late = [e.name for e in state.entrants if e.active and e.id not in players]
            if late:
                problems.append(
                    Problem(
                        "gokodom.late_entry", "entrants", params={"names": ", ".join(sorted(late))}
                    )
                )
        problems.extend(p for _, p in ctx.record.problems)
        explained = {code for code, _ in ctx.record.problems} | set(ctx.record.for_director)
        problems.extend(
            Problem("gokodom.match_pending", code, params={"match": code})
            for code in ctx.record.pending
            if code not in explained
        )
        if problems:
            raise EngineError(problems)

    # -- scoring -------------------------------------------------------------------------

    def score_match(self, state: EventState, match: MatchState) -> MatchScore:
        settings = self.resolved(state)
        rnd = next((r for r in state.rounds if r.number == match.round_number), None)
        stage = stage_of(rnd) if rnd is not None else SWISS
        over = rnd is not None and rnd.status is RoundStatus.COMPLETED
        if stage == SWISS:
            return _score_swiss(match, over, match.round_number == _swiss_count(state, settings))
        return _score_knockout(match, over)

    # -- standings -----------------------------------------------------------------------

    def standings(self, state: EventState) -> Standings:
        return build_standings(state, build(state, self.resolved(state)))

    # -- incremental standings (issue 33, item 1) -----------------------------------------

    def standings_work(self, state: EventState) -> tuple[Standings, object | None]:
        """``standings(state)`` and, during the Swiss portion, the work that updates only
        the rows a result reaches (rules/formats/gokodom/incremental.py)."""
        from .incremental import Work

        work = Work(self, state, self.resolved(state))
        return work.standings, (work if work.usable else None)

    def standings_after(
        self, work: object, state: EventState, changed: frozenset[tuple[int, str]]
    ) -> tuple[Standings, object] | None:
        from .incremental import Work

        if not isinstance(work, Work) or work.engine is not self or not work.update(state, changed):
            return None
        return work.result(), work


def _swiss_count(state: EventState, settings: Mapping[str, Any]) -> int:
    # Cheaper than the whole record: the count of players only.
    if settings["swiss_rounds"]:
        return int(settings["swiss_rounds"])
    for rnd in state.rounds:
        if "initial_order" in rnd.details:
            return auto_rounds(len(rnd.details["initial_order"]))
    return auto_rounds(sum(1 for e in state.entrants if e.active))


def _swiss_decision(ctx: Context) -> NeedsDecision | None:
    for code in ctx.record.for_director:
        return NeedsDecision(code="gokodom.last_round_handshake", key=code, params={"match": code})
    return None


def _score_swiss(match: MatchState, over: bool, last_round: bool) -> MatchScore:
    outcome = swiss_outcome(match, round_over=over, last_round=last_round)
    seats = [p.entrant for p in match.participants]
    zero: tuple[Number, ...] = tuple(0 for _ in seats)
    if outcome.problems:
        return MatchScore(points=zero, complete=False, problems=outcome.problems)
    if outcome.results is None:
        reasons: tuple[Reason, ...] = ()
        if outcome.for_director:
            reasons = (Reason("gokodom.last_round_handshake.open", rule="GokoDom II.B.5"),)
        return MatchScore(points=zero, complete=False, reasons=reasons)
    codes = [outcome.results[e] if e is not None else Result.L for e in seats]
    points = tuple(MATCH_POINTS[c] for c in codes)
    winner = None
    if len(points) == 2 and points[0] != points[1]:
        winner = 0 if points[0] > points[1] else 1
    elif len(points) == 1 and points[0] > 0:  # a bye; an absent player's L wins nothing
        winner = 0
    game_scores: tuple[tuple[Number | None, ...], ...] = ()
    if match.games and "results" not in match.details:
        tally = tally_games(match)
        game_scores = tuple(tally.scores)
        summary = f"{_show(tally.points[0])}-{_show(tally.points[1])}"
    else:
        summary = "-".join(str(c) for c in codes)
    return MatchScore(
        points=points,
        winner=winner,
        summary=summary,
        game_scores=game_scores,
        reasons=tuple(
            Reason(RESULT_REASONS[c], rule="GokoDom II.B-C") for c in dict.fromkeys(codes)
        ),
        details={"results": {e: str(c) for e, c in zip(seats, codes, strict=True) if e}},
    )


def _score_knockout(match: MatchState, over: bool) -> MatchScore:
    outcome = knockout_outcome(match, round_over=over)
    seats = [p.entrant for p in match.participants]
    points: tuple[Number, ...] = (
        outcome.tally.points if outcome.tally is not None else tuple(0 for _ in seats)
    )
    game_scores: tuple[tuple[Number | None, ...], ...] = (
        tuple(outcome.tally.scores) if outcome.tally is not None else ()
    )
    if outcome.problems:
        return MatchScore(points=points, complete=False, problems=outcome.problems)
    summary = f"{_show(points[0])}-{_show(points[1])}" if outcome.tally else ""
    if not outcome.decided:
        reasons: tuple[Reason, ...] = ()
        if outcome.for_director == "tied":
            reasons = (Reason("gokodom.tied", rule="GokoDom IV.A.4"),)
        elif outcome.for_director == "both_messaged":
            reasons = (Reason("gokodom.both_messaged", rule="GokoDom IV.A.4"),)
        return MatchScore(
            points=points,
            complete=False,
            summary=summary,
            reasons=reasons,
            game_scores=game_scores,
        )
    winner = seats.index(outcome.winner) if outcome.winner in seats else None
    results = outcome.results or {}
    if not summary:
        summary = "-".join(str(results[e]) for e in seats if e in results)
    reasons = ()
    if match.details.get("advances") is not None and outcome.winner is not None:
        reasons = (Reason("gokodom.director_decision", rule="GokoDom IV.A.4"),)
    return MatchScore(
        points=points,
        winner=winner,
        summary=summary,
        game_scores=game_scores,
        reasons=reasons,
        details={"results": {e: str(c) for e, c in results.items()}, "advances": outcome.winner},
    )


def _walkovers(state: EventState, outcome: NextRound) -> NextRound:
    """gokodom.md, Absence: in the playoff and the elimination rounds an absent player's
    match is kept and lost by default (knockout.knockout_outcome)."""
    return absence.mark_matches(
        state,
        outcome,
        message("gokodom.absent.walkover"),
        "gokodom.md, Absence",
    )


def _with_dates(state: EventState, ctx: Context, plan: RoundPlan) -> RoundPlan:
    drafted = [r for r in state.rounds if r.status is not RoundStatus.DRAFT]
    previous_end = schedule.parse_date(drafted[-1].details.get("ends")) if drafted else None
    dates = schedule.round_dates(
        ctx.settings, [*stages_of(state), plan.stage], ctx.swiss_rounds, previous_end
    )
    if dates is None:
        return plan
    start, end = dates
    return dataclasses.replace(
        plan, details={**plan.details, "starts": start.isoformat(), "ends": end.isoformat()}
    )


def _show(value: Number) -> str:
    return f"{float(value):g}"


ENGINE = GokodomEngine()
