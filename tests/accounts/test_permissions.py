"""The permission functions every view calls."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404

from accounts import permissions
from accounts.models import User
from accounts.services import claim_entrant
from tests.factories import round_robin_event
from tournaments.models import Match, Round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(director, admin_user):
    event = round_robin_event(director, players=4, slug="perm")
    outcome = rounds.draft_next_round(event, by=director)
    rnd = rounds.publish_round(outcome.round, by=director)
    player = User.objects.create_user("pia", password="pw-pia-long-1")
    entrant = event.entrants.get(number=1)
    claim_entrant(player, entrant.claim_code)
    entrant.refresh_from_db()
    own = Match.objects.get(round=rnd, participants__entrant=entrant)
    other = Match.objects.filter(round=rnd).exclude(pk=own.pk).first()
    stranger = User.objects.create_user("sam", password="pw-sam-long-1")
    round_robin_event(stranger, players=2, slug="sams")
    return {
        "event": event,
        "round": rnd,
        "player": player,
        "entrant": entrant,
        "own": own,
        "other": other,
        "stranger": stranger,
        "director": director,
        "admin": admin_user,
    }


def test_can_direct_is_is_director(world):
    assert permissions.can_direct is permissions.is_director
    event = world["event"]
    assert permissions.can_direct(world["director"], event)
    assert permissions.can_direct(world["admin"], event)
    assert not permissions.can_direct(world["stranger"], event)
    assert not permissions.can_direct(world["player"], event)
    assert not permissions.can_direct(AnonymousUser(), event)


def test_is_player_of(world):
    entrant = world["entrant"]
    assert permissions.is_player_of(world["player"], entrant)
    assert not permissions.is_player_of(world["director"], entrant)
    assert not permissions.is_player_of(AnonymousUser(), entrant)
    assert not permissions.is_player_of(world["player"], world["event"].entrants.get(number=2))
    assert permissions.entrant_of(world["player"], world["event"]) == entrant
    assert permissions.entrant_of(world["stranger"], world["event"]) is None


def test_a_player_reports_only_their_own_match_while_the_round_is_published(world):
    player = world["player"]
    assert permissions.can_report_for(player, world["own"])
    assert not permissions.can_report_for(player, world["other"])
    assert not permissions.can_report_for(world["stranger"], world["own"])
    assert not permissions.can_report_for(AnonymousUser(), world["own"])
    assert permissions.can_report_for(world["director"], world["other"])
    assert permissions.can_report_for(world["admin"], world["other"])
    Round.objects.filter(pk=world["round"].pk).update(status=Round.Status.COMPLETED)
    own = Match.objects.select_related("round__event").get(pk=world["own"].pk)
    assert not permissions.can_report_for(player, own)
    assert permissions.can_report_for(world["director"], own)


def test_match_for_reporter_hides_or_refuses(world):
    slug = world["event"].slug
    assert permissions.match_for_reporter(world["player"], slug, world["own"].pk) == world["own"]
    with pytest.raises(PermissionDenied):
        permissions.match_for_reporter(world["player"], slug, world["other"].pk)
    with pytest.raises(Http404):
        permissions.match_for_reporter(world["player"], "sams", world["own"].pk)
    with pytest.raises(Http404):
        permissions.match_for_reporter(world["player"], slug, 10**9)


def test_match_for_reporter_hides_draft_matches_from_players(world):
    director = world["director"]
    Round.objects.filter(pk=world["round"].pk).update(status=Round.Status.DRAFT)
    slug = world["event"].slug
    with pytest.raises(Http404):
        permissions.match_for_reporter(world["player"], slug, world["own"].pk)
    assert permissions.match_for_reporter(director, slug, world["own"].pk) == world["own"]


def test_require():
    permissions.require(True)
    with pytest.raises(PermissionDenied):
        permissions.require(False)
    with pytest.raises(Http404):
        permissions.require(False, hide=True)


def test_private_event_views(world):
    event = world["event"]
    event.public = False
    event.save()
    assert permissions.can_view(world["player"], event)
    assert permissions.can_view(world["director"], event)
    assert not permissions.can_view(world["stranger"], event)
    with pytest.raises(Http404):
        permissions.event_for_viewer(world["stranger"], "perm")
    with pytest.raises(Http404):
        permissions.event_for_director(world["player"], "perm")
