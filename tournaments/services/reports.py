"""Reports: asked for by a director (or, for a public event's standings, by anyone), built
by a task (tournaments.tasks.build_report), stored as files, downloaded through a view that
checks permission. Progress is written to the Report row as the build goes.

A report is asked for once per kind, round, results version and record: asking again while
one is queued, building or ready for the same ones returns that one. The results version
alone is not enough: entrants added or renamed, a team, a redrawn round or the event's own
settings change what a report shows without a result changing (``record_digest``).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings as conf
from django.core.files.base import ContentFile
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import (
    CheckIn,
    Entrant,
    Event,
    Group,
    GroupMember,
    Match,
    MatchParticipant,
    Report,
    Round,
    Stage,
    Team,
)
from tournaments.services import invitations, locking, queue
from tournaments.services.errors import ServiceError
from tournaments.services.report_files import (
    BUILDERS,
    OPTION_KINDS,
    ROUND_KINDS,
    STANDINGS_KINDS,
    safe_name,
)

log = logging.getLogger(__name__)


def request(
    event: Event,
    kind: str,
    *,
    round_number: int | None = None,
    by: Any,
    base_url: str = "",
    now: datetime | None = None,
) -> Report:
    """Ask for a report; the build is enqueued after the commit. ``base_url`` is the site's
    address as the director reached it ("https://host/"): invitation slips print absolute
    links under it."""
    now = now or timezone.now()
    if kind not in BUILDERS:
        raise ServiceError(_("'%(kind)s' is not a kind of report.") % {"kind": kind})
    options: dict[str, Any] = {}
    if kind in OPTION_KINDS:
        if not base_url.startswith(("http://", "https://")):
            raise ServiceError(
                _("base_url: invitation slips need the site's address (https://...).")
            )
        unclaimed_only = kind == Report.Kind.INVITATIONS_UNCLAIMED
        options = {
            "base_url": base_url,
            "unclaimed_only": unclaimed_only,
            "entries": invitations.slips_fingerprint(event, unclaimed_only=unclaimed_only),
        }
    if kind in ROUND_KINDS:
        round_number = round_number or _last_round_number(event)
        if round_number is None:
            raise ServiceError(_("There is no round to print yet: draft a round first."))
        if not event.rounds.filter(number=round_number).exists():
            raise ServiceError(
                _("Round: the event has no round %(number)s.") % {"number": round_number}
            )
    else:
        round_number = None
    with transaction.atomic():
        event = locking.lock_event(event.pk)
        options["record"] = record_digest(event, pairings=kind not in STANDINGS_KINDS)
        # Standings reports show the published standings; the others the record as it is.
        version = event.standings_version if kind in STANDINGS_KINDS else event.results_version
        same = Report.objects.filter(
            event=event,
            kind=kind,
            round_number=round_number,
            results_version=version,
            options=options,  # the same record, and the same codes and address for slips
        ).exclude(status=Report.Status.FAILED)
        existing = same.first()
        if existing is not None:
            return existing
        report = Report.objects.create(
            event=event,
            kind=kind,
            round_number=round_number,
            results_version=version,
            options=options,
            requested_by=by if getattr(by, "is_authenticated", False) else None,
            requested_at=now,
        )
        transaction.on_commit(lambda: enqueue(report.pk))
    return report


# What a report can show besides results and standings, which their versions cover: every
# field of these rows, so a field added to one of them later is covered too. Games and
# result changes are left out (each one raises the results version).
_EVENT_EXCLUDED = {"updated_at", "results_version", "standings_version"}
_NAMES: tuple[tuple[type[Any], str], ...] = ((Team, "event_id"), (Entrant, "event_id"))
_PAIRINGS: tuple[tuple[type[Any], str], ...] = (
    (CheckIn, "event_id"),
    (Stage, "event_id"),
    (Round, "event_id"),
    (Group, "round__event_id"),
    (GroupMember, "group__round__event_id"),
    (Match, "round__event_id"),
    (MatchParticipant, "match__round__event_id"),
)


def record_digest(event: Event, *, pairings: bool = True) -> str:
    """A digest of the event's own row, its teams, entrants, check-ins, stages, rounds,
    groups and pairings: equal digests, same report. A standings report shows the published
    standings (their version) and the names: ``pairings=False`` leaves out the rounds, which
    keeps anyone's request for the public standings PDF cheap on a large event."""
    digest = hashlib.sha256()
    event_fields = [
        f.attname for f in Event._meta.concrete_fields if f.attname not in _EVENT_EXCLUDED
    ]
    querysets = (
        Event.objects.filter(pk=event.pk).values_list(*event_fields),
        *(
            model.objects.filter(**{lookup: event.pk})
            .order_by("pk")
            .values_list(*(f.attname for f in model._meta.concrete_fields))
            for model, lookup in (_NAMES + _PAIRINGS if pairings else _NAMES)
        ),
    )
    for queryset in querysets:
        digest.update(queryset.model.__name__.encode())
        for row in queryset:
            digest.update(repr(row).encode())
    return digest.hexdigest()


