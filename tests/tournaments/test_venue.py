"""Issue 31, venue mode (docs/venue.md), in one process: the venue's event and its public
copy live in the same test database under two slugs, and a bridge stands for the network:
it carries the venue's pushes and pulls to the copy's endpoints through Django's test client
and renames the slug on the way, as the two machines would each have their own. The
two-instance tests with a real TCP link cut and restored are the harness's (branch
venuelink); these pin each rule of the protocol.
"""

from __future__ import annotations

import copy
import gc
import json
import weakref
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import play_round, round_robin_event
from tournaments.models import AuditEntry, Event, MirrorChange, MirrorLink
from tournaments.services import api_tokens, eventfile, events, results
from tournaments.services.errors import ServiceError
from tournaments.services.mirror import links, memory, outbox, push, receive

pytestmark = pytest.mark.django_db

VENUE = "rr-venue"
COPY = "rr-public"
PUBLIC_URL = f"http://public.test/e/{VENUE}/"


def _renamed(data: Any, old: str, new: str) -> Any:
    data = copy.deepcopy(data)
    for part in ("file", "parts"):  # the whole file, or the parts of it (with its header)
        if isinstance(data, dict) and isinstance(data.get(part), dict):
            data[part]["event"]["slug"] = new if data[part]["event"]["slug"] == old else old
    return data


class Bridge:
    """push.post for the tests: the venue's request goes to the copy's endpoint (the slug
    in its address and file renamed from the venue's to the copy's), the answer comes back
    (the file's slug renamed back). ``down`` makes the link fail as a cut network does."""

    def __init__(self, client: Client, copy_slug: str = COPY) -> None:
        self.client = client
        self.copy_slug = copy_slug
        self.down = False
        self.sent: list[dict[str, Any]] = []
        self.probes = 0

    def __call__(self, url: str, token: str, payload: dict[str, Any]) -> push.Answer:
        if self.down:
            return push.Answer(0, {}, "ConnectionRefusedError: [Errno 111] Connection refused")
        what = url.rsplit("/", 1)[1]
        body = _renamed(payload, VENUE, self.copy_slug)
        self.sent.append(body)
        answer = self.client.post(
            f"/mirror/v1/events/{self.copy_slug}/{what}",
            data=json.dumps(body),
            content_type="application/json",
            headers={"Authorization": f"Bearer {token}"},
        )
        data = _renamed(json.loads(answer.content), self.copy_slug, VENUE)
        return push.Answer(answer.status_code, data)

    def probe(self, url: str) -> str:
        self.probes += 1
        return "ConnectionRefusedError: [Errno 111] Connection refused" if self.down else ""


@pytest.fixture
def venue(director):
    event = round_robin_event(director, players=6, slug=VENUE)
    play_round(event, director)
    return event


@pytest.fixture
def public(director):
    """The public copy's event as a director makes it there: a plain event of the same
    format, which the first push replaces."""
    return events.create_event(
        slug=COPY, name="RR public", format="round_robin", by=director, public=True
    )


@pytest.fixture
def token(public, director) -> str:
    _row, secret = api_tokens.create(public, name="venue", scopes=["mirror:push"], by=director)
    return secret


@pytest.fixture
def bridge(monkeypatch, settings) -> Bridge:
    line = Bridge(Client())
    monkeypatch.setattr(push, "post", line)
    monkeypatch.setattr(push, "probe", line.probe)
    settings.ARBITER_MIRROR_HOLD_SECONDS = 0  # a down link fails at once (no probing)
    return line


@pytest.fixture
def linked(venue, token, director, bridge):
    links.configure(venue, public_url=PUBLIC_URL, token=token, by=director)
    venue.refresh_from_db()
    return venue


def _file(event: Event) -> dict[str, Any]:
    return eventfile.export_event(Event.objects.get(pk=event.pk))


def _equal(venue: Event, public: Event) -> bool:
    """The copy's event file is the venue's (their slugs apart, as two machines' are not)."""
    mine, theirs = _file(venue), _file(public)
    theirs["event"]["slug"] = mine["event"]["slug"]
    return json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True)


