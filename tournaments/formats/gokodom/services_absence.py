"""GokoDom's check-in (docs/formats/gokodom.md, Absence): "I can't play next round".

A player (or the director, who reads the player's PM to the TO) marks an absence for the
next round. Told by the end of the round before, for a round where the privilege exists
(not the final Swiss round, not the elimination), it is also a Bye by Request (I.E: worth a
draw). Otherwise the engine applies the ``absent_result`` setting in a Swiss round (a Loss,
or a Loss by Default that removes the player) and a loss by default in the elimination.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.formats.gokodom import schedule
from tournaments.formats.gokodom.services import bye_refusal, set_bye_request
from tournaments.models import CheckIn, Entrant, Event
from tournaments.services import checkin


def set_absence(
    entrant: Entrant,
    *,
    present: bool,
    by: Any,
    source: str,
    number: int | None = None,
    now: datetime | None = None,
) -> CheckIn:
    """Record the check-in; while a Bye by Request may still be asked for (or withdrawn),
    ask for it with an absence and withdraw it with a return."""
    now = now or timezone.now()
    with transaction.atomic():
        mark = checkin.set_presence(
            entrant, present=present, by=by, source=source, number=number, now=now
        )
        event = Event.objects.get(pk=entrant.event_id)
        if not bye_refusal(event, mark.round_number, now):
            fresh = Entrant.objects.get(pk=entrant.pk)
            asked = mark.round_number in (fresh.flags.get("bye_requests") or [])
            if asked == present:  # absent without the request, or back with it
                set_bye_request(fresh, mark.round_number, wanted=not present, by=by, now=now)
    return mark


def outcome(event: Event, number: int, now: datetime) -> str:
    """What an absence from round ``number`` gives, told now, in one sentence."""
    if number > schedule.swiss_rounds(event):
        return _("In the elimination rounds an absent player loses the match by default.")
    if not bye_refusal(event, number, now):
        return _("Told now, it is a Bye by Request, worth a draw (I.E).")
    refusal = bye_refusal(event, number, now)
    if event.settings.get("absent_result") == "loss_by_default":
        then = _(
            "An absent player is not paired and gets a Loss by Default, which removes them "
            "from the tournament (II.B.6)."
        )
    else:
        then = _(
            "An absent player is not paired and gets a Loss (0 match points), and stays in "
            "the tournament."
        )
    return f"{refusal} {then}"
