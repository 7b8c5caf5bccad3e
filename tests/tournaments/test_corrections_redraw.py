"""Issue 14: "Later published rounds stay as played unless the director explicitly chooses
otherwise." The director may choose, when confirming a correction, to pair the latest round
again, only while no result of it is in; the choice is audited and nothing is lost."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.test_corrections import flipped, play, woc_event
from tournaments.models import AuditEntry, Entrant, Match, Round
from tournaments.services import corrections, results, rounds
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


def _round_two_published(director, slug):
    """Round 1 closed, round 2 published with no result in yet."""
    event = woc_event(director, slug=slug, rounds_count=4)
    r1 = play(event, director)
    r2 = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    return event, r1, r2


def _pairs(rnd):
    return sorted(
        tuple(sorted(p.entrant.name for p in m.participants.all() if p.entrant))
        for m in Round.objects.get(pk=rnd.pk).matches.prefetch_related("participants__entrant")
    )


def _changing_match(r1):
    """A round 1 match whose flipped result changes the engine's round 2 pairing."""
    for match in r1.matches.order_by("order"):
        preview = corrections.preview_result(match, flipped(match), expected_version=match.version)
        if preview.diff["redraw"]:
            return match, preview
    raise AssertionError("no correction changes round 2")


def test_the_latest_round_is_paired_again_when_the_director_chooses(director):
    event, r1, r2 = _round_two_published(director, "redraw")
    match, preview = _changing_match(r1)
    assert preview.diff["redraw"] == {"number": 2, "label": r2.label, "status": "published"}
    (later,) = preview.diff["rounds"]
    assert later["caused"]
    corrections.confirm_result(
        match,
        flipped(match),
        expected_version=match.version,
        results_version=preview.results_version,
        digest=preview.digest,
        by=director,
        reason="score sheet misread",
        redraw=2,
    )
    match.refresh_from_db()
    assert match.result["summary"] == "24-40"
    again = Round.objects.get(event=event, number=2)
    assert again.pk != r2.pk and again.status == Round.Status.DRAFT
    # the new draft is the engine's plan on the corrected record, which the preview showed
    planned = sorted(tuple(sorted(p.split(" - "))) for p in later["only_planned"])
    assert set(planned) <= set(_pairs(again))
    entry = AuditEntry.objects.get(event=event, action="round.redrawn")
    assert entry.subject == r2.label and entry.before["status"] == "published"
    assert entry.reason == "score sheet misread" and len(entry.before["pairings"]) == 4
    assert corrections.redraw_note(event, 2).startswith(f"{again.label} is paired again")


def test_left_unticked_the_later_round_stays_as_played(director):
    event, r1, r2 = _round_two_published(director, "keep")
    match, preview = _changing_match(r1)
    before = _pairs(r2)
    corrections.confirm_result(
        match,
        flipped(match),
        expected_version=match.version,
        results_version=preview.results_version,
        digest=preview.digest,
        by=director,
        reason="typo on the sheet",
    )
    assert Round.objects.get(event=event, number=2).pk == r2.pk and _pairs(r2) == before
    assert not AuditEntry.objects.filter(event=event, action="round.redrawn").exists()


def test_no_round_with_a_result_in_is_paired_again(director):
    event, r1, r2 = _round_two_published(director, "played")
    match, _ = _changing_match(r1)
    played = r2.matches.order_by("order").first()
    results.record(played, [{"scores": [40, 24], "first": 0}], expected_version=0, by=director)
    event.refresh_from_db()
    preview = corrections.preview_result(match, flipped(match), expected_version=match.version)
    assert preview.diff["redraw"] is None
    assert not rounds.can_redraw(Round.objects.get(pk=r2.pk))
    with pytest.raises(ServiceError, match="cannot be paired again"):
        corrections.confirm_result(
            match,
            flipped(match),
            expected_version=match.version,
            results_version=preview.results_version,
            digest=preview.digest,
            by=director,
            redraw=2,
            reason="typo on the sheet",
        )
    # refused as a whole: the correction is not saved either
    assert Match.objects.get(pk=match.pk).result["summary"] == "40-24"
    assert Round.objects.get(event=event, number=2).pk == r2.pk
    with pytest.raises(ServiceError, match="cannot be paired again"):
        rounds.redraw(Round.objects.get(pk=r2.pk), by=director, reason="")


