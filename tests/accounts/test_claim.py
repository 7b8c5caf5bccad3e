"""Claiming an entrant: the invite link or a typed claim code makes a user its player."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts import services
from accounts.models import User
from tests.factories import round_robin_event
from tournaments.models import AuditEntry
from tournaments.services import events
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):
    return round_robin_event(director, players=4, slug="claims")


@pytest.fixture
def hana():
    return User.objects.create_user("hana", "hana@example.org", "pw-hana-long-1")


@pytest.fixture
def ivo():
    return User.objects.create_user("ivo", "ivo@example.org", "pw-ivo-long-1")


def _entrant(event, number=1):
    return event.entrants.get(number=number)


def test_invite_url_is_the_claim_page_of_the_entrant(event, rf, settings):
    settings.ALLOWED_HOSTS = ["arbiter.example.org"]
    entrant = _entrant(event)
    assert services.invite_url(entrant) == f"/accounts/claim/{entrant.claim_code}/"
    request = rf.get("/", HTTP_HOST="arbiter.example.org", secure=True)
    assert services.invite_url(entrant, request) == (
        f"https://arbiter.example.org/accounts/claim/{entrant.claim_code}/"
    )


def test_claim_links_the_user_and_writes_the_audit_trail(event, hana):
    entrant = services.claim_entrant(hana, _entrant(event).claim_code)
    assert entrant.user == hana
    assert _entrant(event).user_id == hana.pk
    entry = AuditEntry.objects.get(event=event, action="entrant.claimed")
    assert entry.actor == hana
    assert entry.subject == entrant.name
    assert entry.after == {"entrant": 1, "user": "hana"}


def test_claim_locks_the_entrant_row(event, hana):
    code = _entrant(event).claim_code
    with CaptureQueriesContext(connection) as queries:
        services.claim_entrant(hana, code)
    selects = [q["sql"] for q in queries if '"claim_code" =' in q["sql"]]
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in selects[0]
    else:  # SQLite locks the whole database for the write; the query is the same
        assert selects


def test_a_code_claimed_by_someone_else_is_refused(event, hana, ivo):
    code = _entrant(event).claim_code
    services.claim_entrant(hana, code)
    with pytest.raises(ServiceError, match="already claimed by another account"):
        services.claim_entrant(ivo, code)
    assert _entrant(event).user == hana
    assert AuditEntry.objects.filter(action="entrant.claimed").count() == 1


def test_claiming_ones_own_entry_again_changes_nothing(event, hana):
    code = _entrant(event).claim_code
    services.claim_entrant(hana, code)
    services.claim_entrant(hana, code)
    assert AuditEntry.objects.filter(action="entrant.claimed").count() == 1


def test_one_user_plays_one_entrant_per_event(event, hana):
    services.claim_entrant(hana, _entrant(event, 1).claim_code)
    with pytest.raises(ServiceError, match="You already play in this event as Player 1"):
        services.claim_entrant(hana, _entrant(event, 2).claim_code)
    assert _entrant(event, 2).user is None


def test_a_withdrawn_entrant_is_still_claimable(event, director, hana):
    events.withdraw(_entrant(event, 3), by=director)
    entrant = services.claim_entrant(hana, _entrant(event, 3).claim_code)
    assert entrant.user == hana


def test_unknown_code_and_anonymous_are_refused(event, hana):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ServiceError, match="No entry has this claim code"):
        services.claim_entrant(hana, "no-such-code")
    with pytest.raises(ServiceError, match="Sign in"):
        services.claim_entrant(AnonymousUser(), _entrant(event).claim_code)


# --- the pages ---------------------------------------------------------------


def test_invite_link_sends_strangers_to_sign_in_and_back(client, event):
    url = services.invite_url(_entrant(event))
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:login')}?next={url}"
    login_page = client.get(response.url).content.decode()
    assert "Sign in to claim your entry." in login_page
    assert f"{reverse('accounts:signup')}?next={url}" in login_page


def test_invite_link_shows_the_entry_and_a_post_claims_it(client, event, hana):
    client.force_login(hana)
    entrant = _entrant(event, 2)
    url = services.invite_url(entrant)
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Player 2" in text and event.name in text
    assert "Yes, I am Player 2" in text
    entrant.refresh_from_db()
    assert entrant.user is None  # a GET claims nothing
    response = client.post(url)
    assert response.status_code == 302
    assert response.url == url
    mine = client.get(url).content.decode()
    assert "This entry is yours" in mine
    assert event.get_absolute_url() in mine


def test_invite_link_of_an_entry_claimed_by_another_says_so(client, event, hana, ivo):
    url = services.invite_url(_entrant(event))
    services.claim_entrant(hana, _entrant(event).claim_code)
    client.force_login(ivo)
    page = client.get(url)
    assert page.status_code == 200
    assert "already claimed by another account" in page.content.decode()
    assert "Yes, I am" not in page.content.decode()
    refused = client.post(url)
    assert refused.status_code == 422
    assert _entrant(event).user == hana


def test_unknown_invite_link_is_a_404(client, hana):
    client.force_login(hana)
    assert client.get("/accounts/claim/not-a-code/").status_code == 404


def test_typed_code_claims_and_the_page_lists_the_entries(client, event, hana):
    client.force_login(hana)
    entrant = _entrant(event, 4)
    response = client.post(reverse("accounts:claim"), {"code": f"  {entrant.claim_code} "})
    assert response.status_code == 302
    assert response.url == services.invite_url(entrant)
    page = client.get(reverse("accounts:claim")).content.decode()
    assert "Your entries" in page and "Player 4" in page


def test_typed_bad_code_names_the_field(client, event, hana):
    client.force_login(hana)
    response = client.post(reverse("accounts:claim"), {"code": "wrong"})
    assert response.status_code == 422
    text = response.content.decode()
    assert "No entry has this claim code; check it." in text
    empty = client.post(reverse("accounts:claim"), {"code": ""})
    assert "This field is required." in empty.content.decode()


def test_a_player_of_a_private_event_can_see_it_after_claiming(client, director, hana):
    event = round_robin_event(director, players=2, slug="closed")
    event.public = False
    event.save()
    client.force_login(hana)
    assert client.get(event.get_absolute_url()).status_code == 404
    services.claim_entrant(hana, _entrant(event).claim_code)
    assert client.get(event.get_absolute_url()).status_code == 200
