"""Issue 14 on the formats' own screens: GokoDom's result codes in an earlier Swiss round and
Freestyle's withdrawal are previewed, saved only when the director confirms that very
preview, refused when stale, and audited with the diff shown."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import freestyle_event, gokodom_event, play_round
from tournaments.formats.gokodom import services_director as director_service
from tournaments.models import AuditEntry, Entrant, Match, ResultChange
from tournaments.services import corrections, rounds

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _seats(match):
    return [p.entrant for p in match.participants.order_by("seat").select_related("entrant")]


def _goko_two_rounds(director, slug):
    """Round 1 played (seat 0 wins every match by code), round 2 paired and published."""
    event = gokodom_event(director, players=8, slug=slug, users=False, swiss_rounds=3)
    r1 = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    for m in r1.matches.all():
        seats = _seats(m)
        if len(seats) == 2:
            director_service.record_codes(
                m,
                {str(seats[0].number): "W", str(seats[1].number): "L"},
                expected_version=m.version,
                by=director,
            )
    rounds.complete_round(r1, by=director)
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = r1.matches.order_by("order").first()
    return event, match


def _codes_url(event, match):
    return reverse("tournaments:gokodom_codes", args=[event.slug, match.pk])


def _flip(match):
    a, b = _seats(match)
    return {f"code-{a.number}": "L", f"code-{b.number}": "W", "version": match.version}


def _preview_fields(body):
    digest = re.search(r'name="confirm" value="([0-9a-f]{64})"[^>]*formaction="([^"]+)"', body)
    version = re.search(r'name="results_version" value="(-?\d+)"', body)
    assert digest and version, "no preview to confirm on the page"
    return digest.group(1), version.group(1), digest.group(2)


def test_codes_in_an_earlier_round_are_previewed_and_saved_only_on_confirm(client, director):
    event, match = _goko_two_rounds(director, "gk-corr")
    client.force_login(director)
    before = (match.details, match.result, match.version)
    url = _codes_url(event, match)
    shown = client.post(url, _flip(match), **HTMX)
    body = shown.content.decode()
    assert shown.status_code == 200
    assert "Confirm the correction" in body and "Nothing is saved yet" in body
    # the diff names the change and the later round the engine would pair otherwise
    assert "W-L" in body or "1-0" in body or "→" in body
    assert "Round 2" in body
    digest, version, action = _preview_fields(body)
    assert action == url  # the confirmation goes back to the codes screen, not the games one
    match.refresh_from_db()
    assert (match.details, match.result, match.version) == before  # nothing saved
    a, b = _seats(match)
    # the codes chosen stay chosen under the preview
    assert re.search(rf'name="code-{a.number}">.*?<option value="L" selected', body, re.S)

    preview = corrections.preview_details(
        match,
        director_service.details_with_codes(match, {str(a.number): "L", str(b.number): "W"}),
        expected_version=match.version,
    )
    assert preview.digest == digest and preview.diff["standings"]
    done = client.post(
        url,
        {**_flip(match), "confirm": digest, "results_version": version, "reason": "misread"},
        **HTMX,
    )
    assert done.status_code == 200
    assert "Correction saved" in done.content.decode()
    match.refresh_from_db()
    assert match.details["results"] == {str(a.number): "L", str(b.number): "W"}
    assert match.version == before[2] + 1
    entry = AuditEntry.objects.get(event=event, action="correction.result_confirmed")
    assert entry.after == preview.diff and entry.reason == "misread"
    change = ResultChange.objects.filter(match=match).latest("version")
    assert change.reason == "misread"


def test_a_stale_code_preview_is_refused_with_the_new_one(client, director):
    event, match = _goko_two_rounds(director, "gk-stale")
    client.force_login(director)
    url = _codes_url(event, match)
    digest, version, _ = _preview_fields(client.post(url, _flip(match), **HTMX).content.decode())
    # another result of round 1 changes meanwhile (at the desk next door)
    other = Match.objects.filter(round=match.round).exclude(pk=match.pk).order_by("order")[0]
    c, d = _seats(other)
    director_service.record_codes(
        other,
        {str(c.number): "D", str(d.number): "D"},
        expected_version=other.version,
        by=director,
    )
    refused = client.post(
        url,
        {
            **_flip(match),
            "reason": "typo on the sheet",
            "confirm": digest,
            "results_version": version,
        },
        **HTMX,
    )
    body = refused.content.decode()
    assert refused.status_code == 409
    assert "Results changed since this preview" in body and "Confirm the correction" in body
    assert _preview_fields(body)[0] != digest
    match.refresh_from_db()
    a, _ = _seats(match)
    assert match.details["results"][str(a.number)] == "W"  # as it was
    assert not AuditEntry.objects.filter(action="correction.result_confirmed").exists()


def test_confirming_other_codes_than_previewed_is_refused(client, director):
    event, match = _goko_two_rounds(director, "gk-other")
    client.force_login(director)
    url = _codes_url(event, match)
    digest, version, _ = _preview_fields(client.post(url, _flip(match), **HTMX).content.decode())
    a, b = _seats(match)
    draw = {f"code-{a.number}": "D", f"code-{b.number}": "D", "version": match.version}
    refused = client.post(
        url,
        {**draw, "reason": "typo on the sheet", "confirm": digest, "results_version": version},
        **HTMX,
    )
    assert refused.status_code == 409
    assert "not the one previewed" in refused.content.decode()
    match.refresh_from_db()
    assert match.details["results"][str(a.number)] == "W"


def test_bad_codes_in_an_earlier_round_are_refused_before_any_preview(client, director):
    event, match = _goko_two_rounds(director, "gk-bad")
    client.force_login(director)
    a, b = _seats(match)
    data = {f"code-{a.number}": "W", f"code-{b.number}": "W", "version": match.version}
    refused = client.post(_codes_url(event, match), data, **HTMX)
    body = refused.content.decode()
    assert refused.status_code == 422
    assert "cannot go together" in body and "Confirm the correction" not in body
    match.refresh_from_db()
    assert match.details["results"][str(b.number)] == "L"


def test_clearing_codes_in_an_earlier_round_is_previewed_too(client, director):
    event, match = _goko_two_rounds(director, "gk-clear")
    client.force_login(director)
    data = {"version": match.version}
    url = _codes_url(event, match)
    shown = client.post(url, data, **HTMX)
    body = shown.content.decode()
    # round 1 is closed: with no codes the engine applies the unplayed-match rule
    assert shown.status_code == 200 and "W-L → <b>LD-LD</b>" in body
    digest, version, _ = _preview_fields(body)
    client.post(
        url,
        {**data, "reason": "typo on the sheet", "confirm": digest, "results_version": version},
        **HTMX,
    )
    match.refresh_from_db()
    assert "results" not in match.details


def test_codes_in_the_latest_round_save_at_once(client, director):
    event, _ = _goko_two_rounds(director, "gk-latest")
    client.force_login(director)
    latest = Match.objects.filter(round__event=event, round__number=2).order_by("order")[0]
    a, b = _seats(latest)
    data = {f"code-{a.number}": "W", f"code-{b.number}": "L", "version": latest.version}
    saved = client.post(_codes_url(event, latest), data, **HTMX)
    assert saved.status_code == 200 and "Confirm the correction" not in saved.content.decode()
    latest.refresh_from_db()
    assert latest.details["results"] == {str(a.number): "W", str(b.number): "L"}


def test_the_grid_offers_a_preview_for_codes_of_an_earlier_round(client, director):
    event, _ = _goko_two_rounds(director, "gk-label")
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, 1])).content.decode()
    assert "Preview the codes" in page
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, 2])).content.decode()
    assert "Save codes" in page and "Preview the codes" not in page


# -- Freestyle's own withdrawal screen ----------------------------------------------------


def _freestyle_after_round_one(director, slug):
    event = freestyle_event(director, players=16, slug=slug)
    play_round(event, director, scores=lambda m: [10, 4])
    return event


def test_a_freestyle_withdrawal_between_rounds_is_previewed_then_confirmed(client, director):
    event = _freestyle_after_round_one(director, "fs-wdp")
    client.force_login(director)
    url = reverse("tournaments:freestyle_withdraw", args=[event.slug, 3])
    form = client.get(url).content.decode()
    assert "Preview the withdrawal" in form
    shown = client.post(url, {"when": "between", "reason": "ill"})
    body = shown.content.decode()
    assert shown.status_code == 200
    assert "Confirm the withdrawal" in body and "withdraws after round 1" in body
    assert Entrant.objects.get(event=event, number=3).status == "active"
    preview = corrections.preview_withdrawal(Entrant.objects.get(event=event, number=3))
    assert preview.digest in body
    done = client.post(
        url,
        {
            "when": "between",
            "reason": "ill",
            "confirm": preview.digest,
            "results_version": preview.results_version,
        },
    )
    assert done.status_code == 302
    leaver = Entrant.objects.get(event=event, number=3)
    assert leaver.status == "withdrawn" and leaver.withdrawn_after_round == 1
    entry = AuditEntry.objects.get(event=event, action="correction.withdrawal_confirmed")
    assert entry.after == preview.diff and entry.reason == "ill"
    assert AuditEntry.objects.filter(event=event, action="entrant.withdrawn").count() == 1


def test_a_freestyle_withdrawal_during_the_round_previews_its_games_voided(client, director):
    """freestyle.txt, "If a round is in-progress, his games (even if he played all of them)
    do not count": the preview shows his win of the round gone; the round stays as paired."""
    event = freestyle_event(director, players=16, slug="fs-wdd")
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    leaver = rnd.matches.order_by("order")[0].participants.get(seat=0).entrant
    # he wins his first game; the rest of the round is not played yet
    first = rnd.matches.filter(participants__entrant=leaver).order_by("order")[0]
    from tournaments.services import results

    seat = first.participants.get(entrant=leaver).seat
    results.record(
        first,
        [{"scores": [10, 4] if seat == 0 else [4, 10]}],
        expected_version=first.version,
        by=director,
    )
    during = corrections.preview_withdrawal(leaver, during=True)
    between = corrections.preview_withdrawal(leaver)
    assert "during round 1" in during.subject and during.digest != between.digest
    assert not any(r["caused"] for r in during.diff["rounds"])  # round 1 stays as paired
    name = leaver.name
    (row,) = [r for r in during.diff["standings"] if r["entrant"] == name]
    wins = {v["key"]: (v["before"], v["after"]) for v in row["values"]}["wins"]
    assert wins == (1, 0) and row["status_after"] == "withdrawn"
    # between rounds the game he won still counts: only his status changes
    (kept,) = [r for r in between.diff["standings"] if r["entrant"] == name]
    assert not any(v["key"] == "wins" for v in kept["values"])
    client.force_login(director)
    url = reverse("tournaments:freestyle_withdraw", args=[event.slug, leaver.number])
    shown = client.post(url, {"when": "during"})
    assert shown.status_code == 200 and during.digest in shown.content.decode()
    leaver.refresh_from_db()
    assert leaver.status == "active"
    # confirming the "during" preview as "between" is another change: refused
    wrong = client.post(
        url,
        {
            "when": "between",
            "reason": "typo on the sheet",
            "confirm": during.digest,
            "results_version": during.results_version,
        },
    )
    assert wrong.status_code == 409 and "not the one previewed" in wrong.content.decode()
    leaver.refresh_from_db()
    assert leaver.status == "active"
    done = client.post(
        url,
        {
            "when": "during",
            "reason": "typo on the sheet",
            "confirm": during.digest,
            "results_version": during.results_version,
        },
    )
    assert done.status_code == 302
    leaver.refresh_from_db()
    assert leaver.withdrawn_after_round == 0
    first.refresh_from_db()
    assert first.result["summary"] == "void"


