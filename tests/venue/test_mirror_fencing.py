"""Pushes applied once and in order, a stale epoch refused, and a takeover on the public copy
followed by the old venue coming back (issue 31, docs/venue.md "Push" and "Takeover"), over
real HTTP between two live instances.

The venue runs as `make run` does: runserver, no Redis, the pusher a thread of the web
process. The first two tests send pushes of their own to the public instance (what a venue
would send: event files exported at the venue), duplicated, out of order and at once.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from datetime import UTC, datetime
from typing import Any

from tests.venue import desk
from tests.venue.harness import Instance, Pair
from tests.venue.proxy import LinkProxy

WRITER = "w_harness000000000000001"


def _payload(
    base: int, version: int, file: dict[str, Any], *, epoch: int = 1, writer: str = WRITER
) -> dict[str, Any]:
    at = datetime.now(UTC).isoformat()
    return {
        "protocol": 1,
        "writer": writer,
        "epoch": epoch,
        "base": base,
        "version": version,
        "changes": [
            {"version": v, "kind": "result.changed", "at": at} for v in range(base + 1, version + 1)
        ],
        "file": file,
    }


def _files(pair: Pair, slug: str) -> list[dict[str, Any]]:
    """Four states of one event at the venue (not published from there): its entrants, its
    first round published, then one and two results saved."""
    desk.make_event(pair.venue, slug, 6)
    at_venue = pair.venue.director()
    files = [desk.event_file(at_venue, slug)]
    number = desk.draft_and_publish(at_venue, slug)
    files.append(desk.event_file(at_venue, slug))
    for (match_id, version), scores in zip(
        desk.open_matches(at_venue, slug, number)[:2], ((1, 0), (0, 1)), strict=True
    ):
        assert desk.save_result(at_venue, slug, match_id, version, scores).status == 200
        files.append(desk.event_file(at_venue, slug))
    return files


def _public_log(public: Instance, slug: str) -> dict[str, Any]:
    """What the public copy kept: the change versions received and the pushes applied."""
    script = (
        "import json\n"
        "from tournaments.models import AuditEntry, Event, MirrorChange\n"
        f"e = Event.objects.get(slug={slug!r})\n"
        "print(json.dumps({'changes': list(MirrorChange.objects.filter(event=e)"
        ".order_by('version').values_list('version', flat=True)),"
        " 'applied': AuditEntry.objects.filter(event=e, action='mirror.applied').count(),"
        " 'state': e.mirror_state}))\n"
    )
    parsed: dict[str, Any] = json.loads(
        public.manage("shell", "-c", script).strip().splitlines()[-1]
    )
    return parsed


def test_a_duplicated_and_a_reordered_push_are_applied_once(pair: Pair, link: LinkProxy) -> None:
    slug = "pushes"
    f1, f2, f3, f4 = _files(pair, slug)
    desk.make_event(pair.public, slug, 0)
    public = pair.public.director()
    token = desk.mirror_token(public, slug)

    def send(base: int, version: int, file: dict[str, Any]) -> Any:
        return desk.push(pair.public.base, slug, token, _payload(base, version, file))

    first = send(0, 1, f1)
    assert first.status == 200 and first.json()["status"] == "applied", first
    # the same push again (an answer lost on the way back): nothing done
    again = send(0, 1, f1)
    assert again.status == 200 and again.json() == {"status": "duplicate", "epoch": 1, "version": 1}
    # the third change arrives before the second: refused, the gap named
    early = send(2, 3, f3)
    assert early.status == 409, early
    assert early.json()["code"] == "gap" and early.json()["expected"] == 2, early.json()
    assert desk.event_file(public, slug) == f1
    # then the second, and the third again: each applied once, in order
    assert send(1, 2, f2).json()["status"] == "applied"
    assert send(2, 3, f3).json()["status"] == "applied"
    assert send(1, 2, f2).json()["status"] == "duplicate"  # late and reordered: once only
    assert desk.event_file(public, slug) == f3

    # the fourth sent twice at the same moment (two pushers): one applies, one is a duplicate
    answers: list[Any] = []
    start = threading.Barrier(2)

    def racing() -> None:
        start.wait()
        answers.append(send(3, 4, f4))

    threads = [threading.Thread(target=racing) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert sorted(a.json()["status"] for a in answers) == ["applied", "duplicate"], answers

    assert desk.event_file(public, slug) == f4
    kept = _public_log(pair.public, slug)
    assert kept == {"changes": [1, 2, 3, 4], "applied": 4, "state": "copy"}


def test_a_stale_epoch_push_is_refused_and_changes_nothing(pair: Pair, link: LinkProxy) -> None:
    slug = "stale"
    f1, f2, f3, _f4 = _files(pair, slug)
    desk.make_event(pair.public, slug, 0)
    public = pair.public.director()
    token = desk.mirror_token(public, slug)
    assert desk.push(pair.public.base, slug, token, _payload(0, 2, f2)).status == 200

    said = pair.public.manage("take_over", slug, "--yes")
    assert "epoch 2" in said, said
    stale = desk.push(pair.public.base, slug, token, _payload(2, 3, f3))
    assert stale.status == 409, stale
    body = stale.json()
    assert body["code"] == "stale_epoch" and body["epoch"] == 2, body
    assert body["reason"] == "taken_over" and body["message"], body
    # a push of an older epoch still is refused, and a forged "new" writer at epoch 1 too
    older = desk.push(pair.public.base, slug, token, _payload(0, 1, f1))
    assert older.status == 409 and older.json()["code"] == "stale_epoch", older
    assert desk.event_file(public, slug) == f2
    assert _public_log(pair.public, slug)["state"] == "writer"


def _play(at: desk.Client, slug: str, count: int, first: int = 0) -> list[tuple[int, int]]:
    """``count`` results saved at a desk (rounds drafted and closed as needed): the
    (round, match id) of each."""
    saved: list[tuple[int, int]] = []
    rng = random.Random(first)
    for one in desk.play(at, slug, count, rng):
        assert one.status == 200, one
        saved.append((one.round, one.match_id))
    return saved


def test_takeover_then_the_old_venue_returns_refused_and_nothing_acknowledged_lost(
    pair: Pair, link: LinkProxy
) -> None:
    mirrored = desk.mirrored_event(pair, "takeover", 10)
    slug = mirrored.slug
    at_venue = mirrored.venue

    # a round and a half at the venue (5 matches a round), published and acknowledged
    _play(at_venue, slug, 7)
    desk.wait_until_equal(mirrored, 30)
    acknowledged = desk.event_file(mirrored.public, slug)
    assert desk.results_in(acknowledged) == 7
    number = max(r["number"] for r in acknowledged["rounds"])
    open_at_cut = desk.open_matches(at_venue, slug, number)
    assert len(open_at_cut) == 3

    # the hall's network goes: the desk goes on, and says what waits
    link.cut()
    for match_id, version in open_at_cut[:2]:
        saved = desk.save_result(at_venue, slug, match_id, version, (1, 0))
        assert saved.status == 200, saved
    line = re.search(r"(\d+) changes? waiting to be published", desk.dashboard(at_venue, slug))
    assert line and int(line.group(1)) >= 2, line

    # then the venue's machine dies; the director takes the event over on the public copy,
    # after a confirmation
    pair.venue.crash()
    assert "Take over here" in desk.dashboard(mirrored.public, slug)
    asked = mirrored.public.post(f"/e/{slug}/manage/venue/", {"action": "take_over"})
    assert asked.status == 200 and 'value="yes"' in asked.text, asked
    took = mirrored.public.post(
        f"/e/{slug}/manage/venue/", {"action": "take_over", "confirm": "yes"}
    )
    assert took.status == 302, took
    # ... and goes on there, from the last version received: the 2 saved unseen are open
    on_public = desk.open_matches(mirrored.public, slug, number)
    assert len(on_public) == 3
    match_id, version = on_public[0]
    assert desk.save_result(mirrored.public, slug, match_id, version, (0, 1)).status == 200
    written_here = desk.event_file(mirrored.public, slug)

    # the old venue comes back, its network too, and its desk saves once more
    pair.venue.start()
    link.restore()
    at_venue = pair.venue.director()
    ((last_id, last_version),) = desk.open_matches(at_venue, slug, number)
    late = desk.save_result(at_venue, slug, last_id, last_version, (1, 0))

    # its pushes are refused: the venue is fenced and says why, and changes nothing more
    deadline = time.monotonic() + 30
    while "taken over" not in (page := desk.dashboard(at_venue, slug)):
        assert time.monotonic() < deadline, f"the venue never learnt of the takeover:\n{page}"
        time.sleep(0.5)
    if late.status == 200:  # saved locally before the refusal came back: change it again
        found = re.search(r'name="version" value="(\d+)"', late.text)
        assert found, late
        last_version = int(found.group(1))
    refused = desk.save_result(at_venue, slug, last_id, last_version, (0, 1))
    assert refused.status != 200 and "no longer" in refused.text, refused
    after = desk.event_file(mirrored.public, slug)
    assert after == written_here  # nothing of the old venue's reached the copy

    # nothing acknowledged was lost: the copy holds every result the venue had published
    def scores(file: dict[str, Any]) -> dict[tuple[int, str], list[int]]:
        return {
            (rnd["number"], match["code"]): match["games"][0]["scores"]
            for rnd in file["rounds"]
            for match in rnd["matches"]
            if match["games"]
        }

    kept = scores(after)
    for place, value in scores(acknowledged).items():
        assert kept.get(place) == value, place
    assert desk.results_in(after) == desk.results_in(acknowledged) + 1