def _play(event: Event, director, scores: Callable[[Any], list[int]] = lambda m: [1, 0]) -> None:
    play_round(Event.objects.get(pk=event.pk), director, scores=scores)


def _post(client: Client, slug: str, what: str, token: str, body: Any) -> Any:
    return client.post(
        f"/mirror/v1/events/{slug}/{what}",
        data=json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )


# -- the mirror token and the venue's link ------------------------------------------------


def test_a_mirror_token_is_an_api_token_with_the_mirror_push_scope(client, director, public):
    """Issue 31 (1): "a director makes a mirror token for an event (scoped to that event,
    shown once, stored hashed, revocable)"."""
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_tokens", args=[COPY]))
    assert b"mirror:push" in page.content
    answer = client.post(
        reverse("tournaments:manage_tokens", args=[COPY]),
        {"name": "hall laptop", "scopes": ["mirror:push"], "expires": "0"},
    )
    assert answer.status_code == 200
    row = public.api_tokens.get()
    assert row.scopes == ["mirror:push"] and len(row.token_hash) == 64
    assert answer.context["secret"] not in json.dumps(row.scopes) + row.token_hash


def test_the_link_screen_stores_the_address_and_token_and_queues_the_whole_event(
    client, director, venue, token, bridge
):
    """Issue 31 (1): "On the venue's Arbiter, the director enters the public URL and the
    token"; from then on the event is published (its first change is the whole event)."""
    client.force_login(director)
    url = reverse("tournaments:manage_venue", args=[VENUE])
    refused = client.post(url, {"action": "link", "public_url": "ftp://x", "token": "nope"})
    assert refused.status_code == 422
    assert "Give the public event" in refused.content.decode()
    assert "Paste the mirror token" in refused.content.decode()
    assert not MirrorLink.objects.exists()
    done = client.post(url, {"action": "link", "public_url": PUBLIC_URL, "token": token})
    assert done.status_code == 302
    link = MirrorLink.objects.get(event=venue)
    assert (link.public_url, link.token, link.epoch, link.version) == (PUBLIC_URL, token, 1, 1)
    assert Event.objects.get(pk=venue.pk).mirror_state == "venue"
    page = client.get(reverse("tournaments:manage", args=[VENUE])).content.decode()
    assert "1 change waiting to be published" in page and "nothing sent yet" in page
    assert token not in client.get(url).content.decode()  # shown by its first 12 characters


# -- the outbox ----------------------------------------------------------------------------


def test_every_change_writes_an_outbox_row_in_its_transaction(director, linked):
    """Issue 31 (1): "changes are written to an outbox in the same transaction as the
    change"; a per-event increasing version."""
    before = MirrorLink.objects.get(event=linked).version
    _play(linked, director)  # a round drafted, published, its results, completed
    events.add_entrant(Event.objects.get(pk=linked.pk), name="Late", rating=1000, by=director)
    rows = list(MirrorChange.objects.filter(event=linked).order_by("version"))
    versions = [r.version for r in rows]
    assert versions == list(range(1, len(rows) + 1))
    assert MirrorLink.objects.get(event=linked).version == versions[-1] > before
    kinds = {r.kind for r in rows}
    assert {"round.published", "result.changed", "entrant.added"} <= kinds


def test_a_rolled_back_save_leaves_no_outbox_row(director, linked):
    rnd = linked.rounds.order_by("number").first()
    match = rnd.matches.first()
    version = MirrorLink.objects.get(event=linked).version
    count = MirrorChange.objects.count()

    class Abort(Exception):
        pass

    with pytest.raises(Abort), transaction.atomic():
        results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
        assert MirrorLink.objects.get(event=linked).version == version + 1  # inside: counted
        raise Abort
    assert MirrorLink.objects.get(event=linked).version == version
    assert MirrorChange.objects.count() == count


def test_a_plain_event_writes_no_outbox_row(director, venue):
    _play(venue, director)
    assert not MirrorChange.objects.exists()


