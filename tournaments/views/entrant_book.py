"""Every entrant's page rows of a public event, read in one query set and kept per version.

After a round's release the players of a hall open their own entrant page within seconds:
hundreds of different pages, none cached yet. Built alone, each read its entrant, their
matches and seats, the latest snapshot (its tables' JSON) and their standings rows: about
half of the 15 to 20 ms of CPU a page cost at 1,000 entrants (docs/performance.md, "A
round release"). The event's *book* holds every entrant's rows in two parts, each read at
once for the whole event and stored in the cache under the versions it depends on (parts
of the event's stamp, tournaments/views/pagecache.py, the versions the pages are cached
by, so the rows and the pages change together):

- the matches, per results version: three queries;
- the placings, per standings and outlook version: two queries;

both also per names epoch and language, and the matches per set of public rounds (a
format that hides rounds for a while gets other matches when it shows them; the placings
are the snapshot's public tables, which no round decides).

So a release builds the matches part once, and the standings that follow it build only
the placings. Each is plain dicts and lists in the page's language (notes, explanations),
kept by each worker in memory: a signed-out visitor's page reads its entrant and rows
without a query (the event and its rounds aside); a signed-in visitor's reads the entrant
(is it their own?), and the entrant's own player's page reads the matches themselves (it
acts on them).

Each entrant's rows are pickled apart (``pack``): a part is a thousand small byte strings
rather than a hundred thousand dicts and lists, so each web worker reads a new part in a
couple of milliseconds (the whole graph took 50 to 250 ms to unpickle, the garbage
collector walking the worker's heap as it grew, three times per worker in a release's
first seconds: the release, its standings, their outlook), and a page unpickles its own
entrant's rows alone (0.07 ms). A release adds the released round's string to each
entrant's (``with_round``), leaving the others as they were.

One visitor builds a part; the others wait for it (up to BUILD_WAIT_SECONDS, sleeping, no
CPU) and then read their rows from it, or, when it does not come, read their own entrant
alone as before. Nothing here decides who may see what: the view has checked the event,
and the rows are the public ones (the same per-seat code as selectors.entrant_page and
entrant_standings). Only for public events with the page cache on; a private event or a
cache that is down reads the entrant alone.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.utils.translation import get_language

from accounts.permissions import is_player_of
from tournaments import selectors
from tournaments.formats import ui_for
from tournaments.models import Entrant, Event, Match, MatchParticipant, Round
from tournaments.services.standings_rows import rows_of
from tournaments.views import pagecache

log = logging.getLogger(__name__)

BUILD_WAIT_SECONDS = 3.0
BUILD_POLL_SECONDS = 0.02
KEPT_PARTS = 8  # parts a worker keeps in memory (two per event: the latest versions)

Rows = tuple[Entrant, list[dict[str, Any]], list[dict[str, Any]]]

_kept: OrderedDict[int, tuple[str, dict[Any, Any]]] = OrderedDict()
_kept_lock = threading.Lock()


def entrant_rows(event: Event, rounds: list[Round], number: int, user: Any) -> Rows | None:
    """The entrant ``number``, their matches in ``rounds`` (the public ones, oldest first,
    each seen from their seat, with its notes: selectors.entrant_page's items) and their
    rank in each public table of the latest snapshot (selectors.entrant_standings); None
    when there is no such entrant. From the event's book when there is one: for a signed-out
    visitor the entrant too (what the page's heading shows); a signed-in visitor's entrant
    is read (the page asks whether they are its player), and the player's own page reads
    the matches themselves (it acts on them)."""
    keys = _keys(event, rounds)
    matches = placings = None
    if keys is not None:
        matches = _part(keys[0], event.pk, lambda: matches_now(event, rounds))
    person: Any = None
    if matches is not None and not getattr(user, "is_authenticated", False):
        # (a dict of the worker's part: the view only reads it)
        person = matches["people"].get(number)
        if person is None:
            return None
    else:
        person = event.entrants.select_related("team").filter(number=number).first()
        if person is None:
            return None
        if is_player_of(user, person):
            matches = None
    if keys is not None:
        placings = _part(keys[1], -event.pk, lambda: build_placings(event))
    pk = person["pk"] if isinstance(person, dict) else person.pk
    if matches is None:
        found = selectors.entrant_page(event, number, rounds, person)
        assert found is not None  # the entrant was found above
        items = found[1]
    else:
        by_pk = {r.pk: r for r in rounds}
        # unpickled for this page alone, with the round objects it read (their status and
        # label as of now)
        items = unpack_rows(matches["rows"].get(pk, ()))
        for item in items:
            item["round"] = by_pk[item["round"]]
    if placings is None:
        snapshot = selectors.latest_snapshot(event)
        entrant = person if not isinstance(person, dict) else Entrant(pk=pk, event=event)
        return person, items, selectors.entrant_standings(event, snapshot, entrant)
    return person, items, unpack_rows(placings.get(pk, ()))


def pack(rows: list[dict[str, Any]]) -> bytes:
    """One entrant's rows (a part's, or a round's of a part) as they are stored."""
    return pickle.dumps(rows, pickle.HIGHEST_PROTOCOL)


def unpack_rows(packed: tuple[bytes, ...] | bytes) -> list[dict[str, Any]]:
    """One entrant's rows of a part: a placings part's string, or a matches part's strings
    (oldest round first), unpickled. Written by this module (``pack``) into the app's own
    cache, which Django's backend pickles too."""
    if isinstance(packed, bytes):
        rows: list[dict[str, Any]] = pickle.loads(packed)
        return rows
    return [row for one in packed for row in pickle.loads(one)]


def unpacked(part: Part) -> dict[Any, list[dict[str, Any]]]:
    """A part's rows by entrant id as the pages read them (tests, the logs)."""
    rows = part["rows"] if "people" in part else part
    return {pk: unpack_rows(packed) for pk, packed in rows.items()}


def _keys(event: Event, rounds: list[Round], version: str | None = None) -> tuple[str, str] | None:
    """The keys of the event's two parts: its matches (they change with the results, the
    rounds shown and the names) and its placings (with the standings and their outlook).
    ``version``: the stamp's version to name them by (a transaction's, before its commit:
    pagecache.version_at_commit); by default the event's stamp now."""
    versions = _versions(event, version)
    return None if versions is None else _named(versions[0], rounds, *versions[1:])


def _versions(event: Event, version: str | None = None) -> tuple[str, str, str] | None:
    """What of the event's page-cache stamp (or of ``version``, a stamp's version) names
    its parts: the event (id, times, names epoch), its results version, its standings and
    outlook versions."""
    if not settings.ARBITER_PAGE_CACHE or not event.public:
        return None
    if version is None:
        stamp = pagecache.event_stamp(event.slug)
        if stamp is None:
            return None
        version = stamp["version"]
    # pagecache's stamp: id, created, updated, results, standings, outlook, names epoch
    parts = version.split(":")
    if len(parts) != 7 or parts[0] != str(event.pk):
        return None  # (another stamp's form: no book rather than a wrong one)
    pk, created, updated, results, standings, outlook, names = parts
    return f"{pk}:{created}:{updated}:{names}", results, f"{standings}:{outlook}"


def _named(common: str, rounds: list[Round], results: str, placed: str) -> tuple[str, str]:
    # the notes and explanations are words: a book per language
    common = f"{common}:{get_language() or ''}"
    # the rounds shown: a format that hides some for a while gets other matches when it
    # shows them. Not the placings: they are the latest snapshot's public tables, which
    # no round decides (build_placings), so a release keeps them until new standings come
    shown = hashlib.blake2b(",".join(str(r.pk) for r in rounds).encode(), digest_size=8)
    # ("2": each entrant's rows packed apart; a part of the form before is never read)
    return (
        f"entrantbook:m2:{common}:{shown.hexdigest()}:{results}",
        f"entrantbook:p2:{common}:{placed}",
    )


Part = dict[Any, Any]


def _part(key: str, slot: int, build: Callable[[], Part]) -> Part | None:
    with _kept_lock:
        kept = _kept.get(slot)
    if kept is not None and kept[0] == key:
        return kept[1]
    found = pagecache.cache_call("get", key)
    part: Part | None = found if isinstance(found, dict) else _build_or_wait(key, build)
    if part is not None:
        with _kept_lock:
            _kept[slot] = (key, part)
            _kept.move_to_end(slot)
            while len(_kept) > KEPT_PARTS:
                _kept.popitem(last=False)
    return part


def _build_or_wait(key: str, build: Callable[[], Part]) -> Part | None:
    lock = "building:" + key
    taken = pagecache.cache_call("add", lock, 1, timeout=pagecache.BUILD_LOCK_SECONDS)
    if taken is None:  # the cache is down: each page reads its own rows
        return None
    if taken is False and not pagecache.held_here(key):  # another visitor builds it
        deadline = time.monotonic() + BUILD_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(BUILD_POLL_SECONDS)
            found = pagecache.cache_call("get", key)
            if isinstance(found, dict):
                return found
        log.info("entrant book: %s not built within %.0f s, read alone", key, BUILD_WAIT_SECONDS)
        return None
    started = time.monotonic()
    try:
        part = build()
        pagecache.cache_call("set", key, part, timeout=settings.ARBITER_PAGE_CACHE_SECONDS)
    finally:
        pagecache.cache_call("delete", lock)
    log.info("entrant book: %s built in %.3f s", key, time.monotonic() - started)
    return part


def build_matches(event: Event, rounds: list[Round]) -> Part:
    """Every entrant's matches in ``rounds`` as plain dicts and lists (every worker reads
    the part: plain values unpickle in milliseconds, thousands of model objects took a
    second), by entrant id ("rows": each entrant's packed apart, a tuple of one string:
    ``pack``), and what the page's heading shows of each entrant, by number ("people").
    Three queries whatever the number of entrants (entrants with their team, matches,
    seats); the notes in the active language."""
    # (only what a page and a note show: a datetime column took a third of the build)
    entrants = {
        e.pk: e
        for e in event.entrants.select_related("team").only(
            "pk", "event_id", "number", "name", "rating", "country", "status", "team__name"
        )
    }
    people = {pk: {"number": e.number, "name": e.name} for pk, e in entrants.items()}
    # what the page's heading shows of the entrant, for signed-out visitors
    headings = {
        e.number: {
            "pk": e.pk,
            "number": e.number,
            "name": e.name,
            "rating": e.rating,
            "country": e.country,
            "status": e.status,
            "team": {"name": e.team.name} if e.team is not None else None,
        }
        for e in entrants.values()
    }
    matches = (
        Match.objects.filter(round__in=[r.pk for r in rounds])
        .defer("reasons")  # (the pairing's reasons: the round page's, not this one's)
        .prefetch_related(
            Prefetch("participants", queryset=MatchParticipant.objects.order_by("seat"))
        )
        .order_by("round__number", "order", "code")
    )
    items: Part = {pk: [] for pk in entrants}
    for match in matches:
        seats = list(match.participants.all())
        for seat in seats:
            if seat.entrant_id is not None:
                seat.entrant = entrants[seat.entrant_id]  # (the notes name them)
        notes = [str(note) for note in selectors.match_notes(event, match)]
        line = {
            "table": match.table,
            "overridden": match.overridden,
            "details": {"override": match.details.get("override")} if match.overridden else {},
            "result": match.result,
        }
        plain = [
            {"seat": s.seat, "role": s.role, "entrant": people.get(s.entrant_id or 0)}
            for s in seats
        ]
        seen: set[int] = set()
        for mine, seat in zip(plain, seats, strict=True):
            if seat.entrant_id is None or seat.entrant_id in seen:
                continue  # (a page shows a match once, from the entrant's first seat)
            seen.add(seat.entrant_id)
            items[seat.entrant_id].append(
                {
                    "match": line,
                    "round": match.round_id,
                    "seat": mine,
                    "table": match.table,
                    "opponents": [p for p in plain if p is not mine],
                    **selectors.seen_from(match.result, seat.seat, len(seats)),
                    "notes": notes,
                }
            )
    return {"rows": {pk: (pack(mine),) for pk, mine in items.items()}, "people": headings}


def build_placings(event: Event) -> Part:
    """Every entrant's rank in each public table of the latest snapshot, by entrant id,
    as plain dicts (each entrant's packed apart: ``pack``). Two queries (the snapshot, its
    rows); the explanations in the active language."""
    placings: Part = {}
    snapshot = selectors.latest_snapshot(event)
    if snapshot is None:
        return placings
    ui = ui_for(event)
    titles = {t["key"]: t["title"] for t in selectors.public_tables(event, snapshot)}
    rows = rows_of(snapshot).filter(table_key__in=list(titles))
    for row in rows.order_by("table_key", "pk"):
        placings.setdefault(row.entrant_id, []).append(
            {
                "title": titles[row.table_key],
                "row": {"rank": row.rank, "points": row.points, "contention": row.contention},
                "why": str(ui.row_explanation(row)),
            }
        )
    return {pk: pack(rows) for pk, rows in placings.items()}


# -- warmed by the tasks, before the visitors come ----------------------------------------
#
# After a release hundreds of players open their page within seconds of the commit: the
# first ones waited for the matches part (0.3 to 0.4 s for 3,000 matches, more under load)
# and held the web workers meanwhile (docs/performance.md, "A round release"). The
# release's own task builds both parts right after the commit (tournaments/tasks.py,
# warm_release), and the standings task the placings of each new snapshot; a visitor that
# comes during a build waits for it as for another visitor's.


def warm(event: Event) -> None:
    """Build and store the event's parts for its current versions, in the active language,
    unless they are stored or being built (``matches_now``: after a release, the released
    round is read alone)."""
    rounds = selectors.public_rounds(event)
    keys = _keys(event, rounds)
    if keys is None:
        return
    # both builds claimed first: a visitor waits for the placings too, rather than
    # building them while the matches are built
    claimed = [_claim(keys[0], event.pk), _claim(keys[1], -event.pk)]
    try:
        _warm_part(keys[0], event.pk, lambda: matches_now(event, rounds), claimed=claimed[0])
    finally:  # (a claim is never left behind: the visitors would wait for it)
        _warm_part(keys[1], -event.pk, lambda: build_placings(event), claimed=claimed[1])


def matches_now(event: Event, rounds: list[Round]) -> Part:
    """The matches part of the event's current versions (the visitor or the task that
    builds it): when the current results version is a release's (services.rounds.released,
    noted after its commit), the released round is the last of ``rounds`` and the part of
    the version before is stored, that part with the released round's matches added
    (a release changes no other round's matches, nor any entrant); else built whole."""
    before = _before_release(event, rounds)
    if before is not None:
        started = time.monotonic()
        part = with_round(before, build_matches(event, rounds[-1:]))
        log.info(
            "entrant book: released %s added to the version before in %.3f s",
            rounds[-1].label,
            time.monotonic() - started,
        )
        return part
    return build_matches(event, rounds)


def warm_placings(event: Event, rounds: list[Round] | None = None) -> None:
    """Build and store the event's placings part for its current standings (the standings
    task, once a snapshot or its outlook is published), in the active language."""
    keys = _keys(event, selectors.public_rounds(event) if rounds is None else rounds)
    if keys is not None:
        _warm_part(keys[1], -event.pk, lambda: build_placings(event), claimed=None)


def _before_release(event: Event, rounds: list[Round]) -> Part | None:
    """The matches part of the event just before its last release, if the current results
    version is that release's and the part is stored."""
    key = _key_before_release(event, rounds)
    return None if key is None else _kept_or_stored(key, event.pk)


def _kept_or_stored(key: str, slot: int) -> Part | None:
    with _kept_lock:
        kept = _kept.get(slot)
    if kept is not None and kept[0] == key:
        return kept[1]
    found = pagecache.cache_call("get", key)
    return found if isinstance(found, dict) else None


def _key_before_release(
    event: Event, rounds: list[Round], version: str | None = None
) -> str | None:
    """The key, in the active language, of the matches part just before the event's last
    release, if the current results version is that release's. ``version``: inside the
    release's transaction, the stamp's version it commits (the caller knows the last of
    ``rounds`` is the round it releases: no note of it yet)."""
    from tournaments.services.rounds import released

    versions = _versions(event, version)
    if versions is None or not rounds:
        return None
    last = rounds[-1]
    if version is None:
        note = released(event.pk, int(versions[1]))
        if note is None or note != (last.pk, last.published_at):
            return None
    if any(r.number >= last.number for r in rounds[:-1]):
        return None  # (the new round's rows go last, as a build orders them: by round)
    return _named(versions[0], rounds[:-1], str(int(versions[1]) - 1), "")[0]


def read_before_release(event: Event, rounds: list[Round], version: str | None = None) -> bool:
    """Whether the event's book was read in the active language just before its last
    release: its matches part of the version before is kept or stored (a hall's players
    read their pages during the round). ``version``: as for ``_key_before_release``."""
    key = _key_before_release(event, rounds, version)
    return key is not None and _stored_part(key, event.pk)


def read_now(event: Event, rounds: list[Round], version: str | None = None) -> bool:
    """Whether the event's book of its current results version is in use in the active
    language: its matches part is kept, stored or being built. ``version``: as for
    ``_keys``."""
    keys = _keys(event, rounds, version)
    if keys is None:
        return False
    return _stored_part(keys[0], event.pk) or bool(
        pagecache.cache_call("has_key", "building:" + keys[0])
    )


def _stored_part(key: str, slot: int) -> bool:
    with _kept_lock:
        kept = _kept.get(slot)
    return (kept is not None and kept[0] == key) or bool(pagecache.cache_call("has_key", key))


def with_round(before: Part, added: Part) -> Part:
    """The matches part ``before`` with the rows of ``added`` (a newer round's, built
    alone) after each entrant's own; the entrants' headings from ``added`` (just read).
    Each entrant's strings put one after the other: nothing unpickled."""
    rows = {pk: (*before["rows"].get(pk, ()), *mine) for pk, mine in added["rows"].items()}
    return {"rows": rows, "people": added["people"]}


def _claim(key: str, slot: int) -> bool:
    """Whether this task builds the part ``key``: neither kept, nor stored, nor being
    built (its build lock is taken here)."""
    with _kept_lock:
        kept = _kept.get(slot)
    if kept is not None and kept[0] == key:
        return False
    if pagecache.cache_call("has_key", key) is not False:
        return False  # stored (or the cache is down)
    lock = "building:" + key
    return pagecache.cache_call("add", lock, 1, timeout=pagecache.BUILD_LOCK_SECONDS) is True


def _warm_part(key: str, slot: int, build: Callable[[], Part], *, claimed: bool | None) -> None:
    """Build and store the part ``key`` if ``claimed`` (None: claim it now)."""
    if not (_claim(key, slot) if claimed is None else claimed):
        return
    started = time.monotonic()
    try:
        part = build()
        pagecache.cache_call("set", key, part, timeout=settings.ARBITER_PAGE_CACHE_SECONDS)
    finally:
        pagecache.cache_call("delete", "building:" + key)
    _keep(slot, key, part)
    log.info("entrant book: %s warmed in %.3f s", key, time.monotonic() - started)


def _keep(slot: int, key: str, part: Part) -> None:
    with _kept_lock:
        _kept[slot] = (key, part)
        _kept.move_to_end(slot)
        while len(_kept) > KEPT_PARTS:
            _kept.popitem(last=False)


# -- built inside the transaction that makes a version, stored at its commit ---------------
#
# The crowd a release brings arrives at its commit, before the worker picks up the
# release's task: its first visitor built the released round's part (75 to 90 ms of CPU,
# half a second of wall time beside the others) while every other visitor waited for it,
# and again for the placings after the standings (docs/performance.md, "rel202"). So the
# transaction that makes the version (the release, its standings, their outlook) builds
# the part as that transaction sees the database, claims its key (a visitor that asks
# before the part is stored waits for it rather than building it) and stores it at its
# commit, before the commit's other hooks move the event's stamp
# (tournaments/views/release_warm.py).

Prepared = tuple[str, int, Part]  # the key, the worker's slot, the part


def release_part(event: Event, rounds: list[Round], version: str) -> Prepared | None:
    """Inside the release's transaction, in the active language: the matches part of
    ``version`` (the stamp's version the release commits), the released round (the last of
    ``rounds``) added to the part of the version before, when that is kept or stored. Its
    key is claimed here; ``store`` stores it (at the commit). None when the part before is
    not there (the release's task or a visitor builds the book whole), or the key is
    stored or claimed already."""
    keys = _keys(event, rounds, version)
    before_key = _key_before_release(event, rounds, version)
    if keys is None or before_key is None:
        return None
    before = _kept_or_stored(before_key, event.pk)
    if before is None:
        return None
    return _prepare(
        keys[0], event.pk, lambda: with_round(before, build_matches(event, rounds[-1:]))
    )


def placings_part(event: Event, rounds: list[Round], version: str) -> Prepared | None:
    """Inside the transaction that publishes standings or their outlook, in the active
    language: the placings part of ``version`` (the stamp's version it commits), as the
    transaction sees the new snapshot. Its key is claimed here; ``store`` stores it."""
    keys = _keys(event, rounds, version)
    return None if keys is None else _prepare(keys[1], -event.pk, lambda: build_placings(event))


def _prepare(key: str, slot: int, build: Callable[[], Part]) -> Prepared | None:
    if not _claim(key, slot):
        return None
    pagecache.hold(key)
    started = time.monotonic()
    try:
        part = build()
    except BaseException:
        pagecache.let_go(key)  # (the visitors build it)
        raise
    log.info("entrant book: %s built before the commit in %.3f s", key, time.monotonic() - started)
    return key, slot, part


def store(prepared: Prepared) -> None:
    """Store a part built before the commit (``release_part``, ``placings_part``), and let
    its key's claim go."""
    key, slot, part = prepared
    try:
        pagecache.cache_call("set", key, part, timeout=settings.ARBITER_PAGE_CACHE_SECONDS)
    finally:
        pagecache.let_go(key)
    _keep(slot, key, part)


def forget() -> None:
    """This worker's parts (tests: each starts with none)."""
    with _kept_lock:
        _kept.clear()
