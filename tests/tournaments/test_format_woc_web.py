"""WOC results after the Swiss through the director's results screen: the best-of-three
semi-finals with who played Black in each game, and the IV.9 choice of a one-game match."""

import random

import pytest
from django.urls import reverse

from rules.formats.woc.simulate import field, play
from tournaments import simulation
from tournaments.models import Match, Round
from tournaments.services import rounds
from tournaments.services.eventfile import import_event

pytestmark = pytest.mark.django_db(transaction=True)
# seed 3 ends the Swiss with 4th and 5th equal (a playoff); this one goes to the semi-finals
SEMI_FINAL_SEED = 1


def qualified_event(seed):
    rng = random.Random(seed)
    state = play(field(10, rng), rng)
    data = simulation.to_event_file(state, slug=f"woc-{seed}", name="WOC")
    data["event"]["settings"].pop("final_stages", None)  # the final stages are on by default
    return import_event(data, by=None)


@pytest.mark.parametrize("seed", [3, SEMI_FINAL_SEED])
def test_final_stage_results_are_entered_on_the_results_screen(client, director, seed):
    client.force_login(director)
    event = qualified_event(seed)
    event.directors.add(director)
    outcome = rounds.draft_next_round(event, by=director)
    rnd = rounds.publish_round(outcome.round, by=director)
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, rnd.number]))
    body = page.content.decode()
    kinds = {m.details.get("kind") for m in Match.objects.filter(round=rnd)}
    assert ("playoff" in kinds) == (seed == 3)
    if "playoff" in kinds:
        assert 'name="m-choice"' in body
        match = Match.objects.filter(round=rnd, details__kind="playoff").first()
        url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
        missing = client.post(
            url,
            {"version": 0, "g1-s0": "32", "g1-s1": "32", "g1-first": "0"},
            HTTP_HX_REQUEST="true",
        )
        assert missing.status_code == 422  # a drawn playoff needs the IV.9 choice
        saved = client.post(
            url,
            {"version": 0, "g1-s0": "32", "g1-s1": "32", "g1-first": "0", "m-choice": "colour"},
            HTTP_HX_REQUEST="true",
        )
        assert saved.status_code == 200
        match.refresh_from_db()
        assert match.details["choice"] == "colour"
        assert match.result["winner"] == 1  # chose the colour: the draw goes to the opponent
        assert match.result_changes.last().after["details"] == {"choice": "colour"}
    else:
        assert "semi_final" in kinds
        assert 'name="g3-s0"' in body and 'name="g1-first"' in body
        match = Match.objects.filter(round=rnd, details__kind="semi_final").first()
        url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
        saved = client.post(
            url,
            {
                "version": 0,
                "g1-s0": "40",
                "g1-s1": "24",
                "g1-first": "0",
                "g2-s0": "35",
                "g2-s1": "29",
                "g2-first": "1",
            },
            HTTP_HX_REQUEST="true",
        )
        assert saved.status_code == 200, saved.content.decode()
        match.refresh_from_db()
        assert match.result["winner"] == 0
        assert [g.first_seat for g in match.games.order_by("number")] == [0, 1]
    assert rnd.number == Round.objects.filter(event=event).count() == 10  # after 9 rounds
