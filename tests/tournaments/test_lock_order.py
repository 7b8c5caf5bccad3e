"""One lock order for every write of a result: the event row, then the match row.

Two writers that take the same two rows in opposite orders deadlock (results.record used to
lock the match and then, raising the results version, the event, while GokoDom's services
locked the event and then the match). Each write path is run here with its SQL captured:
its first row lock is the event's, and no match row is locked before it.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import freestyle_event, gokodom_event, round_robin_event
from tournaments.formats.freestyle import services as format_freestyle
from tournaments.formats.gokodom import services as format_gokodom
from tournaments.formats.gokodom import services_director as format_gokodom_director
from tournaments.models import Entrant, Match
from tournaments.services import corrections, double_entry, results, rounds

pytestmark = pytest.mark.django_db

FROM = re.compile(r'\bFROM "(\w+)"')


def locked_tables(queries: list[dict[str, str]]) -> list[str]:
    """The table each row-locking SELECT reads from, in the order they ran."""
    return [
        FROM.search(q["sql"]).group(1)
        for q in queries
        if "FOR UPDATE" in q["sql"] and FROM.search(q["sql"])
    ]


def assert_event_then_match(call) -> None:
    with CaptureQueriesContext(connection) as captured:
        call()
    tables = locked_tables(captured.captured_queries)
    assert "tournaments_match" in tables, tables  # the path does lock a match
    assert tables[0] == "tournaments_event", tables
    first_match = tables.index("tournaments_match")
    assert tables.index("tournaments_event") < first_match


def test_the_check_sees_the_order_of_the_locks(director):
    """Negative control: the old order of results.record (match, then event) fails it."""
    event = round_robin_event(director, players=4)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = rnd.matches.first()

    def match_first():
        Match.objects.select_for_update().get(pk=match.pk)
        type(event).objects.select_for_update().get(pk=event.pk)

    with pytest.raises(AssertionError):
        assert_event_then_match(match_first)


def two_player_match(rnd, skip=None):
    for match in rnd.matches.order_by("order").prefetch_related("participants__entrant"):
        if match == skip:
            continue
        seats = [p.entrant for p in match.participants.order_by("seat") if p.entrant_id]
        if len(seats) == 2:
            return match, seats[0], seats[1]
    raise AssertionError("no two-player match")


def test_recording_and_correcting_a_result(director):
    event = round_robin_event(director, players=4)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match, _, _ = two_player_match(rnd)
    assert_event_then_match(
        lambda: results.record(match, [{"scores": [1, 0]}], expected_version=0, by=director)
    )
    games = [{"scores": [0, 1]}]
    preview = corrections.preview_result(match, games, expected_version=1)
    assert_event_then_match(
        lambda: corrections.confirm_result(
            match,
            games,
            expected_version=1,
            results_version=preview.results_version,
            digest=preview.digest,
            by=director,
            reason="scores swapped on the slip",
        )
    )
    assert Match.objects.get(pk=match.pk).version == 2


def test_double_entry(director):
    event = round_robin_event(director, players=4)
    double_entry.set_enabled(event, True, by=director)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match, _, _ = two_player_match(rnd)
    assert_event_then_match(
        lambda: double_entry.enter(match, [{"scores": [1, 0]}], expected_version=0, by=director)
    )


def test_gokodom_player_and_director_paths(director):
    event = gokodom_event(director, swiss_rounds=3)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match, a, b = two_player_match(rnd)
    assert_event_then_match(lambda: format_gokodom.report(match, a, outcome="W", by=a.user))
    assert_event_then_match(lambda: format_gokodom.confirm(match, b, by=b.user))
    assert Match.objects.get(pk=match.pk).result["complete"]
    other, c, d = two_player_match(rnd, skip=match)
    codes = {str(c.number): "W", str(d.number): "L"}
    assert_event_then_match(
        lambda: format_gokodom_director.record_codes(other, codes, expected_version=0, by=director)
    )
    assert_event_then_match(
        lambda: format_gokodom_director.close_at_deadline(rnd.pk, by=director, force=True)
    )


def test_freestyle_withdrawal_during_a_round_rescoring_its_matches(director):
    event = freestyle_event(director, slug="fs-lock")
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    leaver = Entrant.objects.get(event=event, number=16)
    assert_event_then_match(
        lambda: format_freestyle.withdraw(leaver, during=True, by=director, reason="ill")
    )
