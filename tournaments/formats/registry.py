"""Format key -> FormatUI. A format without an entry gets the generic one.

The keys are those of rules/registry.py, read live (a format registered there later, a
plugin or a test's toy, is in them). Each format's web side is a package,
``tournaments/formats/<key>/`` for the built-in ones, or the one given to
:func:`register_package`; its module ``ui`` calls :func:`register` and may define
``SCREENS`` (its own screens, each view named by its dotted path), which
tournaments/urls_formats.py collects and imports. Its ``templates/`` and ``static/``
folders are found by tournaments/formats/files.py.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

from rules import registry as rules_registry
from tournaments.formats.base import FormatUI

_UIS: dict[str, FormatUI] = {}
# key -> web package, for a format whose web side is not tournaments/formats/<key>/
_PACKAGES: dict[str, str] = {}
_generation = 0
_loaded: tuple[int, int] | None = None  # the generations the UIs were loaded at


def register(key: str, ui: FormatUI) -> None:
    """Called by a format's ``ui`` module: how its results are typed in."""
    _UIS[key] = ui


def register_package(key: str, package: str) -> None:
    """The web side of ``key`` is the package ``package`` (a dotted module name), not
    tournaments/formats/<key>/: a plugin's or a test's format."""
    global _generation
    _PACKAGES[key] = package
    _generation += 1


def unregister_package(key: str) -> None:
    """Forgets the web package given by :func:`register_package` and its FormatUI (its
    ``ui`` module registers it again only when imported again: a test drops it from
    ``sys.modules``)."""
    global _generation
    _PACKAGES.pop(key, None)
    _UIS.pop(key, None)
    _generation += 1


def package(key: str) -> str:
    """The dotted name of the web package of ``key``."""
    return _PACKAGES.get(key, f"{__package__}.{key}")


def _optional(module_name: str) -> ModuleType | None:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise  # the module exists and fails to import
        return None


def part(key: str, name: str) -> ModuleType | None:
    """The module ``name`` of the format's web package, or None when it has none (or the
    format has no web package)."""
    if _optional(package(key)) is None:
        return None
    return _optional(f"{package(key)}.{name}")


def ui_module(key: str) -> ModuleType | None:
    """The format's ``ui`` module (imported, so its FormatUI is registered), or None for a
    format with no web side of its own."""
    return part(key, "ui")


def modules() -> list[ModuleType]:
    """The ``ui`` module of every format that has one, in the registry's order."""
    found = [ui_module(key) for key in rules_registry.formats()]
    return [module for module in found if module is not None]


def folders(name: str) -> list[Path]:
    """The folder ``name`` (``templates``, ``static``) of every format's web package that
    has one."""
    found = []
    for key in rules_registry.formats():
        for location in getattr(_optional(package(key)), "__path__", ()):
            folder = Path(location) / name
            if folder.is_dir():
                found.append(folder)
    return found


def ui_for(event: Any) -> FormatUI:
    global _loaded
    now = (rules_registry.generation(), _generation)
    if _loaded != now:
        modules()
        _loaded = now
    return _UIS.get(event.format, FormatUI())
