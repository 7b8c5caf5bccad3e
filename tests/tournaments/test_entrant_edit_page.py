"""The entrant list's "edit" link works without htmx too (issue 21, item 8: on a phone it
opened a bare table row with no viewport, 980 px wide): followed as a link it is a page of
its own, whose form saves and goes back to the list, or shows its errors."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import round_robin_event
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


@pytest.fixture
def edit_url(client, director):
    round_robin_event(director, players=3, slug="edit")
    client.force_login(director)
    return reverse("tournaments:manage_entrant", args=["edit", 2])


def test_the_edit_link_opens_a_whole_page(client, edit_url):
    page = client.get(edit_url)
    html = page.content.decode()
    assert page.status_code == 200
    assert '<meta name="viewport"' in html and "<h1>Player 2" in html
    assert f'action="{edit_url}"' in html and 'value="Player 2"' in html
    # htmx still gets the row alone, to swap in place
    row = client.get(edit_url, HTTP_HX_REQUEST="true").content.decode()
    assert row.lstrip().startswith('<tr id="entrant-2" class="editing">')
    # the row's "cancel" link, followed without htmx, goes back to the list
    cancel = client.get(edit_url + "?cancel=1")
    assert cancel.status_code == 302 and cancel.url.endswith("/manage/entrants/")


def test_the_page_saves_and_goes_back_to_the_list(client, edit_url):
    saved = client.post(edit_url, {"name": "Renamed", "country": "nl", "gender": ""})
    assert saved.status_code == 302
    assert saved.url == reverse("tournaments:manage_entrants", args=["edit"])
    entrant = Entrant.objects.get(event__slug="edit", number=2)
    assert (entrant.name, entrant.country) == ("Renamed", "NL")


def test_the_page_shows_what_is_wrong_and_saves_nothing(client, edit_url):
    refused = client.post(edit_url, {"name": "", "rating": "lots"})
    html = refused.content.decode()
    assert refused.status_code == 422
    assert '<meta name="viewport"' in html and 'role="alert"' in html
    assert Entrant.objects.get(event__slug="edit", number=2).name == "Player 2"
