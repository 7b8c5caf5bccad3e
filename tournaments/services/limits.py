"""What one file or request may ask of the server (DESIGN 16): bytes, entrants, rounds,
matches, games and JSON nesting. Each limit is a setting (``ARBITER_IMPORT_LIMITS``), checked
before the heavy work starts, and every refusal names the limit it met.

JSON is read by ``load_json`` everywhere a stranger's JSON comes in (imports, the referee
API, format settings, the command-line tools): nesting past the limit is refused with a
message instead of a RecursionError, and within the limit every later walk of the value
(validation, storage, export) stays far from Python's recursion limit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import NoneType
from typing import Any

from django.conf import settings

from rules.contract import Problem
from tournaments.services.errors import ServiceError

# The referee program posts one game at a time: a few hundred bytes.
API_MAX_BYTES = 64_000
# The import preview lists this many entrants and problems; the counts say the rest.
PREVIEW_ROWS = 300
SHOWN_PROBLEMS = 100


@dataclass(frozen=True)
class ImportLimits:
    bytes: int
    entrants: int
    rounds: int
    matches: int
    games: int
    lines: int
    json_depth: int


def import_limits() -> ImportLimits:
    """The limits in force (settings.ARBITER_IMPORT_LIMITS, each set from the environment)."""
    return ImportLimits(**{k: int(v) for k, v in settings.ARBITER_IMPORT_LIMITS.items()})


def _refuse(code: str, field: str, text: str) -> ServiceError:
    return ServiceError([Problem(code, field, text)])


def megabytes(count: int) -> str:
    return f"{count / 1_000_000:.1f} MB" if count >= 100_000 else f"{count:,} bytes"


def check_bytes(text: str | bytes, *, field: str = "file", limit: int | None = None) -> None:
    """Refuse text longer than the byte limit, naming both sizes."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    check_size(size, field=field, limit=limit)


def check_size(size: int, *, field: str = "file", limit: int | None = None) -> None:
    limit = import_limits().bytes if limit is None else limit
    if size > limit:
        raise _refuse(
            "limit.bytes",
            field,
            f"The file is {megabytes(size)}; the limit is {limit:,} bytes ({megabytes(limit)}).",
        )


def check_lines(text: str) -> None:
    """Refuse a text file (a WOF rating file) longer than the line limit."""
    lines, limit = text.count("\n") + 1, import_limits().lines
    if lines > limit:
        message = f"The file has {lines:,} lines; the limit is {limit:,}."
        raise _refuse("limit.lines", "file", message)


_LEAVES = (str, int, float, bool, NoneType)


def _container(value: Any) -> bool:
    kind = type(value)
    if kind is dict or kind is list:
        return True
    return kind not in _LEAVES and isinstance(value, Mapping | list)


def depth(value: Any) -> int:
    """How deep a parsed JSON value nests (a scalar is 0, [] or {} is 1); no recursion.
    Walked level by level with plain loops, exact types told before the abstract Mapping:
    this walk was a sixth of a WOF file's check (issue 28, item 14)."""
    level, items = 0, [value] if _container(value) else []
    while items:
        level += 1
        below: list[Any] = []
        for item in items:
            for child in item.values() if isinstance(item, dict | Mapping) else item:
                kind = type(child)
                if kind is dict or kind is list or (kind not in _LEAVES and _container(child)):
                    below.append(child)
        items = below
    return level


def _too_deep_at(value: Any, limit: int) -> str:
    """The path of the first value nested past ``limit`` (for the message)."""
    stack: list[tuple[Any, int, str]] = [(value, 1, "")]
    while stack:
        item, level, place = stack.pop()
        if isinstance(item, Mapping):
            pairs = [(f"{place}.{k}" if place else str(k), v) for k, v in item.items()]
        elif isinstance(item, list):
            pairs = [(f"{place}[{i}]", v) for i, v in enumerate(item)]
        else:
            continue
        if level > limit:
            return place
        stack.extend((child, level + 1, where) for where, child in reversed(pairs))
    return ""


def load_json(text: str | bytes, *, field: str = "file", max_depth: int | None = None) -> Any:
    """Parse JSON, refusing bad JSON (with its line and column) and nesting past the limit."""
    limit = import_limits().json_depth if max_depth is None else max_depth
    try:
        value = json.loads(text)
    except RecursionError:
        raise _refuse("limit.json_depth", field, _depth_message(limit, field)) from None
    except json.JSONDecodeError as error:
        raise _refuse(
            "import.json",
            f"line {error.lineno}",
            f"Line {error.lineno}, column {error.colno}: not valid JSON ({error.msg}).",
        ) from None
    except (UnicodeDecodeError, ValueError):
        raise _refuse("import.json", field, "The text is not UTF-8 JSON.") from None
    check_depth(value, field=field, limit=limit)
    return value


def check_depth(value: Any, *, field: str = "file", limit: int | None = None) -> None:
    """Refuse a parsed value nested past the limit, naming where."""
    limit = import_limits().json_depth if limit is None else limit
    if depth(value) > limit:
        place = _too_deep_at(value, limit) or field
        raise _refuse("limit.json_depth", place, _depth_message(limit, place))


def _depth_message(limit: int, place: str) -> str:
    where = "The file's JSON" if place == "file" else f"{place}: the JSON"
    return f"{where} is nested deeper than {limit} levels, the limit."


def count_problems(
    *, entrants: int = 0, rounds: int = 0, matches: int = 0, games: int = 0, players: str = ""
) -> list[Problem]:
    """A problem for each count past its limit; ``players`` renames entrants (WOF files)."""
    limits = import_limits()
    problems = []
    for key, count, word in (
        ("entrants", entrants, players or "entrants"),
        ("rounds", rounds, "rounds"),
        ("matches", matches, "matches"),
        ("games", games, "games"),
    ):
        limit = getattr(limits, key)
        if count > limit:
            problems.append(
                Problem(
                    f"limit.{key}",
                    word,
                    f"The file holds {count:,} {word}; the limit is {limit:,}.",
                )
            )
    return problems


def check_counts(**counts: Any) -> None:
    problems = count_problems(**counts)
    if problems:
        raise ServiceError(problems)


def event_file_counts(data: Any) -> dict[str, int]:
    """Entrants, rounds, matches and games of a raw (not yet checked) event file, counted
    without trusting its shape."""

    def items(parent: Any, key: str) -> list[Any]:
        value = parent.get(key) if isinstance(parent, Mapping) else None
        return value if isinstance(value, list) else []

    rounds = items(data, "rounds")
    matches = [m for r in rounds for m in items(r, "matches")]
    return {
        "entrants": len(items(data, "entrants")),
        "rounds": len(rounds),
        "matches": len(matches),
        "games": sum(len(items(m, "games")) for m in matches),
    }


def bounded(problems: Sequence[Problem]) -> list[Problem]:
    """The first problems and one line saying how many more: a page stays small whatever
    the file."""
    if len(problems) <= SHOWN_PROBLEMS:
        return list(problems)
    rest = len(problems) - SHOWN_PROBLEMS
    return [
        *problems[:SHOWN_PROBLEMS],
        Problem("file.more", "file", f"... and {rest:,} more problems of the same file."),
    ]