def test_a_refused_freestyle_withdrawal_shows_no_preview(client, director):
    event = _freestyle_after_round_one(director, "fs-wdr")
    client.force_login(director)
    url = reverse("tournaments:freestyle_withdraw", args=[event.slug, 3])
    refused = client.post(url, {"when": "during"})
    body = refused.content.decode()
    assert refused.status_code == 422
    assert "No round is in play" in body and "Confirm the withdrawal" not in body


def test_a_stale_freestyle_withdrawal_preview_is_refused(client, director):
    event = _freestyle_after_round_one(director, "fs-wds")
    client.force_login(director)
    entrant = Entrant.objects.get(event=event, number=4)
    preview = corrections.preview_withdrawal(entrant)
    match = Match.objects.filter(round__event=event).order_by("order")[0]
    from tournaments.services import results

    results.record(match, [{"scores": [4, 10]}], expected_version=match.version, by=director)
    url = reverse("tournaments:freestyle_withdraw", args=[event.slug, 4])
    refused = client.post(
        url,
        {
            "when": "between",
            "reason": "typo on the sheet",
            "confirm": preview.digest,
            "results_version": preview.results_version,
        },
    )
    assert refused.status_code == 409
    body = refused.content.decode()
    assert "Results changed since this preview" in body and "Confirm the withdrawal" in body
    assert Entrant.objects.get(pk=entrant.pk).status == "active"


