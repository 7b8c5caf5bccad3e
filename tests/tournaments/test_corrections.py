"""Corrections with a preview (issue 14): a result in an earlier round or a withdrawal is
previewed as a diff (standings, tiebreaks, contention, later pairings), saved only when the
director confirms that very preview, and audited with it."""

import re

import pytest
from django.urls import reverse

from tournaments.models import AuditEntry, Entrant, Event, Match, ResultChange, Round
from tournaments.services import corrections, events, results, rounds
from tournaments.services.errors import InvalidResult, StaleResult
from tournaments.services.state import jsonable

pytestmark = pytest.mark.django_db(transaction=True)

COUNTRIES = ["NL", "GB", "JP", "US", "IT", "FR", "DE", "CZ", "SE", "FI", "BE", "DK"]


def woc_event(director, players=8, slug="woc", rounds_count=5):
    event = events.create_event(
        slug=slug,
        name=f"WOC {slug}",
        format="woc",
        by=director,
        public=True,
        settings={"rounds": rounds_count, "system": "swiss", "final_stages": False},
    )
    for i in range(players):
        entrant = events.add_entrant(event, name=f"Player {i + 1}", by=director)
        Entrant.objects.filter(pk=entrant.pk).update(country=COUNTRIES[i])
    return event


def black_wins(match):
    return [{"scores": [40, 24], "first": 0}]


def play(event, director, games=black_wins, complete=True):
    outcome = rounds.draft_next_round(event, by=director)
    assert outcome.round is not None, outcome
    rnd = rounds.publish_round(outcome.round, by=director)
    for match in rnd.matches.prefetch_related("participants"):
        if len(match.participants.all()) == 2:
            results.record(match, games(match), expected_version=match.version, by=director)
    if complete:
        rnd = rounds.complete_round(rnd, by=director)
    return rnd


def four_round_swiss(director, slug="woc"):
    """Rounds 1 and 2 closed, round 3 published with its results in (round 4 to come)."""
    event = woc_event(director, slug=slug, rounds_count=4)
    r1 = play(event, director)
    play(event, director)
    play(event, director, complete=False)
    event.refresh_from_db()
    return event, r1


def flipped(match):
    """The other player wins: Black's 40-24 becomes 24-40."""
    return [{"scores": [24, 40], "first": 0}]


def snapshot_of_db(event):
    return (
        event.results_version,
        ResultChange.objects.filter(match__round__event=event).count(),
        AuditEntry.objects.filter(event=event).count(),
        sorted(Match.objects.filter(round__event=event).values_list("pk", "version")),
        sorted(Entrant.objects.filter(event=event).values_list("pk", "status")),
    )


def ranks(event):
    from tournaments.services import standings

    table = standings.compute(Event.objects.get(pk=event.pk)).tables[0]
    return {row.entrant: (row.rank, dict(row.values)) for row in table.rows}


def test_preview_saves_nothing_and_its_diff_is_what_confirming_does(director):
    event, r1 = four_round_swiss(director)
    match = r1.matches.order_by("order").first()
    before_db = snapshot_of_db(event)
    before = ranks(event)
    preview = corrections.preview_result(match, flipped(match), expected_version=match.version)
    assert snapshot_of_db(Event.objects.get(pk=event.pk)) == before_db  # nothing saved
    assert preview.diff["change"] == {"before": "40-24", "after": "24-40"}
    corrections.confirm_result(
        match,
        flipped(match),
        expected_version=match.version,
        results_version=preview.results_version,
        digest=preview.digest,
        by=director,
        reason="typo on the sheet",
    )
    after = ranks(event)
    listed = {row["number"]: row for row in preview.diff["standings"]}
    # every row that changed is listed, with its rank and values before and after
    changed = {e for e in after if after[e] != before[e]}
    assert changed == set(listed) and changed
    for entrant, row in listed.items():
        assert (row["rank_before"], row["rank_after"]) == (before[entrant][0], after[entrant][0])
        assert row["moved"] == (before[entrant][0] != after[entrant][0])
        for value in row["values"]:
            old, new = before[entrant][1][value["key"]], after[entrant][1][value["key"]]
            assert old != new
            assert (value["before"], value["after"]) == (jsonable(old), jsonable(new))
    # the two players of the corrected match swap a win: both their points rows are listed
    players = [str(p.entrant.number) for p in match.participants.all()]
    assert all("points" in {v["key"] for v in listed[p]["values"]} for p in players)


