"""Sign in, sign out, and the brute-force lock (django-axes) on the sign-in page."""

import pytest
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
