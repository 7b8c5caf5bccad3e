"""Public pages cached in Redis, served without a database query.

A page is rebuilt once per change of the event (a result, a publication, new standings, an
edit of the event, a renamed entrant), not once per visitor. What the page's key needs from
the database (the event's id, whether it is public, its versions and times) is kept in the
cache too, as the event's *stamp*; every write to an event (save, delete, or a queryset
update such as the results version's bump) moves a generation number (now, and again once
its transaction commits), and a stamp read under another generation is read again from the
database. Each worker keeps the generation in memory, told of each change by Redis
(tournaments/views/pagegen.py), and the last pages and stamps it served: so a cached page is
served without a query and, on a worker that served it before, without a cache round trip.
Only anonymous visitors share cached pages (a signed-in director or player may see links
others do not); a private or missing event is never stamped, so its view always answers.

The one per-visitor thing in a public page is the CSRF token: the page is built with a
placeholder where the token goes (the view puts it in the template context) and each
visitor's own token (Django's public ``get_token``) is put in when it is served. The gzip
body is stored in pieces compressed apart, with their CRCs, so the token is spliced into the
compressed stream too: a gzip client gets a precompressed page for the cost of compressing
64 bytes. ETag (the page's key and the visitor's CSRF cookie) and If-None-Match give 304s.

The cache is an optimisation, never a dependency: if Redis is down, pages are built as if
nothing were cached, and the cache is left alone for a few seconds before it is tried
again (so a dead Redis costs one failed connection per few seconds, not one per request).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.middleware.csrf import get_token
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from tournaments.views.pagegen import generation

log = logging.getLogger(__name__)

PLACEHOLDER = "__ARBITER_CSRF_TOKEN__"
RETRY_AFTER_FAILURE = 5.0  # seconds the cache is left alone after an error
BUILD_LOCK_SECONDS = 30  # the longest a build may hold the page (a crashed one: expiry)
# A stamp also expires: a generation bump lost to a Redis error is covered within a minute.
STAMP_SECONDS = 60
_down_until = 0.0

View = Callable[..., HttpResponseBase]


def _cache_call(method: str, *args: Any, **kwargs: Any) -> Any:
    global _down_until
    if time.monotonic() < _down_until:
        return None
    try:
        return getattr(cache, method)(*args, **kwargs)
    except Exception as error:  # any failure of the cache: serve uncached
        _down_until = time.monotonic() + RETRY_AFTER_FAILURE
        log.warning("page cache unavailable (%s): serving uncached", error.__class__.__name__)
        return None


# -- this worker's copies ----------------------------------------------------------------
#
# A page under a given key never changes (the key holds the event's versions), and a stamp
# is checked against the generation on every request: so each worker keeps the last few of
# both in memory, and a cached page costs one small cache read (the generation).

LOCAL_ENTRIES = 32
LOCAL_LARGEST = 2 * 1024 * 1024  # bytes: a larger page is read from the cache each time
_local: OrderedDict[str, Any] = OrderedDict()
_local_lock = threading.Lock()


def _local_get(key: str) -> Any:
    with _local_lock:
        value = _local.get(key)
        if value is not None:
            _local.move_to_end(key)
        return value


def _local_put(key: str, value: Any, size: int = 0) -> None:
    if size > LOCAL_LARGEST:
        return
    with _local_lock:
        _local[key] = value
        _local.move_to_end(key)
        while len(_local) > LOCAL_ENTRIES:
            _local.popitem(last=False)


# -- the event's stamp -------------------------------------------------------------------


def events_changed() -> None:
    """Called for every write to events (tournaments.models.EventQuerySet and signals):
    every stamp is stale now and again once the transaction commits (a stamp read from the
    database in between saw the old row). One generation for all events keeps a queryset
    update free of the extra query that would name the events it touched."""

    def bump() -> None:
        generation(bump=True)

    bump()
    transaction.on_commit(bump)


def names_epoch(event_id: int) -> str:
    """The event's names epoch; one is made when the cache has none (time-based, so it
    never repeats one an evicted key held)."""
    key = f"names:{event_id}"
    found = _cache_call("get", key)
    if found is None:
        _cache_call("add", key, time.time_ns(), None)
        found = _cache_call("get", key)
    return str(found)


def names_changed(event_id: int) -> None:
    """An entrant or a team of the event saved: its fragments and cached pages are stale,
    now and again once the transaction commits."""

    def bump() -> None:
        _cache_call("set", f"names:{event_id}", time.time_ns(), None)

    bump()
    transaction.on_commit(bump)
    events_changed()


# what a page's key needs of its event (the standings' outlook follows them: its version)
STAMPED = (
    "pk", "created_at", "updated_at", "results_version", "standings_version", "outlook_version",
)  # fmt: skip


def _stamp(slug: str) -> dict[str, Any] | None:
    """The public event's stamp, from the cache when its generation is current; None for a
    private or missing event (never stored: its view decides)."""
    from tournaments.models import Event

    current = generation()
    stamp: dict[str, Any] | None = _local_get("pagestamp:" + slug)
    if current is None or stamp is None or stamp["generation"] != current:
        stamp = _cache_call("get", "pagestamp:" + slug)
    if current is not None and stamp is not None and stamp["generation"] == current:
        _local_put("pagestamp:" + slug, stamp)
        return stamp
    # The generation was read before the database: a write committed after that read
    # moves it, so the stamp stored below is stale at once rather than wrong for long.
    event = Event.objects.filter(slug=slug, public=True).values(*STAMPED).first()
    if event is None:
        return None
    stamp = {"generation": current, "version": _version_of(event)}
    if current is not None:
        _cache_call("set", "pagestamp:" + slug, stamp, timeout=STAMP_SECONDS)
    return stamp


def _version_of(event: dict[str, Any]) -> str:
    """A stamp's version: the event's ``STAMPED`` values and its names epoch."""
    return ":".join(
        str(v)
        for v in (
            event["pk"],
            int(event["created_at"].timestamp() * 1e6),
            int(event["updated_at"].timestamp() * 1e6),
            event["results_version"],
            event["standings_version"],
            # the standings are published before their outlook: a page built between
            # the two is built again once the outlook is attached
            event["outlook_version"],
            names_epoch(event["pk"]),
        )
    )


def version_at_commit(event_id: int) -> str | None:
    """The version the public event's stamp will hold once the running transaction
    commits: read from the database as this transaction sees it (its own writes too), or
    None for a private or missing event. Never stored as a stamp: until the commit no
    other process may name anything by it (a visitor would build that version's page
    from the rows of the version before). For what a service builds inside its
    transaction and stores at its commit (tournaments/views/release_warm.py)."""
    from tournaments.models import Event

    event = Event.objects.filter(pk=event_id, public=True).values(*STAMPED).first()
    return None if event is None else _version_of(event)


def page_key(request: HttpRequest, view: str, slug: str, stamp: dict[str, Any]) -> str:
    htmx = "h" if request.headers.get("HX-Request") == "true" else "p"
    path = request.get_full_path()[:300]
    return ":".join(["page", view, slug, stamp["version"], get_language() or "", htmx, path])


def _latest_key(key: str, stamp: dict[str, Any]) -> str:
    """The key without the event's versions: the newest page built for this address."""
    return "latest" + key.removeprefix("page").replace(":" + stamp["version"] + ":", ":", 1)


