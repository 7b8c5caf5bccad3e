"""Webhooks: signed messages to a director's URLs when an event changes (docs/api.md).

The database holds the work, as for mail (services/notifications.py): ``notify`` writes
one WebhookDelivery row per endpoint that wants the message, inside the transaction of the
change, and enqueues the sending task after the commit. The task sends each due row under
its row lock (a twin task skips a locked row) and records the answer in the same
transaction. A receiver that fails is tried again with an exponential backoff until the
row's retry_until (24 h); beat's sweep sends every row that is due, so a lost task or a
broker that was down loses nothing. Every attempt of a delivery carries the same
idempotency key: a receiver that applies each key once applies each message once, even
when an answer was lost and the message came twice.

Signing: header ``Arbiter-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>">``
with the endpoint's secret. The secret is not stored: it is derived from the endpoint's
random salt and the server's webhook key (``secret_for``), shown once when the endpoint is
made, and is the same at every send (docs/security.md).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings as conf
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract import Problem
from tournaments.models import Event, WebhookDelivery, WebhookEndpoint
from tournaments.services import audit, queue, webhook_http
from tournaments.services.errors import ServiceError

log = logging.getLogger(__name__)

KINDS = tuple(WebhookEndpoint.Kind.values)
TEST_KIND = "webhook.test"
SIGNATURE_HEADER = "Arbiter-Signature"
KEY_HEADER = "Idempotency-Key"
KIND_HEADER = "Arbiter-Kind"
# the sweep leaves a new row this long to the task enqueued after its commit
FIRST_TRY_GRACE = timedelta(seconds=20)
SWEEP_BATCH = 500


# -- secrets and signatures -------------------------------------------------------------


def secret_for(endpoint: WebhookEndpoint) -> str:
    """The endpoint's signing secret, derived from its salt and the server's key."""
    key = str(getattr(conf, "ARBITER_WEBHOOK_KEY", "") or conf.SECRET_KEY).encode()
    derived = hmac.new(key, f"arbiter.webhook:{endpoint.secret_salt}".encode(), hashlib.sha256)
    return "whsec_" + derived.hexdigest()


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value for ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def verify(
    secret: str, header: str, body: bytes, *, tolerance: int = 300, now: float | None = None
) -> bool:
    """What a receiver does (docs/api.md shows the same in a few lines): the signature
    matches the body and the timestamp is recent (a replayed old message is refused)."""
    parts = dict(item.split("=", 1) for item in header.split(",") if "=" in item)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    expected = signature(secret, timestamp, body).split("v1=", 1)[1]
    return hmac.compare_digest(expected, parts.get("v1", ""))


# -- the director's endpoints -----------------------------------------------------------


def create_endpoint(
    event: Event, url: str, kinds: Iterable[str], *, by: Any, now: datetime | None = None
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint and its secret (shown once). ServiceError names what is wrong."""
    now = now or timezone.now()
    chosen = [k for k in KINDS if k in set(kinds)]
    problems = []
    if not chosen:
        problems.append(
            Problem("webhook.kinds", "kinds", _("Choose at least one kind of message."))
        )
    if len(url) > 500:
        problems.append(Problem("webhook.url", "url", _("The URL is longer than 500 characters.")))
    else:
        try:
            webhook_http.resolve(url)
        except webhook_http.UnsafeTarget as unsafe:
            problems.append(Problem("webhook.url", "url", str(unsafe)))
    if problems:
        raise ServiceError(problems)
    with transaction.atomic():
        endpoint = WebhookEndpoint.objects.create(
            event=event, url=url.strip(), kinds=chosen, created_by=_user(by)
        )
        audit.log(event, "webhook.added", actor=by, at=now, subject=endpoint.url, after=chosen)
    return endpoint, secret_for(endpoint)


def set_active(
    endpoint: WebhookEndpoint, active: bool, *, by: Any, now: datetime | None = None
) -> WebhookEndpoint:
    now = now or timezone.now()
    with transaction.atomic():
        endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
        endpoint.active = active
        endpoint.disabled_reason = "" if active else _("Turned off by a director.")
        endpoint.save(update_fields=["active", "disabled_reason"])
        action = "webhook.enabled" if active else "webhook.disabled"
        audit.log(endpoint.event, action, actor=by, at=now, subject=endpoint.url)
    return endpoint


def delete_endpoint(endpoint: WebhookEndpoint, *, by: Any, now: datetime | None = None) -> None:
    now = now or timezone.now()
    with transaction.atomic():
        audit.log(endpoint.event, "webhook.deleted", actor=by, at=now, subject=endpoint.url)
        endpoint.delete()


