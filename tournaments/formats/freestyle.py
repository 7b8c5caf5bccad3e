"""The web side of the Freestyle group tournament."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.formats.base import FormatUI
from tournaments.formats.registry import register

register("freestyle", FormatUI(games=3, score_label=_("Game points")))
