"""Running the pusher (docs/venue.md, "The pusher"): after each committed change of a venue
event, ``kick``; the push itself happens apart from the save.

- ``ARBITER_MIRROR_PUSHER=task`` (the default with Redis and a worker): the Celery task
  tournaments.tasks.push_mirror, and beat's sweep_mirror for the retries;
- ``thread`` (the default without Redis: `make run`, and whenever tasks run eagerly): a
  daemon thread of the web process, woken by each kick and every second for the retries;
- ``command``: nothing in the web process; `manage.py push_mirror` runs ``loop``;
- ``off``: nothing (the tests call push.push themselves).
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from typing import Any

from django.conf import settings
from django.db import close_old_connections, reset_queries

from tournaments.services import queue
from tournaments.services.mirror import memory, push

log = logging.getLogger(__name__)

TICK = 1.0  # seconds between two looks at the links whose retry is due

_wake = threading.Event()
_started: threading.Thread | None = None
_start_lock = threading.Lock()


def mode() -> str:
    chosen = str(getattr(settings, "ARBITER_MIRROR_PUSHER", "") or "")
    if chosen:
        return chosen
    return "task" if getattr(settings, "REDIS_URL", None) else "thread"


def kick(event_id: int, **kwargs: Any) -> None:
    """A change of ``event_id`` was committed at the venue: have it pushed. Never raises
    and never waits for the network."""
    how = mode()
    if how in ("off", "command"):
        return
    if how == "task" and not queue.runs_eagerly():
        try:
            queue.send("tournaments.tasks.push_mirror", event_id)
            return
        except Exception as error:  # the broker is down: beat's sweep will send it
            log.warning("mirror push of event %s not queued (%s)", event_id, error)
            return
    _ensure_thread()
    _wake.set()


def serving(**kwargs: Any) -> None:
    """The web process answers its first request (connected to request_started): in
    thread mode the pusher starts now, so changes left waiting before a restart go out
    without waiting for the next save."""
    if _started is None and mode() == "thread":
        _ensure_thread()


def _ensure_thread() -> None:
    global _started
    with _start_lock:
        if _started is not None and _started.is_alive():
            return
        _started = threading.Thread(target=_thread_loop, name="arbiter-mirror", daemon=True)
        _started.start()


def _thread_loop() -> None:
    while True:
        _wake.wait(TICK)
        _wake.clear()
        run_due()


def run_due(slug: str = "") -> dict[int, str]:
    """Push every venue event with changes waiting and due (or only ``slug``'s): what
    happened to each. Never raises: a failure is the link's, recorded on it."""
    done: dict[int, str] = {}
    try:
        for event_id in push.due_events(slug=slug):
            try:
                done[event_id] = push.push(event_id)
            except Exception:
                log.exception("mirror push of event %s", event_id)
                done[event_id] = "failed"
    except Exception:
        log.exception("mirror pusher")
    finally:
        # Outside a request nothing empties Django's query log: with DEBUG on (`make run`)
        # a pusher that runs all day kept the last 9,000 queries' SQL (each export's
        # queries, several MiB: its memory rose for hours; docs/performance.md)
        reset_queries()
        close_old_connections()
        memory.sweep()  # manage.py push_mirror: the cyclic garbage of what it just did
    return done


def loop(*, slug: str = "", once: bool = False, tick: float = TICK) -> None:
    """`manage.py push_mirror`: push what is due, every ``tick`` seconds, until stopped.
    Running all day, it keeps its memory flat (mirror/memory.py): the objects of its start
    frozen, each push's cyclic garbage freed when the push ends."""
    if not once:
        memory.settle()
    probing = memory.probing()
    if probing:  # a probe line on demand too (kill -USR1): a run of pushes can last minutes
        signal.signal(signal.SIGUSR1, lambda _signum, _frame: memory.probe("asked"))
        memory.probe("start")
    while True:
        done = run_due(slug)
        if probing and any(outcome != "idle" for outcome in done.values()):
            memory.probe("pushed")
        if once:
            return
        time.sleep(tick)
