"""Marked overrides (issue 14): a director's change of the engine's pairing needs a reason, is
stored with the engine's proposal, who and when, and is marked on the public pages."""

import pytest
from django.urls import reverse

from tests.factories import freestyle_event, round_robin_event
from tournaments.models import AuditEntry, GroupMember, Match, MatchParticipant
from tournaments.services import rounds
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db(transaction=True)


def seats(match):
    return [(p.entrant.number if p.entrant else None, p.role) for p in match.participants.all()]


def test_a_swap_without_a_reason_is_refused_everywhere(client, director):
    event = round_robin_event(director, players=4, slug="noreason")
    draft = rounds.draft_next_round(event, by=director).round
    with pytest.raises(ServiceError) as refused:
        rounds.swap(draft, 1, 2, by=director, reason="  ")
    assert refused.value.problems[0].field == "reason"
    client.force_login(director)
    url = reverse("tournaments:manage_swap", args=[event.slug, 1])
    page = client.post(url, {"first": 1, "second": 2, "reason": ""})
    assert page.status_code == 422 and "This field is required" in page.content.decode()
    assert not Match.objects.filter(round=draft, overridden=True).exists()
    assert not AuditEntry.objects.filter(event=event, action="round.pairing_overridden").exists()


def test_a_swap_is_stored_with_the_engines_proposal_and_marked_on_public_pages(client, director):
    event = round_robin_event(director, players=4, slug="marked")
    draft = rounds.draft_next_round(event, by=director).round
    proposal = {
        m.code: [p.entrant.name for p in m.participants.order_by("seat")]
        for m in draft.matches.all()
    }
    one = draft.matches.get(participants__entrant__number=1)
    other = draft.matches.exclude(pk=one.pk).first()
    second = other.participants.order_by("seat").first().entrant.number
    rounds.swap(draft, 1, second, by=director, reason="Player 1 asked to play on table 2")
    for match in (one, other):
        match.refresh_from_db()
        override = match.details["override"]
        assert match.overridden
        assert override["engine"] == proposal[match.code]
        assert (
            override["after"]
            == [p.entrant.name for p in match.participants.order_by("seat")]
            != proposal[match.code]
        )
        assert override["by"] == "director" and override["at"]
        assert override["reason"] == "Player 1 asked to play on table 2"
    rounds.publish_round(draft, by=director)
    body = client.get(reverse("tournaments:round", args=[event.slug, 1])).content.decode()
    assert body.count("changed by the director: Player 1 asked to play on table 2") == 2
    engine_pair = " \N{EN DASH} ".join(proposal[one.code])
    assert f"The engine proposed: {engine_pair}" in body
    assert "The director made it:" in body
    player = client.get(reverse("tournaments:entrant", args=[event.slug, 1])).content.decode()
    assert "changed by the director: Player 1 asked to play on table 2" in player
    # an untouched entrant's page carries no mark
    untouched = (
        MatchParticipant.objects.filter(match__round=draft)
        .exclude(match__in=[one, other])
        .values_list("entrant__number", flat=True)
        .first()
    )
    if untouched is not None:
        page = client.get(reverse("tournaments:entrant", args=[event.slug, untouched]))
        assert "changed by the director" not in page.content.decode()


def test_two_players_of_one_match_swap_seats_and_so_colours(director):
    event = round_robin_event(director, players=4, slug="colours")
    draft = rounds.draft_next_round(event, by=director).round
    match = draft.matches.get(participants__entrant__number=1)
    before = seats(match)
    first, second = (n for n, _ in before)
    assert rounds.swap(draft, first, second, by=director, reason="colour balance") == []
    match.refresh_from_db()
    after = seats(match)
    # the seats keep their roles (colours); the players exchange them
    assert [role for _, role in after] == [role for _, role in before]
    assert [n for n, _ in after] == [second, first]
    assert match.details["override"]["kind"] == "seats"
    assert match.details["override"]["reason"] == "colour balance"
    assert Match.objects.filter(round=draft, overridden=True).count() == 1


def test_a_swap_between_groups_moves_the_group_places_too(director):
    event = freestyle_event(director, players=16, slug="groups")
    draft = rounds.draft_next_round(event, by=director).round
    groups = list(draft.groups.order_by("order"))
    assert len(groups) >= 2
    a = GroupMember.objects.filter(group=groups[0]).order_by("seed").first()
    b = GroupMember.objects.filter(group=groups[1]).order_by("seed").first()
    a_number, b_number = a.entrant.number, b.entrant.number
    rounds.swap(draft, a_number, b_number, by=director, reason="same club in one group")
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.group_id, a.entrant.number, a.seed) == (groups[0].pk, b_number, 1)
    assert (b.group_id, b.entrant.number, b.seed) == (groups[1].pk, a_number, 1)
    # every match of a group is between members of that group
    for group in groups:
        members = set(group.members.values_list("entrant_id", flat=True))
        for match in Match.objects.filter(round=draft, group=group):
            assert {p.entrant_id for p in match.participants.all() if p.entrant_id} <= members
