"""Password change and reset (the console email backend by default; tests use locmem)."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    return User.objects.create_user("gus", "gus@example.org", "old-secret-77")


def test_console_email_is_the_default_backend():
    from config import settings

    assert settings.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"


def test_password_change_needs_sign_in_then_changes_it(client, player):
    url = reverse("accounts:password_change")
    response = client.get(url)
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))
    client.force_login(player)
    assert client.get(url).status_code == 200
    wrong = client.post(
        url,
        {
            "old_password": "nope",
            "new_password1": "new-secret-88",
            "new_password2": "new-secret-88",
        },
    )
    assert "Your old password was entered incorrectly" in wrong.content.decode()
    response = client.post(
        url,
        {
            "old_password": "old-secret-77",
            "new_password1": "new-secret-88",
            "new_password2": "new-secret-88",
        },
    )
    assert response.status_code == 302
    assert response.url == reverse("accounts:password_change_done")
    player.refresh_from_db()
    assert player.check_password("new-secret-88")
    assert "Password changed" in client.get(response.url).content.decode()


def test_password_reset_mails_a_link_that_sets_a_new_password(client, player):
    response = client.post(reverse("accounts:password_reset"), {"email": "GUS@example.org"})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    assert "gus" in body
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/\S+/)", body).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "fresh-secret-99", "new_password2": "fresh-secret-99"},
    )
    assert done.status_code == 302
    assert done.url == reverse("accounts:password_reset_complete")
    player.refresh_from_db()
    assert player.check_password("fresh-secret-99")
    # the link works once
    again = client.get(link, follow=True)
    assert "This link does not work" in again.content.decode()


def test_password_reset_does_not_tell_whether_an_email_has_an_account(client, player):
    response = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password_reset_done")
    assert mail.outbox == []