# -- gzip in pieces ----------------------------------------------------------------------
#
# CRC-32 arithmetic (polynomials over GF(2), bit-reflected as zlib stores them): the CRC of
# A+B is the CRC of A multiplied by x^(8*len(B)), plus the CRC of B. So the CRC of a page
# is found from its pieces' CRCs and the token's, without reading the page's bytes.

_POLY = 0xEDB88320
_ONE = 1 << 31  # x^0, reflected


def _multiply(a: int, b: int) -> int:
    product, bit = 0, _ONE
    while a:
        if a & bit:
            product ^= b
            a ^= bit
        bit >>= 1
        b = (b >> 1) ^ _POLY if b & 1 else b >> 1
    return product


def _shift(length: int) -> int:
    """x^(8*length) modulo the CRC polynomial: what appending ``length`` bytes does."""
    result, power = _ONE, _ONE >> 8  # power: x^8
    while length:
        if length & 1:
            result = _multiply(result, power)
        power = _multiply(power, power)
        length >>= 1
    return result


@functools.cache
def _token_shift(length: int) -> int:
    return _shift(length)


_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time


def _gzip_pieces(segments: list[bytes]) -> dict[str, Any]:
    """Each segment compressed alone and flushed to a byte boundary (the last one ends the
    stream), so any token can be compressed and put between them."""
    pieces = []
    for index, segment in enumerate(segments):
        compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
        last = index == len(segments) - 1
        packed = compressor.compress(segment)
        pieces.append(packed + compressor.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH))
    pieces[0] = _GZIP_HEADER + pieces[0]
    return {
        "pieces": pieces,
        "crcs": [zlib.crc32(s) for s in segments],
        "shifts": [_shift(len(s)) for s in segments],
        "length": sum(len(s) for s in segments),
    }


