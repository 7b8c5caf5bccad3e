"""The page cache's versions applied to the API's answers (DESIGN 17).

An anonymous answer about a public event is stored under a key that holds the event's
stamp (tournaments/views/pagecache.py: its id, times, results and standings versions and
names epoch, checked against the generation every write moves): the same versions as the
pages, so an answer and a page change together, and a stored answer is served without a
query. The list of events is keyed by the generation itself. The ETag is the key's digest
(or the body's, when nothing is stored), and If-None-Match answers 304. A stored answer is
kept with its gzip form, compressed once when it is built: a client that accepts gzip gets
it (with the weak form of the same ETag), at no cost per request.

The edge (tournaments/api/middleware.py) serves a stored answer about an event before
django-ninja routes the request, from what this module noted when it served the same
address before (``edge_answer``): a quarter of a cached answer's cost was the routing and
the middleware behind the edge (docs/performance.md).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from pydantic import BaseModel

from tournaments.api.errors import ApiError, error_response
from tournaments.views import pagecache
from tournaments.views.pagegen import generation

CONTENT_TYPE = "application/json"
# A miss builds the answer once: a visitor that finds another worker building the same key
# waits up to this long for it (polling the cache) before building it too. After a round's
# release hundreds ask for the same new round at once; each build of a 500-match round is
# a few hundred milliseconds of CPU, so every worker building it starves the others.
BUILD_WAIT_SECONDS = 3.0
BUILD_POLL_SECONDS = 0.02
GZIP_FROM = 1024  # bytes: a smaller answer is sent as it is


def _tag(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return '"' + hashlib.blake2b(data, digest_size=12).hexdigest() + '"'


def _shareable(request: HttpRequest) -> bool:
    # Only anonymous answers are shared: a director may see a private event the same way.
    return bool(
        settings.ARBITER_PAGE_CACHE
        and request.method in ("GET", "HEAD")
        and not request.user.is_authenticated
    )


def _matches(request: HttpRequest, etag: str) -> bool:
    # the gzip answer's tag is the weak form of the same tag (the same JSON, encoded)
    return request.headers.get("If-None-Match") in (etag, "W/" + etag)


def _gzipped(body: bytes) -> bytes | None:
    """Compressed once, when the answer is built (a standings answer of 1,000 rows: 438 KiB
    of JSON, 47 KiB gzipped); None when it is too small to gain."""
    return gzip.compress(body, compresslevel=6, mtime=0) if len(body) >= GZIP_FROM else None


def _answer(
    request: HttpRequest, body: bytes, etag: str, state: str, packed: bytes | None = None
) -> HttpResponse:
    zipped = packed is not None and "gzip" in request.headers.get("Accept-Encoding", "")
    if _matches(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    elif zipped:
        response = HttpResponse(packed, content_type=CONTENT_TYPE)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["ETag"] = "W/" + etag if zipped else etag
    response["X-Page-Cache"] = state
    # Kept and asked again each time (a 304 while unchanged); the answer is the same for
    # every anonymous visitor, so a shared proxy may keep it too.
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie", "Accept-Encoding"])
    return response


def _build(shape: type[BaseModel], read: Callable[[], Any]) -> bytes:
    """The answer through its declared shape: what is not in the shape cannot leave."""
    data = shape.model_validate(read()).model_dump(mode="json")
    return json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":")).encode()


def respond(
    request: HttpRequest,
    name: str,
    shape: type[BaseModel],
    read: Callable[[], Any],
    *,
    slug: str | None = None,
    params: tuple[object, ...] = (),
) -> HttpResponse:
    """Answer ``name`` (about the event ``slug``, or the list of events) with ``read()``
    through ``shape``: from the cache when the event has not changed, else built (and
    stored, for an anonymous visitor). ``params``: the operation's validated parameters,
    which name the answer with its event's version (not the raw query string: unknown
    parameters change nothing, and must not fill the cache with copies)."""
    key = _key(name, slug, params) if _shareable(request) else None
    if key is not None:
        if slug is not None:
            _note_edge(request, slug, name, params)
        etag = _tag(key)
        if _matches(request, etag):
            return _answer(request, b"", etag, "not-modified")
        stored = pagecache.local_get(key)
        if stored is None:
            stored = pagecache.cache_call("get", key)
            if _stored(stored):
                pagecache.local_put(key, stored, len(stored[0]))
        if not _stored(stored):
            stored = _built_by_another(key)
        if stored is not None:
            return _answer(request, stored[0], etag, "hit", stored[1])
    try:
        body = _build(shape, read)
    except ApiError as error:
        return error_response(error.status, error.code, error.message, **error.extra)
    finally:
        if key is not None:
            pagecache.cache_call("delete", "building:" + key)
    if key is None:
        return _answer(request, body, _tag(body), "off")
    stored = (body, _gzipped(body))
    pagecache.local_put(key, stored, len(body))
    pagecache.cache_call("set", key, stored, timeout=settings.ARBITER_PAGE_CACHE_SECONDS)
    return _answer(request, body, _tag(key), "miss", stored[1])


def _key(
    name: str, slug: str | None, params: tuple[object, ...], at: str | None = None
) -> str | None:
    """The key of an anonymous answer now, in the active language; None when it is not
    stored (a private or missing event: its read says 404). ``at``: the event's stamp
    version to name it by (a transaction's, before its commit: pagecache.version_at_commit)
    rather than its stamp now."""
    if slug is None:
        current = generation()
        version = None if current is None else f"g{current}"
    else:
        stamp = {"version": at} if at is not None else pagecache.event_stamp(slug)
        version = None if stamp is None else _version(name, stamp)
    if version is None:
        return None
    named = [str(p) for p in params]
    return ":".join(["api", name, slug or "", version, get_language() or "", *named])


# Answers that no standings decide (a round: its pairings and results, each result a new
# results version): named without the standings' and outlook's versions. A release is
# followed by new standings and then their outlook; each made the new round's answer (a
# few hundred milliseconds of CPU at 500 matches) be built again while the crowd that the
# release brought asked for it, every worker waiting for that build (docs/performance.md).
NO_STANDINGS = frozenset({"round"})


def _version(name: str, stamp: dict[str, Any]) -> str:
    """The part of the event's stamp that names the answer ``name``."""
    version: str = stamp["version"]
    if name in NO_STANDINGS:
        # pagecache's stamp: id, created, updated, results, standings, outlook, names epoch
        parts = version.split(":")
        if len(parts) == 7:
            return ":".join([*parts[:4], "-", "-", parts[6]])
    return version


def store(
    name: str,
    shape: type[BaseModel],
    read: Callable[[], Any],
    *,
    slug: str,
    params: tuple[object, ...] = (),
) -> bool:
    """Build and store now, in the active language, the anonymous answer ``respond`` would
    store for the same operation (a task warming what a crowd is about to ask), unless it
    is stored or being built; ``read`` reads as an anonymous visitor. True when stored."""
    if not settings.ARBITER_PAGE_CACHE:
        return False
    key = _key(name, slug, params)
    if key is None or pagecache.cache_call("has_key", key) is not False:
        return False
    lock = "building:" + key
    if pagecache.cache_call("add", lock, 1, timeout=pagecache.BUILD_LOCK_SECONDS) is not True:
        return False
    try:
        body = _build(shape, read)
    except ApiError:
        return False
    finally:
        pagecache.cache_call("delete", lock)
    stored = (body, _gzipped(body))
    pagecache.cache_call("set", key, stored, timeout=settings.ARBITER_PAGE_CACHE_SECONDS)
    return True


Prepared = tuple[str, tuple[bytes, bytes | None]]  # the key, the answer as stored


def prepare(
    name: str,
    shape: type[BaseModel],
    read: Callable[[], Any],
    *,
    slug: str,
    at: str,
    params: tuple[object, ...] = (),
) -> Prepared | None:
    """Inside a transaction that makes the event's stamp version ``at`` (a round's
    release): the anonymous answer ``respond`` would store under that version, in the
    active language, built as the transaction sees the database, its key claimed (a visitor
    that asks before it is stored waits for it rather than building it); ``put`` stores it
    at the commit. None when it is stored or claimed already, or not found."""
    if not settings.ARBITER_PAGE_CACHE:
        return None
    key = _key(name, slug, params, at)
    if key is None or pagecache.cache_call("has_key", key) is not False:
        return None
    lock = "building:" + key
    if pagecache.cache_call("add", lock, 1, timeout=pagecache.BUILD_LOCK_SECONDS) is not True:
        return None
    pagecache.hold(key)
    try:
        body = _build(shape, read)
    except BaseException as failure:
        pagecache.let_go(key)
        if isinstance(failure, ApiError):
            return None
        raise
    return key, (body, _gzipped(body))


def put(prepared: Prepared) -> None:
    """Store an answer ``prepare`` built, and let its key's claim go."""
    key, stored = prepared
    try:
        pagecache.cache_call("set", key, stored, timeout=settings.ARBITER_PAGE_CACHE_SECONDS)
    finally:
        pagecache.let_go(key)


def _stored(value: Any) -> bool:
    """An answer as stored: the JSON and its gzip form (or None)."""
    return isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], bytes)


