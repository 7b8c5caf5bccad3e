"""Recorded randomness.

Every draw has a key that is unique within its event ("round-1/initial-order"). A draw
already recorded (seeded earlier, typed in from an outside draw, or imported) is returned
as recorded; a new one is made from a generator seeded by the event's seed and the key, so
the same seed and key always give the same outcome, and the order in which an engine asks
for draws does not matter. New draws are collected in ``new`` for the caller to store.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from rules.contract import DrawMethod, DrawRecord


class DrawNeeded(Exception):
    """An outside draw must be typed in before the engine can go on."""

    def __init__(self, key: str, purpose: str, low: int | None = None, high: int | None = None):
        self.key = key
        self.purpose = purpose
        self.low = low
        self.high = high
        super().__init__(f"draw {key!r} ({purpose}) must be entered")


class InvalidDraw(Exception):
    def __init__(self, key: str, text: str):
        self.key = key
        super().__init__(f"draw {key!r}: {text}")


class DrawSource:
    """Gives engines random outcomes that are recorded and replayable.

    ``external=True`` means the event's draws are made outside the application: a draw
    that is not yet recorded raises :class:`DrawNeeded` instead of being generated.
    """

    def __init__(self, seed: str, recorded: Iterable[DrawRecord] = (), *, external: bool = False):
        self.seed = seed
        self.external = external
        self._recorded = {record.key: record for record in recorded}
        self.new: list[DrawRecord] = []

    def _generator(self, key: str) -> random.Random:
        # A string seed is hashed with SHA-512 by random.Random: stable across runs and
        # platforms, and independent of every other key.
        return random.Random(f"{self.seed}/{key}")

    def _existing(self, key: str) -> DrawRecord | None:
        if key in self._recorded:
            return self._recorded[key]
        for record in self.new:
            if record.key == key:
                return record
        return None

    def _record(self, key: str, value: Any, purpose: str, **details: Any) -> None:
        record = DrawRecord(key, value, DrawMethod.SEEDED, purpose, details)
        self.new.append(record)

    def recorded(self, key: str) -> DrawRecord | None:
        return self._existing(key)

    def integer(self, key: str, low: int, high: int, *, purpose: str = "") -> int:
        """A whole number from ``low`` to ``high`` inclusive."""
        existing = self._existing(key)
        if existing is not None:
            value = existing.value
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise InvalidDraw(key, f"{value!r} is not a whole number from {low} to {high}")
            return value
        if self.external:
            raise DrawNeeded(key, purpose, low, high)
        value = self._generator(key).randint(low, high)
        self._record(key, value, purpose, low=low, high=high)
        return value

    def digit(self, key: str, *, purpose: str = "") -> int:
        return self.integer(key, 0, 9, purpose=purpose)

    def coin(self, key: str, *, purpose: str = "") -> bool:
        """True for heads."""
        return self.integer(key, 0, 1, purpose=purpose) == 1

    def shuffle(self, key: str, items: Sequence[str], *, purpose: str = "") -> list[str]:
        """A random order of ``items``; a recorded order must hold exactly the same items."""
        existing = self._existing(key)
        if existing is not None:
            value = existing.value
            if not isinstance(value, list | tuple) or sorted(map(str, value)) != sorted(items):
                raise InvalidDraw(key, "the recorded order does not hold the same entrants")
            return [str(v) for v in value]
        if self.external:
            raise DrawNeeded(key, purpose)
        order = list(items)
        self._generator(key).shuffle(order)
        self._record(key, order, purpose)
        return order

    def choice(self, key: str, items: Sequence[str], *, purpose: str = "") -> str:
        existing = self._existing(key)
        if existing is not None:
            if existing.value not in items:
                raise InvalidDraw(key, f"{existing.value!r} is not one of {list(items)}")
            return str(existing.value)
        if self.external:
            raise DrawNeeded(key, purpose)
        value = self._generator(key).choice(list(items))
        self._record(key, value, purpose, choices=list(items))
        return value
