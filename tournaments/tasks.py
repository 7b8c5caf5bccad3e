"""Celery tasks: thin, take ids, call a service, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from tournaments.services import standings


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def recompute_standings(event_id: int, results_version: int) -> bool:
    return standings.refresh(event_id, results_version)
