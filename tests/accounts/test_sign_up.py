"""Sign-up: a player creates an account before claiming an entry; duplicates are refused."""

import pytest
from django.urls import reverse

from accounts import services
from accounts.models import User
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")
GOOD = {
    "username": "carla",
    "email": "carla@example.org",
    "password1": "violet-kite-72",
    "password2": "violet-kite-72",
}


def test_sign_up_creates_the_account_signs_in_and_leads_to_the_claim_page(client):
    assert client.get(SIGNUP).status_code == 200
    response = client.post(SIGNUP, GOOD)
    assert response.status_code == 302
    assert response.url == reverse("accounts:claim")
    user = User.objects.get(username="carla")
    assert user.email == "carla@example.org"
    assert user.check_password("violet-kite-72")
    assert int(client.session["_auth_user_id"]) == user.pk


def test_sign_up_keeps_next_so_an_invite_link_comes_back(client):
    target = reverse("accounts:claim_code", kwargs={"code": "abc"})
    response = client.post(f"{SIGNUP}?next={target}", {**GOOD, "next": target})
    assert response.url == target


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("username", "CARLA", "The username “CARLA” is taken; choose another."),
        ("email", "Carla@Example.org", "An account with this email exists"),
    ],
)
def test_sign_up_refuses_duplicates_with_a_clear_message(client, field, value, message):
    User.objects.create_user("carla", "carla@example.org", "x-violet-kite-72")
    data = {**GOOD, "username": "dora", "email": "dora@example.org", field: value}
    response = client.post(SIGNUP, data)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"password2": "violet-kite-73"}, "The two passwords differ"),
        ({"password1": "12345678", "password2": "12345678"}, "entirely numeric"),
        ({"password1": "short", "password2": "short"}, "too short"),
        ({"email": "not-an-email"}, "Enter a valid email address."),
        ({"username": "has space"}, "Username: use only letters, digits"),
    ],
)
def test_sign_up_names_the_field_and_the_problem(client, changes, message):
    response = client.post(SIGNUP, {**GOOD, **changes})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not User.objects.exists()


def test_a_signed_in_user_is_sent_on(client):
    client.force_login(User.objects.create_user("eve", "eve@example.org", "x"))
    assert client.get(SIGNUP).status_code == 302


def test_the_service_repeats_the_duplicate_checks():
    services.create_account(username="fay", email="fay@example.org", password="pw-fay-long-1")
    with pytest.raises(ServiceError) as error:
        services.create_account(username="FAY", email="FAY@example.org", password="pw")
    assert [p.field for p in error.value.problems] == ["username", "email"]
