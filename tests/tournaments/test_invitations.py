"""Invitations (issue 21, item 6): each entrant's invite link on the director's entrant list,
whether it was claimed and by whom, a new link that kills the old one, and printed slips
(name, event, link, QR code) as a PDF report."""

from __future__ import annotations

import io
import re

import pytest
import segno
from django.urls import reverse
from pypdf import PdfReader

from accounts import services as accounts
from accounts.models import User
from tests.factories import round_robin_event
from tournaments.models import AuditEntry, Report
from tournaments.services import invitations, reports
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def event(director):
    return round_robin_event(director, players=3, slug="inv")


@pytest.fixture
def hana():
    return User.objects.create_user("hana", password="pw-hana-long-1")


@pytest.fixture
def desk(client, director):
    client.force_login(director)
    return client


def _link(entrant) -> str:
    return f"http://testserver/accounts/claim/{entrant.claim_code}/"


def test_the_entrant_list_shows_each_invite_link_and_who_claimed_it(desk, event, hana):
    accounts.claim_entrant(hana, event.entrants.get(number=2).claim_code)
    page = desk.get(reverse("tournaments:manage_entrants", args=[event.slug])).content.decode()
    for entrant in event.entrants.all():
        row = page[page.index(f'id="entrant-{entrant.number}"') :]
        row = row[: row.index("</tr>")]
        # the absolute link, as selectable text, with its copy button (shown by the script)
        assert (
            f'<code class="invite-link" id="invite-{entrant.number}">{_link(entrant)}</code>' in row
        )
        assert f'data-copy="invite-{entrant.number}"' in row
        assert ("claimed by hana" in row) == (entrant.number == 2)
        assert ("not claimed yet" in row) == (entrant.number != 2)
    assert 'src="/static/arbiter/copy.js"' in page


def test_a_claimed_code_can_be_renewed_and_the_old_one_no_longer_claims(
    desk, event, hana, director
):
    ivo = User.objects.create_user("ivo", password="pw-ivo-long-1")
    entrant = event.entrants.get(number=1)
    old = entrant.claim_code
    accounts.claim_entrant(hana, old)
    url = reverse("tournaments:manage_invite", args=[event.slug, 1])
    row = desk.post(url, {"reason": "hana claimed the wrong entry"}, headers={"HX-Request": "true"})
    assert row.status_code == 200
    entrant.refresh_from_db()
    assert entrant.claim_code != old and entrant.user is None  # the claim is released
    assert _link(entrant) in row.content.decode() and "not claimed yet" in row.content.decode()
    with pytest.raises(ServiceError, match="No entry has this claim code"):
        accounts.claim_entrant(ivo, old)
    ivo_client = desk.__class__()
    ivo_client.force_login(ivo)
    assert ivo_client.get(f"/accounts/claim/{old}/").status_code == 404
    assert accounts.claim_entrant(ivo, entrant.claim_code).user == ivo  # the new one claims
    entry = AuditEntry.objects.get(event=event, action="entrant.invite_renewed")
    assert entry.actor == director and entry.subject == entrant.name
    assert entry.before == {"code_ends": old[-4:], "claimed_by": "hana"}
    assert entry.reason == "hana claimed the wrong entry"
    assert old not in str(entry.before) + str(entry.after)  # never the whole secret


def test_renewing_without_htmx_returns_to_the_list_with_a_message(desk, event):
    url = reverse("tournaments:manage_invite", args=[event.slug, 3])
    response = desk.post(url, follow=True)
    assert "has a new invite link; the old one no longer works" in response.content.decode()


def _pdf_text(report: Report) -> str:
    report.refresh_from_db()
    assert report.status == Report.Status.DONE, report.message
    with report.file.open("rb") as handle:
        reader = PdfReader(io.BytesIO(handle.read()))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_slips_pdf_holds_each_name_and_link(
    desk, event, hana, django_capture_on_commit_callbacks
):
    accounts.claim_entrant(hana, event.entrants.get(number=2).claim_code)
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(
            reverse("tournaments:reports_create", args=[event.slug]), {"kind": "invitations"}
        )
    assert response.status_code == 302
    report = Report.objects.get(event=event, kind=Report.Kind.INVITATIONS)
    text = _pdf_text(report)
    flat = re.sub(r"\s+", "", text)  # a long link may wrap
    assert "RR inv" in text and "Invitation slips" in text
    for entrant in event.entrants.all():
        assert entrant.name in text
        assert _link(entrant) in flat


def test_only_unclaimed_slips_leave_out_claimed_entries(
    event, hana, director, django_capture_on_commit_callbacks
):
    accounts.claim_entrant(hana, event.entrants.get(number=2).claim_code)
    with django_capture_on_commit_callbacks(execute=True):
        report = reports.request(
            event, Report.Kind.INVITATIONS_UNCLAIMED, by=director, base_url="https://a.example/"
        )
    text = _pdf_text(report)
    assert "Player 1" in text and "Player 3" in text and "Player 2" not in text
    assert "entries not claimed yet" in text


def _qr_strokes(link: str) -> str:
    """The strokes WeasyPrint draws for segno's SVG of ``link``: one line per run of dark
    modules, row by row (the content stream's "x y m / x y l")."""
    out = []
    for y, row in enumerate(segno.make(link, error="m").matrix):
        x = 0
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            out.append(f"{start} {y + 0.5:g} m\n{x} {y + 0.5:g} l")
    return "\n".join(out)


def test_each_slip_draws_the_qr_code_of_its_own_link(
    event, director, django_capture_on_commit_callbacks
):
    # no QR decoder in the project: the code's modules are read from the PDF's drawing
    with django_capture_on_commit_callbacks(execute=True):
        report = reports.request(event, "invitations", by=director, base_url="https://a.example/")
    report.refresh_from_db()
    with report.file.open("rb") as handle:
        pages = PdfReader(io.BytesIO(handle.read())).pages
    drawn = "".join(page.get_contents().get_data().decode("latin-1") for page in pages)
    for entrant in event.entrants.all():
        link = f"https://a.example/accounts/claim/{entrant.claim_code}/"
        assert _qr_strokes(link) in drawn, entrant.name
    assert _qr_strokes("https://a.example/accounts/claim/not-a-code/") not in drawn


def test_slips_asked_again_after_a_renewal_are_built_again(event, director):
    first = reports.request(event, "invitations", by=director, base_url="https://a.example/")
    again = reports.request(event, "invitations", by=director, base_url="https://a.example/")
    assert again.pk == first.pk  # nothing changed: the same sheet
    invitations.renew_code(event.entrants.get(number=1), by=director)
    renewed = reports.request(event, "invitations", by=director, base_url="https://a.example/")
    assert renewed.pk != first.pk  # the old sheet prints a dead link


def test_slips_need_the_sites_address(event, director):
    with pytest.raises(ServiceError, match="base_url"):
        reports.request(event, "invitations", by=director)
