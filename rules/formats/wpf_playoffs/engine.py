"""The WPF GP Playoffs engine ("Swiss Elimination"): pairing, scoring, standings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import absence
from rules.contract import (
    DrawSourceProtocol,
    EngineError,
    EventState,
    Finished,
    MatchScore,
    MatchState,
    NextRound,
    Participant,
    PlannedMatch,
    Problem,
    Reason,
    RoundPlan,
    Setting,
    Standings,
)
from rules.engine_base import SettingsMixin
from rules.words import gettext_noop as _
from rules.words import message

from . import eligibility, puzzles, scoring
from .ladder import Ladder
from .replay import REVEAL_SETTING, Replay, replay, revealed
from .schedule import ONLINE_LETTERS, SESSIONS, Session, Stage, bracket_words, fits
from .standings import build_standings


class WpfPlayoffsEngine(SettingsMixin):
    """No incremental standings: ``standings_work`` gives no work and ``standings_after``
    None (the defaults of rules/engine_base.py), so a result recomputes the whole; at
    its largest realistic size (16 players) that is already a small cost (issue 33)."""

    key = "wpf_playoffs"
    # score_match reads whether the online results are revealed (settings, the live
    # rounds' status) and the match (rules/scoring_frame.py): a save need not load the whole
    # event
    scores_match_in_frame = True
    name = _("WPF GP Playoffs (Swiss Elimination)")
    # Every match is fixed by the ladder the earlier results make (the Brackets tables): a
    # later round whose players a corrected result changes cannot stay as played, the
    # replay refuses it (decision 14, docs/formats/wpf_playoffs.md).
    pairings_follow_results = True
    settings = (
        Setting("players", 16, _("Players invited to the playoffs."), (16,)),
        Setting("eligible_top", 30, _("Only the top N eligibility scores may be invited.")),
        Setting("best_rounds", 6, _("The eligibility score adds up this many best GP rounds.")),
        Setting(
            "puzzle_selection",
            "preference_lists",
            _(
                "Online puzzles: by the players' preference lists (Puzzle GP) or fixed in "
                "advance for each round (Sudoku GP)."
            ),
            ("preference_lists", "fixed"),
        ),
        Setting(
            "online_puzzles",
            [],
            _(
                "The online puzzle pool (8 puzzles), or with fixed selection the puzzles of "
                "rounds A-G in order. Empty: puzzles are not tracked."
            ),
        ),
        Setting("live_puzzles", [], _("The live puzzle pool (4 puzzles). Empty: not tracked.")),
        Setting(
            REVEAL_SETTING,
            False,
            _(
                "Online results are public (the director reveals them at the start of the "
                "live stage)."
            ),
        ),
    )

    def validate_settings(self, settings: Mapping[str, Any]) -> list[Problem]:
        problems = super().validate_settings(settings)
        for key in ("online_puzzles", "live_puzzles"):
            value = settings.get(key, [])
            if isinstance(value, list) and len(set(map(str, value))) != len(value):
                problems.append(Problem("wpf.setting.puzzles", key, params={"key": key}))
        for key in ("eligible_top", "best_rounds"):
            value = settings.get(key, 1)
            if isinstance(value, int | float) and (value < 1 or int(value) != value):
                problems.append(Problem("wpf.setting.count", key, params={"key": key}))
        top = settings.get("eligible_top", 30)
        if isinstance(top, int) and top < 16:
            problems.append(Problem("wpf.setting.top", "eligible_top", params={"top": top}))
        return problems

    # -- pairing -------------------------------------------------------------------------

    def next_round(self, state: EventState, draws: DrawSourceProtocol) -> NextRound:
        settings = self.resolved(state)
        number = len(state.rounds) + 1
        if number > len(SESSIONS):
            return Finished(Reason("wpf.finished", rule="Seed and Rank"))
        session = SESSIONS[number - 1]
        details: dict[str, Any] = {
            "letter": session.letter,
            "stage": session.stage.value,
            "heat": session.heat,
        }
        reasons: list[Reason] = []
        if number == 1:
            seeding, problems = eligibility.seed(
                state.entrants,
                draws,
                players=settings["players"],
                top=int(settings["eligible_top"]),
                best=int(settings["best_rounds"]),
            )
            if problems:
                raise EngineError(problems)
            if not any(seeding.seeds):
                raise EngineError([Problem("wpf.nobody", "entrants")])
            details["seeds"] = list(seeding.seeds)
            reasons.extend(seeding.reasons)
            played = Replay(seeding.seeds, Ladder())
        else:
            played = replay(state)
            if played.complete_sessions < number - 1:
                raise EngineError(
                    played.problems
                    or [
                        Problem(
                            "wpf.incomplete",
                            "rounds",
                            params={"round": SESSIONS[played.complete_sessions].label},
                        )
                    ]
                )
        matches = tuple(
            self._match(state, played, session, spec_index)
            for spec_index in range(len(session.matches))
        )
        details.update(self._puzzle(state, played, session, draws, settings, reasons))
        if session.stage is Stage.ONLINE:
            details["results_public"] = revealed(state)
        plan = RoundPlan(
            number=number,
            label=session.label,
            matches=matches,
            stage=session.stage.value,
            reasons=tuple(reasons),
            details=details,
        )
        # wpf_playoffs.md, Absence: an absent player is the virtual "bye" of their match
        return absence.mark_matches(state, plan, message("wpf.absent_bye"), "Eligibility")

    def _match(
        self, state: EventState, played: Replay, session: Session, index: int
    ) -> PlannedMatch:
        spec = session.matches[index]
        ladder = played.ladder
        participants = []
        for rank in spec.ranks:
            seed = ladder.at(rank)
            entrant = played.entrant(seed)
            participants.append(
                Participant(
                    entrant,
                    f"rank {rank}",
                    {"rank": rank, "seed": seed, "virtual": entrant is None},
                )
            )
        losses = (ladder.losses[ladder.at(spec.better)], ladder.losses[ladder.at(spec.worse)])
        reasons = [
            Reason(
                "wpf.table",
                rule="Brackets",
                params={
                    "ranks": list(spec.ranks),
                    "losses": list(losses),
                    "match": spec.code,
                    "better": spec.better,
                    "worse": spec.worse,
                    "bracket": bracket_words(spec.bracket),
                },
            )
        ]
        if not fits(spec.bracket, losses):
            reasons.append(
                Reason(
                    "wpf.bracket_misfit",
                    rule="Brackets",
                    params={
                        "lost": losses[0],
                        "other_lost": losses[1],
                        "bracket": bracket_words(spec.bracket),
                    },
                )
            )
        return PlannedMatch(
            code=spec.code,
            participants=tuple(participants),
            bracket=spec.bracket.value,
            reasons=tuple(reasons),
            details={
                "letter": spec.letter,
                "stage": spec.stage.value,
                "heat": spec.heat,
                "ranks": list(spec.ranks),
                "hidden_until_reveal": spec.stage is Stage.ONLINE,
            },
        )

    def _puzzle(
        self,
        state: EventState,
        played: Replay,
        session: Session,
        draws: DrawSourceProtocol,
        settings: Mapping[str, Any],
        reasons: list[Reason],
    ) -> dict[str, Any]:
        if session.stage is Stage.LIVE:
            pool = [str(p) for p in settings["live_puzzles"]]
            earlier = [r for r in state.rounds if r.stage == Stage.LIVE.value]
            same = [r for r in earlier if r.details.get("letter") == session.letter]
            if same and same[0].details.get("puzzle"):
                return {"puzzle": same[0].details["puzzle"]}
            used = [str(r.details["puzzle"]) for r in earlier if r.details.get("puzzle")]
            chooser = played.entrant(played.ladder.at(1))
            if pool:
                reasons.append(
                    Reason("wpf.live_pick", rule=puzzles.RULE, params={"letter": session.letter})
                )
            return {
                "puzzle": None,
                "puzzle_chooser": chooser,
                "puzzle_options": puzzles.live_options(pool, used),
            }
        pool = [str(p) for p in settings["online_puzzles"]]
        if not pool:
            return {"puzzle": None}
        if settings["puzzle_selection"] == "fixed":
            fixed = puzzles.choose_fixed(session.letter, pool, ONLINE_LETTERS)
            if fixed is None:
                return {"puzzle": None}
            reasons.extend(fixed.reasons)
            return {"puzzle": fixed.puzzle}
        used = [str(r.details["puzzle"]) for r in state.rounds if r.details.get("puzzle")]
        problems: list[Problem] = []
        pickers: list[puzzles.Picker] = []
        for seed in range(1, len(played.seeds) + 1):
            entrant = played.entrant(seed)
            preferences: tuple[str, ...] | None = None
            known = state.entrants_by_id.get(entrant) if entrant else None
            if known is not None and known.active_in_round(session.number):
                raw = puzzles.preference_list(known.flags, session.letter)
                where = f"entrants[{state.entrants.index(known)}].flags.puzzle_preferences"
                found = puzzles.check_list(raw, pool, known.name, where)
                problems.extend(found)
                if raw is not None and not found:
                    preferences = tuple(str(p) for p in raw)
            pickers.append(
                puzzles.Picker(
                    seed, played.ladder.rank_of(seed), played.ladder.losses[seed], preferences
                )
            )
        if problems:
            raise EngineError(problems)
        pick = puzzles.choose_online(session.letter, pickers, pool, used, draws)
        reasons.extend(pick.reasons)
        return {
            "puzzle": pick.puzzle,
            "puzzle_picker": played.entrant(pick.picker) if pick.picker else None,
            "puzzle_reversed": pick.reversed,
        }

    # -- scoring and standings -------------------------------------------------------------

    def score_match(self, state: EventState, match: MatchState) -> MatchScore:
        return scoring.score(state, match, revealed(state))

    def standings(self, state: EventState) -> Standings:
        settings = self.resolved(state)
        return build_standings(state, settings)


ENGINE = WpfPlayoffsEngine()
__all__ = ["ENGINE", "WpfPlayoffsEngine"]
