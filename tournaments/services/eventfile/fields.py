"""The field checks of the event file: each problem named by its place in the file.

A ``Checker`` reads one field at a time (text, whole number, choice, date, JSON detail),
returns it normalised or its default, and collects every problem instead of stopping at
the first, so that a refused file lists all that is wrong with it.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from rules.contract import Problem

MAX_INTEGER = 2**31 - 1  # integer columns are 32-bit
MAX_JSON_INTEGER = 2**53  # beyond it a browser reading the export loses digits


class Checker:
    """Collects problems with their place in the file."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, place: str, text: str, code: str = "file.invalid") -> None:
        self.problems.append(Problem(code, place, f"{place or 'file'}: {text}"))

    def mapping(self, value: Any, place: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.add(place, "must be an object ({...}).")
            return {}
        return value

    def items(self, parent: Mapping[str, Any], key: str, place: str) -> list[Any]:
        value = parent.get(key, [])
        if not isinstance(value, list):
            self.add(_join(place, key), "must be a list ([...]).")
            return []
        return value

    def text(
        self,
        parent: Mapping[str, Any],
        key: str,
        place: str,
        *,
        required: bool = False,
        max_length: int | None = None,
        default: str = "",
    ) -> str:
        value = parent.get(key)
        if value is None:
            if required:
                self.add(_join(place, key), "is required.")
            return default
        if not isinstance(value, str):
            self.add(_join(place, key), f"must be text; got {value!r}.")
            return default
        if required and not value.strip():
            self.add(_join(place, key), "must not be empty.")
        if not storable_text(value):
            self.add(_join(place, key), "contains a NUL character or a lone surrogate.")
            return default
        if max_length is not None and len(value) > max_length:
            self.add(_join(place, key), f"is longer than {max_length} characters.")
        return value

    def integer(
        self,
        parent: Mapping[str, Any],
        key: str,
        place: str,
        *,
        required: bool = False,
        minimum: int | None = None,
    ) -> int | None:
        value = parent.get(key)
        if value is None:
            if required:
                self.add(_join(place, key), "is required.")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(_join(place, key), f"must be a whole number; got {value!r}.")
            return None
        if minimum is not None and value < minimum:
            self.add(_join(place, key), f"must be at least {minimum}; got {value}.")
            return None
        if abs(value) > MAX_INTEGER:
            self.add(_join(place, key), f"is too large; got {value}.")
            return None
        return value

    def boolean(self, parent: Mapping[str, Any], key: str, place: str, default: bool) -> bool:
        value = parent.get(key, default)
        if not isinstance(value, bool):
            self.add(_join(place, key), f"must be true or false; got {value!r}.")
            return default
        return value

    def choice(
        self, parent: Mapping[str, Any], key: str, place: str, allowed: set[str], default: str
    ) -> str:
        value = parent.get(key, default)
        if not isinstance(value, str) or value not in allowed:
            self.add(
                _join(place, key), f"must be one of {', '.join(sorted(allowed))}; got {value!r}."
            )
            return default
        return str(value)

    def date(self, parent: Mapping[str, Any], key: str, place: str) -> dt.date | None:
        value = parent.get(key)
        if value is None:
            return None
        parsed = parse_date(value) if isinstance(value, str) else None
        if parsed is None:
            self.add(_join(place, key), f"must be a date like 2026-11-23; got {value!r}.")
        return parsed

    def datetime(self, parent: Mapping[str, Any], key: str, place: str) -> dt.datetime | None:
        value = parent.get(key)
        if value is None:
            return None
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            self.add(_join(place, key), f"must be a date and time (ISO 8601); got {value!r}.")
            return None
        if timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed, dt.UTC)
        return parsed

    def json_object(self, parent: Mapping[str, Any], key: str, place: str) -> dict[str, Any]:
        value = parent.get(key, {})
        if value is None or (type(value) is dict and not value):
            return {}  # most details are empty: nothing to walk (issue 28, item 14)
        if not isinstance(value, Mapping):
            self.add(_join(place, key), "must be an object ({...}).")
            return {}
        self.storable(value, _join(place, key))
        return dict(value)

    def storable(self, value: Any, place: str) -> bool:
        """JSON the database can store: no NUL character, no NaN or infinite number."""
        if value is None or value is True or value is False:
            return True  # the commonest leaves, told before the abstract Mapping (issue 28)
        if isinstance(value, str):
            bad = not storable_text(value)
        elif isinstance(value, float):
            bad = not math.isfinite(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            bad = abs(value) > MAX_JSON_INTEGER
        elif isinstance(value, dict | Mapping):
            return all(
                self.storable(k, place) and self.storable(v, _join(place, str(k)))
                for k, v in value.items()
            )
        elif isinstance(value, list | tuple):
            return all(self.storable(v, f"{place}[{i}]") for i, v in enumerate(value))
        else:
            bad = False
        if bad:
            self.add(place, f"holds {value!r}, which cannot be stored (NUL, NaN or too large).")
        return not bad


def storable_text(value: str) -> bool:
    """Text PostgreSQL can hold: no NUL character, and valid UTF-8 (no lone surrogate,
    which a JSON file can spell as \\udcff)."""
    if "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _join(place: str, key: str) -> str:
    return f"{place}.{key}" if place else key
