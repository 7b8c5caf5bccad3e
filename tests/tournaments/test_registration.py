"""Registration for open events (issue 32, item 3): the entry form, capacity, the waiting
list in order of entry, promotion with a time to confirm, withdrawal, eligibility from a
rating list, the director's entries screen, "Make entrants"; every action audited."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tournaments.models import AuditEntry, Entry
from tournaments.services import places, rating_list
from tournaments.services import registration as registration_settings
from tournaments.services.errors import ServiceError
from tournaments.views import pagecache, pagegen

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def event(director):
    from tournaments.services import events

    made = events.create_event(
        slug="open", name="Open", format="round_robin", by=director, public=True
    )
    registration_settings.update_settings(made, {"open": True, "capacity": 2}, by=director)
    return made


def _enter(event, name, *, when=None, django_capture_on_commit_callbacks=None):
    entry = places.enter(event, name=name, email=f"{name.lower()}@example.org", now=when)
    return places.confirm_email(entry, now=when)


def _line(event):
    return [(e.name, e.status) for e in Entry.objects.filter(event=event).order_by("order")]


def test_entries_past_capacity_wait_in_order_of_entry(event):
    for name in ("Ann", "Bob", "Cat", "Dan"):
        _enter(event, name)
    assert _line(event) == [
        ("Ann", "accepted"),
        ("Bob", "accepted"),
        ("Cat", "waiting"),
        ("Dan", "waiting"),
    ]
    assert places.held(event) == 2


def test_an_entry_without_an_account_counts_from_its_confirmed_address(event):
    late = places.enter(event, name="Eve", email="eve@example.org")
    _enter(event, "Ann")
    assert Entry.objects.get(pk=late.pk).status == "unconfirmed" and late.order is None
    places.confirm_email(late)
    assert _line(event) == [("Ann", "accepted"), ("Eve", "accepted")]


def test_a_signed_in_account_with_the_same_address_joins_at_once(event):
    user = User.objects.create_user("pia", email="pia@example.org", password="pw")
    entry = places.enter(event, name="Pia", email="PIA@example.org", user=user)
    assert entry.status == "accepted" and entry.user == user


def test_a_withdrawal_offers_the_place_to_the_first_waiting_with_a_deadline(
    event, django_capture_on_commit_callbacks
):
    now = timezone.now()
    for name in ("Ann", "Bob", "Cat", "Dan"):
        _enter(event, name, when=now)
    ann = Entry.objects.get(name="Ann")
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        places.withdraw(ann, now=now)
    cat = Entry.objects.get(name="Cat")
    assert cat.status == "offered"
    assert cat.offer_expires_at == now + timedelta(hours=48)
    assert Entry.objects.get(name="Dan").status == "waiting"
    (offer,) = [m for m in mail.outbox if m.to == ["cat@example.org"]]
    assert "a place is yours if you confirm" in offer.subject
    assert reverse("tournaments:entry", args=["open", cat.token]) in offer.body
    places.confirm_place(cat, now=now + timedelta(hours=1))
    assert Entry.objects.get(name="Cat").status == "accepted"
    assert places.held(event) == 2


def test_a_missed_deadline_passes_the_place_on_by_the_sweep(event):
    now = timezone.now()
    for name in ("Ann", "Bob", "Cat", "Dan"):
        _enter(event, name, when=now)
    places.withdraw(Entry.objects.get(name="Ann"), now=now)
    assert places.sweep(now=now + timedelta(hours=47)) == 0
    assert places.sweep(now=now + timedelta(hours=48)) == 1
    assert _line(event)[2:] == [("Cat", "expired"), ("Dan", "offered")]
    with pytest.raises(ServiceError, match="ran out"):
        places.confirm_place(Entry.objects.get(name="Cat"), now=now + timedelta(hours=49))


def test_a_late_confirmation_is_refused_and_passes_the_place_on_without_the_sweep(event):
    """The check on read: the sweep has not run, the deadline has passed."""
    now = timezone.now()
    for name in ("Ann", "Bob", "Cat", "Dan"):
        _enter(event, name, when=now)
    places.withdraw(Entry.objects.get(name="Ann"), now=now)
    with pytest.raises(ServiceError, match="ran out"):
        places.confirm_place(Entry.objects.get(name="Cat"), now=now + timedelta(hours=50))
    assert _line(event)[2:] == [("Cat", "expired"), ("Dan", "offered")]


def test_a_decline_offers_the_next_and_raising_capacity_offers_more(event, director):
    for name in ("Ann", "Bob", "Cat", "Dan", "Eli"):
        _enter(event, name)
    places.withdraw(Entry.objects.get(name="Bob"))
    places.decline(Entry.objects.get(name="Cat"))
    assert [s for _n, s in _line(event)] == [
        "accepted",
        "withdrawn",
        "declined",
        "offered",
        "waiting",
    ]
    registration_settings.update_settings(event, {"capacity": 3}, by=director)
    assert Entry.objects.get(name="Eli").status == "offered"
    with pytest.raises(ServiceError, match="already held"):
        registration_settings.update_settings(event, {"capacity": 1}, by=director)


def test_closed_form_deadline_and_duplicates_are_refused_with_their_field(event, director):
    _enter(event, "Ann")
    with pytest.raises(ServiceError) as refused:
        places.enter(event, name="Ann", email="ann@example.org")
    assert [p.field for p in refused.value.problems] == ["email"]
    past = timezone.now() - timedelta(minutes=1)
    registration_settings.update_settings(event, {"closes_at": past}, by=director)
    with pytest.raises(ServiceError, match="deadline"):
        places.enter(event, name="Zed", email="zed@example.org")
    registration_settings.update_settings(event, {"open": False, "closes_at": None}, by=director)
    with pytest.raises(ServiceError, match="closed"):
        places.enter(event, name="Zed", email="zed@example.org")
    assert Entry.objects.filter(name="Zed").count() == 0


def test_eligibility_reads_the_rating_list_minimum_and_federation(event, director):
    rows, problems = rating_list.parse_csv(
        "name,rating,federation,id\nHélène Dupré,2100,FRA,12\n"
        "Bob Low,1500,FRA,13\nUma Far,2200,USA,\n"
    )
    assert not problems
    rating_list.replace(event, rows, by=director, source="list.csv")
    registration_settings.update_settings(
        event, {"min_rating": 1800, "federations": "FRA GBR"}, by=director
    )
    entry = places.enter(event, name="DUPRÉ Hélène", email="h@example.org")
    assert (entry.rating, entry.federation, entry.external_id) == (2100, "FRA", "12")
    with pytest.raises(ServiceError, match="1500; this event asks for 1800"):
        places.enter(event, name="Bob Low", email="b@example.org")
    with pytest.raises(ServiceError, match="listed for USA"):
        places.enter(event, name="Uma Far", email="u@example.org")
    with pytest.raises(ServiceError, match="not on this event's rating list"):
        places.enter(event, name="Nobody", email="n@example.org")


def test_a_csv_rating_list_with_a_bad_rating_names_its_line():
    rows, problems = rating_list.parse_csv("name,rating\nAnn,12x\n")
    assert rows == [] and problems[0].text == "Line 2, rating: 12x is not a whole number."


def test_director_accept_refuse_wait_are_audited_and_promote(event, director):
    for name in ("Ann", "Bob", "Cat", "Dan"):
        _enter(event, name)
    with pytest.raises(ServiceError, match="full"):
        places.director_accept(Entry.objects.get(name="Dan"), by=director)
    places.director_refuse(Entry.objects.get(name="Ann"), by=director, reason="no fee")
    assert Entry.objects.get(name="Cat").status == "offered"
    places.director_to_waiting(Entry.objects.get(name="Bob"), by=director)
    assert _line(event)[-1] == ("Bob", "waiting")  # the end of the line
    assert Entry.objects.get(name="Dan").status == "offered"
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"entry.refused", "entry.moved_to_waiting", "entry.offered", "entry.accepted"} <= actions


def test_make_entrants_turns_accepted_entries_into_entrants_in_order(event, director):
    user = User.objects.create_user("pia", email="pia@example.org", password="pw")
    places.enter(event, name="Pia", email="pia@example.org", user=user)
    _enter(event, "Ann")
    _enter(event, "Cat")  # waiting: not made
    numbers = places.make_entrants(event, by=director)
    assert numbers == [1, 2]
    assert [(e.number, e.name, e.user) for e in event.entrants.order_by("number")] == [
        (1, "Pia", user),
        (2, "Ann", None),
    ]
    assert places.make_entrants(event, by=director) == []  # once
    with pytest.raises(ServiceError, match="already an entrant"):
        places.withdraw(Entry.objects.get(name="Ann"))


# -- pages ------------------------------------------------------------------------------


def test_the_entry_form_shows_field_errors_and_saves_nothing(client, event):
    url = reverse("tournaments:enter", args=["open"])
    response = client.post(url, {"name": "", "email": "not-an-address"})
    assert response.status_code == 422
    assert b"Enter a valid email address." in response.content
    assert Entry.objects.count() == 0
    response = client.post(url, {"name": "Ann", "email": "ann@example.org"})
    entry = Entry.objects.get()
    assert response.status_code == 302 and response.url.endswith(f"/entry/{entry.token}/")
    page = client.get(response.url)
    assert b"Confirm my entry" in page.content
    client.post(response.url, {"action": "confirm_email"})
    assert Entry.objects.get().status == "accepted"
    client.post(response.url, {"action": "withdraw"})
    assert Entry.objects.get().status == "withdrawn"


def test_an_unknown_entry_link_is_a_404(client, event):
    assert client.get(reverse("tournaments:entry", args=["open", "nope"])).status_code == 404


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_pages_cost_the_same_queries_for_3_or_30_entries(client, event, director):
    client.force_login(director)
    registration_settings.update_settings(event, {"capacity": 2}, by=director)
    for i in range(3):
        _enter(event, f"P{i}")
    entry = Entry.objects.order_by("-order").first()
    urls = [
        reverse("tournaments:manage_entries_list", args=["open"]),
        reverse("tournaments:enter", args=["open"]),
        reverse("tournaments:entry", args=["open", entry.token]),
    ]
    few = [_count(client, u) for u in urls]
    for i in range(3, 30):
        _enter(event, f"P{i}")
    entry = Entry.objects.order_by("-order").first()
    urls[2] = reverse("tournaments:entry", args=["open", entry.token])
    assert [_count(client, u) for u in urls] == few


def test_the_director_screen_acts_and_refuses_bad_settings(client, event, director):
    client.force_login(director)
    _enter(event, "Ann")
    ann = Entry.objects.get(name="Ann")
    page = client.get(reverse("tournaments:manage_entries_list", args=["open"]))
    assert b"1 of 2 places held" in page.content
    bad = client.post(
        reverse("tournaments:manage_entries_settings", args=["open"]),
        {"open": "on", "capacity": "0", "confirm_hours": "48", "closes_at": "soon"},
    )
    assert bad.status_code == 422
    assert "Entry deadline: “soon” is not a date and time" in bad.content.decode()
    client.post(reverse("tournaments:manage_entry_action", args=["open", ann.pk, "refuse"]))
    assert Entry.objects.get(name="Ann").status == "refused"


@pytest.fixture
def page_cache_on(settings):
    """The page cache as in production, under a key prefix of its own."""
    settings.ARBITER_PAGE_CACHE = True
    settings.CACHES = {
        name: {**conf, "KEY_PREFIX": f"entries-{uuid.uuid4().hex[:8]}"}
        for name, conf in settings.CACHES.items()
    }
    pagecache._down_until = pagegen._down_until = 0.0
    yield
    pagecache._down_until = pagegen._down_until = 0.0


def test_the_public_event_page_links_the_entry_form_while_entries_are_open(
    client, event, director, page_cache_on
):
    """A player finds the form from the event's page; closing entries takes the link away
    at once, though the page is cached (the settings move the page's stamp)."""
    page = client.get(reverse("tournaments:event", args=[event.slug])).content.decode()
    assert reverse("tournaments:enter", args=[event.slug]) in page
    assert "Enter this event" in page
    registration_settings.update_settings(event, {"open": False}, by=director)
    page = client.get(reverse("tournaments:event", args=[event.slug])).content.decode()
    assert reverse("tournaments:enter", args=[event.slug]) not in page
