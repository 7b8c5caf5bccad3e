"""iCalendar feeds (issue 30, step 3): an event's rounds, and one entrant's matches.

What a feed holds is what the public pages show (selectors.public_rounds and entrant_page,
the format's round_start and round_deadline hooks): a round hidden from visitors is not
in a calendar either. Each entry keeps one UID for its life (the event's id, the round's
number, the entrant's number and the match's code: not a row id, which a redraw renews),
and its SEQUENCE counts the changes a calendar must show again: a start time or deadline
moved, a pairing redrawn or overridden (read from the audit trail, one query). DTSTAMP and
LAST-MODIFIED are the newest of those changes (or the publication), so a feed read twice
is the same bytes while nothing changed, and its ETag holds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import icalendar
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.formats import ui_for
from tournaments.models import AuditEntry, Event, Round
from tournaments.services.round_times import event_zone

PRODUCT = "-//Arbiter//Tournament calendars//EN"
# A round without a deadline has no known end: calendars show it an hour long.
ROUND_LENGTH = timedelta(hours=1)
# Readers are asked to fetch the feed again this often (RFC 7986 REFRESH-INTERVAL).
REFRESH = timedelta(hours=1)
# The audit actions that change what a calendar shows of a round (its times, its pairings).
CHANGES = (
    "round.start_time",
    "gokodom.round_times",
    "round.redrawn",
    "round.pairing_overridden",
)
SEEN = (*CHANGES, "round.published")


@dataclass(frozen=True)
class Revision:
    """How many times a round changed in a way a calendar shows, and when it last did."""

    sequence: int
    modified: datetime


def _domain() -> str:
    return urlsplit(settings.ARBITER_SITE_URL).hostname or "arbiter"


def _absolute(path: str) -> str:
    return settings.ARBITER_SITE_URL + path


def _round_label(action: str, subject: str) -> str:
    # a pairing override's subject is "<round label>: A <-> B"
    if action == "round.pairing_overridden":
        return subject.rsplit(": ", 1)[0]
    return subject


def revisions(event: Event, rounds: Iterable[Round]) -> dict[int, Revision]:
    """Each round's revision, by round number. One query."""
    counts: dict[str, int] = {}
    latest: dict[str, datetime] = {}
    rows = AuditEntry.objects.filter(event=event, action__in=SEEN).values_list(
        "action", "subject", "at"
    )
    for action, subject, at in rows:
        label = _round_label(action, subject)
        if action in CHANGES:
            counts[label] = counts.get(label, 0) + 1
        if label not in latest or at > latest[label]:
            latest[label] = at
    out = {}
    for rnd in rounds:
        moments = [m for m in (latest.get(rnd.label), rnd.published_at) if m is not None]
        out[rnd.number] = Revision(
            sequence=counts.get(rnd.label, 0),
            modified=max(moments) if moments else event.created_at,
        )
    return out


def _calendar(event: Event, name: str, url: str) -> icalendar.Calendar:
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("name", name)
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", str(event_zone(event)))
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH)
    calendar.add("url", _absolute(url))
    if event.mirror_state == "copy" and event.mirrored_at is not None:
        # venue mode's public copy (docs/venue.md): said as its pages and API say it
        when = event.mirrored_at.astimezone(event_zone(event)).strftime("%H:%M")
        said = _("Updated from the venue at %(time)s.") % {"time": when}
        calendar.add("description", said)
        calendar.add("x-wr-caldesc", said)
    return calendar


def _entry(
    uid: str,
    summary: str,
    start: datetime,
    end: datetime | None,
    revision: Revision,
    *,
    location: str = "",
    url: str = "",
    description: str = "",
) -> icalendar.Event:
    entry = icalendar.Event()
    entry.add("uid", f"{uid}@{_domain()}")
    entry.add("dtstamp", revision.modified)
    entry.add("last-modified", revision.modified)
    entry.add("sequence", revision.sequence)
    entry.add("summary", summary)
    entry.add("dtstart", start)
    if end is not None and end > start:
        entry.add("dtend", end)
    if location:
        entry.add("location", location)
    if url:
        entry.add("url", _absolute(url))
    if description:
        entry.add("description", description)
    entry.add("status", "CONFIRMED")
    entry.add("transp", "OPAQUE")
    return entry


def _times(event: Event, rnd: Round) -> tuple[datetime | None, datetime | None]:
    """The round's start and end on the event's clock: the end is its deadline when the
    format has one, else an hour after the start."""
    ui = ui_for(event)
    zone = event_zone(event)
    start, deadline = ui.round_start(event, rnd), ui.round_deadline(event, rnd)
    start = timezone.localtime(start, zone) if start is not None else None
    deadline = timezone.localtime(deadline, zone) if deadline is not None else None
    if start is None:
        return None, None
    return start, deadline or start + ROUND_LENGTH