# -- pushes: applied once, in order --------------------------------------------------------


def test_a_push_makes_the_public_copy_equal_to_the_venue(director, linked, public, bridge):
    """Issue 31 (1): "every change of the event at the venue ... reaches the public copy";
    the test compares the event files."""
    assert push.push(linked.pk) == "applied"
    assert _equal(linked, public)
    public.refresh_from_db()
    assert public.mirror_state == "copy" and public.mirrored_at is not None
    link = MirrorLink.objects.get(event=linked)
    assert link.acked_version == link.version and link.last_sent_at is not None
    _play(linked, director, scores=lambda m: [0, 1])
    assert push.push(linked.pk) == "applied"
    assert _equal(linked, public)
    assert (
        MirrorLink.objects.get(event=public).version == MirrorLink.objects.get(event=linked).version
    )
    assert push.push(linked.pk) == "idle"  # nothing waits


def test_a_duplicated_push_is_applied_once(client, director, linked, public, token):
    """Issue 31 (1): "The public copy applies each change once (idempotent by version)"."""
    body = _renamed(push.build(linked.pk), VENUE, COPY)
    first = _post(client, COPY, "push", token, body)
    assert first.status_code == 200 and first.json()["status"] == "applied"
    changes = MirrorChange.objects.filter(event=public).count()
    again = _post(client, COPY, "push", token, body)
    assert again.status_code == 200
    assert again.json() == {"status": "duplicate", "epoch": 1, "version": body["version"]}
    assert MirrorChange.objects.filter(event=public).count() == changes
    assert AuditEntry.objects.filter(event=public, action="mirror.applied").count() == 1


def test_a_reordered_push_is_refused_with_what_is_missing_then_applied_in_order(
    client, director, linked, public, token
):
    """Issue 31 (1): "in order, and refuses a gap by asking for what is missing"."""
    early = _renamed(push.build(linked.pk), VENUE, COPY)
    MirrorLink.objects.filter(event=linked).update(acked_version=early["version"])
    _play(linked, director)
    # whole files (the same with parts: test_venue_parts.py)
    late = _renamed(push.build(linked.pk, whole=True), VENUE, COPY)
    assert late["base"] == early["version"]
    gap = _post(client, COPY, "push", token, late)
    assert gap.status_code == 409
    assert gap.json()["code"] == "gap" and gap.json()["expected"] == 1
    assert "send from 1" in gap.json()["message"]
    assert not MirrorChange.objects.filter(event=public).exists()
    assert _post(client, COPY, "push", token, early).json()["status"] == "applied"
    assert _post(client, COPY, "push", token, late).json()["status"] == "applied"
    assert _equal(linked, public)
    received = list(MirrorChange.objects.filter(event=public).values_list("version", flat=True))
    assert received == list(range(1, late["version"] + 1))


def test_the_pusher_resends_from_the_first_missing_version(
    director, linked, public, bridge, django_capture_on_commit_callbacks
):
    """A gap answered (the copy restored from an older backup, say): the pusher sends
    again from what the copy asks for, at once."""
    with django_capture_on_commit_callbacks(execute=True):  # the copy keeps its file
        assert push.push(linked.pk) == "applied"
    _play(linked, director)
    version = MirrorLink.objects.get(event=linked).version
    MirrorLink.objects.filter(event=linked).update(acked_version=version - 1)  # lies ahead
    assert push.push(linked.pk) == "applied"
    assert [b["base"] for b in bridge.sent][-2:] == [version - 1, 1]
    assert _equal(linked, public)


# -- the link down: the desk's line, the backoff ------------------------------------------


