"""Venue mode's pushes of parts (docs/venue.md, "Push"): the pusher sends only the parts of
the event file its changes touched, laid by the public copy over the file it kept; the
whole file when the copy lacks it, and always for the first push."""

# ruff: noqa: F811  (test_venue.py's fixtures, imported, are the tests' arguments)
from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from tests.factories import play_round
from tests.tournaments.test_venue import (  # noqa: F401  (fixtures)
    COPY,
    VENUE,
    _equal,
    _post,
    _renamed,
    bridge,
    linked,
    public,
    token,
    venue,
)
from tournaments.models import AuditEntry, Event, Match, MirrorChange, MirrorLink
from tournaments.services import checkin, events, results, rounds
from tournaments.services.eventfile import parts as file_parts
from tournaments.services.mirror import push

pytestmark = pytest.mark.django_db


@pytest.fixture
def pushing(django_capture_on_commit_callbacks):
    """push.push with the commit's callbacks run (the copy keeps its file at the commit,
    as on a real server): returns what the push did."""

    def run(event: Event) -> str:
        with django_capture_on_commit_callbacks(execute=True):
            return push.push(event.pk)

    return run


def _fresh(event: Event) -> Event:
    return Event.objects.get(pk=event.pk)


def _parts_of(event: Event) -> list[str]:
    return list(
        MirrorChange.objects.filter(event=event).order_by("version").values_list("parts", flat=True)
    )


def _round_numbers(body: dict[str, Any]) -> list[int]:
    return [r["number"] for r in body["parts"].get("rounds", [])]


def test_each_change_records_the_parts_of_the_file_it_touched(director, linked):
    """A result: its round. A round drafted: the round, the draws and the stages. A
    check-in: nothing the file holds (the header, which every push carries). A change no
    service says the parts of (an entrant added): the whole file."""
    event = _fresh(linked)
    play_round(event, director)  # round 2: drafted, published, 3 results, completed
    events.add_entrant(_fresh(linked), name="Late", rating=900, by=director)
    entrant = _fresh(linked).entrants.order_by("number").first()
    checkin.set_presence(entrant, present=False, by=director)
    assert _parts_of(linked) == [
        "*",  # event.linked: the first push is the whole event
        "draws r2 stages",  # round.drafted
        "r2",  # round.published
        "r2",  # its results version (byes scored)
        "r2",  # result.changed, three matches
        "r2",
        "r2",
        "r2",  # round.completed
        "r2",
        "*",  # entrant.added
        "",  # checkin.absent
    ]


def test_a_push_of_parts_applied_equals_the_whole_file(
    director, linked, public, bridge, pushing, monkeypatch
):
    """Issue 31: the pusher's work per push follows what changed. After the first push
    (whole), each push of a round's life carries only that round: the venue exports no
    whole file, and the copy rebuilt from the parts equals the venue's file after each."""
    assert pushing(linked) == "applied"
    assert "file" in bridge.sent[-1]
    whole: list[int] = []
    real = push.export_event
    monkeypatch.setattr(push, "export_event", lambda e: whole.append(e.pk) or real(e))
    drafted = rounds.draft_next_round(_fresh(linked), by=director).round
    assert pushing(linked) == "applied"
    assert _equal(linked, public)
    rnd = rounds.publish_round(drafted, by=director)
    assert pushing(linked) == "applied"
    assert _equal(linked, public)
    for match in rnd.matches.prefetch_related("participants"):
        if len(match.participants.all()) == 2:
            results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
            assert pushing(linked) == "applied"
            assert _equal(linked, public)
    rounds.complete_round(rnd, by=director)
    assert pushing(linked) == "applied"
    assert _equal(linked, public)
    assert whole == []
    sent = bridge.sent[1:]
    assert len(sent) == 6 and all("parts" in body and "file" not in body for body in sent)
    assert {n for body in sent for n in _round_numbers(body)} == {rnd.number}
    assert not any("entrants" in body["parts"] for body in sent)
    link = MirrorLink.objects.get(event=linked)
    assert MirrorLink.objects.get(event=public).version == link.version == link.acked_version


def test_a_copy_without_the_base_answers_so_and_gets_the_whole_file(
    client, director, linked, public, token, bridge, pushing
):
    """The copy keeps its file in the cache: when it is gone (emptied, a restart), a push
    of parts is answered base_missing with the copy's version, and the pusher sends the
    whole file at once."""
    assert pushing(linked) == "applied"
    cache.clear()
    play_round(_fresh(linked), director)
    body = _renamed(push.build(linked.pk), VENUE, COPY)
    assert "parts" in body
    refused = _post(client, COPY, "push", token, body)
    assert refused.status_code == 409
    version = MirrorLink.objects.get(event=public).version
    assert refused.json()["code"] == "base_missing" and refused.json()["version"] == version
    assert MirrorLink.objects.get(event=public).version == version  # nothing applied
    assert pushing(linked) == "applied"
    assert ["parts" in b for b in bridge.sent[-2:]] == [True, False]
    assert "file" in bridge.sent[-1]
    assert _equal(linked, public)
    # the whole file applied is kept: the next push is of parts again
    play_round(_fresh(linked), director)
    assert pushing(linked) == "applied"
    assert "parts" in bridge.sent[-1] and _equal(linked, public)


