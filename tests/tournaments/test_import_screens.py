"""The director's "Import an event" page and the export buttons (issue 12).

Real records are read from ../shared/data/real/ at test time (tests/rules/test_woc_real.py);
the WOC ones are written out as the WOF rating files PAPP produced (elo_from_record).
"""

from __future__ import annotations

import copy
import html
import json
import re
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from tests.factories import play_round, round_robin_event
from tests.rules.test_woc_wof import elo_from_record
from tests.shared_data import load, real
from tournaments.models import AuditEntry, Entrant, Event, Game, ImportJob, Match
from tournaments.services import eventfile, wof_export

pytestmark = pytest.mark.django_db

URL = reverse("tournaments:manage_import_event")


@pytest.fixture
def client_in(client, director):
    client.force_login(director)
    return client


def check_file(client, text: str, filename: str = "event.elo", **fields):
    upload = SimpleUploadedFile(filename, text.encode("utf-8"))
    return client.post(URL, {"step": "check", "file": upload, "kind": "auto", **fields})


def sealed_of(response) -> str:
    found = re.search(r'name="sealed" value="([^"]+)"', response.content.decode())
    assert found, "the preview carries the checked file to the confirmation"
    return html.unescape(found.group(1))


def confirm(client, response, labels=None, **fields):
    preview = response.context["preview"]
    data = {
        "step": "confirm",
        "sealed": sealed_of(response),
        "slug": preview.slug,
        "name": preview.name,
        "label": labels if labels is not None else [g.proposed for g in preview.added],
    }
    data.update(fields)
    # the save is the worker's (an import job, enqueued when the confirmation commits);
    # tests run tasks eagerly
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(URL, data)


def nothing_saved() -> None:
    assert not Event.objects.exists()
    assert not Entrant.objects.exists() and not Match.objects.exists()
    assert not Game.objects.exists() and not AuditEntry.objects.exists()


def published(name: str) -> list[int]:
    """WOF ids in the published order of a real record."""
    return [row["id"] for row in load(name)["published_standings"]["rows"]]


# --- WOF rating files -----------------------------------------------------------------------


def test_wof_file_shows_the_proposed_labels_and_saves_nothing(client_in):
    record = load("woc_2015.json")
    response = check_file(client_in, elo_from_record("woc_2015.json"), "WOC_2015.ELO")
    assert response.status_code == 200
    preview = response.context["preview"]
    assert preview.kind == "wof" and preview.detected
    assert preview.entrants == len(record["entrants"])
    assert preview.swiss_rounds == len(record["rounds"])
    added = record["added_results"]["games_in_file_order"]
    assert len(preview.added) == len(added)
    # the first game after the Swiss is the playoff between the published 4th and 5th
    order = published("woc_2015.json")
    first = preview.added[0]
    assert first.proposed == "playoff:PO-4-5"
    assert {str(order[3]), str(order[4])} == {
        re.search(r"\((\d+)\)$", who).group(1) for who in (first.black, first.white)
    }
    kinds = [g.proposed.partition(":")[0] for g in preview.added]
    assert kinds.count("semi_final") >= 4 and kinds.count("final") >= 2
    assert "third_place" in kinds
    page = response.content.decode()
    assert 'value="playoff:PO-4-5" selected' in page and "Games after the Swiss" in page
    assert re.search(rf'<td class="line">.*?</span>{first.line}</td>', page)  # its file line
    nothing_saved()


def test_confirming_the_proposal_imports_and_opens_the_dashboard(client_in, director):
    response = check_file(client_in, elo_from_record("woc_2014.json"), "WOC_2014.ELO")
    assert response.context["preview"].slug == "woc-2014"
    saved = confirm(client_in, response, slug="woc-2014-web", name="WOC 2014, Bangkok")
    event = Event.objects.get(slug="woc-2014-web")
    assert saved.status_code == 302
    job = ImportJob.objects.get(event=event)
    assert saved.url == reverse("tournaments:manage_import_job", args=[job.pk])
    opened = client_in.get(saved.url)
    assert opened.url == reverse("tournaments:manage", args=[event.slug])
    assert event.name == "WOC 2014, Bangkok" and event.format == "woc"
    assert event.directors.filter(pk=director.pk).exists()
    assert event.entrants.count() == len(load("woc_2014.json")["entrants"])
    kinds = list(
        Match.objects.filter(round__event=event)
        .exclude(details__kind=None)
        .values_list("details__kind", flat=True)
    )
    assert kinds.count("playoff") == 1 and kinds.count("semi_final") == 2
    assert kinds.count("final") == 1 and kinds.count("third_place") == 1
    dashboard = client_in.get(opened.url)
    assert dashboard.status_code == 200 and "is imported" in dashboard.content.decode()


