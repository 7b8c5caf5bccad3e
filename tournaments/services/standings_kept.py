"""The incremental standings refresh: what a worker process keeps of each event's last
recompute, and the refresh that starts from it when only match results changed since.

A result saved changes one match (services/result_changes.py stamps it with the event's
new results version); anything else (a round published, a draw, a withdrawal, an import)
raises the event's ``shape_version``. So when the shape version is not newer than the
kept state's version, the event differs from the kept state only by the matches stamped
since: they are loaded alone (three queries), put in place of their old states, and the
engine updates its standings from its kept work (``standings_after``, where the format
can) instead of ranking everything again. Entrants, settings, rounds and groups are
compared with a digest too (an entrant's edit raises no version; on PostgreSQL the
database's triggers count the changes, EntrantChange): any difference, or a
match the kept state does not hold, and the refresh loads the whole event as before.

Each process keeps its own copies (a worker's recomputes of one event are sequential);
the database stays the truth, so losing them (a restart) only costs one whole refresh.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import datetime
from operator import attrgetter, is_not
from typing import Any

from django.db import connection

from rules.contention import Contention
from rules.contract import EventState, MatchState, RoundStatus, Standings
from tournaments.models import Entrant, EntrantChange, Event, Group, GroupMember, Round
from tournaments.services import locking
from tournaments.services.state import load_changed_matches, load_event_state

log = logging.getLogger(__name__)

KEPT_EVENTS = 8  # events a process keeps (a worker serves a few live events at a time)

Changed = frozenset[tuple[int, str]]


@dataclass
class Kept:
    """One event's last refresh in this process. ``version``: the event's results version
    read before the state was loaded (the state holds at least every change up to it)."""

    event_id: int
    created_at: datetime
    version: int
    digest: str
    state: EventState
    work: object | None
    standings: Standings
    snapshot_id: int | None = None  # the snapshot these standings were stored as
    entrant_ids: dict[str, int] | None = None  # entrant number -> row id, for the store
    # The outlook last computed, the state it was computed for, and the matches changed
    # since (None: unknown, e.g. after a whole refresh; no reuse then).
    outlook: Contention | None = None
    outlook_state: EventState | None = None
    outlook_version: int = 0
    since_outlook: Changed | None = field(default=None)


_kept: OrderedDict[int, Kept] = OrderedDict()


def take(event_id: int) -> Kept | None:
    """The kept refresh of the event, removed: its work is consumed by the engine, and a
    failure half-way must leave nothing behind."""
    return _kept.pop(event_id, None)


def peek(event_id: int) -> Kept | None:
    return _kept.get(event_id)


def keep(kept: Kept) -> None:
    _kept[kept.event_id] = kept
    _kept.move_to_end(kept.event_id)
    while len(_kept) > KEPT_EVENTS:
        _kept.popitem(last=False)


def forget(event_id: int | None = None) -> None:
    """Drop what this process keeps (of one event, or of all: tests)."""
    if event_id is None:
        _kept.clear()
    else:
        _kept.pop(event_id, None)


@dataclass(frozen=True)
class Computed:
    kept: Kept
    changed: Changed | None  # the matches that changed since the kept state; None: whole
    previous: Kept | None  # the kept refresh the standings were updated from


def compute(event: Event, version: int, kept: Kept | None) -> Computed:
    """The standings of the event's record as of at least ``version``: from ``kept`` when
    only match results changed since, else the whole way. The record is read as one
    snapshot: a result saved between the loader's queries (participants, games, matches)
    once gave a match without its players."""
    with locking.read_snapshot():
        return _compute(event, version, kept)


def _compute(event: Event, version: int, kept: Kept | None) -> Computed:
    digest = shape_digest(event)
    if kept is not None:
        found = _incremental(event, version, kept, digest)
        if found is not None:
            return found
    state = load_event_state(event, drafts=False)
    standings, work = standings_work(event.engine, state)
    return Computed(
        Kept(event.pk, event.created_at, version, digest, state, work, standings), None, None
    )


def after_round(state: EventState) -> int:
    """The last completed round of the record (what the snapshot says it is after)."""
    return max((r.number for r in state.rounds if r.status == RoundStatus.COMPLETED), default=0)


def standings_work(engine: Any, state: EventState) -> tuple[Standings, object | None]:
    """The engine's whole computation and its reusable work (docs: engine_api)."""
    whole = getattr(engine, "standings_work", None)
    if whole is None:
        return engine.standings(state), None
    standings, work = whole(state)
    return standings, work