def test_a_duplicated_and_reordered_push_of_parts_is_applied_once(
    client, director, linked, public, token, pushing, django_capture_on_commit_callbacks
):
    """Issue 31 (1): in order, once. The later push arrives first (a gap: refused with
    what is missing), then the earlier, each twice: each applied once, and the file laid
    over the copy's own at each step equals the venue's."""
    assert pushing(linked) == "applied"
    drafted = rounds.draft_next_round(_fresh(linked), by=director).round
    rnd = rounds.publish_round(drafted, by=director)
    early = _renamed(push.build(linked.pk), VENUE, COPY)
    MirrorLink.objects.filter(event=linked).update(acked_version=early["version"])
    match = next(m for m in rnd.matches.all() if m.participants.count() == 2)
    results.record(match, [{"scores": [1, 0]}], expected_version=match.version, by=director)
    late = _renamed(push.build(linked.pk), VENUE, COPY)
    assert "parts" in early and "parts" in late and late["base"] == early["version"]

    def post(body: dict[str, Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return _post(client, COPY, "push", token, body)

    gap = post(late)
    assert gap.status_code == 409 and gap.json()["code"] == "gap"
    assert post(early).json()["status"] == "applied"
    assert post(early).json()["status"] == "duplicate"
    assert post(late).json()["status"] == "applied"
    assert post(late).json()["status"] == "duplicate"
    assert post(early).json()["status"] == "duplicate"
    assert _equal(linked, public)
    received = list(MirrorChange.objects.filter(event=public).values_list("version", flat=True))
    assert received == list(range(1, late["version"] + 1))
    assert AuditEntry.objects.filter(event=public, action="mirror.applied").count() == 3


def test_a_correction_to_an_old_round_travels_as_that_rounds_part(
    director, linked, public, bridge, pushing
):
    """A result of round 1 corrected while round 2 is played: the push carries round 1
    alone, and the copy writes round 1 again and leaves round 2 as it is."""
    play_round(_fresh(linked), director)
    assert pushing(linked) == "applied"
    kept = public.rounds.get(number=2).pk
    old = Match.objects.filter(round__event=linked, round__number=1, result__isnull=False)
    match = next(m for m in old if m.participants.count() == 2)
    results.record(match, [{"scores": [0, 1]}], expected_version=match.version, by=director)
    assert pushing(linked) == "applied"
    sent = bridge.sent[-1]
    assert _round_numbers(sent) == [1] and sent["parts"]["rounds_gone"] == []
    assert set(sent["parts"]) == {"event", "rounds", "rounds_gone"}
    assert public.rounds.get(number=2).pk == kept
    assert _equal(linked, public)


def test_a_deleted_draft_travels_as_a_round_gone(director, linked, public, bridge, pushing):
    drafted = rounds.draft_next_round(_fresh(linked), by=director).round
    assert pushing(linked) == "applied"
    assert public.rounds.filter(number=drafted.number).exists()
    rounds.delete_draft(drafted, by=director)
    assert pushing(linked) == "applied"
    assert bridge.sent[-1]["parts"]["rounds_gone"] == [drafted.number]
    assert not public.rounds.filter(number=drafted.number).exists()
    assert _equal(linked, public)


def test_parts_laid_over_a_file_replace_those_parts_and_keep_the_rest():
    base = {
        "arbiter_event_file": 1,
        "event": {"slug": "x", "status": "running"},
        "teams": [],
        "stages": [],
        "entrants": [{"number": 1}],
        "rounds": [{"number": 1, "label": "a"}, {"number": 2, "label": "b"}],
        "draws": [],
    }
    parts = {
        "event": {"slug": "x", "status": "finished"},
        "draws": [{"key": "k"}],
        "rounds": [{"number": 3, "label": "c"}, {"number": 1, "label": "A"}],
        "rounds_gone": [2],
    }
    file = file_parts.apply_parts(base, parts)
    assert file["event"]["status"] == "finished" and file["draws"] == [{"key": "k"}]
    assert file["entrants"] == [{"number": 1}]
    assert [(r["number"], r["label"]) for r in file["rounds"]] == [(1, "A"), (3, "c")]
    assert base["rounds"][0]["label"] == "a" and len(base["rounds"]) == 2  # left as it was
    for wrong in ({}, {"event": {}, "players": []}, {"event": {}, "rounds": [{"x": 1}]}):
        with pytest.raises(ValueError):
            file_parts.apply_parts(base, wrong)


def test_parts_the_copy_refuses_are_followed_by_the_whole_file(
    director, linked, public, bridge, pushing, monkeypatch
):
    """A push of parts answered 422 (parts that do not make a valid file; a copy that knows
    only whole files refuses parts so too): the same changes go again, whole, at once."""
    assert pushing(linked) == "applied"
    real = push.export_parts

    def broken(event: Event, parts: Any) -> dict[str, Any]:
        return {**real(event, parts), "rounds": [{"label": "no number"}]}

    monkeypatch.setattr(push, "export_parts", broken)
    play_round(_fresh(linked), director)
    assert pushing(linked) == "applied"
    assert ["parts" in b for b in bridge.sent[-2:]] == [True, False]
    assert _equal(linked, public)
