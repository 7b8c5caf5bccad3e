"""The web side of the World Othello Championship format."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.formats.base import DetailField, FormatUI
from tournaments.formats.registry import register

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
