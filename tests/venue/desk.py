"""What a director does on either instance, over HTTP as the screens do it (and manage.py
where docs/venue.md names a command): make an event, a mirror token, link the venue, draft,
publish and close rounds, save results, read the event file. Shared by tests/venue and
bench/venue.py."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tests.venue.harness import DIRECTOR, Client, Instance

# the round screen's result form of a match still without a result (manage/round.html)
_OPEN_MATCH = re.compile(r'<form id="match-(\d+)"[^>]*data-pending="1"')
_VERSION = re.compile(r'name="version" value="(\d+)"')
_SECRET = re.compile(r"arb_[A-Za-z0-9_\-]{20,}")
_ROUND_URL = re.compile(r"/manage/rounds/(\d+)/")


def make_event(instance: Instance, slug: str, players: int, fmt: str = "round_robin") -> None:
    """A public event of ``players`` entrants, its director the harness's (one manage.py)."""
    script = (
        "from accounts.models import User\n"
        "from tournaments.services import events\n"
        f"d = User.objects.get(username={DIRECTOR!r})\n"
        f"e = events.create_event(slug={slug!r}, name='Venue {slug}', format={fmt!r}, by=d,"
        " public=True, settings={}, venue='The hall')\n"
        f"for i in range({players}):\n"
        "    events.add_entrant(e, name=f'Player {i + 1}', rating=2000 - i, by=d)\n"
    )
    instance.manage("shell", "-c", script)


def mirror_token(desk: Client, slug: str) -> str:
    """A token of the event with the scope mirror:push (the API tokens screen): its secret,
    shown this once."""
    answer = desk.post(
        f"/e/{slug}/manage/tokens/",
        {"name": "venue laptop", "scopes": ["mirror:push"], "expires": "0"},
    )
    found = _SECRET.search(answer.text)
    assert answer.status == 200 and found, f"no token shown: {answer!r}"
    return found.group(0)


def link_venue(venue: Instance, slug: str, public_url: str, token: str) -> str:
    """The venue publishes the event to ``public_url`` (manage.py venue_link)."""
    return venue.manage("venue_link", slug, "--url", f"{public_url}/e/{slug}/", "--token", token)


def event_file(desk: Client, slug: str) -> dict[str, Any]:
    answer = desk.get(f"/e/{slug}/manage/export/event.json")
    assert answer.status == 200, answer
    parsed: dict[str, Any] = answer.json()
    return parsed


def results_in(file: dict[str, Any]) -> int:
    """Matches with a result (games) in an event file."""
    return sum(1 for rnd in file["rounds"] for match in rnd["matches"] if match["games"])


def dashboard(desk: Client, slug: str) -> str:
    return desk.get(f"/e/{slug}/manage/").text


# -- rounds and results ----------------------------------------------------------------------


def draft_and_publish(desk: Client, slug: str) -> int:
    """The next round drafted and published; its number."""
    drafted = desk.post(f"/e/{slug}/manage/rounds/next")
    where = _ROUND_URL.search(drafted.headers.get("Location", ""))
    assert drafted.status == 302 and where, f"no round drafted: {drafted!r}"
    number = int(where.group(1))
    published = desk.post(f"/e/{slug}/manage/rounds/{number}/publish")
    assert published.status == 302, f"round {number} not published: {published!r}"
    return number


def open_matches(desk: Client, slug: str, number: int) -> list[tuple[int, int]]:
    """(match id, version) of each match of the round still without a result."""
    page = desk.get(f"/e/{slug}/manage/rounds/{number}/")
    assert page.status == 200, page
    found = []
    for match in _OPEN_MATCH.finditer(page.text):
        version = _VERSION.search(page.text, match.end())
        assert version, f"match {match.group(1)} without a version"
        found.append((int(match.group(1)), int(version.group(1))))
    return found


def save_result(
    desk: Client, slug: str, match_id: int, version: int, scores: tuple[int, int]
) -> Any:
    return desk.post(
        f"/e/{slug}/manage/matches/{match_id}/result",
        {"version": version, "g1-s0": scores[0], "g1-s1": scores[1]},
        htmx=True,
    )


def close_round(desk: Client, slug: str, number: int) -> None:
    closed = desk.post(f"/e/{slug}/manage/rounds/{number}/close")
    assert closed.status == 302, f"round {number} not closed: {closed!r}"


@dataclass
class Saved:
    """One result saved at the desk: when, how long it took, and its answer."""

    index: int
    round: int
    match_id: int
    status: int
    seconds: float
    committed_at: float  # time.monotonic() when the answer came back


def play(desk: Client, slug: str, results: int, rng: random.Random) -> Iterator[Saved]:
    """Rounds drafted, published, their results saved one by one and closed, until
    ``results`` results are saved; yields each save as it is answered (a caller may cut
    the link between two)."""
    index = 0
    while index < results:
        number = draft_and_publish(desk, slug)
        for match_id, version in open_matches(desk, slug, number):
            if index >= results:
                return
            scores = rng.choice(((1, 0), (0, 1)))
            started = time.monotonic()
            answer = save_result(desk, slug, match_id, version, scores)
            now = time.monotonic()
            yield Saved(index, number, match_id, answer.status, now - started, now)
            index += 1
        close_round(desk, slug, number)


def dumps(file: dict[str, Any]) -> str:
    return json.dumps(file, sort_keys=True, indent=1)


# -- mirroring -------------------------------------------------------------------------------


@dataclass
class Mirrored:
    """An event run at the venue and published to its public copy."""

    slug: str
    venue: Client  # the director at the venue
    public: Client  # the director on the public Arbiter
    token: str


def mirrored_event(pair: Any, slug: str, players: int) -> Mirrored:
    """The event made at the venue with its entrants; on the public Arbiter an empty event
    of the same slug and its mirror token; the venue linked to it through the link
    (docs/venue.md, "Configuring the venue")."""
    make_event(pair.venue, slug, players)
    make_event(pair.public, slug, 0)
    public = pair.public.director()
    token = mirror_token(public, slug)
    link_venue(pair.venue, slug, pair.link.url, token)
    return Mirrored(slug, pair.venue.director(), public, token)


def wait_until_equal(
    mirrored: Mirrored, timeout: float, venue_file: dict[str, Any] | None = None
) -> tuple[float, dict[str, Any]]:
    """Seconds until the public copy's event file equals the venue's (read once, or given),
    and that file; AssertionError with the difference's size after ``timeout``."""
    expected = venue_file if venue_file is not None else event_file(mirrored.venue, mirrored.slug)
    started = time.monotonic()
    while True:
        public = event_file(mirrored.public, mirrored.slug)
        if public == expected:
            return time.monotonic() - started, expected
        if time.monotonic() - started > timeout:
            raise AssertionError(
                f"the public copy differs from the venue after {timeout} s: "
                f"{results_in(public)} results there, {results_in(expected)} at the venue"
            )
        time.sleep(0.2)


def push(base: str, slug: str, token: str, payload: dict[str, Any], timeout: float = 60) -> Any:
    """A push as a venue sends it (docs/venue.md, "Push"), uncompressed."""
    return Client(base, timeout=timeout).post(
        f"/mirror/v1/events/{slug}/push",
        json_body=payload,
        headers={"Authorization": f"Bearer {token}"},
    )
