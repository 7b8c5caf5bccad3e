"""Sign in, sign out, and the brute-force lock (django-axes) on the sign-in page."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

LOGIN = reverse("accounts:login")


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("ana", "ana@example.org", "right-horse-9")


def _signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_sign_in_with_the_right_password_goes_to_next(client, player):
    page = client.get(LOGIN)
    assert page.status_code == 200
    assert 'autocomplete="current-password"' in page.content.decode()
    response = client.post(
        LOGIN, {"username": "ana", "password": "right-horse-9", "next": "/e/somewhere/"}
    )
    assert response.status_code == 302
    assert response.url == "/e/somewhere/"
    assert _signed_in(client)


def test_sign_in_refuses_a_wrong_password_with_a_message(client, player):
    response = client.post(LOGIN, {"username": "ana", "password": "wrong"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()
    assert not _signed_in(client)


def test_sign_in_ignores_a_next_on_another_site(client, player):
    response = client.post(
        LOGIN, {"username": "ana", "password": "right-horse-9", "next": "https://evil.example/"}
    )
    assert response.status_code == 302
    assert "evil" not in response.url


def test_sign_out_is_a_post_and_get_is_refused(client, player):
    client.force_login(player)
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert _signed_in(client)
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert not _signed_in(client)


def test_header_offers_sign_in_then_sign_out_and_password(client, player):
    anonymous = client.get(reverse("tournaments:event_list")).content.decode()
    assert f'href="{LOGIN}?next=/"' in anonymous
    client.force_login(player)
    signed_in = client.get(reverse("tournaments:event_list")).content.decode()
    assert reverse("accounts:logout") in signed_in
    assert reverse("accounts:password_change") in signed_in
    assert f'href="{LOGIN}' not in signed_in


def test_the_sixth_sign_in_is_refused_even_with_the_right_password(client, player):
    for _ in range(5):
        client.post(LOGIN, {"username": "ana", "password": "wrong"})
    response = client.post(LOGIN, {"username": "ana", "password": "right-horse-9"})
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed sign-ins; try again in 15 minutes." in text
    assert "<html" in text  # the site's own page, not axes' plain text
    assert not _signed_in(client)


def test_the_lock_is_per_user_others_still_sign_in(client, player):
    User.objects.create_user("ben", "ben@example.org", "other-horse-9")
    for _ in range(6):
        client.post(LOGIN, {"username": "ana", "password": "wrong"})
    response = client.post(LOGIN, {"username": "ben", "password": "other-horse-9"})
    assert response.status_code == 302
    assert _signed_in(client)


def test_the_lock_ends_after_the_cool_off(client, player):
    from datetime import timedelta

    from axes.models import AccessAttempt
    from django.utils import timezone

    for _ in range(5):
        client.post(LOGIN, {"username": "ana", "password": "wrong"})
    assert client.post(LOGIN, {"username": "ana", "password": "right-horse-9"}).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    response = client.post(LOGIN, {"username": "ana", "password": "right-horse-9"})
    assert response.status_code == 302
    assert _signed_in(client)


PROXY = "10.0.0.1"  # the TLS proxy: every request reaches the application from it


def _behind_proxy(client_address: str) -> Client:
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_address)


def test_behind_the_proxy_a_stranger_cannot_lock_the_director_out(settings, player):
    """Every visitor reaches the application from the proxy's address: the lock must take
    the client's address from ARBITER_CLIENT_IP_HEADER, as the rate limits do."""
    settings.ARBITER_CLIENT_IP_HEADER = "X-Forwarded-For"
    stranger = _behind_proxy("203.0.113.66")
    for _ in range(20):
        stranger.post(LOGIN, {"username": "ana", "password": "wrong"})
    assert stranger.post(LOGIN, {"username": "ana", "password": "right-horse-9"}).status_code == 429
    from axes.models import AccessAttempt

    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.66"}
    ana = _behind_proxy("198.51.100.7")
    response = ana.post(LOGIN, {"username": "ana", "password": "right-horse-9"})
    assert response.status_code == 302
    assert _signed_in(ana)


def test_a_forwarded_address_that_is_not_one_counts_as_the_proxy(settings, player):
    # a header the proxy did not write must not crash the sign-in (axes stores an address)
    settings.ARBITER_CLIENT_IP_HEADER = "X-Forwarded-For"
    client = _behind_proxy("not-an-address")
    assert client.post(LOGIN, {"username": "ana", "password": "wrong"}).status_code == 200
    from axes.models import AccessAttempt

    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == [PROXY]


def test_failures_while_locked_do_not_push_the_unlock_time_later(client, player):
    from datetime import timedelta

    from axes.models import AccessAttempt
    from django.utils import timezone

    for _ in range(5):
        client.post(LOGIN, {"username": "ana", "password": "wrong"})
    ten_minutes_ago = timezone.now() - timedelta(minutes=10)
    AccessAttempt.objects.update(attempt_time=ten_minutes_ago)  # the lock has run 10 minutes
    for _ in range(10):  # someone keeps trying while it stands
        locked = client.post(LOGIN, {"username": "ana", "password": "wrong"})
        assert locked.status_code == 429
    assert list(AccessAttempt.objects.values_list("attempt_time", flat=True)) == [ten_minutes_ago]
    assert "try again in 5 minutes" in locked.content.decode()  # what is left, not 15 again
    AccessAttempt.objects.update(attempt_time=ten_minutes_ago - timedelta(minutes=6))
    response = client.post(LOGIN, {"username": "ana", "password": "right-horse-9"})
    assert response.status_code == 302
    assert _signed_in(client)