def _finish(calendar: icalendar.Calendar) -> bytes:
    calendar.add_missing_timezones()
    return bytes(calendar.to_ical())


def _whole_event(event: Event) -> icalendar.Event | None:
    """The event's own days, an all-day entry, when its dates are known."""
    if event.starts_on is None:
        return None
    entry = icalendar.Event()
    entry.add("uid", f"arbiter-event-{event.pk}@{_domain()}")
    entry.add("dtstamp", event.created_at)
    entry.add("summary", event.name)
    entry.add("dtstart", event.starts_on)
    entry.add("dtend", (event.ends_on or event.starts_on) + timedelta(days=1))
    if event.venue:
        entry.add("location", event.venue)
    entry.add("url", _absolute(event.get_absolute_url()))
    entry.add("transp", "TRANSPARENT")  # a whole event's days do not block one's time
    return entry


def event_calendar(event: Event) -> bytes:
    """The event's public rounds with their start times and place. Two queries."""
    rounds = selectors.public_rounds(event)
    revised = revisions(event, rounds)
    calendar = _calendar(event, event.name, event.get_absolute_url())
    whole = _whole_event(event)
    if whole is not None:
        calendar.add_component(whole)
    for rnd in rounds:
        start, end = _times(event, rnd)
        if start is None:
            continue
        url = reverse("tournaments:round", args=[event.slug, rnd.number])
        calendar.add_component(
            _entry(
                f"arbiter-event-{event.pk}-round-{rnd.number}",
                f"{event.name}: {rnd.label}",
                start,
                end,
                revised[rnd.number],
                location=event.venue,
                url=url,
                description=_("Pairings and results: %(url)s") % {"url": _absolute(url)},
            )
        )
    return _finish(calendar)


def _place(event: Event, table: int | None) -> str:
    at_table = _("table %(table)s") % {"table": table} if table is not None else ""
    return ", ".join(part for part in (event.venue, at_table) if part)


def _against(item: dict[str, Any]) -> str:
    names = [seat.entrant.name if seat.entrant else _("a bye") for seat in item["opponents"]]
    return ", ".join(names) if names else _("a bye")


def entrant_calendar(event: Event, number: int) -> bytes | None:
    """One entrant's matches in the public rounds: the round's time, their opponents, the
    table; in a format with deadlines (a week-long GokoDom round) the match spans the round
    and its deadline is an entry of its own. None: no such entrant. Four queries."""
    rounds = selectors.public_rounds(event)
    found = selectors.entrant_page(event, number, rounds)
    if found is None:
        return None
    person, items = found
    hidden = ui_for(event).hides_results(event, rounds)
    revised = revisions(event, rounds)
    page = reverse("tournaments:entrant", args=[event.slug, number])
    calendar = _calendar(
        event, _("%(name)s at %(event)s") % {"name": person.name, "event": event.name}, page
    )
    for item in items:
        rnd, match = item["round"], item["match"]
        start, end = _times(event, rnd)
        if start is None:
            continue
        deadline = ui_for(event).round_deadline(event, rnd)
        revision = revised[rnd.number]
        where = _("table %(table)s") % {"table": match.table} if match.table is not None else ""
        summary = _("%(round)s: %(name)s against %(opponents)s") % {
            "round": rnd.label,
            "name": person.name,
            "opponents": _against(item),
        }
        if where:
            summary = f"{summary} ({where})"
        lines = [f"{event.name}, {rnd.label}"]
        if deadline is not None:
            lines.append(
                _("Agree a time with your opponent and play by %(deadline)s.")
                % {"deadline": _shown(event, deadline)}
            )
        score = item["score"]
        if not hidden and (match.result or {}).get("complete") and score:
            lines.append(_("Result: %(score)s") % {"score": score})
        uid = f"arbiter-event-{event.pk}-round-{rnd.number}-entrant-{person.number}"
        calendar.add_component(
            _entry(
                f"{uid}-match-{match.code}",
                summary,
                start,
                end,
                revision,
                location=_place(event, match.table),
                url=page,
                description="\n".join(lines),
            )
        )
        if deadline is not None:
            moment = timezone.localtime(deadline, event_zone(event))
            calendar.add_component(
                _entry(
                    f"{uid}-deadline",
                    _("Deadline of %(round)s: %(event)s")
                    % {"round": rnd.label, "event": event.name},
                    moment,
                    None,
                    revision,
                    url=page,
                    description=_(
                        "The round ends: play your match by now, or tell the director why not."
                    ),
                )
            )
    return _finish(calendar)


def _shown(event: Event, moment: datetime) -> str:
    return date_format(timezone.localtime(moment, event_zone(event)), "DATETIME_FORMAT")
