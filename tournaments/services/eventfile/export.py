"""An event as a JSON event file (docs/event-file.md): the inverse of ``import_event``."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection
from typing import Any

from tournaments.models import Event, GroupMember, Round
from tournaments.services import locking
from tournaments.services.eventfile.schema import FILE_VERSION
from tournaments.services.state import rounds_queryset


def _iso(value: dt.date | dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _canonical(value: Any) -> Any:
    """A JSON value with every object's keys in sorted order: PostgreSQL's jsonb keeps
    keys in its own order and SQLite in the order written, and the file must be the same
    bytes from either (venue mode compares a laptop's file with a server's)."""
    if isinstance(value, dict):
        return {key: _canonical(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_canonical(item) for item in value]
    return value


def export_text(event: Event) -> str:
    """The file as the director downloads it and the API serves it: the same bytes."""
    return json.dumps(export_event(event), indent=1, ensure_ascii=False) + "\n"


def export_event(event: Event) -> dict[str, Any]:
    """The whole event as plain data, in a fixed order, so that equal events export equal.
    Read as one snapshot: a save (or a venue's push) between its queries would otherwise
    give a file that never existed."""
    with locking.read_snapshot():
        return _export_event(event)


def _export_event(event: Event) -> dict[str, Any]:
    return {
        "arbiter_event_file": FILE_VERSION,
        "event": export_header(event),
        "teams": export_teams(event),
        "stages": export_stages(event),
        "entrants": export_entrants(event),
        "rounds": [_export_round(r) for r in rounds_queryset(event).select_related("stage")],
        "draws": export_draws(event),
    }


# The file's parts, each read alone: venue mode pushes only the parts a change touched
# (eventfile/parts.py).


def export_header(event: Event) -> dict[str, Any]:
    """The file's "event": the event's own row, no query."""
    return {
        "slug": event.slug,
        "name": event.name,
        "format": event.format,
        "settings": _canonical(event.settings),
        "status": event.status,
        "public": event.public,
        "starts_on": _iso(event.starts_on),
        "ends_on": _iso(event.ends_on),
        "time_zone": event.time_zone,
        "venue": event.venue,
        "random_seed": event.random_seed,
        "external_draws": event.external_draws,
    }


def export_teams(event: Event) -> list[dict[str, Any]]:
    return [{"name": t.name, "country": t.country} for t in event.teams.order_by("name")]


def export_stages(event: Event) -> list[dict[str, Any]]:
    return [
        {"key": s.key, "name": s.name, "order": s.order} for s in event.stages.order_by("order")
    ]


def export_entrants(event: Event) -> list[dict[str, Any]]:
    return [
        {
            "number": e.number,
            "name": e.name,
            "family_name": e.family_name,
            "given_name": e.given_name,
            "rating": e.rating,
            "seed": e.seed,
            "country": e.country,
            "gender": e.gender,
            "team": e.team.name if e.team else "",
            "external_id": e.external_id,
            "flags": _canonical(e.flags),
            "status": e.status,
            "withdrawn_after_round": e.withdrawn_after_round,
        }
        for e in event.entrants.select_related("team").order_by("number")
    ]


def export_rounds(event: Event, numbers: Collection[int]) -> list[dict[str, Any]]:
    """The rounds numbered ``numbers`` (those the event has), in the file's order: the
    same five queries as the whole file's rounds, reading only these rounds' rows."""
    rounds = rounds_queryset(event).filter(number__in=list(numbers)).select_related("stage")
    return [_export_round(r) for r in rounds]


def export_draws(event: Event) -> list[dict[str, Any]]:
    return [
        {
            "key": d.key,
            "purpose": d.purpose,
            "method": d.method,
            "value": _canonical(d.value),
            "details": _canonical(d.details),
            "round": d.round.number if d.round else None,
            "drawn_at": _iso(d.drawn_at),
        }
        for d in event.draws.select_related("round").order_by("drawn_at", "pk")
    ]


def _export_round(rnd: Round) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "label": rnd.label,
        "status": rnd.status,
        "stage": rnd.stage.key if rnd.stage else None,
        "starts_at": _iso(rnd.starts_at),
        "deadline": _iso(rnd.deadline),
        "published_at": _iso(rnd.published_at),
        "completed_at": _iso(rnd.completed_at),
        "reasons": _canonical(rnd.reasons),
        "details": _canonical(rnd.details),
        "groups": [
            {
                "key": g.key,
                "label": g.label,
                "entrants": [m.entrant.number for m in sorted(g.members.all(), key=_seed)],
            }
            for g in rnd.groups.all()
        ],
        "matches": [
            {
                "code": m.code,
                "group": m.group.key if m.group else None,
                "bracket": m.bracket,
                "table": m.table,
                "details": _canonical(m.details),
                "reasons": _canonical(m.reasons),
                "overridden": m.overridden,
                "participants": [
                    {
                        "entrant": p.entrant.number if p.entrant else None,
                        "role": p.role,
                        "details": _canonical(p.details),
                    }
                    for p in m.participants.all()
                ],
                "games": [
                    {
                        "number": g.number,
                        "scores": _canonical(g.scores),
                        "first": g.first_seat,
                        "ending": g.ending,
                        "details": _canonical(g.details),
                    }
                    for g in m.games.all()
                ],
            }
            for m in rnd.matches.all()
        ],
    }


def _seed(member: GroupMember) -> int:
    return member.seed
