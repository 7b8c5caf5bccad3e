"""Demo events for `make run`, one per format that has one.

A format's demo is ``build(*, director, rng) -> Event`` in the module ``demo`` of its web
package (tournaments/formats/<key>/demo.py), usually ``simulated_demo(...)``: its own
simulation cut during a round. ``DEMO_BUILDERS`` reads the registry, slug -> builder.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rules import registry as rules_registry
from tournaments.formats import registry
from tournaments.models import Event
from tournaments.services import standings


def slug(format_key: str) -> str:
    """The demo event's slug: "demo-wpf-playoffs" for wpf_playoffs."""
    return f"demo-{format_key.replace('_', '-')}"


def simulated_demo(
    format_key: str, entrants: int, stop_after: int, name: str, seed: int = 7
) -> Callable[..., Event]:
    """A format's demo: its own simulation, cut during round ``stop_after``, imported."""

    def build(*, director: Any, rng: random.Random) -> Event:
        from tournaments import simulation
        from tournaments.services.eventfile import import_event

        state = simulation.cut(simulation.simulate(format_key, entrants, seed), stop_after)
        event_file = simulation.to_event_file(state, slug=slug(format_key), name=name)
        event = import_event(event_file, by=director)
        standings.refresh(event.pk, Event.objects.get(pk=event.pk).results_version)
        return event

    return build


class _Builders(Mapping[str, Callable[..., Event]]):
    """slug -> builder of every format whose web package has a ``demo`` module, in the
    registry's order; read live, so a format registered later has its demo too."""

    def _builders(self) -> dict[str, Callable[..., Event]]:
        found = {}
        for key in rules_registry.formats():
            module = registry.part(key, "demo")
            if module is not None:
                build: Callable[..., Event] = module.build
                found[slug(key)] = build
        return found

    def __getitem__(self, key: str) -> Callable[..., Event]:
        return self._builders()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._builders())

    def __len__(self) -> int:
        return len(self._builders())


DEMO_BUILDERS: Mapping[str, Callable[..., Event]] = _Builders()
