"""The venue's side of a push (docs/venue.md, "Push" and "The pusher"): the waiting
changes and the event file as it is at the last of them, read in one snapshot; sent to the
public copy; its answer recorded on the link (acknowledged, a gap to resend from, a refusal
that fences this machine, or a failure that waits with a backoff).

A push never runs in a save's transaction: the pusher calls ``push`` after the commit, and
the save's only cost is its outbox row.
"""

from __future__ import annotations

import gzip
import http.client
import json
import logging
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Event, MirrorChange, MirrorLink
from tournaments.services import audit
from tournaments.services.eventfile import export_event
from tournaments.services.eventfile.parts import LISTS, export_parts
from tournaments.services.mirror import memory, outbox

log = logging.getLogger(__name__)

PROTOCOL = 1
CLAIM = timedelta(seconds=30)
PROBE_CONNECT = 1.0  # s: a probe's connection to open (see probe)
SNAPSHOT_TRIES = 5  # exports while the desk saves, before one in a transaction
# pushes in one call at most (more saved meanwhile, a gap to resend from): while a flood of
# saves goes on, the holder keeps pushing rather than hand the link to a task that would
# wait for a free worker process behind the standings recomputes
ROUNDS = 100
FENCING = ("stale_epoch", "other_writer", "not_a_copy")


def timeout() -> float:
    """Seconds a push may take (connect and answer): ARBITER_MIRROR_TIMEOUT, 10 by default.
    A push caught by a cut that resets or refuses fails at once and the probes follow the
    link's return; one caught by a silent cut waits this long. Not shorter: a loaded copy
    applying a large event answered after 5 s, and a push that times out is sent again."""
    return float(getattr(settings, "ARBITER_MIRROR_TIMEOUT", 10))


def backoff(failures: int) -> int:
    """Seconds to wait after ``failures`` failed pushes in a row: 1, 2, 4 ... up to
    ARBITER_MIRROR_BACKOFF_MAX (2 by default). A try on a link that is down costs a refused
    connection; a long wait would make the queue drain long after the link returned."""
    cap = int(getattr(settings, "ARBITER_MIRROR_BACKOFF_MAX", 2))
    return max(1, min(cap, int(2 ** min(failures - 1, 10))))


def probe_every() -> float:
    """Seconds between two probes of a link that is down (ARBITER_MIRROR_PROBE_MS, 500)."""
    return max(0.05, int(getattr(settings, "ARBITER_MIRROR_PROBE_MS", 500)) / 1000)


def hold_for() -> float:
    """Seconds a pusher keeps probing a down link before it hands it back to the sweep
    (ARBITER_MIRROR_HOLD_SECONDS, 20; 0: no probing, the retry waits for the sweep). Below
    the claim's 30 s, so the claim never lapses while it is held."""
    return float(min(int(getattr(settings, "ARBITER_MIRROR_HOLD_SECONDS", 20)), 25))


def endpoint(public_url: str, what: str) -> str:
    """The mirror address of the public event ``public_url`` (its page,
    https://host/e/<slug>/): https://host/mirror/v1/events/<slug>/<what>."""
    base, slug = split_public_url(public_url)
    return f"{base}/mirror/v1/events/{slug}/{what}"


