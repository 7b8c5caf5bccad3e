"""The standings pipeline of issue 33: standings published before their outlook, each with
its version (item 2); the refresh updated from the last one when only match results changed
(services/standings_kept.py), equal to the whole refresh; the snapshot stored by
difference, equal to a whole store."""

from __future__ import annotations

import random
import threading
from unittest import mock

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from tests.factories import play_round, round_robin_event
from tournaments import simulation
from tournaments.models import (
    Entrant,
    EntrantChange,
    Event,
    Match,
    MatchParticipant,
    Round,
    StandingsRow,
    StandingsSnapshot,
    Team,
)
from tournaments.services import events, results, rounds, standings, standings_kept, standings_store
from tournaments.services.errors import ServiceError
from tournaments.services.eventfile import import_event
from tournaments.services.state import jsonable

pytestmark = pytest.mark.django_db

COMPARED = ("table_key", "position", "entrant__number", "rank", "points", "values", "status")
COMPARED += ("details", "contention")


@pytest.fixture(autouse=True)
def nothing_kept():
    standings_kept.forget()
    yield
    standings_kept.forget()


def rows_of(snapshot: StandingsSnapshot, fields=COMPARED) -> list[tuple]:
    return list(
        StandingsRow.objects.filter(snapshot=snapshot)
        .order_by("table_key", "position")
        .values_list(*fields)
    )


def quietly():
    """Saves in these tests publish when the test says (refresh), not on commit."""
    return mock.patch("tournaments.services.standings.schedule_recompute")


# -- item 2: the standings first, the outlook when ready --------------------------------


@pytest.fixture
def live(director):
    with quietly():
        event = round_robin_event(director, players=6, slug="live")
        play_round(event, director)
        play_round(event, director, complete=False)
    standings.refresh(event.pk, 0)
    return event


def _standings_page(client):
    return client.get(reverse("tournaments:standings", args=["live"]))


def test_standings_are_public_before_their_outlook_and_no_stale_outlook_shows(
    client, director, live
):
    before = _standings_page(client).content.decode()
    assert "cmark" in before  # the outlook of the standings shown
    match = Match.objects.filter(round__event=live, round__number=2).first()
    with quietly():
        results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    assert standings.publish_standings(live.pk) is True
    live.refresh_from_db()
    assert live.standings_version == live.results_version > live.outlook_version
    snapshot = standings.latest_published(live)
    assert snapshot.outlook_pending and snapshot.contention == {}
    assert all(c == {} for (c,) in rows_of(snapshot, ("contention",)))
    page = _standings_page(client)
    assert page["X-Page-Cache"] == "miss"  # the new standings, not held back
    html = page.content.decode()
    assert "cmark" not in html  # the last outlook is not shown as these standings'
    assert "being worked out" in html
    assert _standings_page(client)["X-Page-Cache"] == "hit"

    assert standings.attach_outlook(live.pk) is True
    live.refresh_from_db()
    assert live.outlook_version == live.standings_version
    snapshot.refresh_from_db()
    assert not snapshot.outlook_pending and snapshot.contention["method"]
    page = _standings_page(client)
    assert page["X-Page-Cache"] == "miss"  # a new version: the page is built again
    assert "cmark" in page.content.decode() and "being worked out" not in page.content.decode()
    assert standings.attach_outlook(live.pk) is False  # once


def test_an_outlook_is_never_attached_to_standings_already_replaced(director, live):
    match = Match.objects.filter(round__event=live, round__number=2).first()
    with quietly():
        results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    assert standings.publish_standings(live.pk)
    first = standings.latest_published(live)
    match.refresh_from_db()
    with quietly():
        results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)
    assert standings.attach_outlook(live.pk) is False  # newer results are published first
    first.refresh_from_db()
    assert first.outlook_pending
    assert standings.refresh(live.pk, 0) is True
    live.refresh_from_db()
    assert live.outlook_version == live.standings_version == live.results_version
    assert not standings.latest_published(live).outlook_pending


def test_the_version_endpoint_moves_when_the_outlook_lands(client, director, live):
    url = reverse("tournaments:version", args=["live"])
    match = Match.objects.filter(round__event=live, round__number=2).first()
    with quietly():
        results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    standings.publish_standings(live.pk)
    token = client.get(url).json()["token"]
    standings.attach_outlook(live.pk)
    answer = client.get(url).json()
    assert answer["token"] != token and answer["outlook_version"] == answer["standings_version"]


# -- item 3: incremental, equal to the whole way -----------------------------------------


def imported(key: str, size: int, played: int, slug: str, seed: int = 5) -> tuple[Event, object]:
    pure = simulation.simulate(key, size, seed=seed)
    during = simulation.cut(pure, played)
    with quietly():
        event = import_event(simulation.to_event_file(during, slug=slug, name=key), by=None)
    return event, pure


