"""A newcomer's first minutes (issue 28, item 9): `make run` on another port says that port
and mails link to it; after sign-up a new user can both claim an entry and create an event;
under DEBUG a wrong address shows the project's own 404 page, in the reader's language."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[1]


def _make_run_dry(*assignments: str) -> str:
    """The commands `make run` would run (make -n), outside any ARBITER_SITE_URL of ours."""
    env = {k: v for k, v in os.environ.items() if k not in {"ARBITER_SITE_URL", "PORT", "HOST"}}
    done = subprocess.run(
        ["make", "-n", "run", *assignments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_make_run_serves_and_links_to_the_port_asked_for():
    """Item 9: `make run PORT=8123` serves 8123, prints 8123 and mails link to 8123."""
    commands = _make_run_dry("PORT=8123")
    runserver = next(line for line in commands.splitlines() if "runserver" in line)
    demo = next(line for line in commands.splitlines() if "load_demo" in line)
    assert runserver.rstrip().endswith("runserver 127.0.0.1:8123")
    assert "ARBITER_SITE_URL=http://127.0.0.1:8123" in runserver
    assert "ARBITER_SITE_URL=http://127.0.0.1:8123" in demo
    assert "8000" not in commands


def test_make_run_keeps_a_site_url_the_deployer_set():
    commands = _make_run_dry("ARBITER_SITE_URL=https://arbiter.example.org")
    runserver = next(line for line in commands.splitlines() if "runserver" in line)
    assert "ARBITER_SITE_URL=https://arbiter.example.org" in runserver
    assert runserver.rstrip().endswith("runserver 127.0.0.1:8000")


# `load_demo` printing the site it is served at (ARBITER_SITE_URL) is checked in the one load
# of the demo that tests/tournaments/test_series_demo.py makes (a load costs seconds).


@pytest.mark.django_db
def test_after_sign_up_a_new_user_can_claim_an_entry_or_create_an_event(client):
    """Item 9: the page a new account lands on offers both paths."""
    landed = client.post(
        reverse("accounts:signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": "violet-kite-72",
            "password2": "violet-kite-72",
        },
        follow=True,
    )
    text = landed.content.decode()
    assert landed.redirect_chain[-1][0] == reverse("accounts:claim")
    assert "Claim your entry" in text
    assert f'href="{reverse("tournaments:manage_create")}"' in text
    assert f'href="{reverse("tournaments:manage_import_event")}"' in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/no/such/page/", "/e/no-such-event/"], ids=["no route", "a view's Http404"]
)
def test_under_debug_a_wrong_address_is_the_projects_404_page(client, settings, path):
    """Item 9: not Django's technical page (English, 980 px wide)."""
    settings.DEBUG = True
    response = client.get(path)
    assert response.status_code == 404
    text = response.content.decode()
    assert "Nothing here" in text and "Back to the events" in text
    assert 'name="viewport"' in text
    assert "Using the URLconf defined in" not in text and "Django tried" not in text


@pytest.mark.django_db
def test_under_debug_the_404_page_is_french_for_a_french_reader(client, settings):
    settings.DEBUG = True
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client.get("/no/such/page/")
    text = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="fr">' in text and "Rien ici" in text and "Retour aux tournois" in text


@pytest.mark.django_db
def test_under_debug_a_missing_slash_still_redirects(client, settings):
    settings.DEBUG = True
    response = client.get("/accounts/login")
    assert response.status_code == 301 and response.url == "/accounts/login/"