def test_a_cut_link_waits_with_a_backoff_and_the_desk_says_what_waits(
    client, director, linked, public, bridge, settings
):
    """Issue 31 (2): "the desk works as before and shows 'N changes waiting to be
    published, last sent HH:MM'; when it returns, the queue drains by itself"."""
    settings.ARBITER_MIRROR_PROBE_MS = 60_000  # the retry a minute away: it waits here
    assert push.push(linked.pk) == "applied"
    sent = MirrorLink.objects.get(event=linked).last_sent_at
    bridge.down = True
    _play(linked, director)
    assert push.push(linked.pk) == "failed"
    link = MirrorLink.objects.get(event=linked)
    assert link.failures == 1 and link.retry_at is not None and "refused" in link.last_error
    assert push.push(linked.pk) == "idle"  # waits for its retry
    assert linked.pk not in push.due_events()
    client.force_login(director)
    page = client.get(reverse("tournaments:manage", args=[VENUE])).content.decode()
    waiting = link.version - link.acked_version
    assert f"{waiting} changes waiting to be published" in page
    assert f"last sent {sent.strftime('%H:%M')}" in page
    assert "could not be reached" in page
    bridge.down = False
    assert push.push(linked.pk, force=True) == "applied"
    assert _equal(linked, public)
    page = client.get(reverse("tournaments:manage", args=[VENUE])).content.decode()
    assert "All changes published" in page


