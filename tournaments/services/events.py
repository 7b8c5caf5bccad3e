"""Creating events and registering entrants."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from rules import registry
from rules.contract import Problem
from tournaments.models import Entrant, Event, EventDirector, Round, Team
from tournaments.services import audit, locking, standings
from tournaments.services.errors import ServiceError


def validate_format_settings(format_key: str, settings: Mapping[str, Any]) -> list[Problem]:
    try:
        engine = registry.get(format_key)
    except registry.UnknownFormat:
        known = ", ".join(registry.formats())
        return [Problem("format.unknown", "format", f"'{format_key}' is not a format ({known}).")]
    return engine.validate_settings(settings)


def slug_unavailable(slug: str) -> str:
    """The one answer for a web address that cannot be used: the same words whoever's
    event holds it, public or private, at /manage/new/ and at both steps of an import, so
    the answer never tells that a private event exists (issue 20)."""
    return f"the web address '{slug}' is not available; choose another."


def slug_problem(slug: str) -> Problem:
    text = slug_unavailable(slug)
    return Problem("event.slug_taken", "slug", text[0].upper() + text[1:])


def create_event(
    *,
    slug: str,
    name: str,
    format: str,
    by: Any,
    settings: Mapping[str, Any] | None = None,
    public: bool = False,
    starts_on: date | None = None,
    ends_on: date | None = None,
    time_zone: str = "UTC",
    venue: str = "",
    now: datetime | None = None,
) -> Event:
    now = now or timezone.now()
    settings = dict(settings or {})
    problems = validate_format_settings(format, settings)
    if Event.objects.filter(slug=slug).exists():
        problems.append(slug_problem(slug))
    if problems:
        raise ServiceError(problems)
    with transaction.atomic():
        event = Event.objects.create(
            slug=slug,
            name=name,
            format=format,
            settings=settings,
            public=public,
            starts_on=starts_on,
            ends_on=ends_on,
            time_zone=time_zone,
            venue=venue,
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )
        if getattr(by, "is_authenticated", False):
            EventDirector.objects.create(event=event, user=by)
        audit.log(event, "event.created", actor=by, at=now, subject=slug, after={"format": format})
    return event


def add_entrant(
    event: Event,
    *,
    name: str,
    by: Any,
    family_name: str = "",
    given_name: str = "",
    rating: int | None = None,
    seed: int | None = None,
    country: str = "",
    gender: str = "",
    team: str = "",
    flags: Mapping[str, Any] | None = None,
    external_id: str = "",
    now: datetime | None = None,
) -> Entrant:
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event.pk)
        if seed is not None and event.entrants.filter(seed=seed).exists():
            raise ServiceError([Problem("entrant.seed_taken", "seed", f"Seed {seed} is taken.")])
        number = (event.entrants.aggregate(n=Max("number"))["n"] or 0) + 1
        team_row = Team.objects.get_or_create(event=event, name=team)[0] if team else None
        entrant = Entrant.objects.create(
            event=event,
            number=number,
            name=name,
            family_name=family_name,
            given_name=given_name,
            rating=rating,
            seed=seed,
            country=country.upper(),
            gender=gender,
            team=team_row,
            flags=dict(flags or {}),
            external_id=external_id,
        )
        audit.log(event, "entrant.added", actor=by, at=now, subject=name)
    return entrant


def withdraw(
    entrant: Entrant, *, by: Any, reason: str = "", now: datetime | None = None
) -> Entrant:
    """The entrant leaves after the last round that is published (or completed)."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(entrant.event_id)
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if entrant.status == Entrant.Status.WITHDRAWN:
            raise ServiceError(_("%(entrant)s has already withdrawn.") % {"entrant": entrant.name})
        last = (
            event.rounds.exclude(status=Round.Status.DRAFT)
            .order_by("-number")
            .values_list("number", flat=True)
            .first()
        )
        entrant.status = Entrant.Status.WITHDRAWN
        entrant.withdrawn_after_round = last or 0
        entrant.save(update_fields=["status", "withdrawn_after_round"])
        audit.log(
            event,
            "entrant.withdrawn",
            actor=by,
            at=now,
            subject=entrant.name,
            after={"after_round": entrant.withdrawn_after_round},
            reason=reason,
        )
        standings.results_changed(event)
    return entrant


def add_director(event: Event, username: str, *, by: Any, now: datetime | None = None) -> Any:
    """Make an existing account a director of the event (audited)."""
    from django.contrib.auth import get_user_model

    now = now or timezone.now()
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise ServiceError(
            [Problem("director.unknown", "username", f"No account is called '{username}'.")]
        )
    with transaction.atomic():
        event = locking.lock_event(event.pk)
        _, created = EventDirector.objects.get_or_create(event=event, user=user)
        if not created:
            raise ServiceError(
                [Problem("director.already", "username", f"{user} already directs this event.")]
            )
        audit.log(event, "event.director_added", actor=by, at=now, subject=str(user))
    return user
