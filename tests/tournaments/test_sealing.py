"""Venue mode's mirror token sealed at rest (tournaments/sealing.py, docs/venue.md): the
venue must send the token again, so it keeps it encrypted under a key derived from
SECRET_KEY rather than hashed; a database copy alone does not give it away."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.urls import reverse

from tournaments import sealing
from tournaments.models import MirrorLink

TOKEN = "arb_Xy12ab9Q" + "k" * 31


def test_a_sealed_value_opens_to_the_same_text_and_never_shows_it():
    sealed = sealing.seal(TOKEN)
    assert sealed.startswith("f1:") and TOKEN not in sealed and TOKEN[4:12] not in sealed
    assert sealing.unseal(sealed) == TOKEN
    assert sealing.seal(TOKEN) != sealed  # a new nonce each time
    assert sealing.unseal(sealing.seal("")) == ""
    assert sealing.unseal(sealing.seal("é" * 300)) == "é" * 300  # several blocks, UTF-8


def test_an_altered_value_or_another_key_or_purpose_does_not_open(settings):
    sealed = sealing.seal(TOKEN)
    flipped = sealed[:-6] + ("A" if sealed[-6] != "A" else "B") + sealed[-5:]
    for bad in (flipped, sealed[:-4], "f1:", "f1:!!", TOKEN):
        with pytest.raises(ValueError):
            sealing.unseal(bad)
    with pytest.raises(ValueError):
        sealing.unseal(sealed, purpose="another")
    old_key = settings.SECRET_KEY
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    with pytest.raises(ValueError):
        sealing.unseal(sealed)
    settings.SECRET_KEY_FALLBACKS = [old_key]  # a rotation keeps the old key as a fallback
    assert sealing.unseal(sealed) == TOKEN


@pytest.mark.django_db
def test_the_venue_stores_the_token_sealed_and_shows_only_its_start(client, director):
    from tests.factories import round_robin_event
    from tournaments.services.mirror import links

    event = round_robin_event(director, players=4, slug="sealed")
    links.configure(event, public_url="http://public.test/e/sealed/", token=TOKEN, by=director)
    link = MirrorLink.objects.get(event=event)
    assert link.token == TOKEN and link.token_hint == TOKEN[:12]
    with connection.cursor() as cursor:
        cursor.execute("SELECT sealed_token FROM tournaments_mirrorlink WHERE id = %s", [link.pk])
        (stored,) = cursor.fetchone()
    assert stored.startswith("f1:") and TOKEN not in stored
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_venue", args=["sealed"])).content.decode()
    assert TOKEN[:12] in page and TOKEN not in page and TOKEN[12:20] not in page


@pytest.mark.django_db
def test_a_token_sealed_under_a_lost_key_stops_the_pushes_with_the_reason(director, settings):
    from tests.factories import round_robin_event
    from tournaments.services.mirror import links, push

    event = round_robin_event(director, players=4, slug="lostkey")
    links.configure(event, public_url="http://public.test/e/lostkey/", token=TOKEN, by=director)
    settings.SECRET_KEY = "a-new-secret-key-" + "y" * 40
    assert push.push(event.pk) == "failed"
    link = MirrorLink.objects.get(event=event)
    assert "enter the token again" in link.last_error and link.token_hint == ""


@pytest.mark.django_db
def test_the_migration_seals_the_tokens_stored_in_clear(director):
    """Migration 0021: the rows of before (a token in clear) are sealed; a sealed one is
    left as it is; going back opens them."""
    from tests.factories import round_robin_event

    migration = importlib.import_module("tournaments.migrations.0021_mirror_token_sealed")
    event = round_robin_event(director, players=4, slug="clear")
    other = round_robin_event(director, players=4, slug="already")
    MirrorLink.objects.create(event=event, sealed_token=TOKEN)  # as 0019 stored it
    sealed = sealing.seal(TOKEN)
    MirrorLink.objects.create(event=other, sealed_token=sealed)
    migration.seal_tokens(apps, None)
    first = MirrorLink.objects.get(event=event)
    assert sealing.is_sealed(first.sealed_token) and first.token == TOKEN
    assert MirrorLink.objects.get(event=other).sealed_token == sealed
    migration.open_tokens(apps, None)
    assert MirrorLink.objects.get(event=event).sealed_token == TOKEN
