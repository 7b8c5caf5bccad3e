"""Where the event stands after the Swiss: playoffs, IFRL, semi-finals, final (woc II.3.2-3,
II.5, III) and what to pair next.

Everything is derived from the provisional list (points, BQ, discs, lots) and the recorded
final-stage matches, found by their ``details["kind"]`` and their two players; nothing is
stored besides the matches themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.contract import (
    EventState,
    Finished,
    MatchScore,
    MatchState,
    NeedsDecision,
    NextRound,
    Participant,
    PlannedMatch,
    Reason,
    RoundPlan,
)
from rules.formats.woc.brightwell import lot_key
from rules.formats.woc.finals import KIND_STAGE, match_details, score_final_match
from rules.words import gettext_noop as _

WOMAN = "F"
STAGE_LABELS = {"playoff": _("Playoffs"), "semi_final": _("Semi-finals"), "final": _("Finals")}


def playoff_pairs(
    order: Sequence[str], points: Mapping[str, Fraction], top: int
) -> list[tuple[int, int]]:
    """II.3.2 (top 4: 4-5, 3-6, 2-7, 1-8) and II.5.2 (top 2: 2-3, 1-4): 1-based places of
    the pairs that are equal on points."""
    pairs: list[tuple[int, int]] = []
    for k in range(top):
        hi, lo = top - k, top + 1 + k
        if lo <= len(order) and points[order[hi - 1]] == points[order[lo - 1]]:
            pairs.append((hi, lo))
    return pairs


@dataclass
class Playoffs:
    """Playoffs among ``order`` for a top ``top`` (II.3.2-3 or II.5.2-3)."""

    order: list[str]
    top: int
    pairs: list[tuple[int, int]]
    winners: dict[tuple[int, int], str | None] = field(default_factory=dict)
    matches: dict[tuple[int, int], MatchState] = field(default_factory=dict)

    @property
    def decided(self) -> bool:
        return all(self.winners.get(p) for p in self.pairs)

    @property
    def played(self) -> bool:
        return all(p in self.matches for p in self.pairs)

    def qualified(self) -> list[str]:
        """II.3.3: the top who needed no playoff plus the winners, in provisional order."""
        in_pairs = {place for pair in self.pairs for place in pair}
        chosen = {self.order[i - 1] for i in range(1, self.top + 1) if i not in in_pairs}
        chosen |= {w for w in self.winners.values() if w}
        return [e for e in self.order if e in chosen]

    def losers(self) -> list[str]:
        out = []
        for (hi, lo), winner in self.winners.items():
            if winner:
                pair = (self.order[hi - 1], self.order[lo - 1])
                out.append(pair[1] if winner == pair[0] else pair[0])
        return [e for e in self.order if e in out]


@dataclass
class Progress:
    provisional: list[str]
    points: dict[str, Fraction]
    eligible: list[str]
    unresolved: list[tuple[str, ...]]  # tiers no tiebreak split (a lot is due)
    ifrl: Playoffs | None
    women: Playoffs | None
    women_in_semis: bool
    scores: dict[str, MatchScore]  # match code -> score
    by_kind: dict[str, list[MatchState]]
    semi_finals: list[tuple[str, str]] = field(default_factory=list)

    def find(self, kind: str, a: str, b: str) -> MatchState | None:
        for match in self.by_kind.get(kind, []):
            if set(match.entrant_ids) == {a, b}:
                return match
        return None

    def result(self, match: MatchState | None) -> tuple[str, str] | None:
        """(winner, loser) of a decided match."""
        if match is None:
            return None
        score = self.scores[match.code]
        if not score.valid or score.winner is None or not score.complete:
            return None
        ids = match.entrant_ids
        return str(ids[score.winner]), str(ids[1 - score.winner])

    @property
    def semi_finalists(self) -> list[str] | None:
        if self.ifrl is None or not self.ifrl.decided:
            return None
        return self.ifrl.qualified()

    def semi_results(self) -> list[tuple[str, str] | None]:
        return [self.result(self.find("semi_final", a, b)) for a, b in self.semi_finals]

    def final_pair(self) -> tuple[str, str] | None:
        results = self.semi_results()
        if len(results) != 2 or None in results:
            return None
        order = self.semi_finalists or []
        winners = sorted((r[0] for r in results if r), key=order.index)
        return winners[0], winners[1]

    def third_pair(self) -> tuple[str, str] | None:
        results = self.semi_results()
        if len(results) != 2 or None in results:
            return None
        order = self.semi_finalists or []
        losers = sorted((r[1] for r in results if r), key=order.index)
        return losers[0], losers[1]

    def women_finalists(self) -> list[str] | None:
        if self.women is None or self.women_in_semis or not self.women.decided:
            return None
        return self.women.qualified()


def progress(
    state: EventState,
    provisional: Sequence[str],
    points: Mapping[str, Fraction],
    withdrawn: set[str],
    unresolved: list[tuple[str, ...]],
    enabled: bool,
) -> Progress:
    by_kind: dict[str, list[MatchState]] = {}
    scores: dict[str, MatchScore] = {}
    for rnd in state.rounds:
        if rnd.stage not in KIND_STAGE.values():
            continue
        for match in rnd.matches:
            kind = str(match.details.get("kind", ""))
            by_kind.setdefault(kind, []).append(match)
            scores[match.code] = score_final_match(match)
    eligible = [e for e in provisional if e not in withdrawn]
    result = Progress(
        list(provisional), dict(points), eligible, unresolved, None, None, False, scores, by_kind
    )
    if not enabled or len(eligible) < 4:
        return result
    ifrl = Playoffs(eligible, 4, playoff_pairs(eligible, points, 4))
    _settle(result, ifrl, "playoff")
    result.ifrl = ifrl
    semis = result.semi_finalists
    if semis:
        result.semi_finals = [(semis[0], semis[3]), (semis[1], semis[2])]
    genders = {e.id: e.gender for e in state.entrants}
    women = [e for e in eligible if genders.get(e) == WOMAN]
    if semis is not None and any(genders.get(e) == WOMAN for e in semis):
        result.women_in_semis = True
    elif len(women) >= 2:
        wl = Playoffs(women, 2, playoff_pairs(women, points, 2))
        _settle(result, wl, "women_playoff")
        result.women = wl
    return result


def _settle(result: Progress, playoffs: Playoffs, kind: str) -> None:
    for hi, lo in playoffs.pairs:
        a, b = playoffs.order[hi - 1], playoffs.order[lo - 1]
        match = result.find(kind, a, b)
        if match is not None:
            playoffs.matches[(hi, lo)] = match
            decided = result.result(match)
            playoffs.winners[(hi, lo)] = decided[0] if decided else None
        else:
            playoffs.winners[(hi, lo)] = None


# -- pairing the next final-stage round ----------------------------------------------------


def plan_next(prog: Progress, number: int, names: Callable[[str], str]) -> NextRound:
    done = Finished(Reason("woc.finished.final", rule="woc III"))
    if prog.ifrl is None:
        return Finished(Reason("woc.finished.no_finals", rule="woc II.1"))
    near_top = set(prog.eligible[:9])
    for tier in prog.unresolved:
        if near_top & set(tier):
            return NeedsDecision(
                code="woc.lot",
                key=lot_key(tier),
                options=tuple(tier),
                params={"names": ", ".join(names(e) for e in tier)},
            )
    ifrl = prog.ifrl
    if not ifrl.played:
        matches = [
            _planned("playoff", f"PO-{hi}-{lo}", ifrl.order[hi - 1], ifrl.order[lo - 1], (hi, lo))
            for hi, lo in ifrl.pairs
            if (hi, lo) not in ifrl.matches
        ]
        return _round(number, "playoff", matches)
    if not ifrl.decided:
        return _undecided(prog, ifrl)
    if prog.find("semi_final", *prog.semi_finals[0]) is None:
        matches = [
            _planned("semi_final", f"SF{i + 1}", a, b, ranks)
            for i, ((a, b), ranks) in enumerate(
                zip(prog.semi_finals, ((1, 4), (2, 3)), strict=True)
            )
        ]
        if prog.women is not None:
            matches += [
                _planned(
                    "women_playoff",
                    f"WPO-{hi}-{lo}",
                    prog.women.order[hi - 1],
                    prog.women.order[lo - 1],
                    (hi, lo),
                )
                for hi, lo in prog.women.pairs
            ]
        return _round(number, "semi_final", matches)
    final, third = prog.final_pair(), prog.third_pair()
    if final is None or third is None:
        return NeedsDecision(code="woc.semi_final.open")
    if prog.women is not None and not prog.women.decided:
        return _undecided(prog, prog.women)
    if prog.find("final", *final) is None:
        order = prog.semi_finalists or []
        matches = [
            _planned(
                "final",
                "F",
                final[0],
                final[1],
                (order.index(final[0]) + 1, order.index(final[1]) + 1),
            ),
            _planned(
                "third_place",
                "3RD",
                third[0],
                third[1],
                (order.index(third[0]) + 1, order.index(third[1]) + 1),
            ),
        ]
        women = prog.women_finalists()
        if women is not None and len(women) == 2:
            matches.append(_planned("women_final", "WF", women[0], women[1], (1, 2)))
        return _round(number, "final", matches)
    return done


def _undecided(prog: Progress, playoffs: Playoffs) -> NeedsDecision:
    open_codes = [m.code for p, m in playoffs.matches.items() if not playoffs.winners.get(p)]
    return NeedsDecision(
        code="woc.playoff.open",
        key=open_codes[0] if open_codes else "",
        params={"matches": ", ".join(open_codes)},
    )


# each kind's sentence names its list, its games and its minutes (IV.1), and its rule
_PLANNED = {
    "playoff": ("woc.playoff", "woc II.3.2"),
    "women_playoff": ("woc.women_playoff", "woc II.5.2"),
    "semi_final": ("woc.semi_final", "woc III.2"),
    "final": ("woc.final", "woc III.4"),
    "third_place": ("woc.third_place", "woc III.3"),
    "women_final": ("woc.women_final", "woc III.5"),
}


def _planned(kind: str, code: str, a: str, b: str, ranks: tuple[int, int]) -> PlannedMatch:
    code_of, rule = _PLANNED[kind]
    reason = Reason(
        code_of, rule=rule, params={"ranks": list(ranks), "first": ranks[0], "second": ranks[1]}
    )
    return PlannedMatch(
        code=code,
        participants=(Participant(a), Participant(b)),
        bracket=kind,
        reasons=(reason,),
        details=match_details(kind, ranks),
    )


def _round(number: int, stage: str, matches: list[PlannedMatch]) -> RoundPlan:
    if stage == "playoff":
        reason = Reason("woc.stage.playoff", rule="woc II.3.2")
    elif stage == "semi_final":
        reason = Reason("woc.stage.semi_final", rule="woc III.2")
    else:
        reason = Reason("woc.stage.final", rule="woc III.4")
    return RoundPlan(
        number=number,
        label=STAGE_LABELS[stage],
        matches=tuple(
            PlannedMatch(m.code, m.participants, table, m.bracket, m.group, m.reasons, m.details)
            for table, m in enumerate(matches, start=1)
        ),
        stage=stage,
        reasons=(reason,),
    )
