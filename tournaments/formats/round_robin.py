"""The web side of the plain round robin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.formats.base import FormatUI
from tournaments.formats.registry import register


class RoundRobinUI(FormatUI):
    def games_for(self, settings: Mapping[str, Any]) -> int:
        return int(settings.get("games_per_match", 1))


register("round_robin", RoundRobinUI())
