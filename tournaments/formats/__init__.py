"""The web side of each format: how its results are typed in, and its special views.

This is the extension point a format uses instead of special cases in shared views: a
``FormatUI`` says how many games a result form shows, what a score is called, how a game
can end, which per-game details are asked, and which template partial renders the form.
``ui_for(event)`` returns the format's UI, or the generic one. docs/formats/README.md says
how to add one.
"""

from __future__ import annotations

from tournaments.formats.base import DetailField, FormatUI
from tournaments.formats.registry import register, ui_for

__all__ = ["DetailField", "FormatUI", "register", "ui_for"]
