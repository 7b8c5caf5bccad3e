"""A snapshot stored after one result holds only the rows that moved or changed and shares
the others with the snapshot before it until its outlook is attached (issue 33: the
10,000-row copy was the largest part of the standings' way to the public page). Every
reader sees it whole (services/standings_rows.py)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from rules.contract import Standings
from tournaments import selectors, simulation
from tournaments.models import Event, Match, StandingsRow, StandingsSnapshot
from tournaments.services import results, standings, standings_kept, standings_store
from tournaments.services.backup_owned import export_owned
from tournaments.services.eventfile import import_event
from tournaments.services.standings_rows import rows_of, rows_of_many

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def nothing_kept():
    standings_kept.forget()
    yield
    standings_kept.forget()


def quietly():
    return mock.patch("tournaments.services.standings.schedule_recompute")


def woc(slug: str) -> Event:
    during = simulation.cut(simulation.simulate("woc", 24, seed=5), 3)
    with quietly():
        return import_event(simulation.to_event_file(during, slug=slug, name="woc"), by=None)


def flip(event: Event, number: int, skip: int = 0) -> Standings:
    """A decided match of round ``number`` reversed; the standings after it."""
    decided = []
    for match in Match.objects.filter(round__event=event, round__number=number).order_by("pk"):
        games = results.games_json(match)
        if games and games[0]["scores"][0] != games[0]["scores"][-1]:
            games[0]["scores"] = list(reversed(games[0]["scores"]))
            decided.append((match, games))
    match, games = decided[skip]
    with quietly():
        results.record(match, games, expected_version=match.version, by=None)
    return event.engine.standings(standings.record_state(event))


def shown(snapshot: StandingsSnapshot) -> list[tuple]:
    """The rows as the readers see them."""
    return [
        (r.snapshot_id == snapshot.pk, *seen(r))
        for r in rows_of(snapshot).select_related("entrant").order_by("table_key", "position")
    ]


def seen(row: StandingsRow) -> tuple:
    return (row.table_key, row.position, row.entrant.number, row.rank, row.points, row.values,
            row.status, row.details, row.contention)  # fmt: skip


def plain(tables: list[dict]) -> list[dict]:
    """Tables to compare: each row by what it shows (two snapshots' rows differ in id)."""
    return [
        {
            **t,
            "rows": [
                (*seen(i["row"]), getattr(i["row"], "page", None), i["cells"]) for i in t["rows"]
            ],
            "breakdown": None,
        }
        for t in tables
    ]


def held(snapshot: StandingsSnapshot) -> int:
    return StandingsRow.objects.filter(snapshot=snapshot).count()


def stored_after_a_result(slug: str) -> tuple[Event, StandingsSnapshot, StandingsSnapshot]:
    """A whole snapshot, then one stored from it after a flipped result (its outlook
    pending, as the worker stores it), and a whole store of the same standings."""
    assert connection.vendor == "postgresql"  # the rows are shared on the server
    event = woc(slug)
    before = event.engine.standings(standings.record_state(event))
    now = timezone.now()
    first = standings.store_snapshot(event, before, 101, now=now, published=True)
    after = flip(event, 3)
    sharing = standings.store_snapshot(
        event,
        after,
        102,
        now=now,
        published=True,
        outlook_pending=True,
        previous=(first.pk, before),
    )
    whole = standings.store_snapshot(event, after, 103, now=now, published=False)
    return event, sharing, whole


def test_a_snapshot_after_a_result_holds_the_moved_rows_and_reads_whole():
    event, sharing, whole = stored_after_a_result("shared-rows")
    first = StandingsSnapshot.objects.get(event=event, results_version=101)
    assert sharing.rows_from == first.pk
    assert StandingsSnapshot.objects.get(pk=sharing.pk).rows_from == first.pk
    assert 0 < held(sharing) < held(whole)  # the rows that did not move are not copied
    assert [r[1:] for r in shown(sharing)] == [r[1:] for r in shown(whole)]
    assert all(r[0] for r in shown(sharing))  # each row says it is the snapshot's


def test_a_shared_row_shows_no_verdict_of_the_snapshot_it_comes_from():
    event = woc("shared-verdicts")
    before = event.engine.standings(standings.record_state(event))
    now = timezone.now()
    first = standings.store_snapshot(event, before, 101, now=now, published=True)
    state = standings.record_state(event)
    standings_store.store_outlook(first.pk, standings.contention_or_none(state, before))
    assert any(r[-1] for r in shown(first))
    after = flip(event, 3)
    sharing = standings.store_snapshot(
        event, after, 102, now=now, published=True, outlook_pending=True,
        previous=(first.pk, before),
    )  # fmt: skip
    assert sharing.rows_from == first.pk
    assert not any(r[-1] for r in shown(sharing))  # its own outlook is still pending


def test_the_outlook_copies_the_shared_rows_with_their_verdicts():
    event, sharing, _ = stored_after_a_result("shared-outlook")
    after = event.engine.standings(standings.record_state(event))
    outlook = standings.contention_or_none(standings.record_state(event), after)
    assert outlook is not None
    standings_store.store_outlook(sharing.pk, outlook)
    with_outlook = standings.store_snapshot(
        event, after, 104, now=timezone.now(), published=False, contention=outlook
    )
    sharing.refresh_from_db()
    assert sharing.rows_from is None and not sharing.outlook_pending
    assert held(sharing) == held(with_outlook)
    assert [r[1:] for r in shown(sharing)] == [r[1:] for r in shown(with_outlook)]
    assert any(r[-1] for r in shown(sharing))


def test_a_snapshot_after_a_sharing_one_shares_the_same_rows():
    event, sharing, _ = stored_after_a_result("shared-chain")
    first = StandingsSnapshot.objects.get(event=event, results_version=101)
    before = event.engine.standings(standings.record_state(event))
    after = flip(event, 2, skip=1)
    now = timezone.now()
    chained = standings.store_snapshot(
        event, after, 105, now=now, published=True, outlook_pending=True,
        previous=(sharing.pk, before),
    )  # fmt: skip
    whole = standings.store_snapshot(event, after, 106, now=now, published=False)
    assert chained.rows_from == first.pk  # never a chain: one snapshot to read from
    assert held(chained) < held(whole)
    assert [r[1:] for r in shown(chained)] == [r[1:] for r in shown(whole)]


def test_the_pages_read_a_sharing_snapshot_whole_in_as_many_queries(django_assert_num_queries):
    event, sharing, whole = stored_after_a_result("shared-pages")
    sharing, whole = (StandingsSnapshot.objects.get(pk=s.pk) for s in (sharing, whole))
    with django_assert_num_queries(2):
        page = selectors.standings_page(event, sharing, 1)
    assert page is not None and plain(page) == plain(selectors.standings_page(event, whole, 1))
    name = StandingsRow.objects.filter(snapshot=whole).select_related("entrant").first()
    assert name is not None
    found = selectors.find_standings(event, sharing, name.entrant.name)
    assert found and plain(found) == plain(
        selectors.find_standings(event, whole, name.entrant.name)
    )
    for row in StandingsRow.objects.filter(snapshot=whole).select_related("entrant"):
        own = selectors.own_standings(event, sharing, row.entrant)
        assert own and plain(own) == plain(selectors.own_standings(event, whole, row.entrant))
    top, more = selectors.standings_top(event, sharing, 10)
    assert (plain(top), more) == (plain(selectors.standings_top(event, whole, 10)[0]), more)
    assert plain(selectors.published_standings(event, sharing)[1]) == plain(
        selectors.published_standings(event, whole)[1]
    )
    assert len(list(rows_of_many([sharing]))) == held(whole)


def test_the_prune_keeps_the_snapshot_a_kept_one_shares_rows_with():
    event, sharing, whole = stored_after_a_result("shared-prune")
    first = StandingsSnapshot.objects.get(event=event, results_version=101)
    whole.delete()  # the newest is the sharing one again
    assert first.pk not in standings_store.prunable(event.pk)
    standings_store.store_outlook(sharing.pk, None)  # its rows copied: nothing shared
    assert first.pk in standings_store.prunable(event.pk)
    standings_store.prune_snapshots(event.pk)
    sharing.refresh_from_db()
    assert held(sharing) == len(shown(sharing)) == 24


def test_a_backup_holds_a_sharing_snapshot_whole():
    event, _, whole = stored_after_a_result("shared-backup")
    doc, _ = export_owned(event)
    stored = {s["results_version"]: s["rows"] for s in doc["standings"]}
    assert len(stored[102]) == len(stored[103]) == held(whole)
    assert stored[102] == stored[103]


def test_the_moved_rows_are_written_from_memory_not_copied_out_of_the_last_snapshot():
    """A copy out of the last snapshot was planned from statistics older than it (one row
    expected of 10,000): the whole snapshot was hashed to find a few hundred rows."""
    event = woc("shared-from-memory")
    before = event.engine.standings(standings.record_state(event))
    now = timezone.now()
    first = standings.store_snapshot(event, before, 101, now=now, published=True)
    after = flip(event, 3)
    with CaptureQueriesContext(connection) as queries:
        sharing = standings.store_snapshot(
            event, after, 102, now=now, published=True, outlook_pending=True,
            previous=(first.pk, before),
        )  # fmt: skip
    inserts = [
        q["sql"] for q in queries if "INSERT INTO" in q["sql"] and "standingsrow" in q["sql"]
    ]
    assert inserts == []  # (the rows went by COPY, which the capture does not see)
    moved = held(sharing)
    assert moved > 0
    whole = standings.store_snapshot(event, after, 103, now=now, published=False)
    assert [r[1:] for r in shown(sharing)] == [r[1:] for r in shown(whole)]


def test_the_outlook_hashes_the_rows_a_snapshot_holds_once():
    """The shared rows are copied with their verdicts where the snapshot does not hold
    them: as NOT EXISTS the planner, its statistics older than the snapshot, scanned the
    snapshot's own rows again for every shared row (0.7 to 1.2 s at 10,000 entrants)."""
    _, sharing, _ = stored_after_a_result("shared-outlook-plan")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tournaments_standingsrow")  # statistics before the outlook
    statements: list[tuple[str, object]] = []

    def kept(execute, sql, params, many, context):
        statements.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(kept):
        standings_store.store_outlook(sharing.pk, None)
    (sql, params), *_ = [(s, p) for s, p in statements if s.startswith("INSERT INTO")]
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(line for (line,) in cursor.fetchall())
    assert "hashed SubPlan" in plan, plan
    sharing.refresh_from_db()
    assert sharing.rows_from is None and held(sharing) == 24
