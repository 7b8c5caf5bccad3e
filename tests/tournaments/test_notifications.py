"""E-mail (issue 21, item 14): a published round mails each claimed player their pairing, a
disputed GokoDom result mails both players and the directors; nobody gets a mail twice, an
opt-out is honoured, and a mail server that fails never stops the publish."""

from __future__ import annotations

import datetime as dt
import re
import smtplib
import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.services import claim_entrant
from tests.factories import gokodom_event, round_robin_event
from tests.tournaments.test_format_gokodom import client_for, pair, post
from tournaments.formats.gokodom import services as format_gokodom
from tournaments.models import EventDirector, Notification, Round
from tournaments.services import notifications, rounds
from tournaments.tasks import send_notifications

pytestmark = pytest.mark.django_db

SITE = "https://arbiter.example.org"
User = get_user_model()


class FailingBackend(LocmemBackend):
    """An SMTP server that refuses every mail."""

    def send_messages(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class SlowBackend(LocmemBackend):
    """A mail server that takes a moment: two tasks sending at once overlap."""

    def send_messages(self, messages):
        time.sleep(0.3)
        return super().send_messages(messages)


@pytest.fixture(autouse=True)
def mail_settings(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ARBITER_SITE_URL = SITE


def _player(event, number: int, email: str = "") -> User:
    user = User.objects.create_user(
        f"{event.slug}-u{number}", email=email or f"p{number}@example.org", password="pw-1"
    )
    claim_entrant(user, event.entrants.get(number=number).claim_code)
    return user


def _event_with_players(director, players: int = 5):
    """A round robin in Paris time with every entrant claimed, round 1 drafted."""
    director.email = "director@example.org"
    director.save(update_fields=["email"])
    event = round_robin_event(director, players=players, slug="mail")
    event.time_zone = "Europe/Paris"
    event.save(update_fields=["time_zone"])
    users = {n: _player(event, n) for n in range(1, players + 1)}
    draft = rounds.draft_next_round(event, by=director).round
    # 17:00 UTC is 18:00 in Paris in winter
    Round.objects.filter(pk=draft.pk).update(deadline=dt.datetime(2031, 3, 1, 17, tzinfo=dt.UTC))
    return event, draft, users


def _publish(director, event, draft, capture):
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:manage_round_action", args=[event.slug, draft.number, "publish"])
    with capture(execute=True):
        return client.post(url)


def _to(message) -> str:
    return message.to[0]


def test_publishing_mails_each_claimed_player_their_own_pairing(
    director, django_capture_on_commit_callbacks
):
    event, draft, users = _event_with_players(director)
    answer = _publish(director, event, draft, django_capture_on_commit_callbacks)
    assert answer.status_code == 302
    by_address = {_to(m): m for m in mail.outbox}
    # every player once, the director (who plays no match) never
    assert sorted(by_address) == sorted(u.email for u in users.values())
    assert len(mail.outbox) == len(users)
    rnd = Round.objects.get(pk=draft.pk)
    for match in rnd.matches.prefetch_related("participants__entrant"):
        seats = [p.entrant for p in match.participants.all()]
        for entrant in seats:
            message = by_address[users[entrant.number].email]
            text = message.body
            assert f"{event.name}: your pairing for {rnd.label}" == message.subject
            assert f"Hello {entrant.name}" in text
            others = [e for e in seats if e.pk != entrant.pk]
            if others:
                assert f"Table {match.table}" in text
                assert f"Opponent: {others[0].name}" in text
            else:
                assert "You have a bye in this round." in text
            # the deadline in the event's zone, the zone named
            assert "Deadline: Sat 1 Mar 2031 18:00 (Europe/Paris)" in text
            assert f"{SITE}/e/{event.slug}/entrants/{entrant.number}/" in text
            html, kind = message.alternatives[0]
            assert kind == "text/html" and "18:00 (Europe/Paris)" in html
            assert f'href="{SITE}/e/{event.slug}/entrants/{entrant.number}/"' in html
            assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert set(Notification.objects.values_list("status", flat=True)) == {"sent"}


def test_who_gets_no_pairing_mail(director, django_capture_on_commit_callbacks):
    """Not the unclaimed, not a player without an address, not one who turned mail off for
    the event or for everything."""
    event, draft, users = _event_with_players(director, players=6)
    User.objects.filter(pk=users[2].pk).update(email="")
    event.entrants.filter(number=3).update(emails_off=True)
    User.objects.filter(pk=users[4].pk).update(emails_off=True)
    event.entrants.filter(number=5).update(user=None)
    _publish(director, event, draft, django_capture_on_commit_callbacks)
    assert sorted(_to(m) for m in mail.outbox) == sorted([users[1].email, users[6].email])


def test_a_retried_or_duplicated_task_never_mails_twice(
    director, django_capture_on_commit_callbacks
):
    event, draft, _ = _event_with_players(director, players=4)
    _publish(director, event, draft, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 4
    ids = list(Notification.objects.values_list("pk", flat=True))
    send_notifications.apply(args=(ids,))  # the task again, as a redelivery would
    assert notifications.deliver(ids) == 0
    later = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    assert notifications.sweep(now=later) == 0
    # the same round's mails written again (a second publish call) are the same rows
    rnd = Round.objects.get(pk=draft.pk)
    with django_capture_on_commit_callbacks(execute=True):
        notifications.pairings_published(rnd, now=later)
    assert Notification.objects.count() == 4
    assert len(mail.outbox) == 4


@pytest.mark.django_db(transaction=True)
def test_two_tasks_sending_at_once_mail_each_player_once(director, settings):
    """Each row is locked while its mail goes out: a twin task waits, then finds it sent."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises the whole database)")
    _, draft, users = _event_with_players(director, players=4)
    settings.EMAIL_BACKEND = "tests.tournaments.test_notifications.SlowBackend"
    rounds.publish_round(draft, by=director)  # committed: the eager send already ran
    Notification.objects.update(status="pending", sent_at=None, attempts=0)
    mail.outbox = []
    ids = list(Notification.objects.values_list("pk", flat=True))

    def run():
        try:
            notifications.deliver(ids)
        finally:
            connection.close()

    twins = [threading.Thread(target=run) for _ in range(2)]
    for thread in twins:
        thread.start()
    for thread in twins:
        thread.join()
    assert sorted(_to(m) for m in mail.outbox) == sorted(u.email for u in users.values())


def test_a_failing_mail_server_does_not_stop_the_publish(
    director, settings, django_capture_on_commit_callbacks, caplog
):
    event, draft, users = _event_with_players(director, players=4)
    settings.EMAIL_BACKEND = "tests.tournaments.test_notifications.FailingBackend"
    answer = _publish(director, event, draft, django_capture_on_commit_callbacks)
    assert answer.status_code == 302
    assert Round.objects.get(pk=draft.pk).status == Round.Status.PUBLISHED
    assert mail.outbox == []
    rows = list(Notification.objects.all())
    assert len(rows) == 4
    assert all(r.status == "pending" and r.attempts == 1 for r in rows)
    assert all("SMTPServerDisconnected" in r.last_error for r in rows)
    assert "not sent" in caplog.text
    # the server is back: the sweep sends each once
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    later = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    assert notifications.sweep(now=later) == 4
    assert sorted(_to(m) for m in mail.outbox) == sorted(u.email for u in users.values())
    assert notifications.sweep(now=later) == 0
    assert len(mail.outbox) == 4


def test_a_mail_is_given_up_after_its_attempts(director, settings):
    _, draft, _ = _event_with_players(director, players=2)
    settings.EMAIL_BACKEND = "tests.tournaments.test_notifications.FailingBackend"
    rounds.publish_round(draft, by=director)  # on_commit not run: rows written only
    ids = list(Notification.objects.values_list("pk", flat=True))
    for _ in range(notifications.MAX_ATTEMPTS - 1):
        with pytest.raises(notifications.MailNotSent):  # the task retries
            notifications.deliver(ids)
    assert notifications.deliver(ids) == 0  # the last attempt: given up, no retry asked
    assert set(Notification.objects.values_list("status", flat=True)) == {"failed"}
    assert notifications.deliver(ids) == 0  # given up: not tried again


def test_turning_mail_off_after_the_publish_still_stops_it(director):
    event, draft, users = _event_with_players(director, players=2)
    rounds.publish_round(draft, by=director)  # rows written; the task has not run
    event.entrants.filter(number=1).update(emails_off=True)
    notifications.deliver(list(Notification.objects.values_list("pk", flat=True)))
    assert [_to(m) for m in mail.outbox] == [users[2].email]
    skipped = Notification.objects.get(entrant__number=1)
    assert skipped.status == "skipped" and "turned e-mail about this event off" in (
        skipped.last_error
    )


def _links(message) -> list[str]:
    return re.findall(rf"{re.escape(SITE)}(/mail/unsubscribe/[^\s/]+/)", message.body)


def test_the_unsubscribe_links_work_without_signing_in(
    director, django_capture_on_commit_callbacks
):
    event, draft, users = _event_with_players(director, players=2)
    _publish(director, event, draft, django_capture_on_commit_callbacks)
    message = next(m for m in mail.outbox if _to(m) == users[1].email)
    event_link, all_link = _links(message)
    anonymous = Client(enforce_csrf_checks=True)
    page = anonymous.get(event_link)
    assert page.status_code == 200
    assert "This stops e-mail to Player 1 about" in page.content.decode()
    entrant = event.entrants.get(number=1)
    entrant.refresh_from_db()
    assert not entrant.emails_off  # a link scanner's GET changes nothing
    token = anonymous.cookies["csrftoken"].value
    done = anonymous.post(event_link, {"csrfmiddlewaretoken": token})
    assert done.status_code == 200 and "is off." in done.content.decode()
    entrant.refresh_from_db()
    assert entrant.emails_off
    # the mail client's one-click button (RFC 8058): a POST without session or CSRF token
    one_click = message.extra_headers["List-Unsubscribe"].strip("<>").replace(SITE, "")
    assert Client(enforce_csrf_checks=True).post(one_click).status_code == 200
    # the "everything" link turns the user off
    Client().post(all_link)
    assert User.objects.get(pk=users[1].pk).emails_off
    # a link that was changed is refused and changes nothing
    forged = all_link.replace(all_link.split("/")[-2], all_link.split("/")[-2][:-2] + "xx")
    assert Client().post(forged).status_code == 400
    assert Client().get(forged).status_code == 400
    bad = reverse("tournaments:unsubscribe_one_click", args=["nothing"])
    assert Client(enforce_csrf_checks=True).post(bad).status_code == 400


def test_a_player_turns_mail_off_on_their_own_page(director):
    event = round_robin_event(director, players=2, slug="prefs")
    user = _player(event, 1)
    page_url = reverse("tournaments:entrant", args=[event.slug, 1])
    player = Client()
    player.force_login(user)
    page = player.get(page_url).content.decode()
    assert 'name="event" value="on" checked' in page and 'name="all" value="on" checked' in page
    assert "E-mail" not in Client().get(page_url).content.decode()  # not on others' views
    url = reverse("tournaments:entrant_emails", args=[event.slug, 1])
    answer = player.post(url, {"all": "on"})  # this event off, the rest on
    assert answer.status_code == 302 and answer.url.endswith("?emails=saved#email-prefs")
    entrant = event.entrants.get(number=1)
    assert entrant.emails_off and not User.objects.get(pk=user.pk).emails_off
    assert "Saved: no e-mail about this event." in player.get(answer.url).content.decode()
    player.post(url, {"event": "on"})  # everything off
    assert User.objects.get(pk=user.pk).emails_off
    # a director is not the player: refused
    own = Client()
    own.force_login(director)
    assert own.post(url, {"event": "on", "all": "on"}).status_code == 403


def test_a_dispute_mails_both_players_and_the_directors(
    director, django_capture_on_commit_callbacks
):
    director.email = "director@example.org"
    director.save(update_fields=["email"])
    event = gokodom_event(director, swiss_rounds=3)
    second = User.objects.create_user("second", email="second@example.org", password="pw-2")
    quiet = User.objects.create_user("quiet", email="quiet@example.org", password="pw-3")
    EventDirector.objects.create(event=event, user=second)
    EventDirector.objects.create(event=event, user=quiet, emails_off=True)
    for entrant in event.entrants.select_related("user"):
        entrant.user.email = f"{entrant.user.username}@example.org"
        entrant.user.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    mail.outbox = []
    match, a, b = pair(rnd)
    format_gokodom.report(match, a, outcome="W", by=a.user)
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(client_for(b), "dispute", event, match, {"note": "I won on time"})
    assert answer.status_code == 302
    got = {_to(m): m for m in mail.outbox}
    assert sorted(got) == sorted([a.user.email, b.user.email, director.email, second.email])
    assert len(mail.outbox) == 4
    for message in mail.outbox:
        assert f"{rnd.label} {match.code} is disputed" in message.subject
        assert f"{b.name} disputed the reported result" in message.body
        assert '"I won on time"' in message.body
        assert f"{a.name} says {a.name} won" in message.body
    # the director's link opens the match's own page, where they settle it (issue 28)
    settle = reverse("tournaments:gokodom_settle", args=[event.slug, match.pk])
    assert f"{SITE}{settle}" in got[director.email].body
    assert f"{SITE}/e/{event.slug}/entrants/{a.number}/" in got[a.user.email].body
    # the same dispute's task again: nobody twice
    notifications.deliver(list(Notification.objects.values_list("pk", flat=True)))
    assert len(mail.outbox) == 4