def flipped(event: Event, number: int) -> tuple[Match, list[dict]]:
    """A played match of round ``number`` that was not drawn, and its games reversed."""
    for match in Match.objects.filter(round__event=event, round__number=number).order_by("pk"):
        games = results.games_json(match)
        if games and games[0]["scores"][0] != games[0]["scores"][-1]:
            games[0]["scores"] = list(reversed(games[0]["scores"]))
            return match, games
    raise AssertionError("no decided match")


def test_a_snapshot_stored_by_difference_equals_a_whole_store():
    assert connection.vendor == "postgresql"  # the copy runs on the server
    event, _ = imported("woc", 24, 3, "diff-store")
    state = standings.record_state(event)
    before = event.engine.standings(state)
    now = timezone.now()
    first = standings.store_snapshot(event, before, 101, now=now, published=False)
    match, games = flipped(event, 3)
    with quietly():
        results.record(match, games, expected_version=match.version, by=None)
    after = event.engine.standings(standings.record_state(event))
    assert after != before
    with mock.patch.object(standings_store, "_copy_rows", wraps=standings_store._copy_rows) as copy:
        by_difference = standings.store_snapshot(
            event, after, 102, now=now, published=False, previous=(first.pk, before)
        )
    copied = len(copy.call_args.args[3])
    whole = standings.store_snapshot(event, after, 103, now=now, published=False)
    assert rows_of(by_difference) == rows_of(whole)
    assert 0 < copied < len(rows_of(whole))  # only the rows that changed were written


def test_rows_a_result_only_moves_are_copied_at_their_new_places():
    """A result moves its players past rows that do not change otherwise: those are copied
    with their new position and rank; only the rows whose values changed are written."""
    event, _ = imported("woc", 24, 3, "diff-moved")
    before = event.engine.standings(standings.record_state(event))
    now = timezone.now()
    first = standings.store_snapshot(event, before, 101, now=now, published=False)
    match, games = flipped(event, 3)
    with quietly():
        results.record(match, games, expected_version=match.version, by=None)
    after = event.engine.standings(standings.record_state(event))
    moved = changed = 0
    for table, was_table in zip(after.tables, before.tables, strict=True):
        old = {r.entrant: (n, r) for n, r in enumerate(was_table.rows, start=1)}
        for n, row in enumerate(table.rows, start=1):
            place, was = old[row.entrant]
            if (row.values, row.status, row.details) != (was.values, was.status, was.details):
                changed += 1
            elif place != n:
                moved += 1
    assert moved and changed  # the flipped result moved rows that did not change
    with mock.patch.object(standings_store, "_copy_rows", wraps=standings_store._copy_rows) as copy:
        by_difference = standings.store_snapshot(
            event, after, 102, now=now, published=False, previous=(first.pk, before)
        )
    whole = standings.store_snapshot(event, after, 103, now=now, published=False)
    assert rows_of(by_difference) == rows_of(whole)
    assert len(copy.call_args.args[3]) == len(rows_of(whole)) - changed


def test_a_vanished_previous_snapshot_still_stores_every_row():
    event, _ = imported("round_robin", 8, 2, "diff-gone")
    before = event.engine.standings(standings.record_state(event))
    first = standings.store_snapshot(event, before, 101, now=timezone.now(), published=False)
    first.delete()
    again = standings.store_snapshot(
        event, before, 102, now=timezone.now(), published=False, previous=(first.pk, before)
    )
    assert len(rows_of(again)) == 8


FORMATS = [
    ("woc", 24),
    ("round_robin", 10),
    ("gokodom", 16),
    ("freestyle", 16),
    ("bot_contest", 12),
    ("wpf_playoffs", 16),
]


def _games_of(match_state) -> list[dict]:
    return [
        {
            "number": g.number,
            "scores": jsonable(g.scores),  # a simulation's Fractions as numbers
            "first": g.first,
            "ending": str(g.ending),
            "details": dict(g.details),
        }
        for g in match_state.games
    ]


