"""Public pages: visible to anyone for public events, hidden for private ones, and a
constant number of queries whatever the event's size."""

import pytest
from django.urls import reverse

from tests.factories import play_round, round_robin_event

pytestmark = pytest.mark.django_db(transaction=True)


def test_public_event_pages_show_pairings_and_standings(client, director):
    event = round_robin_event(director, players=5, slug="pub")
    play_round(event, director, scores=lambda m: [3, 1])
    home = client.get(reverse("tournaments:event", args=["pub"]))
    assert home.status_code == 200
    assert "Player 1" in home.content.decode()
    standings = client.get(reverse("tournaments:standings", args=["pub"]))
    assert "Why these ties were broken" in standings.content.decode()
    partial = client.get(reverse("tournaments:standings", args=["pub"]), HTTP_HX_REQUEST="true")
    assert "<html" not in partial.content.decode()
    assert 'id="standings"' in partial.content.decode()
    version = client.get(reverse("tournaments:version", args=["pub"])).json()
    assert version["results_version"] == version["standings_version"]


def test_private_event_is_a_404_to_strangers_and_visible_to_its_director(client, director):
    event = round_robin_event(director, players=4, slug="secret")
    event.public = False
    event.save()
    for name in ("event", "standings", "version"):
        assert client.get(reverse(f"tournaments:{name}", args=["secret"])).status_code == 404
    assert "secret" not in client.get(reverse("tournaments:event_list")).content.decode()
    client.force_login(director)
    assert client.get(reverse("tournaments:event", args=["secret"])).status_code == 200


def _queries(client, django_assert_max_num_queries, url, budget):
    with django_assert_max_num_queries(budget):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("players", [4, 40])
def test_public_pages_run_a_constant_number_of_queries(
    client, director, django_assert_max_num_queries, players
):
    event = round_robin_event(director, players=players, slug=f"q{players}")
    play_round(event, director)
    play_round(event, director)
    for name, args in [
        ("event", [event.slug]),
        ("round", [event.slug, 2]),
        ("standings", [event.slug]),
        ("event_list", []),
    ]:
        _queries(
            client, django_assert_max_num_queries, reverse(f"tournaments:{name}", args=args), 10
        )


def test_health_endpoint(client):
    assert client.get(reverse("tournaments:health")).json() == {"status": "ok"}