def _gzip_body(gz: dict[str, Any], token: bytes) -> bytes:
    pieces, crcs, shifts = gz["pieces"], gz["crcs"], gz["shifts"]
    if len(pieces) == 1:
        crc = crcs[0]
        return b"".join([pieces[0], crc.to_bytes(4, "little"), gz["length"].to_bytes(4, "little")])
    # The token as a stored (uncompressed) deflate block: 64 random characters would not
    # compress anyway, and this costs no compressor. The piece before ends on a byte.
    size = len(token)
    packed = b"\x00" + size.to_bytes(2, "little") + (size ^ 0xFFFF).to_bytes(2, "little") + token
    token_crc, token_shift = zlib.crc32(token), _token_shift(size)
    crc = crcs[0]
    out = [pieces[0]]
    for index in range(1, len(pieces)):
        crc = _multiply(token_shift, crc) ^ token_crc
        crc = _multiply(shifts[index], crc) ^ crcs[index]
        out += [packed, pieces[index]]
    length = gz["length"] + len(token) * (len(pieces) - 1)
    out += [crc.to_bytes(4, "little"), (length & 0xFFFFFFFF).to_bytes(4, "little")]
    return b"".join(out)


# -- the decorator ------------------------------------------------------------------------


def building_for_cache(request: HttpRequest) -> bool:
    """Whether this request builds a page to be shared: the view renders the placeholder
    instead of this visitor's CSRF token (the template context's ``csrf_token``)."""
    return getattr(request, "_arbiter_page_build", False)


def _accepts_gzip(request: HttpRequest) -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "")


def _etag(key: str, request: HttpRequest) -> str:
    # The body holds a token for the visitor's CSRF cookie: another cookie, another page.
    cookie = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    digest = hashlib.blake2b(f"{key}|{cookie}".encode(), digest_size=12).hexdigest()
    return f'W/"{digest}"'


