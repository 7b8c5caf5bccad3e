"""The engines, by key. A new format is a module in rules/formats/ and one line here."""

from __future__ import annotations

import importlib
from functools import cache

from rules.contract import Engine

# key -> module that defines ENGINE. Imported on first use so that one engine's import
# cost or failure never touches another format.
ENGINE_MODULES: dict[str, str] = {
    "round_robin": "rules.formats.round_robin",
    "freestyle": "rules.formats.freestyle",
    "bot_contest": "rules.formats.bot_contest",
    "wpf_playoffs": "rules.formats.wpf_playoffs",
    "woc": "rules.formats.woc",
    "gokodom": "rules.formats.gokodom",
}


class UnknownFormat(KeyError):
    pass


@cache
def get(key: str) -> Engine:
    try:
        module_name = ENGINE_MODULES[key]
    except KeyError:
        raise UnknownFormat(key) from None
    engine: Engine = importlib.import_module(module_name).ENGINE
    return engine


def formats() -> list[str]:
    return list(ENGINE_MODULES)


def choices() -> list[tuple[str, str]]:
    """(key, name) pairs for forms and admin filters."""
    return [(key, get(key).name) for key in ENGINE_MODULES]
