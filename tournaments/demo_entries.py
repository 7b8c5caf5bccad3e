"""A demo event that takes entries, for `make run` (issue 32, docs/registration.md): an open
round robin with eight places, an entry deadline, a rating list (a minimum rating), eight
players holding a place, two on the waiting list and one who has not confirmed their
address yet. Its public page shows "Enter this event"; the director's Entries screen shows
the line. Idempotent: an event already there is left as it is."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from tournaments.models import Event
from tournaments.services import events, places, rating_list, registration

SLUG = "demo-open-entries"
NAME = "Demo open tournament (entries open)"
CAPACITY = 8
MIN_RATING = 1400
# name, rating, federation, WOF id: the rating list the eligibility rule reads (invented)
RATING_LIST = [
    ("Alba Ferrer", 1912, "ESP", "9101"),
    ("Bram de Vries", 1788, "NED", "9102"),
    ("Chen Jing", 2104, "CHN", "9103"),
    ("Dara O'Neill", 1655, "IRL", "9104"),
    ("Emma Laurent", 1590, "FRA", "9105"),
    ("Filip Nowak", 1523, "POL", "9106"),
    ("Greta Holm", 1477, "SWE", "9107"),
    ("Hiro Tanaka", 1861, "JPN", "9108"),
    ("Ilse Brandt", 1432, "GER", "9109"),
    ("Jakub Horak", 1410, "CZE", "9110"),
    ("Kira Ivanova", 1702, "BUL", "9111"),
    ("Luca Romano", 1288, "ITA", "9112"),  # below the minimum: the form refuses him
    ("Mia Jensen", 1196, "DEN", "9113"),
]
CONFIRMED = 10  # the first ten on the list confirm their address: 8 places, 2 waiting
UNCONFIRMED = "Kira Ivanova"


def build(*, director: Any) -> Event | None:
    if Event.objects.filter(slug=SLUG).exists():
        return None
    now = timezone.now()
    event = events.create_event(
        slug=SLUG,
        name=NAME,
        format="round_robin",
        by=director,
        public=True,
        starts_on=(now + timedelta(days=21)).date(),
        ends_on=(now + timedelta(days=22)).date(),
        venue="Demo club",
    )
    rows = [
        {"name": name, "rating": rating, "federation": federation, "external_id": wof}
        for name, rating, federation, wof in RATING_LIST
    ]
    rating_list.replace(event, rows, by=director, source="demo-ratings.csv", now=now)
    registration.update_settings(
        event,
        {
            "open": True,
            "capacity": CAPACITY,
            "closes_at": now + timedelta(days=14),
            "min_rating": MIN_RATING,
        },
        by=director,
        now=now,
    )
    for minutes, (name, *_rest) in enumerate(RATING_LIST[:CONFIRMED]):
        at = now - timedelta(days=3) + timedelta(minutes=37 * minutes)
        entry = places.enter(event, name=name, email=_address(name), now=at)
        places.confirm_email(entry, now=at + timedelta(minutes=5))
    places.enter(event, name=UNCONFIRMED, email=_address(UNCONFIRMED), now=now)
    return event


def _address(name: str) -> str:
    return name.lower().replace(" ", ".").replace("'", "") + "@example.org"