def split_public_url(public_url: str) -> tuple[str, str]:
    """(base URL, slug) of a public event's address; ValueError when it is not one."""
    parts = urlsplit(public_url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(
            _("Give the public event's address, such as https://arbiter.example.org/e/woc-2026/.")
        )
    pieces = [p for p in parts.path.split("/") if p]
    if len(pieces) < 2 or pieces[-2] != "e":
        raise ValueError(
            _(
                "The address must end with /e/<the event's slug>/, such as https://arbiter.example.org/e/woc-2026/."
            )
        )
    prefix = "/".join(pieces[:-2])
    base = f"{parts.scheme}://{parts.netloc}" + (f"/{prefix}" if prefix else "")
    return base, pieces[-1]


def build(event_id: int, *, whole: bool = False) -> dict[str, Any] | None:
    """The push for the event's waiting changes (None when nothing waits): the changes
    after the acknowledged version and, at the last of them, the parts of the event file
    those changes touched ("parts"), or the whole file ("file": the first push, a change
    that touched the whole file, or ``whole``), read as one snapshot so that what is sent
    holds exactly the changes it is labelled with."""
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            return _read(event_id, whole)
    if connection.in_atomic_block:  # inside a caller's transaction, its snapshot rules
        return _read(event_id, whole)
    # SQLite: a transaction here would be IMMEDIATE and hold the write lock (a save would
    # wait for the export). Every change of the event raises its link's version in its
    # own transaction, so a read between two equal versions saw no change: a snapshot.
    for _attempt in range(SNAPSHOT_TRIES):
        payload = _read(event_id, whole)
        if payload is None or _version(event_id) == payload["version"]:
            return payload
    with transaction.atomic():
        return _read(event_id, whole)


def _version(event_id: int) -> int:
    return MirrorLink.objects.values_list("version", flat=True).get(event_id=event_id)


def _read(event_id: int, whole: bool = False) -> dict[str, Any] | None:
    link = MirrorLink.objects.select_related("event").get(event_id=event_id)
    if link.version <= link.acked_version:
        return None
    rows = list(
        MirrorChange.objects.filter(
            event_id=event_id, version__gt=link.acked_version, version__lte=link.version
        )
        .order_by("version")
        .values_list("version", "kind", "at", "parts")
    )
    payload: dict[str, Any] = {
        "protocol": PROTOCOL,
        "writer": link.writer,
        "epoch": link.epoch,
        "base": link.acked_version,
        "version": link.version,
        "changes": [{"version": v, "kind": k, "at": at.isoformat()} for v, k, at, _p in rows],
    }
    touched = None if whole else _touched(link, rows)
    if touched is None:
        payload["file"] = export_event(link.event)
    else:
        payload["parts"] = export_parts(link.event, touched)
    return payload


def _touched(link: MirrorLink, rows: list[tuple[Any, ...]]) -> set[str] | None:
    """The parts of the file the changes ``rows`` touched, or None for the whole file: the
    first push (the copy has no file of this writer yet), a change that touched it all, or
    a change whose row is not here (a row missing says nothing of what it touched)."""
    if link.acked_version == 0 or len(rows) != link.version - link.acked_version:
        return None
    touched: set[str] = set()
    for *_change, parts in rows:
        if parts == outbox.WHOLE:
            return None
        touched |= set(parts.split())
    return touched


@dataclass(frozen=True)
class Answer:
    status: int  # 0: no answer (the network)
    body: dict[str, Any]
    error: str = ""


def post(url: str, token: str, payload: dict[str, Any]) -> Answer:
    """POST ``payload`` (gzip'd JSON) with the token; the answer's status and JSON body."""
    data = gzip.compress(json.dumps(payload, ensure_ascii=False).encode(), compresslevel=5)
    request = urllib.request.Request(
        url,
        data=data,
        method="POST",
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Content-Encoding": "gzip",
            "User-Agent": "Arbiter-venue/1",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout()) as response:
            return Answer(response.status, _json(response.read()))
    except urllib.error.HTTPError as error:
        return Answer(error.code, _json(error.read()))
    except (OSError, ValueError) as error:  # refused, unreachable, timed out, cut
        return Answer(0, {}, error.__class__.__name__ + (f": {error}" if str(error) else ""))


def probe(url: str) -> str:
    """Whether the public server answers at all: "" when it does (any HTTP status: a GET
    of the push address is refused with 405 before any work), else the network's error.
    A probe costs a connection and a few hundred bytes, where a push costs an export of
    the whole event: while the link is down, the pusher probes, and pushes once it answers.
    The connection must open within a second (a link that carries opens it in a round
    trip); the answer may take the push's time limit (a busy server is not a cut link)."""
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    kind = http.client.HTTPSConnection if secure else http.client.HTTPConnection
    port = parts.port or (443 if secure else 80)
    conn = kind(parts.hostname or "", port, timeout=min(PROBE_CONNECT, timeout()))
    try:
        conn.connect()
        if conn.sock is not None:
            conn.sock.settimeout(timeout())
        conn.request("GET", parts.path or "/", headers={"User-Agent": "Arbiter-venue/1"})
        conn.getresponse().read(1024)
        return ""
    except (OSError, ValueError, http.client.HTTPException) as error:
        return error.__class__.__name__ + (f": {error}" if str(error) else "")
    finally:
        conn.close()


def _json(raw: bytes) -> dict[str, Any]:
    try:
        body = json.loads(raw.decode() or "{}")
    except (UnicodeDecodeError, ValueError):
        return {}
    return body if isinstance(body, dict) else {}


def _claim(event_id: int, now: datetime) -> bool:
    """Claim the link for one push (a conditional update: two pushers never send the
    same link at once; a claim dies after CLAIM, so a killed pusher holds nothing)."""
    if not Event.objects.filter(pk=event_id, mirror_state=outbox.VENUE).exists():
        return False
    free = Q(pushing_until__isnull=True) | Q(pushing_until__lt=now)
    # one table in the UPDATE: PostgreSQL checks its conditions again on the row it locks,
    # so of two pushers racing for a free link one claims it (a join would make Django
    # write "id IN (SELECT ...)", whose conditions are not checked again: both did)
    return bool(
        MirrorLink.objects.filter(free, event_id=event_id)
        .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
        .update(pushing_until=now + CLAIM)
    )


def push(event_id: int, *, now: datetime | None = None, force: bool = False) -> str:
    """Push the event's waiting changes, and again while more wait (changes saved during a
    push, or a gap to resend from). Returns what happened last: "idle" (nothing waits, or
    it waits for its retry), "busy" (another pusher has the link), "applied", "duplicate",
    "failed", "fenced". ``force`` skips the retry wait.

    While the public copy cannot be reached the pusher keeps the link for up to
    ``hold_for()`` seconds and probes it every ``probe_every()``: the push follows the
    link's return by a fraction of a second instead of waiting for the next sweep (issue
    31: the copy equal within 5 s of the return). A second pusher finding the link held
    does nothing: the holder pushes what it finds waiting, and looks once more after it
    lets the link go (a change committed while it let go is not left to the sweep)."""
    now = now or timezone.now()
    if force:
        MirrorLink.objects.filter(event_id=event_id).update(retry_at=None)
    outcome = "idle"
    for _turn in range(3):
        if not _claim(event_id, now):
            if outcome != "idle":
                return outcome
            waiting = MirrorLink.objects.filter(
                event_id=event_id, version__gt=F("acked_version"), pushing_until__gte=now
            ).exists()
            return "busy" if waiting else "idle"
        try:
            outcome = _push_claimed(event_id)
        finally:
            MirrorLink.objects.filter(event_id=event_id).update(pushing_until=None)
        if outcome not in ("applied", "duplicate", "idle"):
            return outcome
        now = timezone.now()
        if not MirrorLink.objects.filter(
            event_id=event_id, version__gt=F("acked_version")
        ).exists():
            return outcome
    return outcome


def _push_claimed(event_id: int) -> str:
    """The pushes of a claimed link: a probe first when the last try failed, then the
    waiting changes, ROUNDS pushes at most; probing while the link is down."""
    outcome = "idle"
    held_until = time.monotonic() + hold_for()
    pushes = 0
    whole = False  # the copy lacked the base of a push of parts: the whole file next
    while pushes < ROUNDS:
        memory.sweep()  # the last push's garbage (manage.py push_mirror: mirror/memory.py)
        # the claim renewed before each push: a run of pushes longer than CLAIM must not
        # let a second pusher take the link (both sent the same versions, in lockstep)
        MirrorLink.objects.filter(event_id=event_id).update(pushing_until=timezone.now() + CLAIM)
        link = MirrorLink.objects.get(event_id=event_id)
        try:
            token = link.token
        except ValueError:  # sealed under a SECRET_KEY this machine no longer has
            _unreadable_token(event_id)
            return "failed"
        if link.failures and not _reachable(link, held_until):
            return "failed"
        payload = build(event_id, whole=whole)
        if payload is None:
            return outcome
        started = time.monotonic()
        answer = post(endpoint(link.public_url, "push"), token, payload)
        if "parts" in payload and _wants_whole(answer):
            log.info(
                "mirror push of event %s, versions %s..%s: the copy wants the whole file (%s)",
                event_id, payload["base"] + 1, payload["version"], answer.body.get("code"),
            )  # fmt: skip
            whole = True
            pushes += 1
            continue
        outcome = _record(event_id, payload, answer)
        log.info(
            "mirror push of event %s, versions %s..%s (%s): %s in %.2f s",
            event_id, payload["base"] + 1, payload["version"], _what(payload), outcome,
            time.monotonic() - started,
        )  # fmt: skip
        if outcome == "failed" and answer.status == 0 and time.monotonic() < held_until:
            continue  # the network: probe until it answers (above)
        if outcome not in ("applied", "duplicate", "gap"):
            return outcome
        pushes += 1
        # the hold counts from the last answer: a cut after a long run of pushes is
        # probed by this pusher, which has the link already, for a whole hold
        held_until = time.monotonic() + hold_for()
    return outcome


def _what(payload: dict[str, Any]) -> str:
    """What a push carried, for the log: "the whole file" or its parts."""
    if "file" in payload:
        return "the whole file"
    parts = payload["parts"]
    rounds = [f"r{r['number']}" for r in parts.get("rounds", [])]
    gone = [f"r{n} gone" for n in parts.get("rounds_gone", [])]
    return "parts: " + " ".join(["event", *(k for k in parts if k in LISTS), *rounds, *gone])


def _wants_whole(answer: Answer) -> bool:
    """A push of parts the copy could not use: it lacks the file they go over (base_missing:
    its cache emptied, a restart), or the parts did not make a valid file (a copy of an
    earlier Arbiter that knows only whole files refuses them too). The whole file follows."""
    code = answer.body.get("code")
    return (answer.status == 409 and code == "base_missing") or answer.status == 422


def _unreadable_token(event_id: int) -> None:
    now = timezone.now()
    said = _(
        "The mirror token kept on this machine cannot be read (the server's SECRET_KEY "
        "changed): enter the token again on the Venue link screen."
    )
    MirrorLink.objects.filter(event_id=event_id).update(
        last_error=said[:300],
        last_error_at=now,
        failures=F("failures") + 1,
        retry_at=now + timedelta(seconds=backoff(10)),
    )


def _reachable(link: MirrorLink, held_until: float) -> bool:
    """Probe the public copy until it answers (True) or the hold ends (False: the link is
    left to the sweep, its retry due a probe's interval later). Each failed probe is
    recorded on the link, so the desk's line shows the error as it is now."""
    url = endpoint(link.public_url, "push")
    every = probe_every()
    while True:
        said = probe(url)
        if not said:
            return True
        now = timezone.now()
        MirrorLink.objects.filter(pk=link.pk).update(
            last_error=said[:300],
            last_error_at=now,
            retry_at=now + timedelta(seconds=every),
            pushing_until=now + CLAIM,
        )
        if time.monotonic() + every >= held_until:
            return False
        time.sleep(every)


def _record(event_id: int, payload: dict[str, Any], answer: Answer) -> str:
    now = timezone.now()
    body = answer.body
    code = str(body.get("code", ""))
    links = MirrorLink.objects.filter(event_id=event_id)
    if answer.status == 200 and body.get("status") in ("applied", "duplicate"):
        sent = int(payload["version"])
        with transaction.atomic():
            link = links.select_for_update().get()
            link.acked_version = max(link.acked_version, min(sent, link.version))
            link.last_sent_at = now
            link.failures = 0
            link.retry_at = None
            link.last_error = ""
            link.save(
                update_fields=[
                    "acked_version",
                    "last_sent_at",
                    "failures",
                    "retry_at",
                    "last_error",
                ]
            )
        return str(body["status"])
    if answer.status == 409 and code == "gap":
        expected = int(body.get("expected", 1))
        links.update(acked_version=max(0, expected - 1))
        return "gap"
    if answer.status == 409 and code in FENCING:
        _fence(event_id, str(body.get("message", code)), now)
        return "fenced"
    said = answer.error or str(body.get("message") or "") or f"HTTP {answer.status}"
    with transaction.atomic():
        link = links.select_for_update().get()
        link.failures += 1
        # the network: the next try is a probe, cheap, so it comes soon; an answer that is
        # an error (5xx, 429, a refused file) waits with the backoff
        wait = probe_every() if answer.status == 0 else backoff(link.failures)
        link.retry_at = now + timedelta(seconds=wait)
        link.last_error = said[:300]
        link.last_error_at = now
        link.save(update_fields=["failures", "retry_at", "last_error", "last_error_at"])
    log.info("mirror push of event %s failed (%s); again in %.1f s", event_id, said, wait)
    return "failed"


def _fence(event_id: int, message: str, now: datetime) -> None:
    """The public copy has another writer: this machine stops writing the event, and its
    screens say why (the copy's own words)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        MirrorLink.objects.filter(event_id=event_id).update(
            refused=message[:400], last_error=message[:300], last_error_at=now, retry_at=None
        )
        Event.objects.filter(pk=event_id).update(mirror_state=outbox.FENCED)
        audit.log(event, "mirror.fenced", actor=None, at=now, subject=event.slug, reason=message)


def due_events(now: datetime | None = None, *, slug: str = "") -> list[int]:
    """The venue events with changes waiting whose retry is due: what a sweep pushes."""
    now = now or timezone.now()
    links = MirrorLink.objects.filter(
        event__mirror_state=outbox.VENUE, version__gt=F("acked_version")
    ).filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
    if slug:
        links = links.filter(event__slug=slug)
    return list(links.values_list("event_id", flat=True))
