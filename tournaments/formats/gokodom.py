"""The web side of the gokodom format (its issue adds the result form and its screens)."""

from __future__ import annotations

from tournaments.formats.base import FormatUI
from tournaments.formats.registry import register

register("gokodom", FormatUI())

urlpatterns: list = []