def _built_by_another(key: str) -> tuple[bytes, bytes | None] | None:
    """The answer another worker is building under ``key``, once stored; None when this
    visitor should build it (nobody is, the cache is down, or the wait ran out)."""
    lock = "building:" + key
    if pagecache.cache_call("add", lock, 1, timeout=pagecache.BUILD_LOCK_SECONDS) is not False:
        return None  # this visitor builds (or the cache failed: build without waiting)
    if pagecache.held_here(key):
        return None  # (claimed by this thread's own transaction: stored at its commit)
    deadline = time.monotonic() + BUILD_WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(BUILD_POLL_SECONDS)
        stored = pagecache.cache_call("get", key)
        if _stored(stored):
            pagecache.local_put(key, stored, len(stored[0]))
            return stored  # type: ignore[no-any-return]
    return None


# -- the edge: a stored answer served before the routing --------------------------------
#
# What an address (its path and query, in a language) names: the event's slug and the part
# of the key around the event's version. Noted by ``respond`` for an anonymous visitor's
# answer about an event (its params come from the request alone: a parameter read from the
# clock, like the list of events' day, would go stale here; the list is never noted), so the
# edge can find the stored answer with the same key without routing. The answer is then
# the one ``respond`` would send, with the headers the middleware behind the edge adds to it.

