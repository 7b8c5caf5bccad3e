"""Issue 28, item 10(c): every round can carry its start time (Round.starts_at, the field
GokoDom's schedule already uses: one mechanism for all formats). The director sets it in the
event's time zone on the round's page, while drafting or after publishing; the public round
page, the projector and the pairing mails show it in that zone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import round_robin_event
from tests.tournaments.test_notifications import _player
from tournaments.models import AuditEntry, Round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

PARIS_WINTER = dt.timezone(dt.timedelta(hours=1))


@pytest.fixture(autouse=True)
def mail_settings(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ARBITER_SITE_URL = "https://arbiter.example.org"


@pytest.fixture
def drafted(director):
    event = round_robin_event(director, players=4, slug="timed")
    event.time_zone = "Europe/Paris"
    event.save(update_fields=["time_zone"])
    draft = rounds.draft_next_round(event, by=director).round
    return event, draft


def set_start(director, event, number, text):
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:manage_round_start", args=[event.slug, number])
    return client, client.post(url, {"starts_at": text})


def test_the_director_sets_a_drafts_start_time_in_the_events_zone(director, drafted):
    event, draft = drafted
    client, answer = set_start(director, event, 1, "2031-03-01T14:30")
    assert answer.status_code == 302
    rnd = Round.objects.get(pk=draft.pk)
    # 14:30 in Paris in winter is 13:30 UTC
    assert rnd.starts_at == dt.datetime(2031, 3, 1, 14, 30, tzinfo=PARIS_WINTER)
    assert AuditEntry.objects.filter(event=event, action="round.start_time").exists()
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, 1])).content.decode()
    assert 'value="2031-03-01T14:30"' in page
    # an empty time takes it off again
    set_start(director, event, 1, "")
    assert Round.objects.get(pk=draft.pk).starts_at is None


def test_the_start_time_is_shown_on_the_public_page_the_projector_and_the_mail(
    director, drafted, django_capture_on_commit_callbacks
):
    event, draft = drafted
    player = _player(event, 1)
    set_start(director, event, 1, "2031-03-01T14:30")
    with django_capture_on_commit_callbacks(execute=True):
        rounds.publish_round(Round.objects.get(pk=draft.pk), by=director)
    public = Client()
    page = public.get(reverse("tournaments:round", args=[event.slug, 1])).content.decode()
    assert 'datetime="2031-03-01T14:30:00+01:00"' in page and "Sat 1 Mar, 14:30" in page
    projector = public.get(reverse("tournaments:round_projector", args=[event.slug, 1]))
    html = projector.content.decode()
    assert "Starts" in html and "Sat 1 Mar, 14:30" in html and "Europe/Paris" in html
    (message,) = [m for m in mail.outbox if m.to == [player.email]]
    assert "Starts: Sat 1 Mar 2031 14:30 (Europe/Paris)" in message.body


def test_a_start_time_moved_after_publishing_reaches_the_cached_public_page(director, drafted):
    event, draft = drafted
    rounds.publish_round(Round.objects.get(pk=draft.pk), by=director)
    public = Client()
    url = reverse("tournaments:round", args=[event.slug, 1])
    assert "Starts" not in public.get(url).content.decode()
    set_start(director, event, 1, "2031-03-01T09:00")
    assert "Sat 1 Mar, 09:00" in public.get(url).content.decode()


@pytest.mark.parametrize("text", ["tomorrow", "2031-02-30T10:00", "2031-03-01T25:00"])
def test_an_unparseable_start_time_is_refused_naming_the_field(director, drafted, text):
    event, draft = drafted
    _, answer = set_start(director, event, 1, text)
    assert answer.status_code == 422
    html = answer.content.decode()
    assert "Start time:" in html and "is not a date and time" in html
    assert Round.objects.get(pk=draft.pk).starts_at is None
    assert not AuditEntry.objects.filter(event=event, action="round.start_time").exists()


def test_a_closed_rounds_start_time_no_longer_changes(director, drafted):
    event, draft = drafted
    Round.objects.filter(pk=draft.pk).update(status=Round.Status.COMPLETED)
    client, answer = set_start(director, event, 1, "2031-03-01T14:30")
    assert answer.status_code == 302
    assert Round.objects.get(pk=draft.pk).starts_at is None
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, 1]))
    assert "is closed: its start time can no longer change" in page.content.decode()


def test_one_start_time_for_every_format_gokodoms_schedule_reads_it(director):
    """GokoDom's schedule already read Round.starts_at: the round page's start time is the
    same field, so a GokoDom round set here shows the same time on GokoDom's screens."""
    from tests.factories import gokodom_event
    from tournaments.formats.gokodom import schedule

    event = gokodom_event(director, players=4, slug="goko-timed", users=False)
    draft = rounds.draft_next_round(event, by=director).round
    _, answer = set_start(director, event, draft.number, "2031-03-01 09:15")
    assert answer.status_code == 302
    rnd = Round.objects.get(pk=draft.pk)
    assert schedule.starts_at(event, rnd) == dt.datetime(2031, 3, 1, 9, 15, tzinfo=dt.UTC)


def test_a_start_after_the_rounds_deadline_is_refused_naming_the_field(director, drafted):
    event, draft = drafted
    Round.objects.filter(pk=draft.pk).update(deadline=dt.datetime(2031, 3, 1, 12, tzinfo=dt.UTC))
    client, answer = set_start(director, event, 1, "2031-03-01T14:30")
    assert answer.status_code == 302
    assert Round.objects.get(pk=draft.pk).starts_at is None
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, 1])).content.decode()
    assert "Start time: the round must start before its deadline." in page