def test_a_corrected_label_is_saved_and_audited(client_in):
    response = check_file(client_in, elo_from_record("woc_2015.json"))
    preview = response.context["preview"]
    labels = [g.proposed for g in preview.added]
    third = labels.index("third_place:3RD")
    labels[third] = "other"  # the director knows it was not the third-place game
    saved = confirm(client_in, response, labels=labels)
    assert saved.status_code == 302
    event = Event.objects.get(slug=preview.slug)
    kinds = list(Match.objects.filter(round__event=event).values_list("details__kind", flat=True))
    assert "third_place" not in kinds and kinds.count("other") == labels.count("other")
    entry = AuditEntry.objects.get(event=event, action="event.labels_confirmed")
    assert entry.after["changed"] == [third + 1] and entry.after["labels"] == labels
    assert entry.before["proposed"][third] == "third_place:3RD"


def test_a_label_that_makes_the_record_impossible_is_refused(client_in):
    response = check_file(client_in, elo_from_record("woc_2014.json"))
    preview = response.context["preview"]
    labels = [g.proposed for g in preview.added]
    sf1 = [i for i, v in enumerate(labels) if v == "semi_final:SF1"]
    assert len(sf1) == 2  # the SF1 of 2014 went to two games
    playoff = labels.index("playoff:PO-4-5")
    labels[playoff] = "other"
    for i in sf1:
        labels[i] = "playoff:PO-4-5"  # a playoff is one game (woc IV.9)
    refused = confirm(client_in, response, labels=labels)
    assert refused.status_code == 422
    page = refused.content.decode()
    assert "A playoff is one game; 2 were entered." in page
    assert f"games {sf1[0] + 1}, {sf1[1] + 1}" in page and "impossible" in page
    # the director's choices are shown again, not the proposal
    again = refused.context["preview"]
    assert [g.chosen for g in again.added] == labels
    nothing_saved()


def test_games_of_different_players_in_one_match_are_refused(client_in):
    response = check_file(client_in, elo_from_record("woc_2014.json"))
    labels = [g.proposed for g in response.context["preview"].added]
    final = labels.index("final:F")
    third = labels.index("third_place:3RD")
    labels[third] = "final:F"
    refused = confirm(client_in, response, labels=labels)
    assert refused.status_code == 422
    page = html.unescape(refused.content.decode())
    assert "Final (F) holds games between different players (" in page
    assert f"game {third + 1}: " in page and f"game {final + 1}: " in page
    nothing_saved()


def test_a_label_that_is_not_offered_is_refused(client_in):
    response = check_file(client_in, elo_from_record("woc_2014.json"))
    labels = [g.proposed for g in response.context["preview"].added]
    labels[0] = "champion:X"
    refused = confirm(client_in, response, labels=labels)
    assert refused.status_code == 422
    assert "'champion:X' is not a label" in html.unescape(refused.content.decode())
    short = confirm(client_in, response, labels=labels[1:2])
    assert short.status_code == 422 and "need" in short.content.decode()
    nothing_saved()


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


def _without_round_two(text: str) -> tuple[str, str]:
    # issue 22: two rounds run together are kept (the archive has rounds with a player twice);
    # the lost header shows in the numbers of the rounds that follow
    changed = text.replace("%Round: 2\n", "", 1)
    words = f"Line {_line_of(changed, '%Round: 3')}: round 3 where round 2 was expected"
    return changed, words


