"""The desk, part three (issue 28): a forfeit is shown as its format scores it, and marked as
a forfeit, wherever its result is shown, printed or exported; the bye row and a one-game
match's score errors say it once."""

from __future__ import annotations

import csv
import html as html_lib
import io
import re
from types import SimpleNamespace

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.tournaments.test_results_desk import first_match, woc_round
from tournaments.models import Match
from tournaments.services import eventfile, report_files, results

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
FORFEIT = {"version": 0, "g1-s0": "", "g1-s1": "", "g1-ending": "forfeit", "g1-defaulter": "1"}


def _text(html: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_item_1_a_forfeit_typed_without_scores_is_saved_and_shown_64_0(client, director):
    """Item 1: "A forfeit typed without scores is counted 64-0 but shown 1-0". The desk's
    saved message says what WOC scores (64-0 for the player present, IV.8 by analogy) and
    that it was a forfeit; the stored summary, read by every page, says it too."""
    client.force_login(director)
    event, rnd = woc_round(director)
    match = first_match(rnd)
    absent = match.participants.get(seat=1).entrant
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    answer = client.post(url, FORFEIT, **HTMX)
    assert answer.status_code == 200, answer.content.decode()[-2000:]
    said = _text(answer.content.decode())
    assert f"Saved: 64-0 · {absent.name} did not play (forfeit)" in said, said
    match.refresh_from_db()
    assert match.result["summary"] == "64-0"
    assert match.result["game_scores"] == [[64, 0]]


def _forfeited(director):
    """A WOC round 1 with table 1 forfeited by White (seat 1) and table 2 played."""
    event, rnd = woc_round(director)
    match, other = Match.objects.filter(round=rnd).order_by("order")
    results.record(
        match,
        [{"ending": "forfeit", "scores": [None, None], "details": {"defaulter": 1}}],
        expected_version=0,
        by=director,
    )
    results.record(other, [{"scores": [40, 24]}], expected_version=0, by=director)
    present = match.participants.get(seat=0).entrant
    absent = match.participants.get(seat=1).entrant
    return SimpleNamespace(event=event, round=rnd, match=match, present=present, absent=absent)


def test_item_1_every_public_page_shows_the_forfeit_as_scored_and_marked(client, director):
    """Item 1: the public round page, both entrant pages and the projector show 64-0 (0-64
    from the absent player's side), never 1-0, and mark it a forfeit."""
    f = _forfeited(director)
    event, present, absent = f.event, f.present, f.absent
    note = f"{absent.name} did not play (forfeit)"
    page = _text(client.get(reverse("tournaments:round", args=[event.slug, 1])).content.decode())
    assert "64-0" in page and note in page and "1-0" not in page and "0-1" not in page
    mine = _text(
        client.get(
            reverse("tournaments:entrant", args=[event.slug, present.number])
        ).content.decode()
    )
    assert "won 64-0" in mine and note in mine, mine
    theirs = _text(
        client.get(
            reverse("tournaments:entrant", args=[event.slug, absent.number])
        ).content.decode()
    )
    assert "lost 0-64" in theirs and note in theirs, theirs
    shown = _text(
        client.get(reverse("tournaments:round_projector", args=[event.slug, 1])).content.decode()
    )
    assert "won 64-0 (forfeit)" in shown and "lost 0-64 (forfeit)" in shown, shown


def test_item_1_the_results_csv_crosstable_and_event_file_say_64_0_and_forfeit(director):
    """Item 1: the results CSV gives 64-0 with the forfeit note; the crosstable marks the
    unplayed game; the event file keeps the forfeit as it was entered (no discs, the
    defaulter), so an import scores it again 64-0."""
    f = _forfeited(director)
    event, match, present, absent = f.event, f.match, f.present, f.absent
    _name, content = report_files.results_csv(event, None, lambda p: None)
    rows = list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))
    mine = [r for r in rows if r["match"] == match.code]
    assert {r["summary"] for r in mine} == {"64-0"}
    assert {r["ending"] for r in mine} == {f"{absent.name} did not play (forfeit)"}
    _rounds, table = report_files.crosstable_rows(event)
    cells = {row["entrant"].pk: row["cells"][0] for row in table}
    assert cells[present.pk] == f"+{absent.number} F" and cells[absent.pk] == f"-{present.number} F"
    exported = eventfile.export_event(event)
    kept = next(m for m in exported["rounds"][0]["matches"] if m["code"] == match.code)
    assert kept["games"] == [
        {
            "number": 1,
            "scores": [None, None],
            "first": None,
            "ending": "forfeit",
            "details": {"defaulter": 1},
        }
    ]


