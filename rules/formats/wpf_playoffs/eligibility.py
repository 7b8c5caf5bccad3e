"""Eligibility and initial seeds ("Eligibility" in the rule document).

Flags read from each entrant: ``gp_scores`` (the scores of the entrant's GP rounds, a
list of numbers) or ``gp_total`` (the eligibility score itself, when the director has it
already); ``attending`` (true when the entrant answered that they will be at the live
finals); ``gp_position`` (optional, the entrant's place in the regular competition, used
only to order equal eligibility scores).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.contract import DrawSourceProtocol, EntrantState, Number, Problem, Reason

from .words import TIED_SCORE_PURPOSE

RULE = "Eligibility"


@dataclass(frozen=True)
class Candidate:
    entrant: str
    score: Number
    attending: bool
    position: int | None


@dataclass(frozen=True)
class Seeding:
    """``seeds[i]`` is the entrant with seed ``i + 1``, or None for a virtual bye player."""

    seeds: tuple[str | None, ...]
    reasons: tuple[Reason, ...]


def _number(value: Any) -> Number | None:
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        return None
    return value


def eligibility_score(scores: Sequence[Number], best: int = 6) -> Number:
    """ "The score of their six best rounds ... is added together to get the eligibility
    score." Fewer rounds than ``best`` simply add up what there is."""
    return sum(sorted(scores, reverse=True)[:best], Fraction(0))


def candidates(
    entrants: Sequence[EntrantState], best: int
) -> tuple[list[Candidate], list[Problem]]:
    found: list[Candidate] = []
    problems: list[Problem] = []
    for index, entrant in enumerate(entrants):
        flags = entrant.flags
        place = f"entrants[{index}]"
        score: Number | None
        if "gp_scores" in flags:
            raw = flags["gp_scores"]
            values = [_number(v) for v in raw] if isinstance(raw, list | tuple) else [None]
            clean = [v for v in values if v is not None]
            if len(clean) != len(values) or any(v < 0 for v in clean):
                problems.append(
                    Problem(
                        "wpf.gp_scores",
                        f"{place}.flags.gp_scores",
                        params={"entrant": entrant.id, "name": entrant.name},
                    )
                )
                continue
            score = eligibility_score(clean, best)
        elif "gp_total" in flags:
            score = _number(flags["gp_total"])
            if score is None or score < 0:
                problems.append(
                    Problem(
                        "wpf.gp_total",
                        f"{place}.flags.gp_total",
                        params={"entrant": entrant.id, "name": entrant.name},
                    )
                )
                continue
        else:
            problems.append(
                Problem(
                    "wpf.no_score",
                    f"{place}.flags",
                    params={"entrant": entrant.id, "name": entrant.name},
                )
            )
            continue
        position = flags.get("gp_position")
        found.append(
            Candidate(
                entrant.id,
                score,
                bool(flags.get("attending", False)) and entrant.active_in_round(1),
                position if isinstance(position, int) and not isinstance(position, bool) else None,
            )
        )
    return found, problems


def _show(value: Number) -> str:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def eligible(found: Sequence[Candidate], top: int) -> tuple[list[Candidate], list[Reason]]:
    """ "Have one of the top 30 eligibility scores" and "Express an intention to be present".

    Scores equal to the 30th best count as top 30 scores (nobody is cut by a tie)."""
    ordered = sorted(found, key=lambda c: c.score, reverse=True)
    cut = ordered[top - 1].score if len(ordered) >= top else None
    chosen: list[Candidate] = []
    reasons: list[Reason] = []
    for candidate in ordered:
        if cut is not None and candidate.score < cut:
            reasons.append(
                Reason(
                    "wpf.not_top",
                    rule=RULE,
                    params={
                        "entrant": candidate.entrant,
                        "score": _show(candidate.score),
                        "top": top,
                        "cut": _show(cut),
                    },
                )
            )
        elif not candidate.attending:
            reasons.append(
                Reason("wpf.not_attending", rule=RULE, params={"entrant": candidate.entrant})
            )
        else:
            chosen.append(candidate)
    return chosen, reasons


def seed(
    entrants: Sequence[EntrantState],
    draws: DrawSourceProtocol | None,
    *,
    players: int = 16,
    top: int = 30,
    best: int = 6,
) -> tuple[Seeding, list[Problem]]:
    """The invited players in seed order, virtual byes in the worst seeds.

    Equal eligibility scores are ordered by ``gp_position`` (smaller first), then by a
    recorded draw; without a draw source the tied stay in the entrants' order."""
    found, problems = candidates(entrants, best)
    if problems:
        return Seeding((), ()), problems
    chosen, reasons = eligible(found, top)
    groups: dict[Number, list[Candidate]] = {}
    for candidate in chosen:
        groups.setdefault(candidate.score, []).append(candidate)
    order: list[str] = []
    for score in sorted(groups, reverse=True):
        group = groups[score]
        by_position: dict[int | None, list[str]] = {}
        for c in group:
            by_position.setdefault(c.position, []).append(c.entrant)
        keys = sorted(by_position, key=lambda p: (p is None, p or 0))
        for key in keys:
            tied = by_position[key]
            if len(tied) > 1 and draws is not None and len(order) < players:
                tied = draws.shuffle(
                    f"seeding/score-{_show(score)}/position-{key}",
                    tied,
                    purpose=TIED_SCORE_PURPOSE.format(score=_show(score)),
                )
                reasons.append(
                    Reason(
                        "wpf.seed_lot",
                        rule=RULE,
                        params={"entrants": list(tied), "score": _show(score)},
                    )
                )
            order.extend(tied)
    invited = order[:players]
    for place, entrant in enumerate(invited, start=1):
        score = next(c.score for c in chosen if c.entrant == entrant)
        reasons.append(
            Reason(
                "wpf.seed",
                rule=RULE,
                params={"entrant": entrant, "seed": place, "score": _show(score)},
            )
        )
    for entrant in order[players:]:
        reasons.append(
            Reason("wpf.not_invited", rule=RULE, params={"entrant": entrant, "players": players})
        )
    byes = players - len(invited)
    if byes:
        params = {"byes": byes, "invited": len(invited), "first": len(invited) + 1}
        params["players"] = players
        # one code per form: "1 eligible player", "seed 16 is a virtual bye player"
        if len(invited) == 1:
            reasons.append(Reason("wpf.virtual_byes.one", rule=RULE, params=params))
        elif byes == 1:
            reasons.append(Reason("wpf.virtual_byes.last", rule=RULE, params=params))
        else:
            reasons.append(Reason("wpf.virtual_byes", rule=RULE, params=params))
    seeds: tuple[str | None, ...] = (*invited, *([None] * byes))
    return Seeding(seeds, tuple(reasons)), []