def _seventy_discs(text: str) -> tuple[str, str]:
    changed = text.replace("(58)>(06)", "(58)>(12)", 1)
    return changed, f"Line {_line_of(changed, '(58)>(12)')}: a game with 70 discs"


def _unknown_player(text: str) -> tuple[str, str]:
    changed = text.replace("  4043 (58)", "  9999 (58)", 1)
    line = _line_of(changed, "9999 (58)")
    return changed, f"Line {line}: player 9999 is not in the player list."


@pytest.mark.parametrize("change", [_without_round_two])
def test_a_malformed_wof_file_is_refused_with_its_line(client_in, change):
    text, words = change(elo_from_record("woc_2015.json"))
    response = check_file(client_in, text)
    assert response.status_code == 422
    page = html.unescape(response.content.decode())
    assert words in page and "nothing was saved" in page
    assert "preview" not in response.context or response.context["preview"] is None
    nothing_saved()


@pytest.mark.parametrize("change", [_seventy_discs, _unknown_player])
def test_issue_28_item_13_a_contradicting_game_waits_for_the_directors_choice(client_in, change):
    """Issue 28 made these contradictions (they were refusals): shown with their line, and
    the import refused naming the line until the director chooses."""
    text, words = change(elo_from_record("woc_2015.json"))
    response = check_file(client_in, text)
    assert response.status_code == 200
    (row,) = response.context["preview"].contradictions
    line, what = words.split(": ", 1)
    assert f"Line {row['line']}" == line and what.rstrip(".") in " ".join(row["what"])
    refused = confirm(client_in, response)
    assert refused.status_code == 422
    problems = [p.text for p in refused.context["preview"].problems]
    assert any(p.startswith(f"{line}: choose what to do with this game") for p in problems)
    nothing_saved()


# --- FlipTheDisc exports and Arbiter event files ---------------------------------------------


def test_flipthedisc_export_is_detected_previewed_and_imported(client_in):
    data = load("ftd_scottish_open_2026.json")
    response = check_file(client_in, json.dumps(data), "scottish.json")
    preview = response.context["preview"]
    assert preview.kind == "ftd" and preview.detected
    assert preview.entrants == len(data["entrants"]) and preview.rounds == len(data["rounds"])
    byes = sum(1 for r in data["rounds"] for g in r["games"] if g[1] == -1)
    assert preview.byes == byes
    assert preview.games == sum(len(r["games"]) for r in data["rounds"]) - byes
    assert not preview.added
    nothing_saved()
    saved = confirm(client_in, response, slug="scottish-open")
    assert saved.status_code == 302
    event = Event.objects.get(slug="scottish-open")
    assert event.name == data["event"] and event.entrants.count() == len(data["entrants"])
    assert Match.objects.filter(round__event=event, participants__isnull=False).exists()


def test_a_flipthedisc_game_with_the_wrong_shape_is_named_by_its_path(client_in):
    data = load("ftd_scottish_open_2026.json")
    data["rounds"][2]["games"][4] = [1, 2, 3]
    response = check_file(client_in, json.dumps(data), "scottish.json")
    assert response.status_code == 422
    assert "rounds[2].games[4]: is not [first id, second id, discs, result]." in (
        html.unescape(response.content.decode())
    )
    nothing_saved()


# --- real files from the field (issue 22) ------------------------------------------------------


def upload(client, data: bytes, filename: str, kind: str = "auto"):
    return client.post(
        URL, {"step": "check", "file": SimpleUploadedFile(filename, data), "kind": kind}
    )


def test_a_site_flipthedisc_export_is_detected_and_imported(client_in):
    raw = real("raw", "ftd_595_scottish_open_2026.json").read_bytes()
    response = upload(client_in, raw, "tournament_595.json")
    preview = response.context["preview"]
    assert preview.kind == "ftd" and preview.detected
    assert (preview.entrants, preview.rounds, preview.byes) == (17, 6, 6)
    nothing_saved()
    assert confirm(client_in, response, slug="scottish-open").status_code == 302
    assert Event.objects.get(slug="scottish-open").entrants.count() == 17


