"""Small things that stood in a director's or a player's way (issue 21, finding 11)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import gokodom_event, play_round, round_robin_event
from tournaments.models import Report
from tournaments.services import events, rounds

pytestmark = pytest.mark.django_db


def test_find_my_name_puts_exact_matches_first(client, director):
    event = events.create_event(slug="names", name="Names", format="round_robin", by=director)
    event.public = True
    event.save(update_fields=["public"])
    for name in ("Joanna Berg", "Anna Lind", "Ann Holm", "Bo Ek"):
        events.add_entrant(event, name=name, by=director)
    draft = rounds.draft_next_round(event, by=director).round
    rounds.publish_round(draft, by=director)
    page = client.get(reverse("tournaments:round", args=["names", 1]), {"q": "ann"})
    html = page.content.decode()
    assert html.index("Ann Holm") < html.index("Joanna Berg")


def test_a_forbidden_page_is_a_styled_page_that_says_why(director, django_user_model):
    event = gokodom_event(director, players=4, slug="goko")
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("stranger", password="pw-x-12"))
    page = stranger.get(reverse("tournaments:gokodom_player", args=[event.slug]))
    assert page.status_code == 403
    html = page.content.decode()
    assert "This is not yours to change" in html and "stranger" in html and 'class="site' in html


def test_the_event_list_links_to_manage_for_its_directors(client, director, django_user_model):
    round_robin_event(director, players=2, slug="mine")
    other = django_user_model.objects.create_user("other", password="pw-other-1")
    round_robin_event(other, players=2, slug="theirs")
    client.force_login(director)
    html = client.get(reverse("tournaments:event_list")).content.decode()
    assert reverse("tournaments:manage", args=["mine"]) in html
    assert reverse("tournaments:manage", args=["theirs"]) not in html


def test_my_match_is_offered_to_players_only(director):
    event = gokodom_event(director, players=4, slug="gk")
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    url = reverse("tournaments:gokodom_player", args=[event.slug])
    as_director = Client()
    as_director.force_login(director)
    assert url not in as_director.get(reverse("tournaments:event", args=["gk"])).content.decode()
    player = Client()
    player.force_login(event.entrants.get(number=1).user)
    assert url in player.get(reverse("tournaments:event", args=["gk"])).content.decode()


def test_a_closed_round_offers_the_next_draft_at_once(client, director):
    event = round_robin_event(director, players=4, slug="next")
    play_round(event, director)
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_round", args=["next", 1])).content.decode()
    assert reverse("tournaments:manage_draft", args=["next"]) in page
    assert "Draft the next round" in page


def test_the_public_pdf_page_updates_itself_without_a_reload(client, director, monkeypatch):
    from tournaments.services import reports

    event = round_robin_event(director, players=4, slug="pdf")
    play_round(event, director)
    monkeypatch.setattr(reports, "enqueue", lambda report_id: None)  # the worker is busy
    url = reverse("tournaments:reports_public_standings", args=["pdf"])
    waiting = client.get(url)
    html = waiting.content.decode()
    assert waiting.status_code == 202
    assert 'hx-trigger="every 2s"' in html and 'http-equiv="refresh"' not in html
    Report.objects.filter(event=event).update(status=Report.Status.DONE)
    done = client.get(url, headers={"HX-Request": "true"})
    assert done.status_code == 204 and done["HX-Redirect"] == url
