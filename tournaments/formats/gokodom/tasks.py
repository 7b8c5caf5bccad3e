"""GokoDom's periodic task: close every round whose deadline has passed.

Beat runs ``close_due_rounds`` every few minutes (config/settings.py CELERY_BEAT_SCHEDULE).
The database is the truth: the task asks which published rounds are past their deadline
and applies the unplayed-match rule to each in its own transaction. Running it twice, or
two at once, does nothing more: a closed round is skipped, a match with a result is left
alone, and each round's row lock serialises concurrent runs.
"""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from tournaments.formats.gokodom import services_director as director

TRANSIENT = (OperationalError, InterfaceError, ConnectionError)
# The name it had in tournaments/tasks_gokodom.py, before the format became a package:
# queued messages and the beat schedule find it by that name.
NAME = "tournaments.tasks_gokodom.close_due_rounds"


@shared_task(name=NAME, acks_late=True, autoretry_for=TRANSIENT, retry_backoff=True, max_retries=3)
def close_due_rounds() -> dict[str, bool]:
    """{round id: closed?} for every round past its deadline."""
    now = timezone.now()  # the clock is read once per run
    done = {}
    for round_id in director.due_rounds(now):
        done[str(round_id)] = director.close_at_deadline(round_id, now=now).closed
    return done
