"""The web side of the World Othello Championship format.

Qualifying games: one game, black and white discs, how it ended and who defaulted.
Final stages (rules/formats/woc/finals.py): semi-finals and the final are best of three;
playoffs, third place and the women's final are one game in which the better-ranked player
(seat 0) chose the colour or the draw win (IV.9), typed with the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.formats.base import DetailField, FormatUI
from tournaments.formats.registry import register

BEST_OF_THREE = {"semi_final", "final"}
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