def _operation(rng: random.Random, event: Event, pure, director) -> str:
    """One random service operation: a result, a correction, a round published, a
    withdrawal. Returns its name ("" when none applied)."""
    kind = rng.choice(["result", "result", "result", "correction", "publish", "withdraw"])
    matches = list(
        Match.objects.filter(round__event=event)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round")
        .order_by("round__number", "order")
    )
    try:
        if kind == "result":
            open_ = [m for m in matches if not m.result and m.participants.count() > 1]
            if not open_:
                return ""
            match = rng.choice(open_)
            found = [
                m
                for r in pure.rounds
                if r.number == match.round.number
                for m in r.matches
                if m.code == match.code and m.games
            ]
            if not found:
                return ""
            results.record(match, _games_of(found[0]), expected_version=match.version, by=director)
        elif kind == "correction":
            played = [m for m in matches if m.result and m.games.exists()]
            if not played:
                return ""
            match = rng.choice(played)
            games = results.games_json(match)
            games[-1]["scores"] = list(reversed(games[-1]["scores"]))
            results.record(match, games, expected_version=match.version, by=director)
        elif kind == "publish":
            outcome = rounds.draft_next_round(event, by=director)
            rounds.publish_round(outcome.round, by=director)
        else:
            active = list(Entrant.objects.filter(event=event, status=Entrant.Status.ACTIVE))
            events.withdraw(rng.choice(active), by=director)
    except (ServiceError, ValueError):
        return ""
    return kind


