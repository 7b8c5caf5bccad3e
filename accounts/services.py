"""The accounts app's writers: creating an account and claiming an entrant.

Each action is one transaction; claims are written to the event's audit trail.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract import Problem
from tournaments.models import Entrant, Event
from tournaments.services import audit
from tournaments.services.errors import ServiceError


def invite_url(entrant: Entrant, request: Any = None) -> str:
    """The link a director hands to a player: following it (signed in) claims the entrant.
    Absolute when a request is given, else the path."""
    path = reverse("accounts:claim_code", kwargs={"code": entrant.claim_code})
    return request.build_absolute_uri(path) if request is not None else path


def create_account(*, username: str, email: str, password: str) -> Any:
    """A new player account; the form has already checked the password and duplicates,
    and the checks are repeated here so no caller can bypass them."""
    user_model = get_user_model()
    problems = []
    with transaction.atomic():
        if user_model.objects.filter(username__iexact=username).exists():
            problems.append(
                Problem(
                    "account.username_taken",
                    "username",
                    _("The username “%(name)s” is taken; choose another.") % {"name": username},
                )
            )
        if email and user_model.objects.filter(email__iexact=email).exists():
            problems.append(
                Problem(
                    "account.email_taken",
                    "email",
                    _("An account with this email exists; sign in or reset its password."),
                )
            )
        if problems:
            raise ServiceError(problems)
    try:
        with transaction.atomic():
            return user_model.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:  # two sign-ups with one username at the same moment
        raise ServiceError(
            [
                Problem(
                    "account.username_taken",
                    "username",
                    _("The username “%(name)s” is taken; choose another.") % {"name": username},
                )
            ]
        ) from None


def entrant_for_code(code: str) -> Entrant | None:
    return Entrant.objects.select_related("event", "user").filter(claim_code=code).first()


def claim_entrant(user: Any, code: str, *, now: datetime | None = None) -> Entrant:
    """Link the user to the entrant holding this claim code, as its player.

    Refused when someone else claimed it, or when the user already plays as another entrant
    in the same event. A withdrawn entrant is still claimable (its player may want to see
    their matches). Claiming one's own entrant again changes nothing.
    """
    if not getattr(user, "is_authenticated", False):
        raise ServiceError(_("Sign in to claim an entry."))
    now = now or timezone.now()
    code = code.strip()
    with transaction.atomic():
        entrant = Entrant.objects.select_for_update().filter(claim_code=code).first()
        if entrant is None:
            raise ServiceError(
                [Problem("claim.unknown", "code", _("No entry has this claim code; check it."))]
            )
        if entrant.user_id == user.pk:
            return entrant
        if entrant.user_id is not None:
            raise ServiceError(
                [
                    Problem(
                        "claim.taken",
                        "code",
                        _(
                            "This entry is already claimed by another account. If it is yours, "
                            "ask the tournament director."
                        ),
                    )
                ]
            )
        other = (
            Entrant.objects.filter(event_id=entrant.event_id, user=user)
            .exclude(pk=entrant.pk)
            .first()
        )
        if other is not None:
            raise ServiceError(
                [
                    Problem(
                        "claim.already_playing",
                        "code",
                        _("You already play in this event as %(name)s.") % {"name": other.name},
                    )
                ]
            )
        entrant.user = user
        entrant.save(update_fields=["user"])
        event = Event.objects.get(pk=entrant.event_id)
        audit.log(
            event,
            "entrant.claimed",
            actor=user,
            at=now,
            subject=entrant.name,
            after={"entrant": entrant.number, "user": user.get_username()},
        )
    entrant.event = event
    return entrant