def _incremental(event: Event, version: int, kept: Kept, digest: str) -> Computed | None:
    if (
        kept.created_at != event.created_at
        or kept.digest != digest
        or event.shape_version > kept.version
        or version <= kept.version
    ):
        return None
    loaded = load_changed_matches(event, kept.version)
    state = replace_matches(kept.state, loaded)
    if state is None:
        return None
    changed: Changed = frozenset(loaded)
    standings: Standings | None = None
    work = kept.work
    if not changed:
        standings = kept.standings
    elif work is not None:
        after = getattr(event.engine, "standings_after", None)
        found = after(work, state, changed) if after is not None else None
        if found is not None:
            standings, work = found
    if standings is None:
        standings, work = standings_work(event.engine, state)
    since = None if kept.since_outlook is None else kept.since_outlook | changed
    new = Kept(
        event.pk,
        event.created_at,
        version,
        digest,
        state,
        work,
        standings,
        entrant_ids=kept.entrant_ids,  # the digest names the entrants' ids too
        outlook=kept.outlook,
        outlook_state=kept.outlook_state,
        outlook_version=kept.outlook_version,
        since_outlook=since,
    )
    return Computed(new, changed, kept)


def replace_matches(
    state: EventState, loaded: dict[tuple[int, str], MatchState]
) -> EventState | None:
    """``state`` with the matches of ``loaded`` in place of those of the same round and
    code; None if one of them is not in it (a new match: the whole way)."""
    if not loaded:
        return state
    by_round: dict[int, dict[str, MatchState]] = {}
    for (number, code), match in loaded.items():
        by_round.setdefault(number, {})[code] = match
    rounds = []
    placed = 0
    for rnd in state.rounds:
        new = by_round.get(rnd.number)
        if not new:
            rounds.append(rnd)
            continue
        # (maps in C: a round of the WOC at 10,000 is 5,000 matches, for one changed)
        matches = tuple(map(new.get, map(attrgetter("code"), rnd.matches), rnd.matches))
        placed += sum(map(is_not, matches, rnd.matches))
        rounds.append(replace(rnd, matches=matches))
    if placed != len(loaded):
        return None
    return replace(state, rounds=tuple(rounds))


def shape_digest(event: Event) -> str:
    """A digest of what the standings read besides the matches' results: the format and
    settings, the entrants (an edit raises no version), the record's rounds and groups.
    Three queries on PostgreSQL (the entrants' changes counted, the groups hashed by the
    server), four elsewhere."""
    parts: list[Any] = [event.format, sorted(event.settings.items(), key=lambda kv: kv[0])]
    parts.append(_entrants_digest(event))
    rounds = Round.objects.filter(event=event).exclude(status=Round.Status.DRAFT)
    parts.append(
        list(
            rounds.order_by("number").values_list(
                "pk", "number", "label", "status", "stage__key", "details"
            )
        )
    )
    if connection.vendor != "postgresql":
        parts.append(
            list(
                Group.objects.filter(round__event=event)
                .order_by("pk")
                .values_list("pk", "round_id", "key", "label", "order")
            )
        )
        parts.append(
            list(
                GroupMember.objects.filter(group__round__event=event)
                .order_by("pk")
                .values_list("group_id", "entrant_id", "seed")
            )
        )
    else:
        parts.append(_groups_digest(event))
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


_GROUPS_SQL = """
SELECT md5(coalesce(string_agg(concat_ws(chr(31), g.id, g.round_id, g.key, g.label, g."order",
    m.entrant_id, m.seed), chr(30) ORDER BY g.id, m.id), ''))
FROM {group} g JOIN {round} r ON r.id = g.round_id
LEFT JOIN {member} m ON m.group_id = g.id WHERE r.event_id = %s
"""


def _entrants_digest(event: Event) -> Any:
    if connection.vendor != "postgresql":
        return list(
            Entrant.objects.filter(event=event)
            .order_by("number")
            .values_list(
                "pk", "number", "name", "rating", "seed", "country", "gender", "team_id",
                "team__name", "flags", "status", "withdrawn_after_round",
            )
        )  # fmt: skip
    # the database's triggers count every statement that changed them (EntrantChange)
    return EntrantChange.objects.filter(event_id=event.pk).count()


def _groups_digest(event: Event) -> Any:
    sql = _GROUPS_SQL.format(
        group=Group._meta.db_table, round=Round._meta.db_table, member=GroupMember._meta.db_table
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [event.pk])
        return cursor.fetchone()[0]
