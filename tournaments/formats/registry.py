"""Format key -> FormatUI. A format without an entry gets the generic one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.formats.base import DetailField, FormatUI

_UIS: dict[str, FormatUI] = {}


def register(key: str, ui: FormatUI) -> None:
    _UIS[key] = ui


def ui_for(event: Any) -> FormatUI:
    return _UIS.get(event.format, FormatUI())


class RoundRobinUI(FormatUI):
    def games_for(self, settings: Mapping[str, Any]) -> int:
        return int(settings.get("games_per_match", 1))


register("round_robin", RoundRobinUI(games=1))
register(
    "woc",
    FormatUI(
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
register("freestyle", FormatUI(games=3, score_label=_("Game points")))