def test_item_1_the_pairings_pdf_prints_64_0_and_marks_the_forfeit(director):
    """Item 1: the pairings PDF printed 0-1 with no mark; it prints the format's score and
    the forfeit note."""
    event = _forfeited(director).event
    _name, content = report_files.pairings(event, 1, lambda p: None, by_name=False)
    pages = PdfReader(io.BytesIO(content)).pages
    text = " ".join(" ".join(page.extract_text() for page in pages).split())
    assert "64-0" in text and "did not play (forfeit)" in text, text
    assert "1-0" not in text and "0-1" not in text


def test_item_1_a_gokodom_default_reads_each_players_own_code_first(client, director):
    """Item 1, other formats: a GokoDom default is shown as GokoDom scores it (II.B: WD for
    the player who messaged, LD for the other), each player's page giving their own code
    first as it does a score ("lost LD-WD", not "lost WD-LD")."""
    import datetime

    from tests.tournaments.test_format_gokodom_deadline import published
    from tournaments.formats.gokodom import services as player_service
    from tournaments.formats.gokodom import services_director as director_service

    event, rnd = published(director, swiss_rounds=3)
    match = next(m for m in rnd.matches.order_by("order") if m.participants.count() == 2)
    first, second = (p.entrant for p in match.participants.order_by("seat"))
    player_service.message_director(match, first, by=first.user)
    past = datetime.datetime(2020, 1, 13, 6, 0, tzinfo=datetime.UTC)
    director_service.set_round_times(rnd, None, past, by=director)
    director_service.close_at_deadline(rnd.pk, now=past)
    match.refresh_from_db()
    assert match.result["summary"] == "WD-LD"
    page = client.get(reverse("tournaments:entrant", args=[event.slug, first.number]))
    assert "won WD-LD" in _text(page.content.decode())
    page = client.get(reverse("tournaments:entrant", args=[event.slug, second.number]))
    assert "lost LD-WD" in _text(page.content.decode())


def test_item_10_the_bye_row_says_bye_once_with_what_it_scores(client, director):
    """Item 10: the bye row on the results desk read "bye bye". It says "bye" once, then
    what the bye scores (WOC II.7: the event's bye points and discs)."""
    client.force_login(director)
    event, rnd = woc_round(director, players=5)
    bye = next(m for m in rnd.matches.all() if m.participants.count() == 1)
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, rnd.number]))
    html = page.content.decode()
    row = html[html.index(f'id="match-{bye.pk}"') :]
    row = _text(row[: row.index("</form>")])
    assert "bye bye" not in row and row.count("bye") == 2, row  # the word, and the sentence
    assert "A bye scores 1 point(s) and 32 discs." in row, row


@pytest.mark.parametrize(
    ("typed", "language", "said"),
    [
        ({"g1-s0": "40", "g1-s1": "26"}, "en", "Black and white discs add up to 66; the board"),
        ({"g1-s0": "40", "g1-s1": "26"}, "fr", "Les pions noirs et blancs totalisent 66"),
        ({"g1-s0": "50", "g1-s1": ""}, "en", "Enter both scores."),
        ({"g1-s0": "50", "g1-s1": "x"}, "en", "'x' is not a number."),
    ],
)
def test_item_10_a_one_game_match_says_its_error_without_game_1(
    client, director, typed, language, said
):
    """Item 10: a WOC score error said "Game 1:" though a Swiss match is one game; the
    row says the problem alone, in the reader's language (nothing is saved)."""
    client.force_login(director)
    client.cookies["django_language"] = language
    event, rnd = woc_round(director)
    match = first_match(rnd)
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    answer = client.post(url, {"version": 0, **typed}, **HTMX)
    body = _text(answer.content.decode())
    assert answer.status_code == 422, body
    assert said in body, body
    assert "Game 1" not in body and "Partie 1" not in body, body
    match.refresh_from_db()
    assert match.result is None and match.version == 0


def test_item_2_a_saved_forfeit_row_is_not_pending_and_refuses_discs(client, director):
    """Item 2: the saved forfeit's row shows the score WOC gave it (no empty boxes) and is
    not marked pending (the cursor starts in the first pending row); typing discs into it
    ("50 Tab 14 Enter") is refused with the score it has, and nothing is saved."""
    client.force_login(director)
    f = _forfeited(director)
    event, rnd, match = f.event, f.round, f.match
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, rnd.number]))
    html = page.content.decode()
    row = html[html.index(f'id="match-{match.pk}"') :]
    row = row[: row.index("</form>")]
    assert 'name="g1-s0" value="64"' in row and 'name="g1-s1" value="0"' in row, row
    assert "data-pending" not in row.split(">", 1)[0]
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    typed = {**FORFEIT, "version": 1, "g1-s0": "50", "g1-s1": "14"}
    answer = client.post(url, typed, **HTMX)
    said = _text(answer.content.decode())
    assert answer.status_code == 422, said
    assert "it is scored 64-0 for Black. Leave the scores empty." in said, said
    match.refresh_from_db()
    assert match.version == 1 and match.games.get().scores == [None, None]
