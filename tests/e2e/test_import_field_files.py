"""Real files from the field in a browser (issue 22): a WOF file of the archive that differs
from its list, and one cut short that needs the director's confirmation, looked at on a
desktop and on a phone (390 px)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_import_export import sign_in
from tests.shared_data import real
from tournaments.models import Event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def director_account(django_user_model):
    return django_user_model.objects.create_user("wanda", password="wanda-secret-1")


def check(page, live_url, path) -> None:
    page.goto(live_url("manage_import_event"))
    page.get_by_label("File", exact=True).set_input_files(str(path))
    page.get_by_role("button", name="Check the file").click()
    page.get_by_role("heading", name="Check what will be imported").wait_for()


def test_a_director_sees_what_an_old_file_does_not_say_and_where_its_list_differs(
    director_account, desktop, phone, live_url, shot
):
    path = real("wof-archive-sample", "2024", "20240112_Gerel_Gegee.ELO")
    for browser, name in ((desktop, "desktop"), (phone, "phone")):
        page = browser.new_page()
        sign_in(page, live_url)
        check(page, live_url, path)
        expect(page.locator("#differences-title")).to_contain_text("differ 171 times")
        page.locator("#differences-title").click()  # many differences: folded until asked
        expect(page.locator(".differences tbody tr").first).to_contain_text("ERDENEBAATAR")
        shot(page, f"list-differs-{name}")
    kansai = real("wof-archive-sample", "1991", "19910317_12_Meijin_Kansai_Prelim.ELO")
    page = phone.new_page()
    sign_in(page, live_url)
    check(page, live_url, kansai)
    expect(page.locator("#file-notes")).to_contain_text("no player list")
    shot(page, "no-list-phone")
    assert not Event.objects.exists()


def test_a_file_cut_short_is_imported_only_once_confirmed(
    director_account, desktop, phone, live_url, shot, tmp_path
):
    lines = real("raw", "20141106_WOC_2014.ELO").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "WOC_2014.ELO"
    path.write_text("\n".join(lines[: lines.index("%Round: 7") + 15]) + "\n")
    small = phone.new_page()
    sign_in(small, live_url)
    check(small, live_url, path)
    expect(small.locator("#truncated")).to_contain_text("may have been cut short")
    shot(small, "cut-short-phone")

    page = desktop.new_page()
    sign_in(page, live_url)
    check(page, live_url, path)
    expect(page.locator("#truncated")).to_contain_text("27 listed players have more points")
    shot(page, "cut-short-desktop")
    page.get_by_role("button", name="Import the event").click(timeout=60_000)
    expect(page.locator("#label-problems")).to_contain_text("cut short")
    assert not Event.objects.exists()
    page.get_by_label("The file holds all that was played: import it as it is").check()
    page.get_by_role("button", name="Import the event").click(timeout=60_000)
    page.get_by_role("heading", name="WOC_2014").wait_for(timeout=60_000)
    assert Event.objects.get(slug="woc-2014").entrants.count() == 64


CONTRADICTING = (
    "%%Tournament: Contradictions\n"
    "%_%  1, ONE, a, FRA, 1, 40\n%_%  2, TWO, b, FRA, 0, 55\n"
    "%_%  3, THREE, c, FRA, 1, 33\n%_%  4, FOUR, d, FRA, 1, 64\n"
    "%Round 1\n"
    " 1 (40)<(24) 2 B\n"  # line 7: the sign against the discs
    " 3 (33)>(31) 4 B\n"
    "%Round 2\n"
    " 1 (40)>(30) 3 B % a remark after the game\n"  # line 10: 70 discs
    " 4 (33)>(31) 2 B\n"
)


def test_issue_28_item_13_a_director_chooses_per_contradicting_line(
    director_account, desktop, phone, live_url, shot, tmp_path
):
    path = tmp_path / "contradictions.elo"
    path.write_text(CONTRADICTING, encoding="utf-8")
    small = phone.new_page()
    sign_in(small, live_url)
    check(small, live_url, path)
    expect(small.locator("#contradictions")).to_contain_text("2 lines contradict themselves")
    expect(small.get_by_label("What to do with line 7")).to_have_value("")
    shot(small, "contradictions-phone")

    page = desktop.new_page()
    sign_in(page, live_url)
    check(page, live_url, path)
    page.get_by_label("What to do with line 7").select_option("discs")
    page.get_by_role("button", name="Import the event").click(timeout=60_000)
    expect(page.locator("#label-problems")).to_contain_text("Line 10: choose what to do")
    expect(page.get_by_label("What to do with line 7")).to_have_value("discs")
    shot(page, "contradictions-refused-desktop")
    assert not Event.objects.exists()
    page.get_by_label("What to do with line 10").select_option("drop")
    page.get_by_role("button", name="Import the event").click(timeout=60_000)
    page.get_by_role("heading", name="Contradictions").wait_for(timeout=60_000)
    assert Event.objects.get(slug="contradictions").entrants.count() == 4