def test_later_swiss_rounds_that_would_have_been_paired_differently_are_named(director):
    event, r1 = four_round_swiss(director, slug="later")
    match = r1.matches.order_by("order").first()
    winner, loser = [p.entrant for p in match.participants.order_by("seat")]
    preview = corrections.preview_result(match, flipped(match), expected_version=match.version)
    by_number = {r["number"]: r for r in preview.diff["rounds"]}
    assert set(by_number) == {2, 3}  # every round after round 1, as played
    # Round 2 paired the round-1 winners together (Swiss score groups). The corrected record
    # makes the old winner a loser, so his round-2 pairing with a winner cannot stand.
    r2 = Round.objects.get(event=event, number=2)
    his = r2.matches.filter(participants__entrant=winner).get()
    names = corrections.VS.join(p.entrant.name for p in his.participants.order_by("seat"))
    assert by_number[2]["caused"] and names in by_number[2]["only_played"]
    assert set(by_number[2]["only_played"]).isdisjoint(by_number[2]["only_planned"])
    assert loser.name not in names  # they met in round 1
    # nothing in the later rounds is changed by the preview
    assert r2.matches.filter(participants__entrant=winner).get().pk == his.pk


def test_a_result_in_the_latest_round_saves_at_once_and_berger_rounds_never_change(director):
    from tests.factories import play_round, round_robin_event

    event = round_robin_event(director, players=6, slug="rr-fix")
    r1 = play_round(event, director)
    play_round(event, director)
    latest = Round.objects.get(event=event, number=2).matches.order_by("order").first()
    assert not corrections.needs_preview(latest)
    match = r1.matches.order_by("order").first()
    assert corrections.needs_preview(match)
    preview = corrections.preview_result(match, [{"scores": [0, 1]}], expected_version=1)
    # a round robin's schedule does not depend on results
    assert [r["caused"] for r in preview.diff["rounds"]] == [False]
    assert preview.diff["standings"]


def test_a_stale_preview_is_refused_and_nothing_is_saved(director):
    event, r1 = four_round_swiss(director, slug="stale")
    first, second = list(r1.matches.order_by("order")[:2])
    preview = corrections.preview_result(first, flipped(first), expected_version=first.version)
    # someone saves another result meanwhile: the preview's standings are no longer right
    results.record(second, flipped(second), expected_version=second.version, by=director)
    saved = snapshot_of_db(Event.objects.get(pk=event.pk))
    with pytest.raises(corrections.StalePreview):
        corrections.confirm_result(
            first,
            flipped(first),
            expected_version=first.version,
            results_version=preview.results_version,
            digest=preview.digest,
            by=director,
            reason="typo on the sheet",
        )
    assert snapshot_of_db(Event.objects.get(pk=event.pk)) == saved
    # the same match saved by someone else: the match version check refuses it first
    fresh = corrections.preview_result(first, flipped(first), expected_version=first.version)
    results.record(first, flipped(first), expected_version=first.version, by=director)
    saved = snapshot_of_db(Event.objects.get(pk=event.pk))
    with pytest.raises(StaleResult):
        corrections.confirm_result(
            first,
            flipped(first),
            expected_version=1,  # the version the preview was made from
            results_version=fresh.results_version,
            digest=fresh.digest,
            by=director,
            reason="typo on the sheet",
        )
    assert snapshot_of_db(Event.objects.get(pk=event.pk)) == saved


def test_confirming_other_games_than_previewed_is_refused(director):
    event, r1 = four_round_swiss(director, slug="digest")
    match = r1.matches.order_by("order").first()
    preview = corrections.preview_result(match, flipped(match), expected_version=match.version)
    saved = snapshot_of_db(event)
    with pytest.raises(corrections.StalePreview):
        corrections.confirm_result(
            match,
            [{"scores": [20, 44], "first": 0}],
            expected_version=match.version,
            results_version=preview.results_version,
            digest=preview.digest,
            by=director,
            reason="typo on the sheet",
        )
    assert snapshot_of_db(Event.objects.get(pk=event.pk)) == saved
    with pytest.raises(InvalidResult):
        corrections.preview_result(match, [{"scores": [50, 40]}], expected_version=match.version)


def test_the_confirmation_is_audited_with_the_diff_it_showed(director):
    event, r1 = four_round_swiss(director, slug="audit")
    match = r1.matches.order_by("order").first()
    preview = corrections.preview_result(match, flipped(match), expected_version=match.version)
    corrections.confirm_result(
        match,
        flipped(match),
        expected_version=match.version,
        results_version=preview.results_version,
        digest=preview.digest,
        by=director,
        reason="score sheet misread",
    )
    entry = AuditEntry.objects.get(event=event, action="correction.result_confirmed")
    assert entry.after == preview.diff and entry.actor == director
    assert entry.reason == "score sheet misread"
    assert entry.before == {"results_version": preview.results_version, "match_version": 1}
    match.refresh_from_db()
    assert match.result["summary"] == "24-40" and match.version == 2
    # later rounds stay as played
    assert Round.objects.filter(event=event).count() == 3


def _post_result(client, event, match, scores, **extra):
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    data = {"version": match.version, "g1-s0": scores[0], "g1-s1": scores[1], "g1-first": "0"}
    return client.post(url, {**data, **extra}, HTTP_HX_REQUEST="true")