def send_test(endpoint: WebhookEndpoint, *, now: datetime | None = None) -> WebhookDelivery:
    """A "webhook.test" message to this endpoint alone, sent after the commit."""
    now = now or timezone.now()
    with transaction.atomic():
        event = endpoint.event
        row = _row(
            endpoint, TEST_KIND, f"test:{uuid.uuid4()}", _payload(event, TEST_KIND, {}, now), now
        )
        row.save()
        ids = [row.pk]
        transaction.on_commit(lambda: send_later(ids), robust=True)
    return row


def resend(
    delivery: WebhookDelivery, *, seen_attempts: int, by: Any, now: datetime | None = None
) -> WebhookDelivery:
    """Send a delivery again now, with its own idempotency key (a receiver that applied it
    ignores it). Refused if it was tried since the page showed it (``seen_attempts``)."""
    now = now or timezone.now()
    with transaction.atomic():
        row = (
            WebhookDelivery.objects.select_for_update(of=("self",))
            .select_related("endpoint__event")
            .get(pk=delivery.pk)
        )
        if row.attempts != seen_attempts:
            raise ServiceError(
                _(
                    "This delivery was tried since you opened the page: "
                    "look at it again before sending it."
                )
            )
        if not row.endpoint.active:
            raise ServiceError(_("The webhook is turned off: turn it on before sending again."))
        before = {"status": row.status, "attempts": row.attempts}
        row.status = WebhookDelivery.Status.PENDING
        row.next_attempt_at = now
        row.retry_until = now + _window()
        row.save(update_fields=["status", "next_attempt_at", "retry_until"])
        audit.log(
            row.endpoint.event,
            "webhook.resent",
            actor=by,
            at=now,
            subject=f"{row.kind} {row.idempotency_key}",
            before=before,
        )
        ids = [row.pk]
        transaction.on_commit(lambda: send_later(ids), robust=True)
    return row


def _user(by: Any) -> Any:
    return by if getattr(by, "is_authenticated", False) else None


# -- writing the work, inside the change's transaction ----------------------------------


def notify(
    event: Event,
    kind: str,
    about: Mapping[str, Any] | Callable[[], Mapping[str, Any]],
    *,
    now: datetime | None = None,
) -> list[int]:
    """Tell the event's endpoints that want ``kind`` about a change (``about``: what changed,
    e.g. {"round": 3}, or a function making it, called only if some endpoint wants it);
    call inside the change's transaction. One delivery per endpoint and message, ever: the
    same call twice is one message. Returns the rows written."""
    endpoints = [
        e for e in WebhookEndpoint.objects.filter(event_id=event.pk, active=True) if kind in e.kinds
    ]
    if not endpoints:
        return []
    now = now or timezone.now()
    if callable(about):
        about = about()
    key = kind + ":" + ",".join(f"{k}={about[k]}" for k in sorted(about))
    payload = _payload(event, kind, about, now)
    rows = [_row(e, kind, key[:120], payload, now) for e in endpoints]
    WebhookDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    keys = [r.idempotency_key for r in rows]
    transaction.on_commit(lambda: _send_written(keys), robust=True)
    return [r.pk for r in rows if r.pk is not None]


def _row(
    endpoint: WebhookEndpoint, kind: str, key: str, payload: dict[str, Any], now: datetime
) -> WebhookDelivery:
    idempotency_key = uuid.uuid4()
    return WebhookDelivery(
        endpoint=endpoint,
        kind=kind,
        key=key,
        idempotency_key=idempotency_key,
        payload={**payload, "id": str(idempotency_key)},
        created_at=now,
        next_attempt_at=now,
        retry_until=now + _window(),
    )


