"""Live updates (issue 30, step 2): what changed on an event's public pages, told after the
commit on one Redis pub/sub channel, read by the event streams
(/api/v1/events/<slug>/stream, tournaments/api/stream.py) in every web process.

A message says which kind of change it was and carries the event's public state after it:
the version token the pages' poll compares (``version_token``) and, unless the format hides
its results for now, the results and standings versions. It is read from the database
after the commit, so a stream never announces what a reader could not yet see. Nothing of
this can fail a save: without Redis, or with Redis down, nothing is sent and the pages go
on polling /e/<slug>/version.
"""

from __future__ import annotations

import json
import logging
import os
import time
from typing import Any

from django.conf import settings
from django.db import transaction

from tournaments import selectors
from tournaments.formats import ui_for
from tournaments.models import Event

log = logging.getLogger(__name__)

ROUND_PUBLISHED = "round_published"
RESULT_SAVED = "result_saved"
STANDINGS_CHANGED = "standings_changed"
KINDS = (ROUND_PUBLISHED, RESULT_SAVED, STANDINGS_CHANGED)
# kinds that say nothing public while the format hides its results (WPF online rounds)
HIDDEN_WITH_RESULTS = frozenset({RESULT_SAVED, STANDINGS_CHANGED})
RETRY_AFTER_FAILURE = 5.0  # seconds a down Redis is left alone: a save pays its timeout once


def version_token(event: Event, public_round_count: int, hidden: bool = False) -> str:
    """Changes whenever something a public page shows changes: a result or a publication
    (results_version), new standings (standings_version), a round made public. While the
    format hides its results, results and standings are not public: only a round made
    public (or the reveal) changes it."""
    if hidden:
        return f"hidden.{public_round_count}"
    return f"{event.results_version}.{event.standings_version}.{public_round_count}"


def public_state(event: Event) -> dict[str, Any]:
    """What a stream tells of the event now: its token, its public versions (None while
    hidden), its public round count, whether it is public and whether it has ended. Two
    queries (the rounds, and whatever the format's hiding rule reads)."""
    rounds = selectors.public_rounds(event)
    hidden = ui_for(event).hides_results(event, rounds)
    return {
        "token": version_token(event, len(rounds), hidden),
        "results_version": None if hidden else event.results_version,
        "standings_version": None if hidden else event.standings_version,
        "rounds": len(rounds),
        "hidden": hidden,
        "public": event.public,
        "finished": event.status == Event.Status.FINISHED,
    }


def channel() -> str:
    """One channel for every event, named under the cache's prefix (a test or a second site
    on the same Redis has its own)."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX") or "arbiter"
    return f"{prefix}:live"


def changed(event_id: int, kind: str) -> None:
    """Call inside the transaction that made the change: the message goes after the commit,
    and not at all if it rolls back. Two kinds in one transaction send two messages with
    the same token (a stream passes on each; the pages refresh once)."""
    transaction.on_commit(lambda: publish(event_id, kind))


_clients: dict[str, Any] = {}
_down_until = 0.0


def _client() -> Any:
    url = getattr(settings, "REDIS_URL", None)
    if not url:
        return None
    key = f"{os.getpid()}:{url}"
    found = _clients.get(key)
    if found is None:
        import redis

        # short timeouts: a down Redis costs a save half a second, once per RETRY_AFTER_FAILURE
        found = _clients[key] = redis.Redis.from_url(
            url, socket_connect_timeout=0.5, socket_timeout=1
        )
    return found


def publish(event_id: int, kind: str) -> bool:
    """Tell the streams of ``event_id`` now (call it after the commit: ``changed`` does).
    True when a message went out; never raises."""
    global _down_until
    if time.monotonic() < _down_until:
        return False
    try:
        client = _client()
        if client is None:
            return False
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            return False
        state = public_state(event)
        if state.pop("hidden") and kind in HIDDEN_WITH_RESULTS:
            return False
        client.publish(channel(), json.dumps({"event": event_id, "kind": kind, **state}))
        return True
    except Exception as error:  # Redis down (or anything else): the save stands, pages poll
        _down_until = time.monotonic() + RETRY_AFTER_FAILURE
        log.warning("live update of event %s not sent (%s)", event_id, error.__class__.__name__)
        return False
