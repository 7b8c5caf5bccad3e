"""A tiebreak ranking kept up to date as a few entrants' values change (issue 33, item 1).

``rules.tiebreaks.rank`` orders a whole field; after one result only a few entrants' values
move, and ranking the field again (a second at 10,000 entrants, with its reasons) is most
of what a saved result costs. :class:`Reranker` gives exactly the ``Ranking`` of
``rank(entrants, steps, initial=initial)`` (``restart`` off) and re-places only the entrants
it is told about.

The first ``absolute`` steps give each entrant a value of its own (points, a Brightwell
Quotient, Sonneborn-Berger): on those the ranking is a sort by the tuple of values,
highest first. Entrants equal on all of them form a *group*; the later steps (head-to-head
among the tied, a lot recorded for the tied set) depend on the group, and are applied to it
by the ranking's own ``_split``. Each group keeps its tiers and its reasons; the reasons
between groups are built again only where a group changed, and all are put back in the
order ``rank`` gives them (each part's reasons before those that split the parts).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rules.contract import Decided, EventState, MatchState
from rules.tiebreaks import DETAIL, Ranking, Step, _split, show_number


class _Group:
    """Entrants equal on every absolute step: its key, members in the field's order, and its
    tiers and reasons (from the later steps) once placed."""

    __slots__ = ("below", "below_of", "block", "dirty", "key", "level", "members", "tiers")

    def __init__(self, key: tuple[Any, ...]) -> None:
        self.key = key
        self.members: list[tuple[int, str]] = []  # (place in the field, entrant)
        self.tiers: tuple[tuple[str, ...], ...] = ()
        self.block: list[Decided] = []
        self.dirty = True
        # the reason between this group and the next, and which group that was
        self.below: Decided | None = None
        self.below_of: _Group | None = None
        self.level = 0  # the step that reason is about


class Reranker:
    def __init__(
        self,
        entrants: Sequence[str],
        steps: Sequence[Step],
        absolute: int,
        initial: Callable[[Sequence[str]], list[str]] | None = None,
    ) -> None:
        if not 1 <= absolute <= len(steps):
            raise ValueError("at least the first step must be absolute")
        self.steps = list(steps)
        self.absolute = absolute
        self.initial = initial
        self.place = {e: i for i, e in enumerate(entrants)}
        columns = [step.values(entrants) for step in self.steps[:absolute]]
        self.keys: dict[str, tuple[Any, ...]] = {
            e: tuple(column[e] for column in columns) for e in entrants
        }
        # step by step, as rank() does: a sort of each step's distinct values, where a sort
        # of the value tuples compared Fractions pair by pair (a third more at 10,000)
        self.groups: list[_Group] = []
        self._order(list(entrants), columns, 0)
        self.of_key = {group.key: group for group in self.groups}
        self.ranking = self._assemble()

    def _order(self, tied: list[str], columns: list[Mapping[str, Any]], index: int) -> None:
        if index == len(columns):
            group = _Group(self.keys[tied[0]])
            place = self.place
            group.members = [(place[e], e) for e in tied]
            self.groups.append(group)
            return
        column = columns[index]
        levels: dict[Any, list[str]] = {}
        for e in tied:
            levels.setdefault(column[e], []).append(e)
        for value in sorted(levels, reverse=True):
            self._order(levels[value], columns, index + 1)

    def update(self, entrants: Iterable[str]) -> Ranking:
        """The ranking after the values of ``entrants`` changed (any step: an entrant whose
        group-dependent values may have moved is named too, or one of its group)."""
        for e in entrants:
            if e not in self.place:
                continue
            old = self.of_key[self.keys[e]]
            key = tuple(step.values([e])[e] for step in self.steps[: self.absolute])
            old.dirty = True
            if key == old.key:
                continue
            self.keys[e] = key
            old.members.remove((self.place[e], e))
            if not old.members:
                del self.of_key[old.key]
                self.groups.pop(self._index(old.key))
            group = self.of_key.get(key)
            if group is None:
                group = self.of_key[key] = _Group(key)
                self.groups.insert(self._index(key), group)
            bisect.insort(group.members, (self.place[e], e))
            group.dirty = True
        self.ranking = self._assemble()
        return self.ranking

    def _index(self, key: tuple[Any, ...]) -> int:
        """Where ``key`` is (or goes) in the groups, highest key first."""
        groups = self.groups
        low, high = 0, len(groups)
        while low < high:
            middle = (low + high) // 2
            if groups[middle].key > key:
                low = middle + 1
            else:
                high = middle
        return low

    def _assemble(self) -> Ranking:
        steps, absolute = self.steps, self.absolute
        pending: list[list[Decided]] = [[] for _ in range(absolute + 1)]
        decided: list[Decided] = []
        tiers: list[tuple[str, ...]] = []
        above: _Group | None = None
        for group in self.groups:
            if group.dirty:
                block: list[Decided] = []
                members = [e for _, e in group.members]
                parts = _split(members, steps, absolute, False, self.initial, block)
                group.tiers = tuple(tuple(tier) for tier in parts)
                group.block = block
            if above is not None:
                if above.dirty or group.dirty or above.below_of is not group:
                    above.level, above.below = self._between(above, group)
                    above.below_of = group
                above.dirty = False
                reason, level = above.below, above.level
                assert reason is not None
                # a boundary closes every deeper part first: theirs come out before it
                for deeper in range(absolute, level, -1):
                    if pending[deeper]:
                        decided.extend(pending[deeper])
                        pending[deeper] = []
                pending[level].append(reason)
            above = group
            tiers.extend(group.tiers)
            pending[absolute].extend(group.block)
        if above is not None:
            above.dirty = False
        for level in range(absolute, -1, -1):
            decided.extend(pending[level])
        return Ranking(tuple(tiers), tuple(decided))

    def _between(self, upper: _Group, lower: _Group) -> tuple[int, Decided]:
        level = next(i for i, (a, b) in enumerate(zip(upper.key, lower.key, strict=True)) if a != b)
        step = self.steps[level]
        ahead, behind = upper.tiers[-1][-1], lower.tiers[0][0]
        show = step.show or show_number
        params = {
            "label": step.label,
            "ahead": show(upper.key[level]),
            "behind": show(lower.key[level]),
        }
        return level, Decided(
            ahead=ahead,
            behind=behind,
            step=step.key,
            detail=DETAIL.format_map(params),
            params=params,
        )


def find_match(state: EventState, number: int, code: str) -> MatchState | None:
    """The match ``code`` of round ``number`` in ``state``, or None."""
    for rnd in state.rounds:
        if rnd.number == number:
            for match in rnd.matches:
                if match.code == code:
                    return match
    return None
