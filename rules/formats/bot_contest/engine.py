"""The bot-contest engine: seeding gauntlet, winners'/losers' brackets, final round robin."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import absence
from rules.contract import (
    DrawSourceProtocol,
    EngineError,
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
    Setting,
    Standings,
)
from rules.draws import DrawNeeded
from rules.engine_base import SettingsMixin
from rules.formats.bot_contest import brackets as bk
from rules.formats.bot_contest import final as fin
from rules.formats.bot_contest import scoring, standings
from rules.formats.bot_contest.boards import choose_board
from rules.formats.bot_contest.seeding import (
    BRACKET_STAGE,
    FINAL_STAGE,
    GAUNTLET_STAGE,
    SEEDING_DRAW,
    competitors,
    recorded_seeds,
    references,
    seed_order,
)
from rules.formats.bot_contest.words import STAGE_TWO_ROUND
from rules.words import gettext_noop as _
from rules.words import message


class BotContestEngine(SettingsMixin):
    """No incremental standings: ``standings_work`` gives no work and ``standings_after``
    None (the defaults of rules/engine_base.py), so a result recomputes the whole; at
    its largest realistic size (200 entrants) that is already a small cost (issue 33)."""

    key = "bot_contest"
    # score_match reads the settings, the entrants and the rounds' stages, not the other
    # matches' games (rules/scoring_frame.py): a save need not load the whole event
    scores_match_in_frame = True
    name = _("Bot contest (gauntlet, double-elimination brackets, final round robin)")
    settings = (
        Setting("references", 3, _("How many reference programs play the seeding gauntlet.")),
        Setting("k", 2, _("K: stage two ends with 2K entries in the winners' bracket.")),
        Setting(
            "losers_target",
            None,
            _("How many entries the losers' bracket sends to the final ('roughly K'); empty: K."),
        ),
        Setting("win_first_bonus", 1000, _("Bonus for a game won as X (moving first).")),
        Setting("win_second_bonus", 1200, _("Bonus for a game won as O (moving second).")),
        Setting("tie_first_bonus", 500, _("Bonus for a game tied as X.")),
        Setting("tie_second_bonus", 600, _("Bonus for a game tied as O.")),
        Setting(
            "result_from",
            "points",
            _(
                "Where a game's result comes from: the points scored (more points wins) or "
                "the referee's 'result' detail (X, O or tie)."
            ),
            ("points", "referee"),
        ),
        Setting(
            "match_decider",
            "games",
            _(
                "What decides a stage-two match: game wins (a tie counts half; equal is a "
                "tied match), or game wins then total points scored."
            ),
            ("games", "games_then_points"),
        ),
        Setting(
            "first_in_game_one",
            "higher_seed",
            _("Who moves first (X) in game 1 of a bracket or final match."),
            ("higher_seed", "lower_seed"),
        ),
        Setting("boards", [], _("The boards, in the order the engine rotates through them.")),
        Setting(
            "board_choice",
            "rotate",
            _(
                "Whether the engine rotates through the list of boards or the director picks "
                "each round's board (recorded under the key 'board/round-N')."
            ),
            ("rotate", "director"),
        ),
    )

    # -- settings ------------------------------------------------------------------------

    def validate_settings(self, settings: Mapping[str, Any]) -> list[Problem]:
        problems = super().validate_settings(settings)
        if problems:
            return problems
        values = self.resolved(settings)
        k = values["k"]
        if not isinstance(k, int) or k < 1:
            problems.append(Problem("bot_contest.setting.k", "k"))
            return problems
        target = values["losers_target"]
        if target is not None and (not isinstance(target, int) or target < 1):
            problems.append(Problem("bot_contest.setting.losers_target", "losers_target"))
            return problems
        finalists = 2 * k + (k if target is None else target)
        if not 4 <= finalists <= 8:
            problems.append(
                Problem("bot_contest.setting.finalists", "k", params={"finalists": finalists})
            )
        refs = values["references"]
        if not isinstance(refs, int) or refs < 1:
            problems.append(Problem("bot_contest.setting.references", "references"))
        if any(not isinstance(b, str) or not b for b in values["boards"]):
            problems.append(Problem("bot_contest.setting.boards.name", "boards"))
        if values["board_choice"] == "director" and not values["boards"]:
            problems.append(Problem("bot_contest.setting.boards.list", "boards"))
        return problems

    def _settings(self, state: EventState) -> dict[str, Any]:
        problems = self.validate_settings(state.settings)
        if problems:
            raise EngineError(problems)
        values = self.resolved(state)
        if values["losers_target"] is None:
            values["losers_target"] = values["k"]
        return values

    # -- planning ------------------------------------------------------------------------

    def next_round(self, state: EventState, draws: DrawSourceProtocol) -> NextRound:
        settings = self._settings(state)
        absent = absence.absent_now(state, len(state.rounds) + 1)
        if absent:  # bot_contest.md, Absence
            raise absence.refuse(state, absent, message("bot_contest.absence"))
        try:
            return self._next(state, draws, settings)
        except DrawNeeded as needed:
            purpose: Any = needed.purpose
            if purpose == SEEDING_DRAW:
                purpose = message("bot_contest.draw.seeding_tie")
            return NeedsDecision(
                "bot_contest.draw_needed", key=needed.key, params={"purpose": purpose}
            )

    def _next(
        self, state: EventState, draws: DrawSourceProtocol, settings: dict[str, Any]
    ) -> NextRound:
        number = len(state.rounds) + 1
        if not state.rounds:
            return self._gauntlet(state, settings)
        self._check_played(state, settings)
        if state.rounds[-1].stage == FINAL_STAGE:
            return self._after_final(state, settings)
        details: dict[str, Any] = {}
        reasons: list[Reason] = []
        seeds = recorded_seeds(state)
        if seeds is None:
            seeding = seed_order(state, settings, competitors(state, number), draws)
            seeds = seeding.order
            details["seeds"] = seeds
            reasons.append(
                Reason(
                    "bot_contest.seeded",
                    rule="Stage one, step 5",
                    params={"draws": seeding.draw_keys},
                )
            )
        state_of = bk.replay(state, seeds, settings)
        winners = state_of.members(bk.WINNERS)
        losers = state_of.members(bk.LOSERS)
        k, target = settings["k"], settings["losers_target"]
        losers_goal = max(target, 2 * k + target - len(winners))
        playing = []
        if len(winners) > 2 * k:
            playing.append((bk.WINNERS, winners))
        if len(losers) > losers_goal:
            playing.append((bk.LOSERS, losers))
        board = choose_board(state, number, settings)
        if isinstance(board, NeedsDecision):
            return board
        name, source, board_reasons = board
        details.update(board=name, board_source=source)
        reasons.extend(board_reasons)
        if not playing:
            finalists = [e for e in seeds if e in winners or e in losers]
            return self._final(number, finalists, settings, details, reasons, len(winners))
        matches: list[PlannedMatch] = []
        details["brackets"] = {bk.WINNERS: winners, bk.LOSERS: losers}
        for bracket, members in playing:
            pairing = bk.pair_bracket(members, state_of.byes, state_of.met)
            letter = "W" if bracket == bk.WINNERS else "L"
            for index, (high, low) in enumerate(pairing.pairs, start=1):
                matches.append(
                    self._match(
                        f"R{number}-{letter}{index}",
                        high,
                        low,
                        state_of.seed,
                        settings,
                        bracket,
                        [
                            Reason(
                                "bot_contest.fold",
                                rule="Stage two, step 2",
                                params={"high": state_of.seed(high), "low": state_of.seed(low)},
                            ),
                            *pairing.reasons[1 if pairing.bye else 0 :],
                        ],
                    )
                )
            if pairing.bye is not None:
                matches.append(
                    PlannedMatch(
                        code=f"R{number}-{letter}BYE",
                        participants=(Participant(pairing.bye),),
                        bracket=bracket,
                        reasons=(pairing.reasons[0],),
                    )
                )
        waiting = [(b, m) for b, m in ((bk.WINNERS, winners), (bk.LOSERS, losers))]
        for bracket, members in waiting:
            if members and bracket not in [b for b, _ in playing]:
                reasons.append(
                    Reason(
                        "bot_contest.bracket_waits",
                        rule="Stage two, EVENTUALLY",
                        params={
                            "bracket": bracket,
                            "size": len(members),
                            "the_bracket": (
                                message("bot_contest.bracket.winners")
                                if bracket == bk.WINNERS
                                else message("bot_contest.bracket.losers")
                            ),
                        },
                    )
                )
        return RoundPlan(
            number=number,
            # the codes of its matches carry the event's round number (R3-W1): so does the
            # label, with the stage's own count beside it
            label=STAGE_TWO_ROUND.format(n=number, stage_round=state_of.rounds + 1),
            matches=tuple(matches),
            stage=BRACKET_STAGE,
            reasons=tuple(reasons),
            details=details,
        )

    def _check_played(self, state: EventState, settings: Mapping[str, Any]) -> None:
        """The last round must be complete and valid before the next is planned: the
        brackets and seeds are read from its results."""
        problems: list[Problem] = []
        last = state.rounds[-1]
        for match in last.matches:
            score = scoring.score_match(state, match, settings)
            for problem in score.problems:
                problems.append(
                    Problem(
                        "bot_contest.in_match",
                        f"{match.code}.{problem.field}",
                        params={
                            **problem.params,
                            "match": match.code,
                            # the problem said as its own message, in the page's language
                            "problem": {"code": problem.code, "params": dict(problem.params)},
                        },
                    )
                )
            if score.valid and not score.complete:
                problems.append(
                    Problem(
                        "bot_contest.unplayed", f"{match.code}.games", params={"match": match.code}
                    )
                )
        if problems:
            raise EngineError(problems)

    def _match(
        self,
        code: str,
        high: str,
        low: str,
        seed_of: Any,
        settings: Mapping[str, Any],
        bracket: str,
        reasons: Sequence[Reason],
    ) -> PlannedMatch:
        first, second = (
            (high, low) if settings["first_in_game_one"] == "higher_seed" else (low, high)
        )
        return PlannedMatch(
            code=code,
            participants=(Participant(first), Participant(second)),
            bracket=bracket,
            reasons=(
                *reasons,
                Reason(
                    "bot_contest.first_mover",
                    rule="OPEN-QUESTION 38",
                    params={"first": seed_of(first), "second": seed_of(second)},
                ),
            ),
            details={"seeds": [seed_of(first), seed_of(second)]},
        )

    def _gauntlet(self, state: EventState, settings: Mapping[str, Any]) -> NextRound:
        refs = references(state)
        entries = competitors(state, 1)
        problems: list[Problem] = []
        if len(refs) != settings["references"]:
            problems.append(
                Problem(
                    "bot_contest.references",
                    "entrants",
                    params={"needed": settings["references"], "marked": len(refs)},
                )
            )
        if len(entries) < 2:
            problems.append(Problem("bot_contest.too_few", "entrants"))
        if problems:
            raise EngineError(problems)
        board = choose_board(state, 1, settings)
        if isinstance(board, NeedsDecision):
            return board
        name, source, reasons = board
        matches = [
            PlannedMatch(
                code=f"G{i}-R{j}",
                participants=(Participant(entry), Participant(ref)),
                bracket=scoring.GAUNTLET,
                reasons=(Reason("bot_contest.gauntlet", rule="Stage one, step 3"),),
            )
            for i, entry in enumerate(entries, start=1)
            for j, ref in enumerate(refs, start=1)
        ]
        return RoundPlan(
            number=1,
            label=_("Stage one: seeding gauntlet"),
            matches=tuple(matches),
            stage=GAUNTLET_STAGE,
            reasons=tuple(reasons),
            details={"board": name, "board_source": source},
        )

    def _final(
        self,
        number: int,
        finalists: list[str],
        settings: Mapping[str, Any],
        details: dict[str, Any],
        reasons: list[Reason],
        from_winners: int,
    ) -> NextRound:
        seeds = details.get("seeds")
        seed_list = finalists if seeds is None else list(seeds)
        if len(finalists) < 2:
            return Finished(Reason("bot_contest.single", rule="Stage three"))

        def seed_of(entrant: str) -> int:
            return seed_list.index(entrant) + 1 if entrant in seed_list else 0

        matches = [
            self._match(
                f"F{index}",
                high,
                low,
                seed_of,
                settings,
                scoring.FINAL,
                [Reason("bot_contest.round_robin", rule="Stage three")],
            )
            for index, (high, low) in enumerate(fin.round_robin_pairs(finalists), start=1)
        ]
        details["finalists"] = finalists
        reasons.append(
            Reason(
                "bot_contest.finalists",
                rule="Stage two, EVENTUALLY",
                params={
                    "count": len(finalists),
                    "from_winners": from_winners,
                    "from_losers": len(finalists) - from_winners,
                },
            )
        )
        return RoundPlan(
            number=number,
            label=_("Stage three: final round robin"),
            matches=tuple(matches),
            stage=FINAL_STAGE,
            reasons=tuple(reasons),
            details=details,
        )

    def _after_final(self, state: EventState, settings: Mapping[str, Any]) -> NextRound:
        table = fin.final_table(state, settings)
        assert table is not None
        decision = standings.first_place(state, table)
        if isinstance(decision, NeedsDecision):
            return decision
        return Finished(
            Reason("bot_contest.finished", rule="Stage three", params={"winner": decision})
        )

    # -- scoring and standings -----------------------------------------------------------

    def score_match(self, state: EventState, match: MatchState) -> MatchScore:
        return scoring.score_match(state, match, self._settings(state))

    def standings(self, state: EventState) -> Standings:
        return standings.build(state, self._settings(state))


ENGINE = BotContestEngine()
