"""Importing a real WOC in a browser: upload the WOF rating file PAPP wrote, see the proposed
labels of the games after the Swiss, try a correction the rules refuse, go back to the
proposal, confirm, land on the new event's dashboard with its export buttons; the preview and
the dashboard are also looked at on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.rules.test_woc_wof import elo_from_record
from tests.shared_data import load
from tournaments.models import Event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def director_account(django_user_model):
    return django_user_model.objects.create_user("wanda", password="wanda-secret-1")


def sign_in(page, live_url) -> None:
    page.goto(live_url("accounts:login"))
    page.get_by_label("Username").fill("wanda")
    page.get_by_label("Password").fill("wanda-secret-1")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(live_url("event_list"))


def test_a_director_imports_a_wof_file_and_confirms_the_proposal(
    director_account, desktop, phone, live_url, shot, tmp_path
):
    path = tmp_path / "WOC_2015.ELO"
    path.write_text(elo_from_record("woc_2015.json"))
    players = len(load("woc_2015.json")["entrants"])

    page = desktop.new_page()
    sign_in(page, live_url)
    page.goto(live_url("manage_create"))
    page.get_by_role("link", name="Or import an event from a file").click()
    page.get_by_role("heading", name="Import an event").wait_for()
    page.get_by_label("File", exact=True).set_input_files(str(path))
    page.get_by_role("button", name="Check the file").click()

    page.get_by_role("heading", name="Check what will be imported").wait_for()
    expect(page.locator(".counts")).to_contain_text(str(players))
    expect(page.get_by_text("WOF rating file (.ELO, as PAPP writes it)")).to_be_visible()
    first = page.get_by_label("Label of game 1", exact=True)
    expect(first).to_have_value("playoff:PO-4-5")
    expect(page.locator("select[name=label] option:checked", has_text="Final (F)")).to_have_count(2)
    assert not Event.objects.exists()  # nothing saved before the confirmation
    shot(page, "import-preview-desktop")

    # the same preview at phone width: each game a card with its label below
    small = phone.new_page()
    sign_in(small, live_url)
    small.goto(live_url("manage_import_event"))
    small.get_by_label("File", exact=True).set_input_files(str(path))
    small.get_by_role("button", name="Check the file").click()
    small.get_by_role("heading", name="Check what will be imported").wait_for()
    expect(small.get_by_label("Label of game 1", exact=True)).to_be_visible()
    shot(small, "import-preview-phone")

    # a correction that makes the record impossible is refused, beside the choices made
    page.get_by_label("Label of game 8", exact=True).select_option("final:F")
    page.get_by_role("button", name="Import the event").click(timeout=60_000)
    expect(page.locator("#label-problems")).to_contain_text(
        "Final (F) holds games between different players"
    )
    expect(page.get_by_label("Label of game 8", exact=True)).to_have_value("final:F")
    assert not Event.objects.exists()
    shot(page, "impossible-label-refused")
    page.get_by_label("Label of game 8", exact=True).select_option("other")

    page.get_by_label("Name", exact=True).fill("WOC 2015, Cambridge")
    # saving a WOC (13 rounds, 62 players, its standings) takes seconds on a busy machine
    page.get_by_role("button", name="Import the event").click(timeout=60_000)
    page.get_by_role("heading", name="WOC 2015, Cambridge").wait_for(timeout=60_000)
    event = Event.objects.get(slug="woc-2015-cambridge")
    assert page.url == live_url("manage", event.slug)
    expect(page.get_by_text("is imported")).to_be_visible()
    expect(page.get_by_role("link", name="Download the WOF rating file (.ELO)")).to_be_visible()
    assert event.entrants.count() == players
    shot(page, "dashboard-desktop")

    small.goto(live_url("manage", event.slug))
    small.get_by_role("heading", name="Export").wait_for()
    shot(small, "dashboard-phone")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download the WOF rating file (.ELO)").click()
    assert info.value.suggested_filename == "woc-2015-cambridge.elo"


def test_a_large_import_is_saved_by_the_worker_while_the_page_follows_it(
    director_account, desktop, phone, live_url, shot, monkeypatch
):
    """Issue 20: the confirmed save is a job; its page shows progress, then opens the event.
    A file past a limit is refused with the limit named."""
    import json

    from bench.event import event_file
    from tournaments.models import ImportJob
    from tournaments.services import event_import

    monkeypatch.setattr(event_import, "enqueue", lambda job_id: None)  # the worker is busy
    page = desktop.new_page()
    sign_in(page, live_url)
    page.goto(live_url("manage_import_event"))
    page.get_by_label("or paste its text here").fill('{"a":' * 3000 + "1" + "}" * 3000)
    page.get_by_role("button", name="Check the file").click()
    expect(page.locator("#problems")).to_contain_text("nested deeper than 20 levels")
    shot(page, "deep-json-refused")

    text = json.dumps(event_file("big-open", entrants=400, played=2))
    page.get_by_label("or paste its text here").fill(text)
    page.get_by_role("button", name="Check the file").click()
    page.get_by_role("heading", name="Check what will be imported").wait_for()
    expect(page.get_by_text("and 100 more, imported with the rest")).to_be_attached()
    page.get_by_role("button", name="Import the event").click()
    expect(page.get_by_role("status")).to_contain_text("Waiting")
    job = ImportJob.objects.get()
    shot(page, "import-job-waiting-desktop")

    small = phone.new_page()
    sign_in(small, live_url)
    small.goto(live_url("manage_import_job", job.pk))
    expect(small.get_by_role("status")).to_contain_text("Waiting")
    shot(small, "import-job-waiting-phone")

    event_import.run_job(job.pk)  # the worker takes it; the page polls and follows
    page.get_by_role("heading", name="Bench Open (1,000 entrants)").wait_for(timeout=30_000)
    expect(page.get_by_text("is imported: 400 entrants, 3 rounds")).to_be_visible()
    shot(page, "import-job-done-dashboard")
