"""GokoDom round deadlines: the unplayed-match rule (I.D, II.B.4-6) applied by the
periodic task, which may run twice; the director's 'close now' does the same."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import gokodom_event
from tournaments.formats.gokodom import services as player_service
from tournaments.formats.gokodom import services_director as director_service
from tournaments.formats.gokodom.tasks import close_due_rounds
from tournaments.models import AuditEntry, Match, RandomDraw, ResultChange, Round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db
PAST = datetime.datetime(2020, 1, 13, 6, 0, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def two_player_matches(rnd):
    out = []
    for match in rnd.matches.order_by("order").prefetch_related("participants__entrant"):
        seats = [p.entrant for p in match.participants.all() if p.entrant_id]
        if len(seats) == 2:
            out.append((match, seats[0], seats[1]))
    return out


def published(director, **settings):
    event = gokodom_event(director, **settings)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    return event, rnd


def test_the_deadline_applies_the_unplayed_match_rule_and_closes_the_round(director):
    _event, rnd = published(director, swiss_rounds=3)
    (m1, a1, b1), (m2, a2, b2), (m3, a3, b3), (m4, a4, b4) = two_player_matches(rnd)
    # m1: only a1 told the director; m2: both did; m3: nobody; m4: played, reported
    player_service.message_director(m1, a1, by=a1.user)
    player_service.message_director(m2, a2, by=a2.user)
    player_service.message_director(m2, b2, by=b2.user)
    player_service.report(m4, a4, outcome="W", by=a4.user)  # not disputed by the deadline
    director_service.set_round_times(rnd, None, PAST, by=director)

    assert close_due_rounds.apply().get() == {str(rnd.pk): True}

    def codes(match):
        match.refresh_from_db()
        return match.details["results"]

    assert codes(m1) == {str(a1.number): "WD", str(b1.number): "LD"}  # II.B.4 and 6
    assert codes(m2) == {str(a2.number): "DD", str(b2.number): "DD"}  # II.B.5
    assert codes(m3) == {str(a3.number): "LD", str(b3.number): "LD"}  # II.B.6
    assert codes(m4) == {str(a4.number): "W", str(b4.number): "L"}
    assert Round.objects.get(pk=rnd.pk).status == "completed"
    changes = ResultChange.objects.filter(match__round=rnd).count()
    assert changes == 4
    assert ResultChange.objects.filter(match=m1).get().source == "system"

    # the task runs again (a redelivered message, a second beat): nothing more happens
    assert close_due_rounds.apply().get() == {}
    assert director_service.close_at_deadline(rnd.pk, now=PAST).ran is False
    assert ResultChange.objects.filter(match__round=rnd).count() == changes
    assert AuditEntry.objects.filter(action="round.completed").count() == 1
    assert AuditEntry.objects.filter(action="gokodom.deadline").count() == 1


def test_a_round_before_its_deadline_is_left_alone(director):
    _event, rnd = published(director, swiss_rounds=3)
    future = datetime.datetime(2099, 1, 1, tzinfo=datetime.UTC)
    director_service.set_round_times(rnd, None, future, by=director)
    assert close_due_rounds.apply().get() == {}
    assert Round.objects.get(pk=rnd.pk).status == "published"
    assert not ResultChange.objects.filter(match__round=rnd).exists()


def test_a_disputed_match_waits_for_the_director_then_the_round_closes(director):
    _event, rnd = published(director, swiss_rounds=3)
    matches = two_player_matches(rnd)
    match, a, b = matches[0]
    player_service.report(match, a, outcome="W", by=a.user)
    player_service.dispute(match, b, note="not played", by=b.user)
    director_service.set_round_times(rnd, None, PAST, by=director)
    first = director_service.close_at_deadline(rnd.pk)
    assert not first.closed and list(first.left) == [match.code]
    match.refresh_from_db()
    assert "results" not in match.details  # a disputed match is not 'unplayed'
    # the others are resolved already; a second run changes nothing
    changes = ResultChange.objects.filter(match__round=rnd).count()
    director_service.close_at_deadline(rnd.pk)
    assert ResultChange.objects.filter(match__round=rnd).count() == changes
    director_service.record_codes(
        match, {str(a.number): "L", str(b.number): "W"}, expected_version=0, by=director
    )
    assert director_service.close_at_deadline(rnd.pk).closed


def test_last_swiss_round_handshake_goes_to_the_director(director):
    _event, rnd = published(director, swiss_rounds=1)
    (match, a, b), *rest = two_player_matches(rnd)
    player_service.message_director(match, a, by=a.user)
    player_service.message_director(match, b, by=b.user)
    outcome = director_service.close_at_deadline(rnd.pk, force=True)
    assert not outcome.closed
    assert "not available" in outcome.left[match.code]
    assert all(m.code not in outcome.left for m, _, _ in rest)


def test_knockout_unplayed_match_goes_by_the_messages(director):
    event, rnd = published(director, swiss_rounds=1)
    for match, a, b in two_player_matches(rnd):
        director_service.record_codes(
            match, {str(a.number): "W", str(b.number): "L"}, expected_version=0, by=director
        )
    rounds.complete_round(rnd, by=director)
    qf = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    (m1, _a1, b1), (m2, a2, b2), *_ = two_player_matches(qf)
    player_service.message_director(m1, b1, by=b1.user)
    player_service.message_director(m2, a2, by=a2.user)
    player_service.message_director(m2, b2, by=b2.user)
    outcome = director_service.close_at_deadline(qf.pk, force=True)
    m1.refresh_from_db()
    assert m1.result["complete"] and m1.result["details"]["advances"] == str(b1.number)
    assert "both players messaged" in outcome.left[m2.code]
    assert not outcome.closed
    # the director decides m2 on the season page; the round then closes
    client = Client()
    client.force_login(director)
    m2.refresh_from_db()
    client.post(
        reverse("tournaments:gokodom_advances", args=[event.slug, m2.pk]),
        {"advances": a2.number, "version": m2.version},
    )
    response = client.post(reverse("tournaments:gokodom_close", args=[event.slug, qf.number]))
    assert response.status_code == 302
    assert Round.objects.get(pk=qf.pk).status == "completed"


def test_each_draw_is_stored_once_when_a_round_is_drafted(director):
    # regression: the engine repeated the source's draws in plan.draws and the service
    # stored them twice (an IntegrityError on the first draft of every GokoDom event)
    event, rnd = published(director, swiss_rounds=3, first_seat="drawn")
    keys = list(RandomDraw.objects.filter(event=event).values_list("key", flat=True))
    assert "initial-order" in keys and len(keys) == len(set(keys))
    assert Match.objects.filter(round=rnd).count() == 4
