"""The Freestyle engine: three group rounds, semi-finals, final and third place game.

See docs/formats/freestyle.md for the rules as implemented and every decision taken where
freestyle.txt is silent. Keys this engine reads and writes:

- settings: ``tiebreaker_games`` ("where_needed" | "all"), ``max_entrants`` (int).
- entrants: ``rating`` (Pentolla rating points), ``seed`` (overrides the rating order when
  every entrant has one), ``withdrawn_after_round`` (r - 1: withdrew during round r, his
  round r games are void; r: withdrew between rounds r and r + 1).
- rounds: ``groups`` (written by the plans, read back: the group members in seed order);
  round details ``rating_order`` (Round 1), ``grouping`` and ``digits`` (Rounds 2 and 3).
- matches: participants' ``role`` "A"/"B" in Round 1 (seat 0 is A), participant details
  ``group_seed`` / ``seed``, match details ``playing_round`` (Berger round in the group) and
  ``higher_seed_chose`` ("A" or "B", recorded from Round 2 on; seat 0 is the higher seed).
- games: ``scores`` are the two players' game points; details ``first_blue_piece``,
  ``first_red_piece`` (named by A) and ``b_colours`` ("blue/red" | "yellow/green"), all
  optional. Replays in the semi-finals and the final round are further games of the match.
- draws: ``round-1/equal-rating/<rating>`` (lot), ``round-2/grouping/<attempt>`` and
  ``round-3/grouping/<attempt>`` (digits), ``round-3/group-<g>/seeding-<place>/digit`` and
  ``finals/<F|3P>/seeding/digit`` (random calls), and tiebreaker game results recorded by
  the director under ``round-<r>/group-<g>/tiebreaker/<ids joined by +>`` (the winner's id,
  or the list of all the tied in order).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import absence
from rules.contract import (
    Column,
    DrawSourceProtocol,
    EventState,
    Finished,
    MatchScore,
    MatchState,
    NeedsDecision,
    NextRound,
    Problem,
    Reason,
    RoundPlan,
    Setting,
    StandingRow,
    Standings,
    StandingsTable,
)
from rules.engine_base import SettingsMixin
from rules.formats.freestyle import groups, knockout, ranking
from rules.formats.freestyle.results import Context, plain, score_match
from rules.formats.freestyle.tables import ADVANCE, FINALS, GROUP_ROUNDS, MIN_ENTRANTS, SEMI_FINALS
from rules.formats.freestyle.words import GROUP, GROUP_TABLE
from rules.words import gettext_noop as _
from rules.words import message

COLUMNS = (
    Column("wins", _("Wins"), _("A tie counts half a win.")),
    Column("played", _("Played")),
    Column("points_for", _("Game points")),
    Column("points_difference", _("Difference"), _("Game points for minus against.")),
)


class FreestyleEngine(SettingsMixin):
    """No incremental standings: ``standings_work`` gives no work and ``standings_after``
    None (the defaults of rules/engine_base.py), so a result recomputes the whole; at
    its largest realistic size (28 players) that is already a small cost (issue 33)."""

    key = "freestyle"
    # score_match reads who withdrew after which round and the match, not the other
    # matches' games (rules/scoring_frame.py): a save need not load the whole event
    scores_match_in_frame = True
    name = _("Freestyle (groups, then semi-finals and final)")
    settings = (
        Setting(
            "tiebreaker_games",
            "where_needed",
            _(
                "When a tie survives every ranking step, play a tiebreaker game only where it "
                "decides who advances or in which place (where_needed), or for every place "
                "(all)."
            ),
            ("where_needed", "all"),
        ),
        Setting("max_entrants", 32, _("The largest field accepted (at least 16; 28 is usual).")),
    )

    def validate_settings(self, settings: Mapping[str, Any]) -> list[Problem]:
        problems = super().validate_settings(settings)
        maximum = settings.get("max_entrants", 32)
        if (
            isinstance(maximum, int | float)
            and not isinstance(maximum, bool)
            and (maximum < MIN_ENTRANTS or maximum != int(maximum))
        ):
            problems.append(
                Problem(
                    "freestyle.setting.max_entrants",
                    "max_entrants",
                    params={"minimum": MIN_ENTRANTS},
                )
            )
        return problems

    def next_round(self, state: EventState, draws: DrawSourceProtocol) -> NextRound:
        settings = self.resolved(state)
        mode = str(settings["tiebreaker_games"])
        ctx = Context(state)
        done = len(state.rounds)
        if done:
            missing = [
                m.code
                for m in state.rounds[-1].matches
                if not (ctx.score(m).complete and ctx.score(m).valid)
            ]
            if missing:
                return NeedsDecision(
                    "freestyle.results_missing",
                    options=tuple(missing),
                    params={"round": state.rounds[-1].label, "matches": ", ".join(missing)},
                )
        if done >= 3:
            return absence.mark_matches(
                state,
                self._knockout(ctx, draws, mode, done),
                message("freestyle.absent.walkover"),
                "freestyle.md, Absence",
            )
        plan: NextRound
        if done == 0:
            plan = groups.plan_round1(ctx, draws, int(settings["max_entrants"]))
        elif done == 1:
            plan = groups.plan_round2(ctx, draws, mode)
        else:
            plan = groups.plan_round3(ctx, draws, mode)
        playing = (
            {p.entrant for m in plan.matches for p in m.participants}
            if isinstance(plan, RoundPlan)
            else set()
        )
        caught = [e for e in absence.absent_now(state, done + 1) if e in playing]
        if caught:
            # freestyle.md, Absence: a group round is a whole round robin of the group
            raise absence.refuse(state, caught, message("freestyle.absent.group_round"))
        return plan

    def _knockout(self, ctx: Context, draws: DrawSourceProtocol, mode: str, done: int) -> NextRound:
        if done == 3:
            return knockout.plan_semi_finals(ctx, mode)
        if done == 4:
            return knockout.plan_finals(ctx, draws)
        table = knockout.final_table(ctx)
        champion = table.rows[0].entrant if table and table.rows else None
        return Finished(
            Reason(
                "freestyle.finished",
                rule=knockout.RULE_FINAL,
                params={"champion": champion, "name": ctx.who(champion)},
            )
        )

    def score_match(self, state: EventState, match: MatchState) -> MatchScore:
        return score_match(Context(state), match)

    def standings(self, state: EventState) -> Standings:
        settings = self.resolved(state)
        ctx = Context(state)
        tables: list[StandingsTable] = []
        pending: list[NeedsDecision] = []
        final = knockout.final_table(ctx)
        if final is not None:
            tables.append(final)
        for number in sorted(GROUP_ROUNDS, reverse=True):
            found = ctx.rounds.get(number)
            if found is None or not ctx.matches(number):
                continue
            for group in found.groups:
                result = ranking.group_ranking(ctx, number, group)
                tables.append(group_table(ctx, result))
                pending += ranking.pending(ctx, result, str(settings["tiebreaker_games"]))
        return Standings(tables=tuple(tables), pending=tuple(pending), final=final is not None)


def group_table(ctx: Context, result: ranking.GroupRanking) -> StandingsTable:
    number = result.round
    record = ctx.record(number)
    ranks = result.ranks()
    going = (
        set(e for e in ranking.advancing(ctx, result) if e is not None)
        if result.complete
        else set()
    )
    # A tie across the cut waiting for its tiebreaker game: who goes on is not known yet, so
    # its players are neither qualified nor out ("if need be, there is a tie-breaker game").
    undecided: set[str] = set()
    if result.complete:
        for question in ranking.pending(ctx, result, "where_needed"):
            tier = {e for e in question.options if ctx.in_round(e, number + 1)}
            if tier & going and tier - going:
                undecided |= tier
    rows = []
    for entrant in result.order:
        status = ""
        if not ctx.in_round(entrant, number + 1):
            status = "withdrawn"
        elif entrant in undecided:
            status = "tiebreaker"
        elif result.complete:
            status = "qualified" if entrant in going else "eliminated"
        rows.append(_row(record, entrant, ranks[entrant], status))
    # Withdrawn during the round: "his games ... do not count"; listed last, unranked.
    gone = [e for e in result.group.entrants if e not in result.players]
    rows += [_row(record, e, len(result.players) + 1 + i, "withdrawn") for i, e in enumerate(gone)]
    label = result.group.label or GROUP.format(key=result.group.key)
    notes = []
    if number in ADVANCE:
        notes.append(
            Reason(
                "freestyle.advance.semi_finals",
                rule="Ranking and Advancement",
                params={"count": ADVANCE[number]},
            )
            if number == 3
            else Reason(
                "freestyle.advance",
                rule="Ranking and Advancement",
                params={"count": ADVANCE[number], "next": number + 1},
            )
        )
    return StandingsTable(
        key=f"round-{number}/group-{result.group.key}",
        title=GROUP_TABLE.format(n=number, label=label),
        columns=COLUMNS,
        rows=tuple(rows),
        decided=result.ranking.decided,
        notes=tuple(notes),
    )


def _row(record: Any, entrant: str, rank: int, status: str) -> StandingRow:
    return StandingRow(
        entrant=entrant,
        rank=rank,
        values={
            "wins": plain(record.wins(entrant)),
            "played": record.played(entrant),
            "points_for": plain(record.points_for(entrant)),
            "points_difference": plain(record.difference(entrant)),
        },
        status=status,
    )


# The last two rounds, for readers of this module.
KNOCKOUT_ROUNDS = (SEMI_FINALS, FINALS)
ENGINE = FreestyleEngine()
