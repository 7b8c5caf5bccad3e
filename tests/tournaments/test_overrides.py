"""Marked overrides (issue 14): a director's change of the engine's pairing needs a reason, is
stored with the engine's proposal, who and when, and is marked on the public pages."""

import pytest
from django.urls import reverse

from rules import checkers
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


def pairs(rnd) -> set[frozenset[int]]:
    return {
        frozenset(p.entrant.number for p in m.participants.all() if p.entrant)
        for m in rnd.matches.prefetch_related("participants__entrant")
        if m.participants.count() == 2
    }


def test_a_round_1_swap_in_a_round_robin_is_carried_through_the_whole_table(director):
    """round_robin.md, decision on swaps (issue 21 finding 5): a swap of players of two
    matches in round 1 exchanges their draw numbers, so every later round follows the
    Berger table with the new numbers and every pair still meets exactly once."""
    from tests.factories import play_round

    event = round_robin_event(director, players=6, slug="carried")
    draft = rounds.draft_next_round(event, by=director).round
    one = draft.matches.get(participants__entrant__number=1)
    other = draft.matches.exclude(pk=one.pk).first()
    second = other.participants.order_by("seat").first().entrant.number
    notes = rounds.swap(draft, 1, second, by=director, reason="travel")
    assert any("draw numbers are exchanged" in n for n in notes)
    rounds.publish_round(draft, by=director)
    from tournaments.services import results

    for match in draft.matches.prefetch_related("participants"):
        if match.participants.count() == 2:
            results.record(match, [{"scores": [1, 0]}], expected_version=0, by=director)
    rounds.complete_round(draft, by=director)
    met = list(pairs(draft))
    for _ in range(4):
        met += pairs(play_round(event, director))
    assert len(met) == len(set(met)) == 15  # 6 players: each of the 15 pairs exactly once
    from tournaments.services import conformance

    verdict = conformance.check_event(event)
    # the two changed matches are reported as the override they are, and break no rule
    assert verdict.violations == ()
    assert {v.rule for v in verdict.overridden} == {checkers.OVERRIDE}
    assert all(v.data["breaks"] == [] for v in verdict.overridden)
    assert len(verdict.overrides) == 2


def test_a_later_swap_between_matches_in_a_round_robin_is_refused_with_the_reason(director):
    """A swap after round 1 would make the Berger table pair someone twice: refused."""
    from tests.factories import play_round

    event = round_robin_event(director, players=6, slug="refused")
    play_round(event, director)
    draft = rounds.draft_next_round(event, by=director).round
    one = draft.matches.get(participants__entrant__number=1)
    other = draft.matches.exclude(pk=one.pk).first()
    second = other.participants.order_by("seat").first().entrant.number
    with pytest.raises(ServiceError) as refused:
        rounds.swap(draft, 1, second, by=director, reason="travel")
    text = refused.value.problems[0].text
    assert "every round follows the Berger table" in text and "again in round" in text
    assert not Match.objects.filter(round=draft, overridden=True).exists()
    # two opponents may still exchange seats (colours) in any round
    opponent = next(p.entrant.number for p in one.participants.all() if p.entrant.number != 1)
    assert rounds.swap(draft, 1, opponent, by=director, reason="colours") == []