def test_the_results_screen_offers_the_choice_and_says_what_became_of_it(client, director):
    event, r1, r2 = _round_two_published(director, "screen")
    match, preview = _changing_match(r1)
    client.force_login(director)
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    data = {"version": match.version, "g1-s0": "24", "g1-s1": "40", "g1-first": "0"}
    shown = client.post(url, data, HTTP_HX_REQUEST="true").content.decode()
    assert f"Also pair {r2.label} again from the corrected record" in shown
    assert re.search(r'name="redraw" value="2"', shown)
    done = client.post(
        url,
        {
            **data,
            "reason": "typo on the sheet",
            "confirm": preview.digest,
            "results_version": preview.results_version,
            "redraw": "2",
        },
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Correction saved" in done and "is paired again as a draft" in done
    assert Round.objects.get(event=event, number=2).status == Round.Status.DRAFT


def test_a_withdrawal_can_draft_the_draft_again(client, director):
    event = woc_event(director, slug="wd-redraw", rounds_count=4)
    play(event, director)
    draft = rounds.draft_next_round(event, by=director).round  # everyone paired in round 2
    entrant = Entrant.objects.get(event=event, number=3)
    preview = corrections.preview_withdrawal(entrant)
    assert preview.diff["redraw"] == {"number": 2, "label": draft.label, "status": "draft"}
    client.force_login(director)
    url = reverse("tournaments:manage_withdraw", args=[event.slug, 3])
    done = client.post(
        url,
        {
            "reason": "typo on the sheet",
            "confirm": preview.digest,
            "results_version": preview.results_version,
            "redraw": "2",
        },
        follow=True,
    )
    body = done.content.decode()
    assert "Player 3 has withdrawn." in body and "is paired again as a draft" in body
    again = Round.objects.get(event=event, number=2)
    assert again.pk != draft.pk and again.status == Round.Status.DRAFT
    assert "Player 3" not in str(_pairs(again))


def test_players_see_that_a_published_pairing_was_withdrawn(client, director):
    """A player's phone on the round's page: the pairing it showed is withdrawn, so the page
    says so (and its poller swaps the notice in) until the new pairing is published."""
    event, r1, r2 = _round_two_published(director, "public")
    match, preview = _changing_match(r1)
    old = _pairs(r2)
    corrections.confirm_result(
        match,
        flipped(match),
        expected_version=match.version,
        results_version=preview.results_version,
        digest=preview.digest,
        by=director,
        reason="score sheet misread",
        redraw=2,
    )
    url = reverse("tournaments:round", args=[event.slug, 2])
    page = client.get(url)
    body = page.content.decode()
    assert page.status_code == 200
    assert f"The pairing of {r2.label} was withdrawn by the director" in body
    assert "score sheet misread" in body and old[0][0] in body
    partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<div id="pairings"') and "withdrawn" in partial
    assert client.get(reverse("tournaments:round", args=[event.slug, 3])).status_code == 404
    rounds.publish_round(Round.objects.get(event=event, number=2), by=director)
    body = client.get(url).content.decode()
    assert "was withdrawn" not in body and 'table class="pairings"' in body


def test_a_round_with_a_players_report_is_not_paired_again(director):
    """GokoDom: a result reported by a player, not yet confirmed by the opponent, is a result
    of the round as far as pairing it again goes."""
    from tests.tournaments.test_format_gokodom import client_for, pair, post, start

    event, rnd = start(director, swiss_rounds=3)
    assert rounds.can_redraw(rnd)
    match, a, _ = pair(rnd)
    post(client_for(a), "report", event, match, {"outcome": "W"})
    match.refresh_from_db()
    assert match.result is None and match.details["report"]["status"] == "reported"
    assert not rounds.can_redraw(Round.objects.get(pk=rnd.pk))


def test_asking_to_pair_a_round_that_was_not_offered_is_refused_on_the_screen(client, director):
    """A confirmation naming a round the preview did not offer (round 2 has a result in) is
    refused with a message on the row, and the correction is not saved either."""
    event, r1, r2 = _round_two_published(director, "tampered")
    match, _ = _changing_match(r1)
    played = r2.matches.order_by("order").first()
    results.record(played, [{"scores": [40, 24], "first": 0}], expected_version=0, by=director)
    event.refresh_from_db()
    preview = corrections.preview_result(match, flipped(match), expected_version=match.version)
    client.force_login(director)
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    data = {"version": match.version, "g1-s0": "24", "g1-s1": "40", "g1-first": "0"}
    refused = client.post(
        url,
        {
            **data,
            "reason": "typo on the sheet",
            "confirm": preview.digest,
            "results_version": preview.results_version,
            "redraw": "2",
        },
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 422
    assert "Round 2 cannot be paired again" in refused.content.decode()
    assert Match.objects.get(pk=match.pk).result["summary"] == "40-24"
    assert Round.objects.get(event=event, number=2).pk == r2.pk
