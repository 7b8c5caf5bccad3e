"""The standings refresh's store step and collector pause (issue 24, item 1): the rows a COPY
writes are the rows bulk_create wrote, and the collector is back on after a refresh."""

from __future__ import annotations

import gc
import json
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from tournaments import simulation
from tournaments.models import Event, StandingsRow, StandingsSnapshot
from tournaments.services import standings, standings_store
from tournaments.services.eventfile import import_event

pytestmark = pytest.mark.django_db

COMPARED = ("table_key", "position", "entrant__number", "rank", "points", "values", "status")
COMPARED += ("details", "contention")


def woc_event(slug: str) -> Event:
    pure = simulation.cut(simulation.simulate("woc", 24, seed=2), 3)
    with mock.patch("tournaments.services.standings.schedule_recompute"):
        return import_event(simulation.to_event_file(pure, slug=slug, name="x"), by=None)


def stored(snapshot: StandingsSnapshot) -> list[tuple]:
    return list(
        StandingsRow.objects.filter(snapshot=snapshot)
        .order_by("table_key", "position")
        .values_list(*COMPARED)
    )


def test_copied_rows_equal_the_rows_bulk_create_wrote(monkeypatch):
    assert connection.vendor == "postgresql"  # the tests' database, as in production
    event = woc_event("store-copy")
    state = standings.record_state(event)
    computed, contention = standings.compute_state(state, event.engine)
    assert contention is not None
    now = timezone.now()
    manager = StandingsRow.objects
    with mock.patch.object(manager, "bulk_create", wraps=manager.bulk_create) as bulk:
        copied = standings.store_snapshot(
            event, computed, 101, now=now, published=False, contention=contention
        )
        assert not bulk.called
        monkeypatch.setattr(connection, "vendor", "sqlite")  # the other path: bulk_create
        created = standings.store_snapshot(
            event, computed, 102, now=now, published=False, contention=contention
        )
        assert bulk.called
    rows = stored(copied)
    assert len(rows) == len(computed.table("overall").rows) == 24
    assert rows == stored(created)
    first = rows[0]
    assert first[COMPARED.index("contention")]["win"]["status"]  # a verdict made it in
    assert "brightwell" in first[COMPARED.index("details")]


def test_a_refresh_turns_the_collector_back_on_even_when_it_fails():
    event = woc_event("store-gc")
    seen = []

    def during():
        seen.append(gc.isenabled())
        raise RuntimeError("killed in the middle")

    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        standings.refresh(event.pk, event.results_version, after_compute=during)
    assert seen == [False]
    assert gc.isenabled()
    assert standings.refresh(event.pk, event.results_version)


def test_a_pause_inside_a_pause_leaves_the_collector_off():
    with standings.collector_paused():
        with standings.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_tables_stored_as_text_equal_their_json_and_reuse_the_last_reasons():
    """The snapshot's tables are sent as JSON text built from each reason's text, kept by
    the reason's identity from the event's last store (standings_store.tables_text)."""
    event = woc_event("store-tables")
    computed = event.engine.standings(standings.record_state(event))
    expected = json.loads(json.dumps([standings.table_json(t) for t in computed.tables]))
    assert expected[0]["decided"]  # reasons to store
    now = timezone.now()
    first = standings.store_snapshot(event, computed, 101, now=now, published=False)
    assert StandingsSnapshot.objects.get(pk=first.pk).tables == expected
    assert first.tables == expected  # the returned snapshot reads them when asked
    built = mock.patch.object(standings_store, "decided_json", wraps=standings_store.decided_json)
    with built as decided_json:
        again = standings.store_snapshot(event, computed, 102, now=now, published=False)
    assert not decided_json.called  # the same reasons: their text reused
    assert StandingsSnapshot.objects.get(pk=again.pk).tables == expected


def test_the_copy_arrays_survive_quotes_and_backslashes():
    keys = ['a"b', "c\\d", "e,f", "{g}", "overall", ""]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT %s::text[], %s::int[]",
            [standings_store._text_array(keys), standings_store._int_array([3, 0, 12])],
        )
        assert cursor.fetchone() == (keys, [3, 0, 12])


def test_tables_are_stored_as_json_text_and_written_through_the_orm_too():
    """The tables go to a text column, not jsonb nor json: the server keeps the text as
    sent rather than parsing (or checking) 1.2 MB of it on every saved result
    (tournaments/fields.py). Both ways
    in (the store's text, the ORM's value as a backup's restore writes it) read back equal."""
    event = woc_event("store-json")
    computed = event.engine.standings(standings.record_state(event))
    expected = json.loads(json.dumps([standings.table_json(t) for t in computed.tables]))
    stored_text = standings.store_snapshot(
        event, computed, 101, now=timezone.now(), published=False
    )
    through_orm = StandingsSnapshot.objects.create(
        event=event, results_version=102, computed_at=timezone.now(), tables=expected
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_typeof(tables)::text, tables::text FROM tournaments_standingssnapshot "
            "WHERE id = %s",
            [stored_text.pk],
        )
        kind, text = cursor.fetchone()
    assert kind == "text"
    assert text == standings_store.tables_text(event.pk, computed.tables)  # kept as sent
    for pk in (stored_text.pk, through_orm.pk):
        assert StandingsSnapshot.objects.get(pk=pk).tables == expected
    assert (
        StandingsSnapshot.objects.filter(pk=through_orm.pk).values_list("tables", flat=True).get()
        == expected
    )


def test_a_rows_json_is_reused_by_identity_and_the_texts_stay_bounded():
    """A moved row keeps the engine's values and details objects: their JSON is written
    again from the text kept with the object, never from another object's id."""
    encode, _ = standings_store.TEXT_KINDS["rows"]
    texts = standings_store.TextsByIdentity(encode, least=2)
    values = {"points": 8, "discs": 465}
    with mock.patch.object(standings_store.json, "dumps", wraps=json.dumps) as dumps:
        assert json.loads(texts.text(values)) == values
        assert json.loads(texts.text(values)) == values
        assert dumps.call_count == 1
        equal = dict(values)
        texts.text(equal)  # equal, but another object: encoded on its own
        assert dumps.call_count == 2
    texts.trim()
    for n in range(20):
        texts.text({"points": n})
        texts.trim()
    assert len(texts.texts) <= 4 * texts.least
