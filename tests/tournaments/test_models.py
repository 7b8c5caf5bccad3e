"""Constraints that hold in the database itself, whatever code writes to it."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from tests.factories import EntrantFactory, EventFactory, play_round, round_robin_event
from tournaments.models import Entrant, Match, ResultChange

pytestmark = pytest.mark.django_db


def test_seeds_are_unique_per_event_but_free_across_events():
    event = EventFactory()
    EntrantFactory(event=event, seed=1)
    EntrantFactory(event=EventFactory(), seed=1)  # another event may use seed 1
    EntrantFactory(event=event, seed=None)
    EntrantFactory(event=event, seed=None)  # any number of unseeded entrants
    with pytest.raises(IntegrityError), transaction.atomic():
        EntrantFactory(event=event, seed=1)


def test_entrant_numbers_are_unique_per_event():
    event = EventFactory()
    EntrantFactory(event=event, number=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        EntrantFactory(event=event, number=5)


def test_a_withdrawal_must_name_its_round():
    entrant = EntrantFactory()
    entrant.status = Entrant.Status.WITHDRAWN
    with pytest.raises(IntegrityError), transaction.atomic():
        entrant.save()


def test_one_result_version_per_match(director):
    event = round_robin_event(director, players=4)
    play_round(event, director)
    match = Match.objects.filter(round__event=event).first()
    assert ResultChange.objects.filter(match=match).count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultChange.objects.create(match=match, version=1, changed_at=timezone.now())


def test_round_numbers_and_match_codes_are_unique(director):
    event = round_robin_event(director, players=4)
    rnd = play_round(event, director)
    from tournaments.models import Round

    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(event=event, number=1, label="Again")
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(round=rnd, code=rnd.matches.first().code)


def test_an_entrant_sits_once_per_match(director):
    event = round_robin_event(director, players=4)
    rnd = play_round(event, director)
    match = rnd.matches.first()
    entrant = match.participants.first().entrant
    with pytest.raises(IntegrityError), transaction.atomic():
        match.participants.create(seat=5, entrant=entrant)