def _serve(request: HttpRequest, key: str, entry: tuple[Any, ...], state: str) -> HttpResponse:
    content_type, tokens, body = entry
    token = get_token(request).encode() if tokens else b""
    if isinstance(body, dict):
        response = HttpResponse(_gzip_body(body, token), content_type=content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(token.join(body), content_type=content_type)
    response["X-Page-Cache"] = state
    response["ETag"] = _etag(key, request)
    return response


def cached_public_page(view: View) -> View:
    """Decorate a public view taking ``slug``: anonymous GETs of a public event are served
    from the cache when the event has not changed since the page was built."""

    name = view.__name__

    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if (
            not settings.ARBITER_PAGE_CACHE
            or request.method not in ("GET", "HEAD")
            or request.user.is_authenticated
        ):
            return view(request, slug, *args, **kwargs)
        stamp = _stamp(slug)
        if stamp is None:  # private or missing: the view answers (a 404)
            return view(request, slug, *args, **kwargs)
        response = _cached(request, view, name, slug, stamp, args, kwargs)
        patch_vary_headers(response, ["HX-Request", "Accept-Encoding"])
        # Kept by the browser and asked again each time (a 304 while unchanged); never by a
        # shared proxy: the body holds this visitor's CSRF token.
        patch_cache_control(response, private=True, no_cache=True)
        return response

    return wrapper


def _cached(
    request: HttpRequest,
    view: View,
    name: str,
    slug: str,
    stamp: dict[str, Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> HttpResponseBase:
    key = page_key(request, name, slug, stamp)
    if request.headers.get("If-None-Match") == _etag(key, request):
        not_modified = HttpResponseNotModified()
        not_modified["ETag"] = _etag(key, request)
        not_modified["X-Page-Cache"] = "not-modified"
        return not_modified
    variant = ":gz" if _accepts_gzip(request) else ":id"
    hit, state = _local_get(key + variant), "hit"
    if hit is None:
        hit = _cache_call("get", key + variant)
        if hit is not None:
            _local_put(key + variant, hit, _size(hit))
    served_key = key
    building = None
    min_age = settings.ARBITER_PAGE_MIN_AGE
    if hit is None:
        # One visitor builds a new version of the page, at most once every min_age
        # seconds; the others meanwhile get the previous version (a page polls, so it
        # catches up), rather than every worker rendering the same large page after
        # each of a stream of results.
        lock = "building:" + _latest_key(key, stamp)
        building = _cache_call("add", lock, 1, timeout=min_age or BUILD_LOCK_SECONDS)
        if building is False:
            latest = _cache_call("get", _latest_key(key, stamp) + variant)
            if latest is not None:
                served_key, hit, state = latest[0], latest[1], "stale"
    if hit is not None:
        return _serve(request, served_key, hit, state)
    done = False
    try:
        request._arbiter_page_build = True  # type: ignore[attr-defined]
        try:
            response = view(request, slug, *args, **kwargs)
        finally:
            request._arbiter_page_build = False  # type: ignore[attr-defined]
        # (a response already encoded, e.g. by a cached view inside, is passed on as is)
        if (
            response.status_code == 200
            and isinstance(response, HttpResponse)  # not streamed
            and not response.streaming
            and not response.has_header("Content-Encoding")
        ):
            response = _store(request, key, _latest_key(key, stamp), response)
        done = True
    finally:
        if building and (not done or not min_age):  # a failed build: retry now
            _cache_call("delete", "building:" + _latest_key(key, stamp))
    return response


def _size(entry: tuple[Any, ...]) -> int:
    body = entry[2]
    return sum(map(len, body["pieces"] if isinstance(body, dict) else body))


def _store(request: HttpRequest, key: str, latest: str, response: HttpResponse) -> HttpResponse:
    segments = response.content.split(PLACEHOLDER.encode())
    content_type = response["Content-Type"]
    tokens = len(segments) > 1
    plain = (content_type, tokens, segments)
    packed = (content_type, tokens, _gzip_pieces(segments))
    timeout = settings.ARBITER_PAGE_CACHE_SECONDS
    _local_put(key + ":id", plain, _size(plain))
    _local_put(key + ":gz", packed, _size(packed))
    _cache_call(
        "set_many",
        {
            key + ":id": plain,
            key + ":gz": packed,
            latest + ":id": (key, plain),
            latest + ":gz": (key, packed),
        },
        timeout=timeout,
    )
    served = _serve(request, key, packed if _accepts_gzip(request) else plain, "miss")
    for header, value in response.items():
        if header not in ("Content-Type", "Content-Length"):
            served.setdefault(header, value)
    for name, morsel in response.cookies.items():
        served.cookies[name] = morsel
    return served


# -- keys claimed inside a transaction ---------------------------------------------------
#
# A transaction that builds what its commit makes visible (a release: the released round's
# part of the entrant book, the round's API answer) claims their keys before its commit and
# stores them at it (tournaments/views/release_warm.py): a visitor elsewhere that asks
# first waits for them rather than building them. The thread holding the transaction never
# waits for its own claim: nothing stores it before its commit (a test reading inside its
# transaction, a command reading after a publish inside its own).

_held = threading.local()
HELD_MOST = 256  # keys a thread remembers (a transaction rolled back leaves its claims)


def _held_keys() -> set[str]:
    found: set[str] | None = getattr(_held, "keys", None)
    if found is None:
        found = _held.keys = set()
    return found


def hold(key: str) -> None:
    """Note ``key``, whose build lock was just taken, as claimed by this thread's
    transaction (until ``let_go``)."""
    held = _held_keys()
    if len(held) >= HELD_MOST:
        held.clear()
    held.add(key)


def held_here(key: str) -> bool:
    """Whether this thread's transaction claimed ``key``: it builds it rather than waits."""
    return key in _held_keys()


def let_go(key: str) -> None:
    """The claim of ``key`` given up: its build lock deleted (stored, or failed)."""
    _held_keys().discard(key)
    _cache_call("delete", "building:" + key)


# -- for the public API (tournaments/api/caching.py): the same stamps and stores ----------

event_stamp = _stamp
cache_call = _cache_call
local_get = _local_get
local_put = _local_put
