"""Send to the rating officer (issue 30, step 6): a WOC or round-robin event's WOF file,
checked (rules/formats/woc/wof_validate.py), shown, then mailed to
ARBITER_RATING_OFFICER_EMAIL by a task after the commit, with the copy as sent and the
dates kept on the event (RatingSubmission) and an audit row.

The director's page shows the check and the file for the event's state at that moment and
carries that state's token (results version and last change of the event); a confirmation
with another token is refused: a stale page cannot send a file its director did not see.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.formats.woc.wof_validate import ERROR, Finding, validate
from tournaments.models import Event, RatingSubmission
from tournaments.services import audit, locking, queue
from tournaments.services.errors import ServiceError
from tournaments.services.wof_export import export_wof, wof_ident

log = logging.getLogger(__name__)

FORMATS = ("woc", "round_robin")
# The header fields the director types on the page (empty: the file's own, from an imported
# file's header or the event's dates); Tournament is the event's name.
TYPED = ("Country", "Date", "Sender")
_HEADER_LINE = re.compile(r"^%%\s*([A-Za-z]+)\s*:\s*(.*)$")


class MailNotSent(Exception):
    """The mail server did not take the file now: the task tries again."""


@dataclass(frozen=True)
class Prepared:
    text: str
    filename: str
    findings: list[Finding]
    header: dict[str, str]
    token: str

    @property
    def file_header(self) -> dict[str, str]:
        """The header as the file writes it: what the director's fields start from."""
        found: dict[str, str] = {}
        for line in self.text.splitlines():
            match = _HEADER_LINE.match(line.strip())
            if match:
                found.setdefault(match.group(1), match.group(2).strip())
        return found

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity != ERROR]


def officer() -> str:
    return str(getattr(settings, "ARBITER_RATING_OFFICER_EMAIL", "") or "")


def eligible(event: Event) -> bool:
    return event.format in FORMATS


def token(event: Event) -> str:
    """The state the page showed: any result or change of the event, or a file sent since
    (a second click, another director), makes it stale."""
    sent = last_sent(event)
    changed = int(event.updated_at.timestamp() * 1e6)
    return f"{event.results_version}.{changed}.{sent.pk if sent else 0}"


def last_sent(event: Event) -> RatingSubmission | None:
    return event.rating_submissions.first()


def typed_header(event: Event, given: dict[str, str] | None = None) -> dict[str, str]:
    """Country, Date and Sender: what the director typed now, else what was sent last time
    (empty: the file's own)."""
    previous = last_sent(event)
    out = {key: str((previous.header if previous else {}).get(key, "")) for key in TYPED}
    for key, value in (given or {}).items():
        if key in TYPED and value is not None:
            out[key] = str(value).strip()[:120]
    return out


def _guessed(event: Event) -> set[int]:
    """The WOF ids of entrants typed with one name field: their NAME and Firstname are a
    guess (wof_export.wof_names), unless an imported file gave them."""
    out = set()
    rows = event.entrants.values_list("number", "external_id", "family_name", "given_name", "flags")
    for number, external_id, family, given, flags in rows:
        if family or given or ((flags or {}).get("wof") or {}).get("name"):
            continue
        out.add(wof_ident(str(number), external_id, flags))
    return out


def prepare(
    event: Event, given: dict[str, str] | None = None, *, now: datetime | None = None
) -> Prepared:
    """The file as it would be sent now, and what the check finds in it."""
    if not eligible(event):
        raise ServiceError(
            _("A WOF rating file holds a WOC or round-robin event; this one is %(format)s.")
            % {"format": event.format_name}
        )
    header = typed_header(event, given)
    text = export_wof(event, now=now or timezone.now(), header=header)
    return Prepared(
        text=text,
        filename=f"{event.slug}.elo",
        findings=validate(text, guessed=_guessed(event)),
        header=header,
        token=token(event),
    )


def send(
    event: Event,
    given: dict[str, str],
    seen_token: str,
    *,
    by: Any,
    now: datetime | None = None,
) -> RatingSubmission:
    """Keep the file and mail it after the commit; refused when the page was stale, when
    the check finds an error, or when no rating officer's address is set."""
    now = now or timezone.now()
    recipient = officer()
    if not recipient:
        raise ServiceError(
            _("No rating officer's address is set (ARBITER_RATING_OFFICER_EMAIL): nothing sent.")
        )
    with transaction.atomic():
        event = locking.lock_event(event.pk)
        if seen_token != token(event):
            raise ServiceError(
                _(
                    "This page is out of date (a result changed, or a file was sent since): "
                    "check the file again before sending it."
                )
            )
        prepared = prepare(event, given, now=now)
        if prepared.errors:
            raise ServiceError(
                _("The file has %(count)s problems: fix them before sending it.")
                % {"count": len(prepared.errors)}
            )
        submission = RatingSubmission.objects.create(
            event=event,
            recipient=recipient,
            filename=prepared.filename,
            text=prepared.text,
            header=prepared.header,
            results_version=event.results_version,
            sent_by=by if getattr(by, "is_authenticated", False) else None,
            confirmed_at=now,
        )
        audit.log(
            event,
            "rating_report.sent",
            actor=by,
            at=now,
            subject=prepared.filename,
            after={
                "recipient": recipient,
                "submission": submission.pk,
                "results_version": event.results_version,
                "warnings": len(prepared.warnings),
            },
        )
        transaction.on_commit(lambda: mail_later(submission.pk), robust=True)
    return submission


def mail_later(submission_id: int) -> None:
    """Enqueue the mail; a broker that is down leaves the row unmailed, shown as waiting
    on the page (the director may send again)."""
    try:
        if queue.runs_eagerly():
            with contextlib.suppress(MailNotSent):
                deliver(submission_id)
        else:
            queue.send("tournaments.tasks.mail_rating_report", submission_id)
    except Exception:
        log.warning("rating report %s not mailed now", submission_id, exc_info=True)


def deliver(submission_id: int, *, now: datetime | None = None) -> bool:
    """Mail the kept copy once: the row is locked while it is sent and marked in the same
    transaction, so a twin task finds it mailed. Raises MailNotSent to be retried."""
    with transaction.atomic():
        row = (
            RatingSubmission.objects.select_for_update()
            .select_related("event")
            .filter(pk=submission_id)
            .first()
        )
        if row is None or row.mailed_at is not None:
            return False
        event = row.event
        subject = _("WOF rating file: %(event)s") % {"event": event.name}
        body = _(
            "The results of %(event)s as a WOF rating file (attached, %(file)s), sent from "
            "Arbiter by its director.\n"
        ) % {"event": event.name, "file": row.filename}
        message = EmailMessage(subject, body, to=[row.recipient])
        message.attach(row.filename, row.text, "text/plain")
        try:
            message.send()
        except Exception as error:
            row.attempts += 1
            row.last_error = f"{error.__class__.__name__}: {error}"[:300]
            row.save(update_fields=["attempts", "last_error"])
            failed = error
        else:
            row.mailed_at = now or timezone.now()
            row.attempts += 1
            row.last_error = ""
            row.save(update_fields=["mailed_at", "attempts", "last_error"])
            return True
    raise MailNotSent(str(failed))


def said(findings: list[Finding]) -> list[dict[str, Any]]:
    """Findings for a page or a terminal, in the reader's language."""
    from tournaments.words import sentence

    return [
        {
            "line": f.line,
            "field": f.field,
            "severity": f.severity,
            "code": f.code,
            "text": sentence(f),
        }
        for f in findings
    ]


def counts(findings: list[Finding]) -> Counter[str]:
    return Counter(f.severity for f in findings)
