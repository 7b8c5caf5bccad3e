"""Whole events played with random legal results, for `simulate_event` and the demo.

Each format's pure simulation (rules/formats/<key>/simulate.py) plays an event as engine
state; this module turns that state into an event file, so the database receives it
through the same checked import as any recorded event (tournaments/services/eventfile/),
and the engine pairs on from wherever the record stops.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from rules import registry, variations
from rules.contract import EventState, RoundStatus
from rules.variations import Variations

Simulator = Callable[[int, random.Random, Variations], EventState]


# key -> play_event of the format's simulate module (rules/formats/<key>/simulate.py)
SIMULATORS: Mapping[str, Simulator] = registry.Parts("simulate", "play_event")


def simulate(
    format_key: str, entrants: int, seed: int, vary: Variations = variations.NONE
) -> EventState:
    """A whole event of ``format_key``; ``vary`` switches on withdrawals, late entries,
    defaults, drawn games and director overrides where the format's rules allow them."""
    try:
        simulator = SIMULATORS[format_key]
    except KeyError:
        raise ValueError(
            f"No simulation for '{format_key}'; one of {', '.join(SIMULATORS)}."
        ) from None
    return simulator(entrants, random.Random(seed), vary)


def cut(state: EventState, rounds: int, *, unfinished_share: float = 0.5) -> EventState:
    """The event as it stood during round ``rounds``: later rounds gone, that round
    published with only the first part of its results in."""
    kept = list(state.rounds[:rounds])
    if kept:
        last = kept[-1]
        played = [m for m in last.matches if not m.is_bye]
        keep = int(len(played) * unfinished_share)
        dropped = {m.code for m in played[keep:]}
        kept[-1] = replace(
            last,
            status=RoundStatus.PUBLISHED,
            matches=tuple(replace(m, games=()) if m.code in dropped else m for m in last.matches),
        )
    return replace(state, rounds=tuple(kept))


def to_event_file(
    state: EventState, *, slug: str, name: str, public: bool = True
) -> dict[str, Any]:
    """Engine state as an event file; entrant ids become registration numbers."""
    ids = [e.id for e in state.entrants]
    if all(i.isdigit() for i in ids) and len(set(map(int, ids))) == len(ids):
        mapping = {i: i for i in ids}
    else:
        mapping = {old: str(n) for n, old in enumerate(ids, start=1)}

    def ref(value: Any) -> Any:
        if isinstance(value, str) and value in mapping:
            return mapping[value]
        if isinstance(value, list | tuple):
            return [ref(v) for v in value]
        if isinstance(value, dict) or hasattr(value, "items"):
            return {str(k): ref(v) for k, v in value.items()}
        return value

    def key_ref(key: str) -> str:
        # draw keys may end in the ids they concern ("…/tiebreaker/p03+p11")
        parts = key.split("/")
        ids = parts[-1].split("+")
        if len(parts) > 1 and all(i in mapping for i in ids) and mapping != {i: i for i in ids}:
            parts[-1] = "+".join(sorted((mapping[i] for i in ids), key=int))
        return "/".join(parts)

    def number(entrant_id: str | None) -> int | None:
        return None if entrant_id is None else int(mapping[entrant_id])

    teams = sorted({e.team for e in state.entrants if e.team})
    stages = list(dict.fromkeys(r.stage for r in state.rounds if r.stage))
    file: dict[str, Any] = _plain(
        {
            "arbiter_event_file": 1,
            "event": {
                "slug": slug,
                "name": name,
                "format": state.format,
                "settings": dict(state.settings),
                "status": "running" if state.rounds else "registration",
                "public": public,
            },
            "teams": [{"name": t} for t in teams],
            "stages": [
                {"key": key, "name": key.replace("_", " ").capitalize(), "order": order}
                for order, key in enumerate(stages)
            ],
            "entrants": [
                {
                    "number": number(e.id),
                    "name": e.name,
                    "rating": e.rating,
                    "seed": e.seed,
                    "country": e.country[:3],
                    "gender": e.gender,
                    "team": e.team,
                    "flags": ref(dict(e.flags)),
                    "status": str(e.status),
                    "withdrawn_after_round": e.withdrawn_after_round,
                }
                for e in state.entrants
            ],
            "rounds": [
                {
                    "number": r.number,
                    "label": r.label,
                    "status": str(r.status),
                    "stage": r.stage or None,
                    "details": ref(dict(r.details)),
                    "groups": [
                        {
                            "key": g.key,
                            "label": g.label,
                            "entrants": [number(x) for x in g.entrants],
                        }
                        for g in r.groups
                    ],
                    "matches": [
                        {
                            "code": m.code,
                            "group": m.group or None,
                            "bracket": m.bracket,
                            "table": m.table,
                            "details": ref(dict(m.details)),
                            "overridden": bool(m.details.get("override")),
                            "participants": [
                                {
                                    "entrant": number(p.entrant),
                                    "role": p.role,
                                    "details": ref(dict(p.details)),
                                }
                                for p in m.participants
                            ],
                            "games": [
                                {
                                    "number": g.number,
                                    "scores": list(g.scores),
                                    "first": g.first,
                                    "ending": str(g.ending),
                                    "details": ref(dict(g.details)),
                                }
                                for g in m.games
                            ],
                        }
                        for m in r.matches
                    ],
                }
                for r in state.rounds
            ],
            "draws": [
                {
                    "key": key_ref(d.key),
                    "purpose": d.purpose,
                    "method": str(d.method),
                    "value": ref(d.value),
                    "details": ref(dict(d.details)),
                }
                for d in state.draws
            ],
        }
    )
    return file


def _plain(value: Any) -> Any:
    """Fractions and tuples inside details as JSON values."""
    from fractions import Fraction

    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
