"""Shared bits of the management commands."""

from __future__ import annotations

from django.core.management.base import CommandError

from tournaments.models import Event
from tournaments.services.errors import ServiceError


def get_event(slug: str) -> Event:
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise CommandError(f"No event with the slug '{slug}'.")
    return event


def service_error(error: ServiceError) -> CommandError:
    lines = "\n".join(f"  - {text}" for text in error.messages)
    return CommandError(f"Nothing was saved:\n{lines}")
