"""The web side of the plain round robin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from tournaments.formats.base import FormatUI
from tournaments.formats.registry import register


class RoundRobinUI(FormatUI):
    def games_for(self, settings: Mapping[str, Any]) -> int:
        return int(settings.get("games_per_match", 1))

    def absence_note(self, event: Any) -> str:
        if event.settings.get("absent_result") == "bye":
            return _(
                "An absent player's game stays in the Berger table but is not played: they "
                "score nothing and their opponent has the round off (bye points)."
            )
        return _(
            "An absent player's game stays in the Berger table as a forfeit: their "
            "opponent wins it."
        )


register("round_robin", RoundRobinUI())