def test_the_results_screen_previews_an_earlier_round_and_saves_on_confirm(client, director):
    event, r1 = four_round_swiss(director, slug="web")
    client.force_login(director)
    match = r1.matches.order_by("order").first()
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, 1])).content.decode()
    assert "Preview the correction" in page
    saved = snapshot_of_db(event)
    shown = _post_result(client, event, match, ("24", "40"))
    body = shown.content.decode()
    assert shown.status_code == 200 and "Nothing is saved yet" in body
    assert "Confirm the correction" in body and "Later rounds" in body
    assert snapshot_of_db(Event.objects.get(pk=event.pk)) == saved
    preview = corrections.preview_result(match, flipped(match), expected_version=match.version)
    assert f'value="{preview.digest}"' in body
    # another result goes in meanwhile: the confirmation is refused with the new preview
    other = r1.matches.order_by("order")[1]
    results.record(other, flipped(other), expected_version=other.version, by=director)
    stale = _post_result(
        client,
        event,
        match,
        ("24", "40"),
        confirm=preview.digest,
        results_version=preview.results_version,
    )
    assert (
        stale.status_code == 409 and "Results changed since this preview" in stale.content.decode()
    )
    match.refresh_from_db()
    assert match.version == 1
    fresh = corrections.preview_result(match, flipped(match), expected_version=match.version)
    assert f'value="{fresh.digest}"' in stale.content.decode()
    done = _post_result(
        client,
        event,
        match,
        ("24", "40"),
        confirm=fresh.digest,
        results_version=fresh.results_version,
        reason="misread",
    )
    assert done.status_code == 200 and "Correction saved" in done.content.decode()
    match.refresh_from_db()
    assert match.result["summary"] == "24-40"
    assert AuditEntry.objects.get(action="correction.result_confirmed").after == fresh.diff


def test_a_withdrawal_is_previewed_then_confirmed(client, director):
    event = woc_event(director, slug="wd-preview", rounds_count=4)
    play(event, director)
    rounds.draft_next_round(event, by=director)  # round 2 is a draft with everyone in it
    client.force_login(director)
    url = reverse("tournaments:manage_withdraw", args=[event.slug, 3])
    shown = client.post(url)
    body = shown.content.decode()
    assert shown.status_code == 200 and "Confirm the withdrawal" in body
    assert Entrant.objects.get(event=event, number=3).status == "active"
    preview = corrections.preview_withdrawal(Entrant.objects.get(event=event, number=3))
    # the draft pairs the one who leaves: the engine would pair round 2 without him
    (draft,) = preview.diff["rounds"]
    assert draft["caused"] and any("Player 3" in pair for pair in draft["only_played"])
    assert not any("Player 3" in pair for pair in draft["only_planned"])
    done = client.post(
        url,
        {"confirm": preview.digest, "results_version": preview.results_version, "reason": "ill"},
    )
    assert done.status_code == 302
    assert Entrant.objects.get(event=event, number=3).status == "withdrawn"
    entry = AuditEntry.objects.get(event=event, action="correction.withdrawal_confirmed")
    assert entry.after == preview.diff and entry.reason == "ill"


def test_a_stale_withdrawal_preview_is_refused(client, director):
    event = woc_event(director, slug="wd-stale", rounds_count=4)
    r1 = play(event, director)
    client.force_login(director)
    entrant = Entrant.objects.get(event=event, number=2)
    preview = corrections.preview_withdrawal(entrant)
    match = r1.matches.order_by("order").first()
    results.record(match, flipped(match), expected_version=match.version, by=director)
    url = reverse("tournaments:manage_withdraw", args=[event.slug, 2])
    refused = client.post(
        url,
        {
            "reason": "typo on the sheet",
            "confirm": preview.digest,
            "results_version": preview.results_version,
        },
    )
    assert refused.status_code == 409
    assert "Results changed since this preview" in refused.content.decode()
    assert Entrant.objects.get(pk=entrant.pk).status == "active"


def test_a_correction_without_a_reason_is_refused_and_the_preview_stays(client, director):
    """Issue 21 finding 11: "A correction needs a reason, as a swap does"."""
    event, r1 = four_round_swiss(director, slug="noreason")
    match = r1.matches.order_by("order").first()
    preview = corrections.preview_result(match, flipped(match), expected_version=match.version)
    with pytest.raises(corrections.ReasonNeeded):
        corrections.confirm_result(
            match,
            flipped(match),
            expected_version=match.version,
            results_version=preview.results_version,
            digest=preview.digest,
            by=director,
            reason="  ",
        )
    client.force_login(director)
    shown = _post_result(client, event, match, ("24", "40")).content.decode()
    digest = re.search(r'name="confirm" value="([0-9a-f]{64})"', shown).group(1)
    version = re.search(r'name="results_version" value="(-?\d+)"', shown).group(1)
    refused = _post_result(
        client, event, match, ("24", "40"), confirm=digest, results_version=version
    ).content.decode()
    assert "Say why you correct this result" in refused and "Confirm the correction" in refused
    assert Match.objects.get(pk=match.pk).version == match.version
    assert not AuditEntry.objects.filter(action="correction.result_confirmed").exists()