@pytest.mark.slow
@pytest.mark.parametrize(("key", "size"), FORMATS)
def test_random_operations_give_the_same_snapshots_incrementally_as_the_whole_way(
    key, size, director
):
    """After each of a random sequence of results, corrections, publications and
    withdrawals, the refresh (from what the process kept of the last one) publishes the
    standings, outlook and rows that the whole recompute gives."""
    event, pure = imported(key, size, max(1, len(pure_rounds(key, size)) // 2), f"ops-{key}")
    standings.refresh(event.pk, 0)
    rng = random.Random(f"{key}-33")
    paths = []
    original = standings_kept.compute

    def spy(*args, **kwargs):
        found = original(*args, **kwargs)
        paths.append(found.changed is not None)
        return found

    done = []
    with quietly(), mock.patch.object(standings_kept, "compute", spy):
        for step in range(14):
            name = _operation(rng, event, pure, director)
            if not name:
                continue
            done.append(name)
            event.refresh_from_db()
            standings.refresh(event.pk, event.results_version)
            event.refresh_from_db()
            assert event.standings_version == event.results_version == event.outlook_version
            published = standings.latest_published(event)
            state = standings.record_state(event)
            whole = event.engine.standings(state)
            assert standings_kept.peek(event.pk).standings == whole, (step, name)
            scratch = standings.store_snapshot(
                event,
                whole,
                10_000 + step,
                now=timezone.now(),
                published=False,
                contention=standings.contention_or_none(state, whole),
            )
            assert rows_of(published) == rows_of(scratch), (step, name)
            assert published.contention == scratch.contention
    assert "result" in done or "correction" in done
    assert any(paths), "the incremental path was never taken"


def pure_rounds(key: str, size: int):
    return simulation.simulate(key, size, seed=5).rounds


def test_an_entrant_edited_without_a_version_sends_the_refresh_the_whole_way(director):
    """An entrant's edit raises no results version: the kept state's digest tells it."""
    event, _ = imported("round_robin", 8, 2, "edited")
    standings.refresh(event.pk, 0)
    entrant = Entrant.objects.filter(event=event).first()
    Entrant.objects.filter(pk=entrant.pk).update(rating=(entrant.rating or 0) + 300)
    match, games = flipped(event, 2)
    with quietly():
        results.record(match, games, expected_version=match.version, by=director)
    event.refresh_from_db()
    computed = standings_kept.compute(event, event.results_version, standings_kept.take(event.pk))
    assert computed.changed is None  # the whole way
    assert computed.kept.state == standings.record_state(event)


def _edit_name(entrant, settle):
    Entrant.objects.filter(pk=entrant.pk).update(name=entrant.name + " Jr")


def _edit_flags(entrant, settle):
    Entrant.objects.filter(pk=entrant.pk).update(flags={**entrant.flags, "group_a": True})


def _edit_team_name(entrant, settle):
    team = Team.objects.create(event=entrant.event, name="Rivals")
    Entrant.objects.filter(pk=entrant.pk).update(team=team)
    settle()  # (the team given is a change of its own)
    Team.objects.filter(pk=team.pk).update(name="Rivals United")


def _add_entrant(entrant, settle):
    # as an import writes them: no model's save, one statement
    Entrant.objects.bulk_create([Entrant(event=entrant.event, number=99, name="Late")])


def _remove_entrant(entrant, settle):
    late = Entrant.objects.create(event=entrant.event, number=98, name="Gone")
    settle()
    Entrant.objects.filter(pk=late.pk).delete()


@pytest.mark.parametrize(
    "edit",
    [_edit_name, _edit_flags, _edit_team_name, _add_entrant, _remove_entrant],
    ids=["name", "flags", "team's name", "added", "removed"],
)
def test_every_writer_of_what_the_standings_read_of_entrants_is_seen(edit, director):
    """Whatever writes the entrants (a queryset's update, a bulk insert, a team's rename),
    the refresh after it goes the whole way: on PostgreSQL the database's triggers count
    the change (EntrantChange), so that no writer can forget it."""
    event, _ = imported("round_robin", 8, 2, "writers")
    standings.refresh(event.pk, 0)

    def saved():
        match, games = flipped(event, 2)
        with quietly():
            results.record(match, games, expected_version=match.version, by=director)
        event.refresh_from_db()

    def settle():  # a result published after the first part of an edit: the kept state knows it
        saved()
        standings.refresh(event.pk, event.results_version)

    edit(Entrant.objects.filter(event=event).first(), settle)
    saved()
    computed = standings_kept.compute(event, event.results_version, standings_kept.take(event.pk))
    assert computed.changed is None  # the whole way
    assert computed.kept.state == standings.record_state(event)


def test_an_edit_of_what_the_standings_do_not_read_keeps_the_update_from_the_last(director):
    """A player's e-mail choice or claim code changes no standings: the refresh still
    updates the last one (one match reloaded), rather than the whole event."""
    event, _ = imported("round_robin", 8, 2, "unread")
    standings.refresh(event.pk, 0)
    entrant = Entrant.objects.filter(event=event).first()
    Entrant.objects.filter(pk=entrant.pk).update(emails_off=True, claim_code="NEWCODE123")
    match, games = flipped(event, 2)
    with quietly():
        results.record(match, games, expected_version=match.version, by=director)
    event.refresh_from_db()
    computed = standings_kept.compute(event, event.results_version, standings_kept.take(event.pk))
    assert computed.changed == {(2, match.code)}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the triggers are PostgreSQL's")
def test_the_entrants_changes_are_one_row_per_statement_and_leave_with_their_event():
    event, _ = imported("round_robin", 8, 1, "counted")
    counted = EntrantChange.objects.filter(event_id=event.pk)
    before = counted.count()
    Entrant.objects.filter(event=event).update(rating=1500)  # 8 entrants, one statement
    assert counted.count() == before + 1
    Entrant.objects.filter(event=event).update(rating=1500)  # the same values: no change
    assert counted.count() == before + 1
    event_id = event.pk
    MatchParticipant.objects.filter(match__round__event=event).delete()
    event.delete()
    assert not EntrantChange.objects.filter(event_id=event_id).exists()


def test_a_result_reloads_only_its_match(director, django_assert_max_num_queries):
    event, _ = imported("woc", 24, 3, "one-match")
    standings.refresh(event.pk, 0)
    match, games = flipped(event, 3)
    with quietly():
        results.record(match, games, expected_version=match.version, by=director)
    event.refresh_from_db()
    assert event.shape_version < event.results_version
    assert Match.objects.get(pk=match.pk).results_version == event.results_version
    kept = standings_kept.take(event.pk)
    with django_assert_max_num_queries(10):
        computed = standings_kept.compute(event, event.results_version, kept)
    assert computed.changed == {(3, match.code)}
    assert computed.kept.state == standings.record_state(event)


@pytest.mark.django_db(transaction=True)
def test_a_result_saved_while_the_worker_reads_the_record_is_read_whole_or_not_at_all(
    director,
):
    """The loader reads participants, games and matches in three queries; a result saved
    between the first and the last once gave the worker a round-robin match without its
    players ("not enough values to unpack"). The record is now one snapshot."""
    event, _ = imported("round_robin", 8, 2, "mid-read")
    standings.refresh(event.pk, 0)
    event.refresh_from_db()
    first, first_games = flipped(event, 1)
    with quietly():
        results.record(first, first_games, expected_version=first.version, by=director)
    event.refresh_from_db()
    kept = standings_kept.take(event.pk)
    match, games = flipped(event, 2)

    def another_desk_saves() -> None:
        try:
            with quietly():
                fresh = Match.objects.get(pk=match.pk)
                results.record(fresh, games, expected_version=fresh.version, by=director)
        finally:
            connection.close()

    saved: list[bool] = []

    def save_after_the_first_read(execute, sql, params, many, context):
        found = execute(sql, params, many, context)
        if not saved and "tournaments_matchparticipant" in sql:
            saved.append(True)
            desk = threading.Thread(target=another_desk_saves)
            desk.start()
            desk.join()
        return found

    with connection.execute_wrapper(save_after_the_first_read):
        computed = standings_kept.compute(event, event.results_version, kept)
    assert saved, "the result was saved in the middle of the read"
    # the snapshot predates the second save: the first result only, nothing half-read
    assert computed.changed == {(1, first.code)}
    assert all(len(m.participants) == 2 for r in computed.kept.state.rounds for m in r.matches)
    standings_kept.keep(computed.kept)
    event.refresh_from_db()
    after = standings_kept.compute(event, event.results_version, standings_kept.take(event.pk))
    assert after.changed == {(2, match.code)}
    assert after.kept.state == standings.record_state(event)