def _payload(event: Event, kind: str, about: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """What a message says: the event, what changed and where to read the new state. Never
    a name's e-mail address or a claim code: the API's own URLs carry the data."""
    api = f"{conf.ARBITER_SITE_URL}/api/v1/events/{event.slug}/"
    links = {"event": api, "rounds": f"{api}rounds/", "standings": f"{api}standings/"}
    if "round" in about:
        links["round"] = f"{api}rounds/{about['round']}/"
    return {
        "kind": kind,
        "event": event.slug,
        "created_at": now.isoformat(),
        "about": dict(about),
        "versions": {
            "results": max(event.results_version, about.get("results_version", 0)),
            "standings": max(event.standings_version, about.get("standings_version", 0)),
        },
        "links": links,
    }


def _window() -> timedelta:
    return timedelta(hours=float(getattr(conf, "ARBITER_WEBHOOK_RETRY_HOURS", 24)))


def _send_written(keys: Sequence[uuid.UUID]) -> None:
    ids = list(
        WebhookDelivery.objects.filter(
            idempotency_key__in=keys, status=WebhookDelivery.Status.PENDING
        ).values_list("pk", flat=True)
    )
    send_later(ids)


def send_later(ids: Sequence[int]) -> bool:
    """Enqueue the sending, one task per endpoint (a slow receiver delays only its own
    messages). Neither the broker nor a receiver may fail the committed change: what
    cannot be enqueued is left to the sweep."""
    if not ids:
        return False
    try:
        if queue.runs_eagerly():
            # no worker: one attempt inside the request; the sweep retries
            deliver(ids)
        else:
            by_endpoint: dict[int, list[int]] = defaultdict(list)
            for pk, endpoint_id in WebhookDelivery.objects.filter(pk__in=ids).values_list(
                "pk", "endpoint_id"
            ):
                by_endpoint[endpoint_id].append(pk)
            for batch in by_endpoint.values():
                queue.send("tournaments.tasks.send_webhooks", sorted(batch))
    except Exception:
        log.warning("webhooks not sent now (%s rows): left to the sweep", len(ids), exc_info=True)
        return False
    return True


# -- sending, in the task ----------------------------------------------------------------


def backoff(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failed attempt: doubling from the base, capped."""
    base = float(getattr(conf, "ARBITER_WEBHOOK_BACKOFF_SECONDS", 30))
    cap = float(getattr(conf, "ARBITER_WEBHOOK_BACKOFF_MAX_SECONDS", 3600))
    return timedelta(seconds=min(cap, base * 2 ** max(0, attempts - 1)))


def deliver(ids: Sequence[int], *, now: datetime | None = None) -> int:
    """Send the due pending deliveries among ``ids``; returns how many were delivered."""
    delivered = 0
    for pk in ids:
        with transaction.atomic():
            # of self only: the event's row is never held while a receiver answers
            row = (
                WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("endpoint__event")
                .filter(pk=pk, status=WebhookDelivery.Status.PENDING)
                .first()
            )
            moment = now or timezone.now()
            if row is None or (row.next_attempt_at is not None and row.next_attempt_at > moment):
                continue  # sent, being sent by a twin, or not due yet
            if _attempt(row, moment) == WebhookDelivery.Status.DELIVERED:
                delivered += 1
    return delivered


def _attempt(row: WebhookDelivery, now: datetime) -> str:
    endpoint = row.endpoint
    if not endpoint.active:
        row.status = WebhookDelivery.Status.CANCELLED
        row.save(update_fields=["status"])
        return row.status
    body = json.dumps(row.payload, sort_keys=True, separators=(",", ":")).encode()
    timestamp = int(now.timestamp())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Arbiter-Webhooks/1",
        SIGNATURE_HEADER: signature(secret_for(endpoint), timestamp, body),
        KEY_HEADER: str(row.idempotency_key),
        KIND_HEADER: row.kind,
    }
    code: int | None = None
    error = ""
    try:
        target = webhook_http.resolve(endpoint.url)
        code = webhook_http.post(
            target, body, headers, timeout=float(getattr(conf, "ARBITER_WEBHOOK_TIMEOUT", 5))
        )
    except webhook_http.UnsafeTarget as unsafe:
        error = str(unsafe)
    except OSError as failure:
        error = f"{failure.__class__.__name__}: {failure}"
    row.attempts += 1
    row.last_attempt_at = now
    row.last_status_code = code
    row.last_error = error[:300]
    if code is not None and 200 <= code < 300:
        row.status = WebhookDelivery.Status.DELIVERED
        row.delivered_at = now
        row.next_attempt_at = None
    elif code == 410:
        # the receiver says it is gone for good: no more messages to it
        row.status = WebhookDelivery.Status.CANCELLED
        row.next_attempt_at = None
        endpoint.active = False
        endpoint.disabled_reason = _("The receiver answered 410 Gone.")[:200]
        endpoint.save(update_fields=["active", "disabled_reason"])
        audit.log(endpoint.event, "webhook.gone", actor=None, at=now, subject=endpoint.url)
    else:
        if code is not None and not error:
            row.last_error = f"HTTP {code}"
        following = now + backoff(row.attempts)
        if following > row.retry_until:
            row.status = WebhookDelivery.Status.FAILED
            row.next_attempt_at = None
            log.warning("webhook %s given up after %s attempts", row.idempotency_key, row.attempts)
        else:
            row.next_attempt_at = following
    row.save(
        update_fields=[
            "status",
            "attempts",
            "last_attempt_at",
            "last_status_code",
            "last_error",
            "delivered_at",
            "next_attempt_at",
        ]
    )
    return row.status


def sweep(*, now: datetime | None = None) -> int:
    """Send every pending delivery that is due (a failed attempt's backoff is over, or its
    first task was lost). Returns how many rows it sent for."""
    now = now or timezone.now()
    ids = list(
        WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING)
        .filter(
            Q(attempts=0, next_attempt_at__lte=now - FIRST_TRY_GRACE)
            | Q(attempts__gt=0, next_attempt_at__lte=now)
        )
        .order_by("next_attempt_at", "id")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    send_later(ids)
    return len(ids)
