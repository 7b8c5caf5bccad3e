"""Invitations: each entrant's invite link (/accounts/claim/<code>/), a new code when the
old link must die, and the rows of the printed slips.

A claim code is the whole secret of an invite link: whoever holds it (signed in) becomes the
entrant's player. So a renewed code kills the old link at once, and renewing the code of a
claimed entry also releases that claim (a claimed entry cannot be claimed again, so the only
reason to renew it is that the wrong account holds it, or its player wants another one).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Entrant, Event, new_claim_code
from tournaments.services import audit
from tournaments.services.errors import ServiceError


def invite_path(entrant: Entrant) -> str:
    """The invite link's path (accounts.services.invite_url gives it absolute for a request)."""
    return reverse("accounts:claim_code", kwargs={"code": entrant.claim_code})


def invite_link(entrant: Entrant, base_url: str) -> str:
    """The absolute invite link under ``base_url`` ("https://host/", taken from the request
    that asked for it: the application does not know its own address)."""
    return base_url.rstrip("/") + invite_path(entrant)


def renew_code(
    entrant: Entrant, *, by: Any, reason: str = "", now: datetime | None = None
) -> Entrant:
    """Give the entrant a new claim code: the old invite link no longer claims anything.
    A claim made with the old code is released (see the module's docstring)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = (
            Entrant.objects.select_for_update(of=("self",))
            .select_related("user", "event")
            .get(pk=entrant.pk)
        )
        released = locked.user.get_username() if locked.user else None
        old_hint = locked.claim_code[-4:]
        code = new_claim_code()
        locked.claim_code = code
        locked.user = None
        try:
            with transaction.atomic():
                locked.save(update_fields=["claim_code", "user"])
        except IntegrityError:  # pragma: no cover - 72 random bits met another code
            raise ServiceError(_("No new code could be made; try again.")) from None
        # the audit keeps only the codes' last characters: the log is no place for a secret
        audit.log(
            locked.event,
            "entrant.invite_renewed",
            actor=by,
            at=now,
            subject=locked.name,
            before={"code_ends": old_hint, "claimed_by": released},
            after={"code_ends": code[-4:], "claimed_by": None},
            reason=reason.strip(),
        )
    return locked


@dataclass(frozen=True)
class Slip:
    entrant: Entrant
    link: str
    claimed_by: str  # the account's name, "" when unclaimed


def slips(event: Event, *, base_url: str, unclaimed_only: bool) -> list[Slip]:
    """One slip per entrant, in registration order (withdrawn entrants too: their players
    may still want their pages), or only the entrants nobody has claimed yet."""
    entrants = Entrant.objects.filter(event=event).select_related("user").order_by("number")
    if unclaimed_only:
        entrants = entrants.filter(user__isnull=True)
    return [
        Slip(e, invite_link(e, base_url), e.user.get_username() if e.user else "") for e in entrants
    ]


def slips_fingerprint(event: Event, *, unclaimed_only: bool) -> str:
    """Changes when a code is renewed, an entry claimed or a name changed: a slip sheet asked
    for again after any of these is built again, never served stale with a dead link."""
    rows = Entrant.objects.filter(event=event).order_by("number")
    if unclaimed_only:
        rows = rows.filter(user__isnull=True)
    fields = ("number", "name", "claim_code", "user_id")
    text = "\n".join(f"{n}\t{name}\t{c}\t{u or ''}" for n, name, c, u in rows.values_list(*fields))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
