"""Format key -> FormatUI. A format without an entry gets the generic one.

Each format's web side is a module tournaments/formats/<key>.py that calls ``register``
and may define ``SCREENS`` (its own screens, e.g. a referee API or a bracket page, each
view named by its dotted path); tournaments/urls_formats.py collects and imports those.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from rules import registry as rules_registry
from tournaments.formats.base import FormatUI

# the keys of rules/registry.py: each built-in format's web side is tournaments/formats/<key>.py
FORMAT_MODULES = rules_registry.FORMATS

_UIS: dict[str, FormatUI] = {}


def register(key: str, ui: FormatUI) -> None:
    _UIS[key] = ui


def modules() -> list[ModuleType]:
    return [importlib.import_module(f"tournaments.formats.{name}") for name in FORMAT_MODULES]


def ui_for(event: Any) -> FormatUI:
    if not _UIS:
        modules()
    return _UIS.get(event.format, FormatUI())
