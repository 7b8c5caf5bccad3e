"""Old standings snapshots pruned (issue 33): a snapshot per result is 10,000 rows at the
WOC and none was ever deleted. The worker keeps the newest, every final one and the newest
of each round, deletes the others after publishing, and every page still answers. The
rows carry no database foreign keys (their writing cost more than the rows): Django's
CASCADE still removes them with their snapshot, entrant or event."""

from __future__ import annotations

from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import round_robin_event
from tournaments.models import Entrant, Event, Match, StandingsRow, StandingsSnapshot
from tournaments.services import results, rounds, standings, standings_kept, standings_store

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def nothing_kept():
    standings_kept.forget()
    yield
    standings_kept.forget()


def quietly():
    """Saves publish when the test says (refresh), not on commit."""
    return mock.patch("tournaments.services.standings.schedule_recompute")


def refreshed(event: Event) -> None:
    event.refresh_from_db()
    standings.refresh(event.pk, event.results_version)


def played(director, slug: str) -> Event:
    """Two rounds completed and a third in play, the standings published after every
    change: a snapshot per result, per publication and per completion."""
    with quietly():
        event = round_robin_event(director, players=6, slug=slug)
        for number in (1, 2, 3):
            outcome = rounds.draft_next_round(event, by=director)
            rnd = rounds.publish_round(outcome.round, by=director)
            refreshed(event)
            for match in rnd.matches.prefetch_related("participants"):
                if len(match.participants.all()) == 2:
                    results.record(
                        match, [{"scores": [1, 0]}], expected_version=match.version, by=director
                    )
                    refreshed(event)
            if number < 3:
                rounds.complete_round(rnd, by=director)
                refreshed(event)
    return event


def snapshots(event: Event) -> list[tuple[int, int, bool]]:
    """(results version, after round, final) of each snapshot, oldest first."""
    return list(
        StandingsSnapshot.objects.filter(event=event)
        .order_by("results_version")
        .values_list("results_version", "after_round", "final")
    )


def test_the_newest_final_and_last_of_each_round_are_kept_and_their_rows_go_too(director):
    event = played(director, "prune-kept")
    before = snapshots(event)
    assert {after for _, after, _ in before} == {0, 1, 2}
    assert len(before) > 10
    # an older snapshot marked final (a correction after the last round reopened it)
    older_final = before[3][0]
    StandingsSnapshot.objects.filter(event=event, results_version=older_final).update(final=True)
    newest_of_round = {after: version for version, after, _ in before}  # the last wins
    rows_before = StandingsRow.objects.filter(snapshot__event=event).count()

    deleted = standings_store.prune_snapshots(event.pk, batch=1_000)

    left = [version for version, _, _ in snapshots(event)]
    event.refresh_from_db()
    assert left == sorted({*newest_of_round.values(), older_final})
    assert deleted == len(before) - len(left)
    assert left[-1] == before[-1][0] == event.standings_version  # the public one
    # the deleted snapshots' rows went with them: 6 rows a snapshot is left
    assert StandingsRow.objects.filter(snapshot__event=event).count() == 6 * len(left)
    assert StandingsRow.objects.count() == 6 * len(left)  # and none without its snapshot
    assert rows_before > 6 * len(left)
    assert standings_store.prune_snapshots(event.pk) == 0  # nothing more to prune


def test_every_page_answers_after_the_prune(client, director):
    event = played(director, "prune-pages")
    standings_store.prune_snapshots(event.pk, batch=1_000)
    slug = event.slug
    entrant = Entrant.objects.filter(event=event).order_by("number").first()
    urls = [
        reverse("tournaments:event", args=[slug]),
        reverse("tournaments:standings", args=[slug]),
        reverse("tournaments:standings", args=[slug]) + "?q=Player+2",
        reverse("tournaments:entrant", args=[slug, entrant.number]),
        reverse("tournaments:round", args=[slug, 3]),
        reverse("tournaments:standings_projector", args=[slug]),
        reverse("tournaments:embed_standings", args=[slug]),
        reverse("tournaments:embed_snippet", args=[slug]),
        reverse("tournaments:overlay", args=[slug]),
        reverse("tournaments:version", args=[slug]),
        f"/api/v1/events/{slug}/standings/",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
    page = client.get(reverse("tournaments:standings", args=[slug])).content.decode()
    assert "After round 2" in page and "Player 2" in page
    api = client.get(f"/api/v1/events/{slug}/standings/").json()
    assert api["after_round"] == 2
    assert len(api["tables"][0]["rows"]) == 6


def test_the_worker_prunes_after_publishing_and_stops_for_newer_results(director):
    event = played(director, "prune-worker")
    assert standings_store.prune_snapshots(event.pk, stop=lambda: True) == 0  # newer first
    count = len(snapshots(event))
    assert count > standings_store.PRUNE_BATCH
    match = Match.objects.filter(round__event=event, round__number=3).order_by("pk").first()
    games = results.games_json(match)
    games[0]["scores"] = list(reversed(games[0]["scores"]))
    with quietly():
        results.record(match, games, expected_version=match.version, by=director)
    assert standings.recompute(event.pk)
    event.refresh_from_db()
    assert event.standings_version == event.results_version == event.outlook_version
    # one new snapshot, PRUNE_BATCH old ones gone (the rest go with the next recomputes)
    assert len(snapshots(event)) == count + 1 - standings_store.PRUNE_BATCH
    assert standings.latest_published(event).results_version == event.results_version


def test_rows_go_with_their_entrant_and_their_event(director):
    """Without database foreign keys the ORM's CASCADE still removes the rows."""
    with quietly():
        event = round_robin_event(director, players=4, slug="prune-cascade")
    # nothing played (an entrant may still be deleted): a snapshot stored by hand
    standings.store_snapshot(event, standings.compute(event), 1, now=timezone.now(), published=True)
    entrant = Entrant.objects.filter(event=event).order_by("number").first()
    assert StandingsRow.objects.filter(entrant=entrant).exists()
    Entrant.objects.filter(pk=entrant.pk).delete()
    assert not StandingsRow.objects.filter(entrant_id=entrant.pk).exists()
    assert StandingsRow.objects.filter(snapshot__event=event).exists()
    Event.objects.filter(pk=event.pk).delete()
    assert not StandingsSnapshot.objects.filter(event_id=event.pk).exists()
    assert not StandingsRow.objects.exists()


def test_the_sweep_prunes_events_no_recompute_reaches(director):
    """A finished event (or snapshots stored before pruning existed) is pruned by the
    periodic sweep, not only after a recompute."""
    from tournaments import tasks

    event = played(director, "prune-sweep")
    before = len(snapshots(event))
    assert standings.prune_backlog() == standings_store.PRUNE_BATCH
    assert len(snapshots(event)) == before - standings_store.PRUNE_BATCH
    for _ in range(before // standings_store.PRUNE_BATCH + 1):
        assert tasks.sweep_standings() == 0  # nothing lags: pruning only
    assert {after for _, after, _ in snapshots(event)} == {0, 1, 2}
    assert len(snapshots(event)) == 3
    assert standings.prune_backlog() == 0


def test_pruning_can_be_turned_off(director, settings):
    event = played(director, "prune-off")
    settings.ARBITER_STANDINGS_PRUNE = False
    before = len(snapshots(event))
    assert standings.prune(event.pk) == 0
    assert standings.prune_backlog() == 0
    assert len(snapshots(event)) == before