def test_a_wof_file_in_an_old_dialect_shows_what_it_does_not_say(client_in):
    path = real("wof-archive-sample", "1991", "19910317_12_Meijin_Kansai_Prelim.ELO")
    response = upload(client_in, path.read_bytes(), path.name)
    preview = response.context["preview"]
    assert preview.kind == "wof" and (preview.entrants, preview.rounds) == (27, 6)
    page = html.unescape(response.content.decode())
    assert "The file has no player list" in page and "give the result without the discs" in page


def test_the_preview_shows_where_the_list_and_the_games_differ(client_in):
    path = real("wof-archive-sample", "2017", "20170129_Citta_di_Roma_I.ELO")
    response = upload(client_in, path.read_bytes(), path.name)
    preview = response.context["preview"]
    assert preview.difference_count == 1
    (row,) = preview.differences
    assert (row["id"], row["what"], row["listed"], row["games"]) == ("40048", "discs", "100", "133")
    page = html.unescape(response.content.decode())
    assert "The list and the games differ once" in page and "PANTANI Ennio" in page


def test_a_file_cut_short_is_imported_only_when_the_director_confirms(client_in):
    lines = real("raw", "20141106_WOC_2014.ELO").read_text(encoding="utf-8").splitlines()
    text = "\n".join(lines[: lines.index("%Round: 7") + 15]) + "\n"
    response = upload(client_in, text.encode(), "WOC_2014.ELO")
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "This file may have been cut short." in page and 'name="accept_truncated"' in page
    refused = confirm(client_in, response, slug="cut")
    assert refused.status_code == 422
    assert any(p.code == "wof.truncated" for p in refused.context["preview"].problems)
    nothing_saved()
    saved = confirm(client_in, response, slug="cut", accept_truncated="on")
    assert saved.status_code == 302 and Event.objects.get(slug="cut").entrants.count() == 64


def test_a_binary_file_given_as_elo_is_refused_in_one_sentence(client_in):
    response = upload(client_in, b"PK\x03\x04" + bytes(range(256)) * 64, "results.ELO", "wof")
    assert response.status_code == 422
    problems = response.context["problems"]
    assert [p.text for p in problems] == [
        "This file is not text (it holds binary data): a WOF rating file is a text file of lines."
    ]
    nothing_saved()


@pytest.fixture
def played(director):
    event = round_robin_event(director, players=5, slug="source", draw_numbers="lot")
    play_round(event, director, scores=lambda m: [3, 1])
    play_round(event, director, scores=lambda m: [2, 2])
    return event


def strip_slug(data):
    data = copy.deepcopy(data)
    data["event"].pop("slug")
    return data


def test_event_file_export_round_trips_through_the_web_import(client_in, played):
    download = client_in.get(reverse("tournaments:manage_export_event", args=[played.slug]))
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="source.json"'
    text = download.content.decode()
    assert json.loads(text) == eventfile.export_event(Event.objects.get(pk=played.pk))
    # under its own slug it is refused: that event exists
    taken = check_file(client_in, text, "source.json")
    assert taken.status_code == 422
    assert "event.slug: the web address 'source' is not available" in html.unescape(
        taken.content.decode()
    )
    response = check_file(client_in, text, "source.json", slug="copy")
    preview = response.context["preview"]
    assert preview.kind == "event" and preview.entrants == 5 and preview.rounds == 2
    saved = confirm(client_in, response)
    assert saved.status_code == 302
    copied = Event.objects.get(slug="copy")
    assert strip_slug(eventfile.export_event(copied)) == strip_slug(json.loads(text))


def test_an_unknown_entrant_in_an_event_file_is_named_by_its_path(client_in, played):
    data = eventfile.export_event(played)
    data["rounds"][1]["matches"][0]["participants"][1]["entrant"] = 99
    response = check_file(client_in, json.dumps(data, indent=1), "bad.json", slug="bad")
    assert response.status_code == 422
    assert "rounds[1].matches[0].participants[1].entrant" in response.content.decode()
    assert not Event.objects.filter(slug="bad").exists()


