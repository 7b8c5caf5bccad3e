"""Celery tasks: thin, take ids, call a service, safe to run twice.

Every task acks late (settings: CELERY_TASK_ACKS_LATE, reject on worker lost): a worker
killed in the middle of a task leaves its message to be redelivered to another worker.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

from celery import shared_task
from django.db import InterfaceError, OperationalError

from tournaments.services import (
    event_import,
    notifications,
    rating_report,
    reports,
    standings,
    webhooks,
)

log = logging.getLogger(__name__)


class _Options(TypedDict, total=False):
    acks_late: bool
    reject_on_worker_lost: bool
    autoretry_for: Sequence[type[BaseException]]
    retry_backoff: bool
    max_retries: int


# Transient failures worth a retry: the database restarting, a dropped connection.
TRANSIENT = (OperationalError, InterfaceError, ConnectionError)
# A job a user asked for (a report, an import): redelivered if its worker dies mid-way.
JOB: _Options = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT,
    "retry_backoff": True,
    "max_retries": 5,
}
# Beat's sweeps: cheap, and the next sweep comes anyway.
SWEEP: _Options = {
    "acks_late": True,
    "autoretry_for": TRANSIENT,
    "retry_backoff": True,
    "max_retries": 3,
}


def _test_pause() -> None:
    """Test-only hook (tests/tournaments/test_tasks_worker.py, bench/proof_broker.py): with
    ARBITER_TEST_STANDINGS_PAUSE set, a recompute announces itself by touching
    ARBITER_TEST_PAUSE_FILE and sleeps between computing and publishing, so that a test can
    kill the worker in the middle; with ARBITER_TEST_PAUSE_ARM set too, only while that file
    exists (a long run pauses only the recomputes it kills). Unset in every real deployment.
    """
    seconds = os.environ.get("ARBITER_TEST_STANDINGS_PAUSE")
    if not seconds:
        return
    arm = os.environ.get("ARBITER_TEST_PAUSE_ARM")
    if arm and not Path(arm).exists():
        return
    marker = os.environ.get("ARBITER_TEST_PAUSE_FILE")
    if marker:
        Path(marker).write_text(str(os.getpid()))
    time.sleep(float(seconds))


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
)
def recompute_standings(event_id: int, results_version: int) -> bool:
    """The event's newest standings, published as soon as they are computed, then their
    outlook; again while results are saved meanwhile (standings.recompute). Each
    publication's public tables are rendered at once. ``results_version``: the version
    that sent the task, for the logs; the task always computes the newest."""
    return standings.recompute(
        event_id,
        after_compute=_test_pause,
        # an outlook changes the standings tables only, not the round's pairings
        on_published=lambda part: _prerender(event_id, pairings=part == "standings"),
    )


def _prerender(event_id: int, *, pairings: bool = True) -> None:
    """The new snapshot's public tables rendered now, by the worker, rather than by the
    first visitor (tournaments/views/fragments.py), after the entrant pages' placings
    (their crowd comes first after a release). Only an optimisation: a failure leaves the
    pages to render them."""
    from tournaments.views import fragments, release_warm

    started = time.monotonic()
    try:
        release_warm.after_standings(event_id)
    except Exception:
        log.warning("entrant book of event %s not warmed", event_id, exc_info=True)
    warmed = time.monotonic()
    try:
        fragments.prerender(event_id, pairings=pairings)
    except Exception:
        log.warning("public fragments of event %s not prerendered", event_id, exc_info=True)
    log.info(
        "event %s: entrant book warmed in %.3f s, fragments prerendered in %.3f s",
        event_id,
        warmed - started,
        time.monotonic() - warmed,
    )


@shared_task(acks_late=True, autoretry_for=TRANSIENT, retry_backoff=True, max_retries=2)
def warm_release(event_id: int, round_id: int, results_version: int) -> None:
    """What a round's release is about to be asked for, built before the crowd asks
    (tournaments/views/release_warm.py). Only an optimisation: a failure is logged and
    the pages build it themselves."""
    from tournaments.views import release_warm

    try:
        release_warm.after_release(event_id, round_id, results_version)
    except TRANSIENT:
        raise
    except Exception:
        log.warning("release of round %s not warmed", round_id, exc_info=True)


@shared_task(**SWEEP)
def sweep_standings() -> int:
    sent = standings.sweep()
    standings.prune_backlog()  # events no result reaches any more (finished, or before this)
    return sent


@shared_task(**SWEEP)
def sweep_reports() -> int:
    return reports.sweep_stuck()


@shared_task(**JOB)
def build_report(report_id: int) -> bool:
    return reports.build(report_id)


@shared_task(**JOB)
def run_import(job_id: int) -> bool:
    return event_import.run_job(job_id)


@shared_task(**SWEEP)
def sweep_imports() -> int:
    return event_import.sweep_stuck()


@shared_task(**SWEEP)
def scheduled_backup() -> str:
    """Beat's backup (ARBITER_BACKUP_EVERY_MINUTES): event files always, the database dump
    when its tool is there; then only the newest ARBITER_BACKUP_KEEP backups are kept."""
    from tournaments.services import backup

    made = backup.create_backup(database=backup.IF_AVAILABLE)
    backup.prune()
    return str(made.path)


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(*TRANSIENT, notifications.MailNotSent),
    retry_backoff=30,
    retry_backoff_max=900,
    max_retries=5,
)
def send_notifications(ids: list[int]) -> int:
    """Mail the pending Notification rows among ``ids``; a row sent is never sent again."""
    return notifications.deliver(ids)


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(*TRANSIENT, rating_report.MailNotSent),
    retry_backoff=30,
    retry_backoff_max=900,
    max_retries=8,
)
def mail_rating_report(submission_id: int) -> bool:
    """Mail a WOF file kept for the rating officer; a copy mailed is never mailed again."""
    return rating_report.deliver(submission_id)


@shared_task(**SWEEP)
def sweep_offers() -> int:
    """Offers of a place past their deadline pass to the next in line (services/places.py;
    the entries' pages also check on read)."""
    from tournaments.services import places

    return places.sweep()


@shared_task(**SWEEP)
def sweep_notifications() -> int:
    return notifications.sweep()


@shared_task(**JOB)
def send_webhooks(ids: list[int]) -> int:
    """Send the due webhook deliveries among ``ids`` (one endpoint's); a receiver that fails
    is retried by the sweep after its backoff, never by this task."""
    return webhooks.deliver(ids)


@shared_task(**SWEEP)
def sweep_webhooks() -> int:
    return webhooks.sweep()


# -- venue mode (docs/venue.md, "The pusher") ---------------------------------------------


@shared_task(acks_late=True, autoretry_for=TRANSIENT, max_retries=10)
def push_mirror(event_id: int) -> str:
    """Push a venue event's waiting changes to its public copy (after each commit). When
    another pusher holds the link it ends at once: the holder pushes what waits, and looks
    again after it lets the link go (push.push), so a burst of saves is not a burst of
    retried tasks while the link is down."""
    from tournaments.services.mirror import push

    return push.push(event_id)


@shared_task(**SWEEP)
def sweep_mirror() -> int:
    """Beat: push every venue event whose changes wait and whose retry is due (a lost task,
    a broker that was down, a link that was down)."""
    from tournaments.services.mirror import runner

    return len(runner.run_due())