def enqueue(report_id: int) -> None:
    try:
        queue.send("tournaments.tasks.build_report", report_id)
    except Exception:
        if conf.CELERY_TASK_ALWAYS_EAGER:
            raise
        log.warning("broker unavailable: report %s waits for the sweep", report_id)


def _last_round_number(event: Event) -> int | None:
    return event.rounds.order_by("-number").values_list("number", flat=True).first()


def _set(report_id: int, **fields: Any) -> None:
    Report.objects.filter(pk=report_id).update(**fields)


def _fail(report_id: int, message: str, now: datetime | None) -> None:
    _set(
        report_id,
        status=Report.Status.FAILED,
        message=message[:300],
        finished_at=now or timezone.now(),
    )


def build(report_id: int, *, now: datetime | None = None) -> bool:
    """Build the report's file; a report already built is left alone (safe to run twice)."""
    report = Report.objects.select_related("event").filter(pk=report_id).first()
    if report is None or report.status == Report.Status.DONE:
        return False
    _set(report_id, status=Report.Status.RUNNING, progress=5, message="")

    def progress(percent: int) -> None:
        _set(report_id, progress=max(5, min(percent, 99)))

    try:
        builder = BUILDERS[report.kind]
        if report.kind in OPTION_KINDS:
            name, content = builder(
                report.event, report.round_number, progress, options=report.options
            )
        else:
            name, content = builder(report.event, report.round_number, progress)
    except ServiceError as error:
        _fail(report_id, " ".join(error.messages), now)
        return False
    except (DatabaseError, ConnectionError):
        raise  # transient: the task retries
    except Exception:
        log.exception("report %s could not be built", report_id)
        _fail(report_id, "An unexpected error stopped the build; the log has the details.", now)
        return False
    report.file.save(safe_name(name), ContentFile(content), save=False)
    _set(
        report_id,
        file=report.file.name,
        status=Report.Status.DONE,
        progress=100,
        finished_at=now or timezone.now(),
    )
    return True


def for_event(event: Event, *, limit: int = 30) -> list[Report]:
    return list(Report.objects.filter(event=event).select_related("requested_by")[:limit])


def public_standings_pdf(event: Event) -> Report:
    """The standings PDF of the published standings: the one built for the current version,
    or a new build (anyone may ask for it: one build per version, whoever asks)."""
    return request(event, Report.Kind.STANDINGS_PDF, by=None)


def rounds_for_choice(event: Event) -> list[Round]:
    return list(event.rounds.order_by("number"))


def sweep_stuck(*, older_than_seconds: int = 600, now: datetime | None = None) -> int:
    """Re-enqueue reports still waiting long after they were asked for (a lost task)."""
    now = now or timezone.now()
    stuck = Report.objects.filter(
        status__in=[Report.Status.QUEUED, Report.Status.RUNNING],
        requested_at__lt=now - timedelta(seconds=older_than_seconds),
    ).values_list("pk", flat=True)
    count = 0
    for pk in stuck:
        enqueue(pk)
        count += 1
    return count