def test_bad_json_is_refused_with_line_and_column(client_in):
    text = '{\n "arbiter_event_file": 1,\n "event": {"slug": "x",}\n}\n'
    response = check_file(client_in, text, "broken.json")
    assert response.status_code == 422
    assert "Line 3, column 24: not valid JSON" in response.content.decode()
    nothing_saved()


def test_the_kind_override_wins_over_detection(client_in):
    data = load("ftd_israeli_championship_2026.json")
    response = check_file(client_in, json.dumps(data), "il.json", kind="event")
    assert response.status_code == 422
    assert "arbiter_event_file: must be 1" in response.content.decode()
    unknown = check_file(client_in, "name,rating\nAda,2100\n", "entrants.csv")
    assert unknown.status_code == 422 and "choose its kind" in unknown.content.decode()
    nothing_saved()


def test_pasted_text_is_checked_like_a_file(client_in):
    text = elo_from_record("woc_2012.json")
    response = client_in.post(URL, {"step": "check", "text": text, "kind": "wof"})
    assert response.status_code == 200
    assert response.context["preview"].kind == "wof"
    assert not response.context["preview"].detected


# --- the confirmation cannot be changed -------------------------------------------------------


def test_a_tampered_confirmation_is_refused(client_in):
    response = check_file(client_in, elo_from_record("woc_2015.json"))
    sealed = sealed_of(response)
    forged = sealed[:10] + ("A" if sealed[10] != "A" else "B") + sealed[11:]
    refused = confirm(client_in, response, sealed=forged)
    assert refused.status_code == 400
    assert "changed after the file was checked" in refused.content.decode()
    nothing_saved()


def test_a_confirmation_signed_for_another_user_is_refused(client_in, django_user_model):
    response = check_file(client_in, elo_from_record("woc_2015.json"))
    other = django_user_model.objects.create_user("mallory", password="pw-mallory-1")
    client_in.force_login(other)
    refused = confirm(client_in, response)
    assert refused.status_code == 400 and "another user" in refused.content.decode()
    assert not Event.objects.exists()


def test_an_invalid_slug_at_confirmation_is_refused_beside_the_field(client_in):
    response = check_file(client_in, elo_from_record("woc_2015.json"))
    refused = confirm(client_in, response, slug="not a slug!")
    assert refused.status_code == 422
    assert refused.context["confirm"].errors["slug"]
    nothing_saved()


# --- who may --------------------------------------------------------------------------------


def test_the_import_page_needs_a_signed_in_user(client, django_user_model):
    response = client.get(URL)
    assert response.status_code == 302 and "/login" in response.url
    upload = SimpleUploadedFile("x.elo", elo_from_record("woc_2015.json").encode())
    response = client.post(URL, {"step": "check", "file": upload, "kind": "auto"})
    assert response.status_code == 302 and not Event.objects.exists()
    # any signed-in user may import (as they may create an event) and directs only that one
    user = django_user_model.objects.create_user("newcomer", password="pw-newcomer-1")
    client.force_login(user)
    assert client.get(URL).status_code == 200


def test_create_page_links_to_the_import(client_in):
    page = client_in.get(reverse("tournaments:manage_create")).content.decode()
    assert URL in page


def test_exports_are_for_directors_only(client, played, django_user_model):
    urls = [
        reverse("tournaments:manage_export_event", args=[played.slug]),
        reverse("tournaments:manage_export_wof", args=[played.slug]),
    ]
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    client.force_login(stranger)
    played.public = True
    played.save(update_fields=["public"])
    assert [client.get(u).status_code for u in urls] == [404, 404]


# --- WOF export from the dashboard ------------------------------------------------------------


def test_dashboard_offers_the_wof_file_only_for_woc_events(client_in, played):
    page = client_in.get(reverse("tournaments:manage", args=[played.slug])).content.decode()
    assert reverse("tournaments:manage_export_event", args=[played.slug]) in page
    assert reverse("tournaments:manage_export_wof", args=[played.slug]) not in page
    wof_url = reverse("tournaments:manage_export_wof", args=[played.slug])
    assert client_in.get(wof_url).status_code == 404  # a round robin is not a WOF event


