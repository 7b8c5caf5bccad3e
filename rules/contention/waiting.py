"""The matches of an event waiting for a result, kept with the contention's work so that the
next contention after a result rescores only the matches whose results changed.

Whether a match waits depends on its own games, its round and the settings (the engines'
``score_match``); a change of results only (contention's ``Reuse``) leaves the rounds and
settings as they were, so every other match waits, or not, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rules.contract import EventState, MatchState

Pending = Callable[[EventState, MatchState], bool]
# (round number, match code) -> (round index, match index, entrants)
Key = tuple[int, str]
Place = tuple[int, int, tuple[str | None, ...]]


@dataclass(frozen=True)
class Waiting:
    matches: dict[Key, Place]  # in record order when found by ``of``
    counts: dict[str, int]  # entrant -> matches waiting
    rounds: dict[int, int]  # round number -> matches waiting (0 once all are in)

    @classmethod
    def of(cls, state: EventState, pending: Pending) -> Waiting:
        """Every match of ``state`` waiting for a result (each scored once)."""
        waiting = cls({}, {}, {})
        for r_index, rnd in enumerate(state.rounds):
            for m_index, match in enumerate(rnd.matches):
                if pending(state, match):
                    waiting._add((rnd.number, match.code), (r_index, m_index, match.entrant_ids))
        return waiting

    def after(
        self, state: EventState, pending: Pending, changed: Iterable[Key]
    ) -> tuple[Waiting, set[str]] | None:
        """The matches waiting in ``state``, which differs from the state of ``self`` only by
        the results of ``changed``, and the entrants of those matches; None when a changed
        match is not in ``state``."""
        waiting = Waiting(dict(self.matches), dict(self.counts), dict(self.rounds))
        touched: set[str] = set()
        index = {rnd.number: r_index for r_index, rnd in enumerate(state.rounds)}
        for number, code in changed:
            r_index = index.get(number)
            if r_index is None:
                return None
            waiting._remove((number, code))
            matches = state.rounds[r_index].matches
            m_index = next((i for i, m in enumerate(matches) if m.code == code), None)
            if m_index is None:
                return None
            match = matches[m_index]
            touched.update(e for e in match.entrant_ids if e is not None)
            if pending(state, match):
                waiting._add((number, code), (r_index, m_index, match.entrant_ids))
        return waiting, touched

    @property
    def open_rounds(self) -> int:
        """Rounds with a match waiting."""
        return sum(1 for count in self.rounds.values() if count)

    def first(self, state: EventState) -> MatchState | None:
        """The first match waiting, in record order."""
        if not self.matches:
            return None
        r_index, m_index, _ = min(self.matches.values())
        return state.rounds[r_index].matches[m_index]

    def _add(self, key: Key, place: Place) -> None:
        self.matches[key] = place
        self.rounds[key[0]] = self.rounds.get(key[0], 0) + 1
        for entrant in place[2]:
            if entrant is not None:
                self.counts[entrant] = self.counts.get(entrant, 0) + 1

    def _remove(self, key: Key) -> None:
        place = self.matches.pop(key, None)
        if place is None:
            return
        self.rounds[key[0]] -= 1
        for entrant in place[2]:
            if entrant is not None:
                self.counts[entrant] -= 1
