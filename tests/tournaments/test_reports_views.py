"""Report pages: who may build and download, the polled progress row, the public standings
PDF, and one PDF page rendered to PNG (pdftoppm, or Chromium on the HTML without it)."""

import shutil
import subprocess

import pytest
from django.urls import reverse
from PIL import Image

from tests.factories import play_round, round_robin_event
from tournaments.models import Report
from tournaments.services import reports

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def event(director):
    event = round_robin_event(director, players=6, slug="rv")
    play_round(event, director)
    return event


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def test_director_builds_a_report_and_downloads_it(client, director, event):
    client.force_login(director)
    page = client.get(url("reports_index", "rv"))
    assert page.status_code == 200 and "Pairings sheet, by table" in page.content.decode()
    response = client.post(url("reports_create", "rv"), {"kind": "standings_pdf"})
    assert response.status_code == 302
    report = Report.objects.get(event=event)
    assert report.status == Report.Status.DONE and report.progress == 100
    download = client.get(url("reports_download", "rv", report.pk))
    assert download["Content-Type"] == "application/pdf"
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    csv_report = reports.request(event, Report.Kind.ENTRANTS_CSV, by=director)
    download = client.get(url("reports_download", "rv", csv_report.pk))
    assert "attachment" in download["Content-Disposition"]
    assert "Player 6" in b"".join(download.streaming_content).decode("utf-8-sig")


def test_htmx_request_gets_the_row_that_polls_until_the_report_is_ready(client, director, event):
    client.force_login(director)
    report = Report.objects.create(
        event=event, kind=Report.Kind.RESULT_SLIPS, round_number=1, requested_at=event.created_at
    )
    row = client.get(url("reports_status", "rv", report.pk), HTTP_HX_REQUEST="true")
    html = row.content.decode()
    assert "<html" not in html and 'hx-trigger="every 1s"' in html and "Waiting" in html
    assert "HX-Request" in row["Vary"]
    reports.build(report.pk)
    html = client.get(url("reports_status", "rv", report.pk), HTTP_HX_REQUEST="true").content
    assert b"every 1s" not in html and b"Download" in html
    created = client.post(
        url("reports_create", "rv"), {"kind": "results_csv"}, HTTP_HX_REQUEST="true"
    )
    assert created.status_code == 200 and b'<tr id="report-' in created.content


def test_bad_input_names_the_field(client, director, event):
    client.force_login(director)
    response = client.post(url("reports_create", "rv"), {"kind": "poster"})
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    response = client.post(url("reports_create", "rv"), {"kind": "result_slips", "round_number": 9})
    assert response.status_code == 422 and "no round 9" in response.content.decode()
    assert not Report.objects.exists()


def test_strangers_cannot_build_or_download(client, django_user_model, director, event):
    report = reports.request(event, Report.Kind.ENTRANTS_CSV, by=director)
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    for who in (None, stranger):
        if who:
            client.force_login(who)
        assert client.get(url("reports_index", "rv")).status_code == 404
        assert client.post(url("reports_create", "rv"), {"kind": "entrants_csv"}).status_code == 404
        assert client.get(url("reports_download", "rv", report.pk)).status_code == 404
    assert Report.objects.count() == 1


def test_public_standings_pdf_is_public_only_for_a_public_event(client, director, event):
    response = client.get(url("reports_public_standings", "rv"))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    event.public = False
    event.save()
    assert client.get(url("reports_public_standings", "rv")).status_code == 404
    client.force_login(director)
    assert client.get(url("reports_public_standings", "rv")).status_code == 200


def test_public_standings_pdf_waits_while_it_builds(client, director, event, settings):
    from config.celery import app

    app.conf.task_always_eager = False  # nothing runs the build: the page must wait politely
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        response = client.get(url("reports_public_standings", "rv"))
    finally:
        app.conf.task_always_eager = True
    assert response.status_code == 202
    # the page follows the build by itself (htmx), and offers to look again without it
    body = response.content.decode()
    assert 'hx-trigger="every 2s"' in body and "Try again now" in body


def _png_of_first_page(pdf_path, out_stem, html_fallback):
    if shutil.which("pdftoppm"):
        subprocess.run(
            ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", pdf_path, out_stem], check=True
        )
        return next(out_stem.parent.glob(out_stem.name + "*.png"))
    from playwright.sync_api import sync_playwright  # CI without poppler: look at the HTML

    png = out_stem.with_suffix(".png")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
        )
        page = browser.new_page(viewport={"width": 794, "height": 1123})
        page.set_content(html_fallback)
        page.screenshot(path=str(png))
        browser.close()
    return png


def test_standings_pdf_page_renders_to_a_png_with_ink_on_it(director, event, media):
    from django.template.loader import render_to_string

    from tournaments import selectors

    report = reports.request(event, Report.Kind.STANDINGS_PDF, by=director)
    report.refresh_from_db()
    snapshot, tables = selectors.published_standings(event)
    html = render_to_string(
        "tournaments/reports/pdf/standings.html",
        {"event": event, "snapshot": snapshot, "tables": tables},
    )
    png = _png_of_first_page(report.file.path, media / "standings-page", html)
    image = Image.open(png).convert("L")
    width, height = image.size
    assert height > width  # A4 portrait
    dark = sum(image.histogram()[:128])
    assert dark > 500, "the page is blank"


def test_the_reports_page_is_a_director_screen_and_a_second_ask_is_answered_with_the_same_report(
    client, director, event
):
    """Issue 28, item 10(a): the Reports page keeps the director's menu (and its styles),
    and asking again for the same report answers with the same one and says so, instead of
    being lost without a word."""
    client.force_login(director)
    html = client.get(url("reports_index", "rv")).content.decode()
    assert 'aria-label="Director"' in html and "arbiter/manage.css" in html
    assert 'hx-disabled-elt="find button"' in html and "Building…" in html
    first = client.post(url("reports_create", "rv"), {"kind": "results_csv"}, follow=True)
    assert "Results (CSV): asked for; it is built in the background" in first.content.decode()
    again = client.post(url("reports_create", "rv"), {"kind": "results_csv"}, follow=True)
    said = again.content.decode()
    assert "Results (CSV): already asked for with the same results, so it is the same report" in (
        said
    )
    assert Report.objects.filter(event=event).count() == 1
    report = Report.objects.get(event=event)
    # by htmx: the rows, the same report marked, and the sentence in the status line
    rows = client.post(
        url("reports_create", "rv"), {"kind": "results_csv"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert f'<tr id="report-{report.pk}" class="asked"' in rows
    assert 'id="report-said"' in rows and 'hx-swap-oob="true"' in rows
    assert "it is not built twice" in rows
    assert Report.objects.filter(event=event).count() == 1


def test_a_refused_ask_by_htmx_comes_back_in_place_of_the_form(client, director, event):
    client.force_login(director)
    answer = client.post(
        url("reports_create", "rv"),
        {"kind": "result_slips", "round_number": 9},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 422
    assert answer["HX-Retarget"] == "#report-form" and answer["HX-Reswap"] == "outerHTML"
    assert "no round 9" in answer.content.decode()