def test_wof_export_round_trips_through_the_web_import(client_in, monkeypatch):
    # the file's "created" line says the minute of its export: both exports made at one
    # (a run that crossed a minute between them failed on that line alone)
    moment = timezone.now()
    frozen = SimpleNamespace(now=lambda: moment, localtime=timezone.localtime)
    monkeypatch.setattr(wof_export, "timezone", frozen)
    first = check_file(client_in, elo_from_record("woc_2014.json"), "WOC_2014.ELO")
    confirm(client_in, first)
    event = Event.objects.get(slug="woc-2014")
    dashboard = client_in.get(reverse("tournaments:manage", args=[event.slug])).content.decode()
    wof_url = reverse("tournaments:manage_export_wof", args=[event.slug])
    assert wof_url in dashboard
    download = client_in.get(wof_url)
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="woc-2014.elo"'
    exported = download.content.decode()
    lines = [line for line in exported.splitlines() if line.startswith("%_%")]
    ids = [int(line[3:].split(",")[0]) for line in lines]
    assert ids[:5] == published("woc_2014.json")[:5]  # the published list, in its order
    again = check_file(client_in, exported, "woc-2014.elo", slug="woc-2014-again")
    # the same labels come back (the side game moves after the final: rounds are in order)
    proposed = sorted(g.proposed for g in again.context["preview"].added)
    assert proposed == sorted(g.proposed for g in first.context["preview"].added)
    assert confirm(client_in, again).status_code == 302
    copy_url = reverse("tournaments:manage_export_wof", args=["woc-2014-again"])
    assert client_in.get(copy_url).content.decode() == exported


def test_a_file_that_does_not_name_the_event_asks_for_its_address(client_in):
    text = "\n".join(
        line
        for line in elo_from_record("woc_2015.json").splitlines()
        if not line.startswith("%%Tournament")
    )
    response = client_in.post(URL, {"step": "check", "text": text, "kind": "auto"})
    assert response.status_code == 422
    assert "does not name the event: give its web address and name" in response.content.decode()
    named = {"step": "check", "text": text, "kind": "auto", "slug": "woc15", "name": "WOC 15"}
    preview = client_in.post(URL, named).context["preview"]
    assert (preview.slug, preview.name) == ("woc15", "WOC 15")
    nothing_saved()


def test_a_second_confirmation_does_not_import_twice(client_in):
    response = check_file(client_in, elo_from_record("woc_2015.json"))
    assert confirm(client_in, response).status_code == 302
    again = confirm(client_in, response)
    assert again.status_code == 422
    assert "is not available; choose another" in html.unescape(again.content.decode())
    assert Event.objects.count() == 1


def test_an_unusable_web_address_gets_one_answer_at_the_check_and_the_confirmation(
    client_in, director, django_user_model
):
    """Another user's private event's address must not be confirmable through the import:
    the check and the confirmation answer every unusable address with the same sentence."""
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    round_robin_event(stranger, players=0, slug="hidden-club")
    Event.objects.filter(slug="hidden-club").update(public=False)
    round_robin_event(stranger, players=0, slug="open-club")
    mine = round_robin_event(director, players=3, slug="mine-club")
    text = json.dumps(eventfile.export_event(mine))

    def answers(response, slug):
        assert response.status_code == 422
        page = html.unescape(response.content.decode())
        assert "exists" not in page and "private" not in page
        return [p.text.replace(slug, "SLUG") for p in response.context["problems"]]

    def checked(slug):
        return answers(check_file(client_in, text, "club.json", slug=slug), slug)

    hidden = checked("hidden-club")
    assert hidden == ["event.slug: the web address 'SLUG' is not available; choose another."]
    assert checked("open-club") == hidden == checked("mine-club")

    def confirmed(slug):
        preview = check_file(client_in, text, "club.json", slug="fresh-club")
        response = confirm(client_in, preview, slug=slug)
        assert response.status_code == 422
        page = html.unescape(response.content.decode())
        assert "exists" not in page and "private" not in page
        problems = response.context.get("problems") or response.context["preview"].problems
        return [p.text.replace(slug, "SLUG") for p in problems]

    hidden = confirmed("hidden-club")
    assert hidden and all("is not available; choose another." in p for p in hidden)
    assert confirmed("open-club") == hidden == confirmed("mine-club")
    assert Event.objects.count() == 3