EDGE_ADDRESSES = 512  # addresses each worker remembers (the newest)
_edge: OrderedDict[tuple[str, str], tuple[str, str, str]] = OrderedDict()
_edge_lock = threading.Lock()


def _note_edge(request: HttpRequest, slug: str, name: str, params: tuple[object, ...]) -> None:
    address = (request.get_full_path(), get_language() or "")
    tail = ":".join([address[1], *(str(p) for p in params)])
    with _edge_lock:
        _edge[address] = (slug, name, tail)
        _edge.move_to_end(address)
        while len(_edge) > EDGE_ADDRESSES:
            _edge.popitem(last=False)


def forget_edge() -> None:
    """This worker's noted addresses (tests: each starts with none)."""
    with _edge_lock:
        _edge.clear()


def _edge_language(request: HttpRequest) -> str:
    """The language LocaleMiddleware would activate for ``request`` (its own steps)."""
    from django.conf.urls.i18n import is_language_prefix_patterns_used

    urlconf = getattr(request, "urlconf", settings.ROOT_URLCONF)
    patterns, prefixed_default = is_language_prefix_patterns_used(urlconf)
    language = translation.get_language_from_request(request, check_path=patterns)
    if (
        patterns
        and not prefixed_default
        and not translation.get_language_from_path(request.path_info)
    ):
        language = settings.LANGUAGE_CODE
    return language


def edge_answer(request: HttpRequest) -> HttpResponse | None:
    """The stored answer to a GET that ``respond`` answered before in this worker, as it
    would answer it now, or None (the request goes on to the router): only for an
    anonymous visitor (no session cookie, no credentials), a public event (its stamp: a
    private or missing event has none) and an answer stored under the event's current
    versions. The same body, ETag, 304 and headers as through the router, which is tested
    (tests/api/test_api_edge.py)."""
    if (
        not settings.ARBITER_PAGE_CACHE
        or request.method != "GET"
        or settings.SESSION_COOKIE_NAME in request.COOKIES
        or "Authorization" in request.headers
    ):
        return None
    language = _edge_language(request)
    with _edge_lock:
        noted = _edge.get((request.get_full_path(), language))
    if noted is None:
        return None
    slug, name, tail = noted
    stamp = pagecache.event_stamp(slug)
    if stamp is None:
        return None
    key = f"api:{name}:{slug}:{_version(name, stamp)}:{tail}"
    etag = _tag(key)
    if _matches(request, etag):
        response = _answer(request, b"", etag, "not-modified")
    else:
        stored = pagecache.local_get(key)
        if stored is None:
            stored = pagecache.cache_call("get", key)
            if not _stored(stored):
                return None  # (not built yet under these versions: the router builds it)
            pagecache.local_put(key, stored, len(stored[0]))
        response = _answer(request, stored[0], etag, "hit", stored[1])
    # what the middleware behind the edge adds to the router's answer: LocaleMiddleware's
    # language (Vary: Accept-Language is the answer's own), XFrameOptionsMiddleware's
    # header and CommonMiddleware's length
    response.headers.setdefault("Content-Language", language)
    if settings.X_FRAME_OPTIONS and "X-Frame-Options" not in response:
        response["X-Frame-Options"] = settings.X_FRAME_OPTIONS.upper()
    if not response.has_header("Content-Length"):
        response["Content-Length"] = str(len(response.content))
    return response


def respond_fresh(
    request: HttpRequest, shape: type[BaseModel], read: Callable[[], Any]
) -> HttpResponse:
    """An answer built every time (no page-cache version names it: a series' stages are
    other events and imported files), with its ETag from the body and If-None-Match."""
    try:
        body = _build(shape, read)
    except ApiError as error:
        return error_response(error.status, error.code, error.message, **error.extra)
    return _answer(request, body, _tag(body), "off")
