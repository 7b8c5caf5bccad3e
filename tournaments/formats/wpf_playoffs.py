"""The web side of the wpf_playoffs format (its issue adds the result form and its screens)."""

from __future__ import annotations

from tournaments.formats.base import FormatUI
from tournaments.formats.registry import register

register("wpf_playoffs", FormatUI())

urlpatterns: list = []