@pytest.mark.parametrize("size", [3_300_000, 6_000_000])
def test_a_refused_long_paste_is_not_sent_back_in_the_page(client_in, size):
    """Issue 29 finding 6: a refused 3.3 MB paste came back in a 6.28 MB page. Past 100,000
    characters the page says the text is not shown again instead of echoing it; a short
    refused paste is kept for the director to fix in place."""
    long = '{"format_version": 1, "junk": "' + "x" * size + '"'  # not valid JSON
    response = client_in.post(URL, {"step": "check", "text": long, "kind": "auto"})
    assert response.status_code == 422
    assert len(response.content) < 200_000
    assert "is not shown again" in response.content.decode()
    nothing_saved()
    short = '{"format_version": 1, "oops"'
    response = client_in.post(URL, {"step": "check", "text": short, "kind": "auto"})
    assert response.status_code == 422
    assert escape(short) in response.content.decode()


# --- issue 28, item 13: a file that contradicts itself -------------------------------------

CONTRADICTING = (
    "%%Tournament: Contradictions\n"
    "%_%  1, ONE, a, FRA, 1, 40\n%_%  2, TWO, b, FRA, 0, 55\n"
    "%_%  3, THREE, c, FRA, 1, 33\n%_%  4, FOUR, d, FRA, 1, 64\n"
    "%Round 1\n"
    " 1 (40)<(24) 2 B\n"  # line 7: the sign against the discs
    " 3 (33)>(31) 4 B\n"
    "%Round 2\n"
    " 1 (40)>(30) 3 B\n"  # line 10: 70 discs
    " 4 (33)>(31) 2 B\n"
)


def test_issue_28_item_13_each_contradiction_is_a_choice_the_director_must_make(client_in):
    response = upload(client_in, CONTRADICTING.encode(), "contradictions.elo")
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert 'id="contradictions"' in page
    assert "1 (40)<(24) 2 B" in page and "1 (40)>(30) 3 B" in page
    # a choice per line, none made for the director
    assert re.search(
        r'<select name="resolve-7" id="resolve-7"[^>]*>\s*<option value="" selected', page
    )
    assert 'name="resolve-10"' in page and 'value="discs"' in page
    refused = confirm(client_in, response, **{"resolve-7": "sign"})
    assert refused.status_code == 422
    problems = [p.text for p in refused.context["preview"].problems]
    assert any(p.startswith("Line 10: choose what to do with this game") for p in problems)
    assert not any(p.startswith("Line 7") for p in problems)
    again = html.unescape(refused.content.decode())
    assert re.search(r'name="resolve-7"[^>]*>.*?<option value="sign" selected', again, re.S)
    nothing_saved()
    saved = confirm(client_in, response, **{"resolve-7": "discs", "resolve-10": "drop"})
    assert saved.status_code == 302
    event = Event.objects.get(slug="contradictions")
    scores = sorted(
        (g.match.round.number, g.scores, g.details)
        for g in Game.objects.filter(match__round__event=event).select_related("match__round")
    )
    assert scores == [(1, [33, 31], {}), (1, [40, 24], {}), (2, [33, 31], {})]
    # the worker imported the text checked, with the choices confirmed (the job keeps them)
    assert ImportJob.objects.get().resolutions == {"7": "discs", "10": "drop"}


def test_issue_28_item_13_a_choice_for_a_line_without_contradiction_is_refused(client_in):
    response = upload(client_in, CONTRADICTING.encode(), "contradictions.elo")
    refused = confirm(
        client_in, response, **{"resolve-7": "sign", "resolve-10": "sign", "resolve-8": "drop"}
    )
    assert refused.status_code == 422
    problems = [p.text for p in refused.context["preview"].problems]
    assert "Line 8 has no contradiction: there is nothing to choose there." in problems
    nothing_saved()
