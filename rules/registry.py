"""The formats, by key: the one list of the keys, and where each part of a format is found.

A format is a package, ``rules/formats/<key>/`` for the built-in ones, and each part is
found in it by name (docs/formats/README.md, "How to add a format"):

- the package itself exports ``ENGINE`` (rules/contract.py);
- ``.checker`` has ``check(state, standings) -> Report`` (rules/checkers/);
- ``.contention`` has ``contention(state, standings) -> Contention`` (rules/contention/);
- ``.simulate`` has ``play_event(count, rng, vary) -> EventState``, a whole event played
  with random legal results;
- ``.words`` has ``WORDS``, its sentences by code (rules/words.py).

Every lookup of a part (the checkers, contention, the words catalogue, the web side's
simulations) reads this registry, so a new format is its package and one key in
``FORMATS``, or a call to :func:`register` for a format that lives elsewhere (a plugin, a
test's toy format).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator, Mapping
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:  # the contract imports rules.words, which reads this registry
    from rules.contract import Engine

FORMATS: tuple[str, ...] = (
    "round_robin",
    "freestyle",
    "bot_contest",
    "wpf_playoffs",
    "woc",
    "gokodom",
)

# key -> package, the built-in formats first, then any registered. Each package is imported
# on first use so that one format's import cost or failure never touches another.
PACKAGES: dict[str, str] = {key: f"rules.formats.{key}" for key in FORMATS}

_generation = 0  # raised by every change, so that caches over the registry start again


class UnknownFormat(KeyError):
    pass


def register(key: str, package: str) -> None:
    """Adds the format ``key`` whose package (a dotted module name) follows the convention
    above. Registering the same package again is harmless; another package under a key
    already taken is an error."""
    global _generation
    if PACKAGES.get(key, package) != package:
        raise ValueError(f"'{key}' is already the format of {PACKAGES[key]}")
    PACKAGES[key] = package
    _generation += 1


def unregister(key: str) -> None:
    """Removes a format added by :func:`register` (a built-in one stays)."""
    global _generation
    if key in FORMATS:
        raise ValueError(f"'{key}' is a built-in format")
    PACKAGES.pop(key, None)
    _generation += 1


def generation() -> int:
    """A number that changes whenever the registry does."""
    return _generation


def package(key: str) -> str:
    try:
        return PACKAGES[key]
    except KeyError:
        raise UnknownFormat(key) from None


def get(key: str) -> Engine:
    return _engine(package(key))


@cache
def _engine(module_name: str) -> Engine:
    engine: Engine = importlib.import_module(module_name).ENGINE
    return engine


def formats() -> list[str]:
    return list(PACKAGES)


def choices() -> list[tuple[str, str]]:
    """(key, name) pairs for forms and admin filters."""
    return [(key, get(key).name) for key in PACKAGES]


def part_name(key: str, name: str) -> str:
    """The dotted name of the format's module ``name`` (``checker``, ``contention``...)."""
    return f"{package(key)}.{name}"


def has_part(key: str, name: str) -> bool:
    """Whether the format has a module ``name``, without running it."""
    return key in PACKAGES and importlib.util.find_spec(part_name(key, name)) is not None


def part(key: str, name: str) -> ModuleType | None:
    """The format's module ``name``, or None when the format has none."""
    module_name = part_name(key, name)
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise  # the part exists and fails to import, or the package is missing
        return None


T = TypeVar("T")


class Parts(Mapping[str, T], Generic[T]):
    """key -> the ``attribute`` of the format's module ``name``, for every format that has
    that module: a live view of the registry (a format registered later is in it)."""

    def __init__(self, name: str, attribute: str) -> None:
        self.name = name
        self.attribute = attribute

    def __getitem__(self, key: str) -> T:
        module = part(key, self.name) if key in PACKAGES else None
        if module is None:
            raise KeyError(key)
        value: T = getattr(module, self.attribute)
        return value

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and has_part(key, self.name)

    def __iter__(self) -> Iterator[str]:
        return iter([key for key in PACKAGES if has_part(key, self.name)])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"Parts({self.name!r}, {self.attribute!r}: {', '.join(self)})"
