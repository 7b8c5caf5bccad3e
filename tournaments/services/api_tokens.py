"""API tokens: a director's key to an event's API operations beyond the public reads
(issue 30 step 7, the whole-event export; issue 31's mirror will add its own scope).

A token belongs to one event and the director who made it, has a name and scopes, and is
shown once, when made: only a peppered hash is stored. The secret is 32 random bytes
(256 bits), so no slow password hash is needed: nobody can guess through that space, and
a fast hash keeps every API request cheap. The pepper (settings.ARBITER_API_TOKEN_PEPPER,
the secret key by default) is an HMAC key kept out of the database, so a copy of the
database alone cannot even check a guess. Why in docs/api.md, "Tokens".
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.contract import Problem
from tournaments.models import ApiToken, Event
from tournaments.services import audit
from tournaments.services.errors import ServiceError

PREFIX = "arb_"
SHOWN = len(PREFIX) + 8  # the characters kept for display: "arb_Xy12ab9Q"
NAME_MAX = 80

# Every scope a token may hold and what it allows, in words for the director's screen.
SCOPES = {
    "export:read": _("Read the whole-event export (the lossless event file)"),
    # venue mode (docs/venue.md): a venue machine pushes its changes and pulls the event
    "mirror:push": _("Mirror the event from a venue machine (push its changes, pull the event)"),
}
EXPIRIES = (0, 30, 90, 365)  # days; 0: never


def digest(secret: str) -> str:
    pepper = str(settings.ARBITER_API_TOKEN_PEPPER).encode()
    return hmac.new(pepper, secret.encode(), hashlib.sha256).hexdigest()


def tokens_of(event: Event) -> list[ApiToken]:
    return list(event.api_tokens.select_related("created_by").order_by("-created_at", "-id"))


def create(
    event: Event,
    *,
    name: str,
    scopes: list[str],
    by: Any,
    expires_in_days: int = 0,
    now: datetime | None = None,
) -> tuple[ApiToken, str]:
    """A new token for ``event``: the row and its secret, which is never stored and never
    shown again. Refused, naming the field, with an empty name, no scope or an unknown one."""
    now = now or timezone.now()
    name = (name or "").strip()
    problems = []
    if not name:
        problems.append(
            Problem("error", "name", gettext("Name the token: who or what will use it."))
        )
    elif len(name) > NAME_MAX:
        problems.append(
            Problem(
                "error",
                "name",
                gettext("The name is longer than %(max)s characters.") % {"max": NAME_MAX},
            )
        )
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown:
        problems.append(
            Problem(
                "error",
                "scopes",
                gettext("Unknown scope: %(scopes)s.") % {"scopes": ", ".join(unknown)},
            )
        )
    elif not scopes:
        problems.append(Problem("error", "scopes", gettext("Choose at least one scope.")))
    if expires_in_days not in EXPIRIES:
        problems.append(Problem("error", "expires", gettext("Choose an expiry from the list.")))
    if problems:
        raise ServiceError(problems)
    secret = PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        row = ApiToken.objects.create(
            event=event,
            created_by=by if getattr(by, "is_authenticated", False) else None,
            name=name,
            prefix=secret[:SHOWN],
            token_hash=digest(secret),
            scopes=sorted(set(scopes)),
            created_at=now,
            expires_at=now + timedelta(days=expires_in_days) if expires_in_days else None,
        )
        audit.log(
            event,
            "api_token.created",
            actor=by,
            at=now,
            subject=f"{row.prefix}… {name}",
            after={
                "scopes": row.scopes,
                "expires_at": row.expires_at.isoformat() if row.expires_at else None,
            },
        )
    return row, secret


def revoke(event: Event, token_id: int, *, by: Any, now: datetime | None = None) -> ApiToken:
    """Revoke the event's token ``token_id``: refused from the next request on (each request
    reads the row). Revoking a revoked token changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        row = event.api_tokens.select_for_update().filter(pk=token_id).first()
        if row is None:
            raise ServiceError([Problem("error", "token", gettext("No such token in this event."))])
        if row.revoked_at is None:
            row.revoked_at = now
            row.save(update_fields=["revoked_at"])
            audit.log(
                event, "api_token.revoked", actor=by, at=now, subject=f"{row.prefix}… {row.name}"
            )
    return row


@dataclass(frozen=True)
class Checked:
    token: ApiToken | None
    refusal: str  # "" when the token may be used; else missing, unknown, revoked, expired


def check(secret: str, *, now: datetime | None = None) -> Checked:
    """The live token for ``secret``, its use recorded; or why there is none."""
    if not secret:
        return Checked(None, "missing")
    if not secret.startswith(PREFIX) or len(secret) > 200:
        return Checked(None, "unknown")
    wanted = digest(secret)
    row = ApiToken.objects.select_related("event").filter(token_hash=wanted).first()
    # the row was found by its hash; compared again in constant time all the same
    if row is None or not hmac.compare_digest(row.token_hash, wanted):
        return Checked(None, "unknown")
    now = now or timezone.now()
    if row.revoked_at is not None:
        return Checked(None, "revoked")
    if row.expires_at is not None and row.expires_at <= now:
        return Checked(None, "expired")
    # one write a minute at most per token: an export polled in a loop is not a write each
    if row.last_used_at is None or now - row.last_used_at > timedelta(minutes=1):
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
    return Checked(row, "")
