"""The web side of the World Othello Championship format.

Qualifying games: one game, black and white discs, how it ended and who defaulted.
Final stages (rules/formats/woc/finals.py): semi-finals and the final are best of three;
playoffs, third place and the women's final are one game in which the better-ranked player
(seat 0) chose the colour or the draw win (IV.9), typed with the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.formats.base import Breakdown, DetailField, FormatUI
from tournaments.formats.registry import register

BEST_OF_THREE = {"semi_final", "final"}
KIND_TITLES = {
    "playoff": _("Playoffs (II.3.2)"),
    "semi_final": _("Semi-finals (III.2)"),
    "women_playoff": _("Women's playoffs (II.5.2)"),
    "final": _("Final (III.4)"),
    "third_place": _("Third place (III.3)"),
    "women_final": _("Women's final (III.5)"),
}
CHOICE = DetailField(
    "choice",
    _("Better-ranked player chose"),
    choices=(
        ("colour", _("the colour (a draw goes to the opponent)")),
        ("draw_win", _("the draw win (the opponent chose the colour)")),
    ),
)


class WocUI(FormatUI):
    def games_for_match(self, match: Any, settings: Mapping[str, Any]) -> int:
        return 3 if match.details.get("kind") in BEST_OF_THREE else 1

    def max_games(self, settings: Mapping[str, Any]) -> int:
        return 3

    def first_label(self, match: Any) -> Any:
        # after the Swiss, seat 0 is the better-ranked player and colours change by game
        return _("Who played Black") if match.details.get("kind") else None

    def match_fields(self, match: Any) -> tuple[DetailField, ...]:
        kind = match.details.get("kind")
        return (CHOICE,) if kind and kind not in BEST_OF_THREE else ()

    # -- Appendix A on the public pages: the Brightwell Quotient part by part ---------

    def table_breakdown(self, table: Mapping[str, Any], rows: Sequence[Any]) -> Breakdown | None:
        parts = [(row.entrant, row.details.get("brightwell")) for row in rows]
        if not parts or any(p is None for _, p in parts):
            return None
        c = _num(parts[0][1]["c"])
        return Breakdown(
            title=gettext("Brightwell Quotient, part by part"),
            caption=gettext(
                "BQ = discs in games against opponents still in the event + C × those "
                "opponents' points + (32 + C × own points) for each bye, each game against a "
                "withdrawn opponent and each round without a game (Appendix A, C = %(c)s)."
            )
            % {"c": c},
            columns=(
                (gettext("Discs"), gettext("Discs in the games that count")),
                (gettext("Opp. pts"), gettext("Points of the opponents in those games")),
                (f"{c} × " + gettext("opp. pts"), gettext("C times the opponents' points")),
                (
                    gettext("Subst."),
                    gettext("Byes, games against withdrawn opponents, rounds missed"),
                ),
                (gettext("Each"), gettext("32 + C × own points, added for each substituted game")),
                ("BQ", gettext("Brightwell Quotient")),
            ),
            rows=tuple(
                (
                    entrant,
                    (
                        _num(p["discs"]),
                        _num(p["opponents_points"]),
                        _num(p["strength"]),
                        _substituted(p),
                        _num(p["each_substitute"]) if _count(p) else "",
                        _num(p["bq"]),
                    ),
                )
                for entrant, p in parts
            ),
        )

    def row_explanation(self, row: Any) -> str:
        p = row.details.get("brightwell")
        if not p:
            return ""
        text = gettext(
            "BQ %(bq)s = %(discs)s discs + %(c)s × %(opp)s opponents' points (%(strength)s)"
        ) % {
            "bq": _num(p["bq"]),
            "discs": _num(p["discs"]),
            "c": _num(p["c"]),
            "opp": _num(p["opponents_points"]),
            "strength": _num(p["strength"]),
        }
        count = _count(p)
        if count:
            text += gettext(" + %(n)s × %(each)s for %(what)s (32 + C × own points)") % {
                "n": count,
                "each": _num(p["each_substitute"]),
                "what": _substituted(p),
            }
        return text + "."

    # -- IV.9 and III.1 on the public pages: colours and choices after the Swiss --------

    def bracket_title(self, bracket: str) -> str:
        return str(KIND_TITLES.get(bracket, bracket))

    def match_notes(self, match: Any) -> list[str]:
        kind = match.details.get("kind")
        if not kind:
            return []
        names = [p.entrant.name if p.entrant else "" for p in match.participants.all()]
        if len(names) != 2:
            return []
        details = (match.result or {}).get("details") or {}
        blacks = [b for b in details.get("black") or [] if b in (0, 1)]
        notes: list[str] = []
        ranks, minutes = match.details.get("ranks"), match.details.get("minutes")
        if ranks and len(ranks) == 2:
            notes.append(gettext("Places %(a)s and %(b)s") % {"a": ranks[0], "b": ranks[1]})
        if minutes:
            best_of = gettext("best of three") if kind in BEST_OF_THREE else gettext("one game")
            notes.append(
                gettext("%(games)s, %(minutes)s minutes per player (IV.1)")
                % {"games": best_of.capitalize(), "minutes": minutes}
            )
        if kind in BEST_OF_THREE:
            notes += [
                gettext("Game %(n)s: %(name)s had Black") % {"n": i + 1, "name": names[b]}
                for i, b in enumerate(blacks)
            ]
            chooser = details.get("game3_choice")
            if chooser in (0, 1) and len(blacks) == 2:
                discs = details.get("discs") or [0, 0]
                why = (
                    gettext("more discs in games 1 and 2")
                    if discs[0] != discs[1]
                    else gettext("equal discs in games 1 and 2: the better-ranked player")
                )
                notes.append(
                    gettext("Game 3: %(name)s chooses the colour (%(why)s)")
                    % {"name": names[chooser], "why": why}
                )
            return notes
        choice = match.details.get("choice") or details.get("choice")
        if choice == "colour":
            notes.append(
                gettext("%(better)s chose the colour; a draw goes to %(other)s")
                % {"better": names[0], "other": names[1]}
            )
        elif choice == "draw_win":
            notes.append(
                gettext("%(other)s chose the colour; a draw goes to %(better)s")
                % {"better": names[0], "other": names[1]}
            )
        notes += [gettext("%(name)s had Black") % {"name": names[b]} for b in blacks]
        return notes


def _num(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def _count(parts: Mapping[str, Any]) -> int:
    return int(parts["withdrawn_opponents"]) + int(parts["byes"]) + int(parts["unplayed_rounds"])


def _substituted(parts: Mapping[str, Any]) -> str:
    """What the substituted games were: "1 bye(s), 2 round(s) missed"."""
    what = []
    if parts["byes"]:
        what.append(gettext("%(n)s bye(s)") % {"n": parts["byes"]})
    if parts["withdrawn_opponents"]:
        what.append(gettext("%(n)s vs withdrawn") % {"n": parts["withdrawn_opponents"]})
    if parts["unplayed_rounds"]:
        what.append(gettext("%(n)s round(s) missed") % {"n": parts["unplayed_rounds"]})
    return ", ".join(what) if what else "0"


register(
    "woc",
    WocUI(
        games=1,
        score_label=_("Discs"),
        endings=("normal", "resignation", "time_default", "forfeit"),
        details=(
            DetailField(
                "defaulter", _("Who resigned, lost on time or did not play"), seat_choice=True
            ),
        ),
    ),
)