def test_changing_who_goes_through_after_the_next_round_is_drawn_is_previewed(director):
    """GokoDom IV.A.4: the director says who goes through a 3-3 match; changed once the
    semi-finals are drawn, the preview names the semi-final that would be paired otherwise."""
    from tests.tournaments.test_format_gokodom import client_for, games, pair, post, quarter_finals

    event, qf = quarter_finals(director)
    tied, a, b = pair(qf)
    post(client_for(a), "report", event, tied, games("0", "1", "draw", "draw", "0", "1"))
    post(client_for(b), "confirm", event, tied)
    for match in qf.matches.exclude(pk=tied.pk):
        seats = _seats(match)
        post(client_for(seats[0]), "report", event, match, games("0", "0", "1", "0", first="0"))
        post(client_for(seats[1]), "confirm", event, match)
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:gokodom_advances", args=[event.slug, tied.pk])
    tied.refresh_from_db()
    first = client.post(url, {"advances": a.number, "version": tied.version}, **HTMX)
    assert first.status_code == 200 and "Confirm the correction" not in first.content.decode()
    rounds.complete_round(qf, by=director)
    rounds.draft_next_round(event, by=director)
    tied.refresh_from_db()
    grid = client.get(reverse("tournaments:manage_round", args=[event.slug, qf.number]))
    assert "Preview the decision" in grid.content.decode()  # a decision can be changed
    shown = client.post(url, {"advances": b.number, "version": tied.version}, **HTMX)
    body = shown.content.decode()
    assert shown.status_code == 200 and "Confirm the correction" in body
    digest, version, action = _preview_fields(body)
    assert action == url
    preview = corrections.preview_details(
        tied, {**tied.details, "advances": str(b.number)}, expected_version=tied.version
    )
    assert preview.digest == digest
    (semis,) = preview.diff["rounds"]
    assert semis["caused"] and any(b.name in pair for pair in semis["only_planned"])
    tied.refresh_from_db()
    assert tied.details["advances"] == str(a.number)  # nothing saved yet
    done = client.post(
        url,
        {
            "advances": b.number,
            "version": tied.version,
            "confirm": digest,
            "results_version": version,
            "reason": "misheard",
        },
        **HTMX,
    )
    assert done.status_code == 200 and "Correction saved" in done.content.decode()
    tied.refresh_from_db()
    assert tied.details["advances"] == str(b.number) and tied.result["winner"] == 1
    entry = AuditEntry.objects.get(event=event, action="correction.result_confirmed")
    assert entry.after == preview.diff and entry.reason == "misheard"