def test_a_down_link_is_probed_not_pushed_and_pushed_as_soon_as_it_answers(
    director, linked, public, bridge, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """Issue 31: "when it returns, the queue drains by itself", within 5 s of the return.
    While the link is down each try is a probe (a small GET, no export of the event); the
    pusher keeps the link and probes every ARBITER_MIRROR_PROBE_MS, and pushes in the same
    call once the copy answers: the return is followed within a probe's interval."""
    with django_capture_on_commit_callbacks(execute=True):  # the copy keeps its file
        assert push.push(linked.pk) == "applied"
    bridge.down = True
    _play(linked, director)
    assert push.push(linked.pk) == "failed"  # one push tried: the network refused it
    sent = len(bridge.sent)
    link = MirrorLink.objects.get(event=linked)
    assert link.retry_at is not None
    assert (link.retry_at - link.last_error_at).total_seconds() == pytest.approx(0.5)
    # the next try, once due, is a probe only
    MirrorLink.objects.filter(event=linked).update(retry_at=None)
    assert push.push(linked.pk) == "failed"
    assert bridge.probes == 1 and len(bridge.sent) == sent
    # held: probing every 20 ms, the link returns at the third probe, pushed at once
    settings.ARBITER_MIRROR_HOLD_SECONDS = 10
    settings.ARBITER_MIRROR_PROBE_MS = 20
    real_probe = bridge.probe

    def returns_at_third(url: str) -> str:
        if bridge.probes >= 3:
            bridge.down = False
        return real_probe(url)

    monkeypatch.setattr(push, "probe", returns_at_third)
    MirrorLink.objects.filter(event=linked).update(retry_at=None)
    assert push.push(linked.pk) == "applied"
    assert bridge.probes == 4  # the fourth answered
    assert len(bridge.sent) == sent + 1
    link = MirrorLink.objects.get(event=linked)
    assert link.waiting == 0 and link.failures == 0 and link.pushing_until is None
    assert _equal(linked, public)


def test_a_second_pusher_finding_the_link_held_ends_at_once(linked, bridge):
    """A push kicked while another pusher holds the link does nothing and asks for no
    retry: the holder pushes what waits (a burst of saves during a cut is not a burst of
    tasks retried every second)."""
    from tournaments import tasks

    later = timezone.now() + timedelta(seconds=20)
    MirrorLink.objects.filter(event=linked).update(pushing_until=later)
    assert tasks.push_mirror.apply(args=(linked.pk,)).get() == "busy"
    assert bridge.sent == []


def test_the_copy_compares_a_push_with_the_file_it_kept_not_an_export(
    director, linked, public, bridge, monkeypatch, django_capture_on_commit_callbacks
):
    """The copy's own file after a push is the pushed file: the next push is compared
    with it (kept in the cache under its epoch and version) rather than with an export of
    the copy, which costs as much as the event is large; the result is the same."""
    from tournaments.services.eventfile import importing

    with django_capture_on_commit_callbacks(execute=True):  # the file is kept at the commit
        assert push.push(linked.pk) == "applied"
    exports: list[int] = []
    real = importing.export_event
    monkeypatch.setattr(importing, "export_event", lambda e: exports.append(e.pk) or real(e))
    _play(linked, director)
    assert push.push(linked.pk) == "applied"
    assert exports == []
    assert _equal(linked, public)
    cache.clear()  # a miss: exported, as before
    _play(linked, director)
    assert push.push(linked.pk) == "applied"
    assert exports == [public.pk]
    assert _equal(linked, public)


def test_the_pusher_keeps_no_query_log_between_its_runs(director, linked, bridge, settings):
    """Issue 31: the pusher's memory flat over a day. Outside a request nothing empties
    Django's query log, and under `make run` (DEBUG on) a pusher kept the SQL of its last
    9,000 queries: several MiB, growing for hours (docs/performance.md)."""
    from django.db import connection

    from tournaments.services.mirror import runner

    settings.DEBUG = True
    _play(linked, director)
    assert runner.run_due() == {linked.pk: "applied"}
    assert len(connection.queries_log) == 0


class _Cycle:
    """Garbage as an export leaves it: objects that point at each other (a prefetched
    match and its participants), freed by the gc only, never by their reference count."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def push_garbage(monkeypatch) -> Any:
    """Each push's build leaves a cycle in the gc's oldest generation, where a long push's
    objects end (a collection while it is alive moves it there); the automatic gc off, so
    only the pusher's own collections free it. Yields the cycles' weak references."""
    made: list[weakref.ref[_Cycle]] = []
    real_build = push.build

    def build(event_id: int, **kwargs: Any) -> Any:
        junk = _Cycle()
        gc.collect(1)  # young generations only: junk, alive, moves to the oldest
        made.append(weakref.ref(junk))
        return real_build(event_id, **kwargs)

    monkeypatch.setattr(push, "build", build)
    gc.disable()
    try:
        yield made
    finally:
        gc.enable()
        gc.unfreeze()  # what memory.settle froze: the test process's objects, freed again
        memory._settled = False  # not monkeypatch's: its undo would bring back True


def test_the_pusher_frees_each_push_s_cyclic_garbage_at_once(
    director, linked, bridge, push_garbage
):
    """Issue 31: the pusher's memory flat over a day. Its exports' cyclic garbage waited
    in the gc's oldest generation, swept only when it reached a quarter of the imports'
    140,000 objects: for hours, while the pymalloc arenas it spread over grew by 7 MiB and
    stayed (docs/performance.md, "venue5"). `manage.py push_mirror` freezes what its start
    made and frees each push's garbage when the push ends."""
    from tournaments.services.mirror import runner

    memory.settle()  # what runner.loop does first
    assert gc.get_freeze_count() > 0
    _play(linked, director)
    assert runner.run_due() == {linked.pk: "applied"}
    assert push_garbage and all(ref() is None for ref in push_garbage)


def test_a_pusher_thread_leaves_the_gc_to_its_web_process(director, linked, bridge, push_garbage):
    """The sweep is the settled pusher's alone: in the web process (`make run`'s thread)
    nothing is frozen and a collection would walk the whole process at every push."""
    from tournaments.services.mirror import runner

    _play(linked, director)
    assert runner.run_due() == {linked.pk: "applied"}
    assert push_garbage and all(ref() is not None for ref in push_garbage)


def test_the_pusher_memory_probe_logs_what_tells_kept_from_fragmented(caplog):
    """ARBITER_PUSHER_PROBE=1 (bench.venue's BENCH_VENUE_PUSHER_PROBE): the gc's objects,
    pymalloc's arenas and, on glibc, the C heap, as one JSON line."""
    with caplog.at_level("INFO", logger="tournaments.services.mirror.memory"):
        found = memory.probe("test")
    assert found["gc_objects"] > 0 and found["pymalloc"]["arenas"] > 0
    assert found["caches"]["modules"] > 100
    line = next(r.getMessage() for r in caplog.records if "pusher memory: " in r.getMessage())
    assert json.loads(line.split("pusher memory: ", 1)[1])["label"] == "test"


def test_backoff_doubles_and_is_capped(settings):
    """A cut link is tried again soon: the queue drains within seconds of its return."""
    assert [push.backoff(n) for n in (1, 2, 3, 7, 50)] == [1, 2, 2, 2, 2]
    settings.ARBITER_MIRROR_BACKOFF_MAX = 60
    assert [push.backoff(n) for n in (1, 2, 3, 7, 50)] == [1, 2, 4, 60, 60]


# -- the public copy is read-only ---------------------------------------------------------


def test_the_public_copy_refuses_writes_and_says_where_the_event_is_run(
    client, director, linked, public, bridge
):
    """Issue 31 (1): "it is read-only there (its manage pages say where the event is run)"."""
    push.push(linked.pk)
    public.refresh_from_db()
    with pytest.raises(outbox.ReadOnlyEvent, match="run at the venue"):
        events.add_entrant(public, name="Sneaky", rating=1, by=director)
    client.force_login(director)
    page = client.get(reverse("tournaments:manage", args=[COPY])).content.decode()
    assert "This event is run at the venue: this is its public copy." in page
    assert "Take over here" in page
    rnd = public.rounds.first()
    match = rnd.matches.first()
    with pytest.raises(ServiceError):
        results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    assert _equal(linked, public)
    # the tokens screen still works there: tokens are the copy's own
    api_tokens.create(public, name="another", scopes=["export:read"], by=director)


def test_the_public_pages_say_when_the_copy_was_updated(client, director, linked, public, bridge):
    """Issue 31 (1): "Its public pages ... show it like any event, with 'updated from the
    venue at HH:MM'"."""
    push.push(linked.pk)
    public.refresh_from_db()
    when = public.mirrored_at.strftime("%H:%M")  # the event's zone is UTC
    for name in ("tournaments:event", "tournaments:standings"):
        page = client.get(reverse(name, args=[COPY])).content.decode()
        assert f"Updated from the venue at {when}" in page
    api = client.get(f"/api/v1/events/{COPY}/").json()
    assert api["updated_from_venue_at"] == public.mirrored_at.isoformat().replace("+00:00", "Z")


# -- fencing: epochs, takeover, pull -------------------------------------------------------


def test_take_over_asks_first_then_makes_the_copy_the_writer(
    client, director, linked, public, bridge
):
    """Issue 31 (3): "the director takes the event over on the public copy (a confirmation,
    then it is the writer, at the last version it received)"."""
    push.push(linked.pk)
    received = MirrorLink.objects.get(event=public).version
    client.force_login(director)
    url = reverse("tournaments:manage_venue", args=[COPY])
    ask = client.post(url, {"action": "take_over"})
    assert "Yes, take over here" in ask.content.decode()
    assert Event.objects.get(pk=public.pk).mirror_state == "copy"
    done = client.post(url, {"action": "take_over", "confirm": "yes"})
    assert done.status_code == 302
    link = MirrorLink.objects.get(event=public)
    assert (link.epoch, link.version, link.epoch_reason) == (2, received, "taken_over")
    public.refresh_from_db()
    assert public.mirror_state == "writer"
    events.add_entrant(public, name="Written here", rating=1, by=director)  # the writer now
    assert MirrorLink.objects.get(event=public).version == received + 1


def test_the_old_venue_is_refused_as_stale_and_its_desk_says_why(
    client, director, linked, public, bridge
):
    """Issue 31 (3): "The venue's machine, if it comes back, can no longer push (an epoch in
    every push; the public copy refuses a stale epoch and the venue says why)"."""
    push.push(linked.pk)
    acknowledged = _file(public)
    receive.take_over(Event.objects.get(pk=public.pk), by=director)
    _play(linked, director)  # the venue's machine went on, cut off
    assert push.push(linked.pk) == "fenced"
    answer = bridge.sent[-1]
    assert answer["epoch"] == 1
    link = MirrorLink.objects.get(event=linked)
    assert "taken over on the public copy" in link.refused
    linked.refresh_from_db()
    assert linked.mirror_state == "fenced"
    with pytest.raises(outbox.ReadOnlyEvent, match="no longer changes this event"):
        events.add_entrant(linked, name="Too late", rating=1, by=director)
    client.force_login(director)
    page = client.get(reverse("tournaments:manage", args=[VENUE])).content.decode()
    assert "taken over on the public copy" in page
    # nothing the copy acknowledged was lost; the venue's later changes were not applied
    mine = _file(public)
    assert mine == acknowledged


def test_a_stale_epoch_push_is_refused_with_the_reason(client, director, linked, public, token):
    body = _renamed(push.build(linked.pk), VENUE, COPY)
    assert _post(client, COPY, "push", token, body).status_code == 200
    receive.take_over(Event.objects.get(pk=public.pk), by=director)
    _play(linked, director)
    MirrorLink.objects.filter(event=linked).update(acked_version=body["version"])
    stale = _post(client, COPY, "push", token, _renamed(push.build(linked.pk), VENUE, COPY))
    assert stale.status_code == 409
    said = stale.json()
    assert (said["code"], said["epoch"], said["reason"]) == ("stale_epoch", 2, "taken_over")
    assert "no longer publishes it" in said["message"]


def test_a_second_venue_machine_at_the_same_epoch_is_refused(client, linked, public, token):
    """Never two writers: a second machine linked by hand (epoch 1, another writer id)."""
    body = _renamed(push.build(linked.pk), VENUE, COPY)
    assert _post(client, COPY, "push", token, body).json()["status"] == "applied"
    other = dict(body, writer="w_another", base=body["version"], version=body["version"] + 1)
    answer = _post(client, COPY, "push", token, other)
    assert answer.status_code == 409 and answer.json()["code"] == "other_writer"


def test_a_pull_gives_the_event_file_with_its_epoch_and_fences_the_old_writer(
    client, director, linked, public, token, bridge
):
    """Issue 31 (3): "the director can hand the event back to a venue machine by pulling it
    (the event file with its epoch). Never two writers at once"."""
    push.push(linked.pk)
    receive.take_over(Event.objects.get(pk=public.pk), by=director)
    events.add_entrant(Event.objects.get(pk=public.pk), name="Added online", rating=5, by=director)
    answer = _post(client, COPY, "pull", token, {"protocol": 1, "writer": "w_laptop2"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["epoch"] == 3 and body["writer"] == "w_laptop2"
    assert body["version"] == MirrorLink.objects.get(event=public).version
    assert body["file"] == _file(public)
    public.refresh_from_db()
    assert public.mirror_state == "copy"  # read-only again: the puller writes
    with pytest.raises(outbox.ReadOnlyEvent):
        events.add_entrant(public, name="No", rating=1, by=director)
    # the first venue (epoch 1) comes back: refused, saying the event was pulled
    _play(linked, director)
    assert push.push(linked.pk) == "fenced"
    assert "pulled to another venue machine" in MirrorLink.objects.get(event=linked).refused


def test_pull_event_makes_this_machine_the_writer(director, public, token, monkeypatch):
    """Issue 31 (4): "a fresh laptop runs `make run`, pulls an event it has a token for, and
    becomes its writer (same fencing)". The laptop's event is under the slug of the address
    it pulled (rr-venue), the copy's here under rr-public: two machines in one database."""
    line = Bridge(Client())
    monkeypatch.setattr(push, "post", line)
    events.add_entrant(public, name="Registered online", rating=1500, by=director)
    laptop = links.pull_event(PUBLIC_URL, token, director=director)
    assert laptop.slug == VENUE and laptop.mirror_state == "venue"
    link = laptop.mirror_link
    assert link.epoch == 1 and link.acked_version == link.version
    assert _equal(laptop, public)
    assert Event.objects.get(pk=public.pk).mirror_state == "copy"
    events.add_entrant(laptop, name="At the desk", rating=1400, by=director)
    assert push.push(laptop.pk) == "applied"
    assert _equal(laptop, public)
    with pytest.raises(ServiceError, match="already on this machine"):
        links.pull_event(PUBLIC_URL, token)


def test_the_mirror_endpoints_want_the_events_mirror_token(client, director, linked, public):
    body = {"protocol": 1}
    assert _post(client, COPY, "push", "", body).status_code == 401
    assert _post(client, COPY, "push", "arb_wrong", body).json()["code"] == "invalid_token"
    _row, reader = api_tokens.create(public, name="r", scopes=["export:read"], by=director)
    assert _post(client, COPY, "push", reader, body).status_code == 403
    _row, other = api_tokens.create(linked, name="o", scopes=["mirror:push"], by=director)
    assert _post(client, COPY, "push", other, body).status_code == 404
    _row, right = api_tokens.create(public, name="m", scopes=["mirror:push"], by=director)
    bad = _post(client, COPY, "push", right, body)
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_push"


def test_applying_a_push_fires_the_live_stream_and_the_standings_as_a_save_does(
    director, linked, public, bridge, monkeypatch, django_capture_on_commit_callbacks
):
    """Issue 31 (1): the public copy shows the event "like any event": its stream tells of
    the published round and the results, and its standings are recomputed."""
    from tournaments.services import live, standings

    told: list[tuple[int, str]] = []
    recomputed: list[int] = []
    monkeypatch.setattr(live, "publish", lambda event_id, kind: told.append((event_id, kind)))
    monkeypatch.setattr(
        standings, "schedule_recompute", lambda event_id, version, **kw: recomputed.append(version)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert push.push(linked.pk) == "applied"
    assert (public.pk, live.RESULT_SAVED) in told
    assert (public.pk, live.ROUND_PUBLISHED) in told
    public.refresh_from_db()
    assert recomputed == [public.results_version]


def test_a_push_rewrites_only_what_changed_and_still_ends_equal(director, linked, public, bridge):
    """The copy writes again only the rounds that differ from its own file; entrants,
    a correction of an earlier round and a new round all arrive."""
    assert push.push(linked.pk) == "applied"
    kept = public.rounds.get(number=1).pk
    _play(linked, director)
    assert push.push(linked.pk) == "applied"
    assert public.rounds.get(number=1).pk == kept  # equal round: not written again
    assert _equal(linked, public)
    entrant = linked.entrants.get(number=3)
    entrant.name = "Renamed at the desk"
    entrant.save()
    events.add_entrant(Event.objects.get(pk=linked.pk), name="Late", rating=900, by=director)
    assert push.push(linked.pk) == "applied"
    assert _equal(linked, public)
    assert public.entrants.get(number=3).name == "Renamed at the desk"


def test_the_fenced_venue_pulls_the_event_back_and_writes_again(
    director, linked, public, token, bridge
):
    """Issue 31 (3): the event handed back to the venue machine that was fenced: with
    --replace its own copy is replaced by the public copy's, at the next epoch."""
    push.push(linked.pk)
    receive.take_over(Event.objects.get(pk=public.pk), by=director)
    events.add_entrant(Event.objects.get(pk=public.pk), name="Typed online", rating=1, by=director)
    _play(linked, director)  # typed on the cut-off laptop: never acknowledged
    assert push.push(linked.pk) == "fenced"
    with pytest.raises(ServiceError, match="already on this machine"):
        links.pull_event(PUBLIC_URL, token)
    back = links.pull_event(PUBLIC_URL, token, replace=True)
    assert back.pk == linked.pk and back.mirror_state == "venue"
    assert back.mirror_link.epoch == 3 and not back.mirror_link.refused
    assert _equal(back, public)  # the public copy's record, the laptop's unacknowledged gone
    assert back.entrants.filter(name="Typed online").exists()
    events.add_entrant(
        Event.objects.get(pk=back.pk), name="Back at the desk", rating=2, by=director
    )
    assert push.push(back.pk) == "applied"
    assert _equal(back, public)
