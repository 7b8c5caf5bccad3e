"""Every service that changes data writes an audit row.

The writers are found by introspection, so a new service is caught: every public function
of tournaments/services/* and of each format's tournaments/formats/<key>/services*.py whose
code (or a services function it calls) saves, creates, updates or deletes rows. Each writer
is then either called here with valid input, and must write an AuditEntry (or, for a
result, the ResultChange row that is a result's audit), or named in EXEMPT with the reason
it needs no audit row of its own.
"""

from __future__ import annotations

import ast
import datetime as dt
import importlib
import inspect
import pkgutil
import re
import types
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import tournaments.formats as formats_package
import tournaments.services as services_package
from tests.factories import (
    bot_contest_event,
    freestyle_event,
    gokodom_event,
    play_round,
    round_robin_event,
    wpf_imported_event,
    wpf_playoffs_event,
)
from tests.pysource import parse_python
from tournaments.formats.bot_contest import services as format_bot_contest
from tournaments.formats.freestyle import services as format_freestyle
from tournaments.formats.gokodom import services as format_gokodom
from tournaments.formats.gokodom import services_absence as format_gokodom_absence
from tournaments.formats.gokodom import services_director as format_gokodom_director
from tournaments.formats.gokodom import services_settle as format_gokodom_settle
from tournaments.formats.gokodom.claims import seen_mark
from tournaments.formats.wpf_playoffs import services as format_wpf_playoffs
from tournaments.models import Entrant, Match, Round
from tournaments.services import (
    backup,
    checkin,
    corrections,
    double_entry,
    draws,
    entrants,
    event_import,
    eventfile,
    events,
    invitations,
    results,
    round_times,
    rounds,
)

pytestmark = pytest.mark.django_db

# ORM calls that change rows (select_for_update: only ever used before a change).
WRITE_CALLS = {
    "create",
    "bulk_create",
    "get_or_create",
    "update_or_create",
    "save",
    "update",
    "bulk_update",
    "delete",
    "select_for_update",
}

# Writers that need no audit row of their own, each with the reason.
EXEMPT = {
    "audit.log": "it is the audit row",
    "audit.log_series": "it is the series' audit row",
    "backup.create_backup": "writes files, reads the database (the match is hashlib/dict .update)",
    "backup.read_manifest": "reads files only (dict .update)",
    "backup.restore_database": "replaces the whole database with a dump that holds its own "
    "audit log; a row written before would be overwritten",
    "backup_owned.apply": "a step inside backup.restore_events, which writes event.restored; "
    "it puts back the event's own audit rows from the backup",
    "backup_owned.ensure_accounts": "a step inside backup.restore_events (accounts the "
    "restored events name)",
    "backup_series.apply": "a step inside backup.restore_events, which writes series.restored "
    "in each series' log; it puts back the series' own audit rows from the backup",
    "event_import.check": "a preview that saves nothing (dict .update)",
    "event_import.start": "queues a confirmed import (an ImportJob row: who, when, the file); "
    "no event exists until run_job imports it, audited as event.imported",
    "ftd.ftd_event_file": "builds an event file in memory (dict .update)",
    "file_check.check_path": "import_event --check: event_import.check on a file, saves nothing",
    "locking.lock_event": "takes a row lock for the caller's audited change",
    "locking.lock_match": "takes row locks for the caller's audited change",
    "result_changes.write": "it is the result's audit row (a ResultChange), written by the "
    "result services' steps",
    "format_gokodom.save_details": "a step inside report/confirm/dispute/record_codes, which "
    "write the ResultChange or AuditEntry",
    "format_gokodom.apply_report": "a step inside confirm and close_at_deadline, which write "
    "the ResultChange",
    "draws.store": "a step inside audited actions (drafting a round); each RandomDraw row "
    "records who drew, when, how and what",
    "rounds.store_plan": "a step inside draft_next_round, which writes round.drafted",
    "standings.results_changed": "raises the results version inside an audited change and "
    "clears the page cache",
    "standings.schedule_recompute": "enqueues a task and clears a cache key; no row changes",
    "standings.sweep": "re-enqueues lost recomputes; no row changes",
    "standings.refresh": "stores a standings snapshot, derived from the audited results",
    "standings_store.store_snapshot": "the derived standings snapshot (see refresh)",
    "standings_store.store_outlook": "the derived outlook of a snapshot (see refresh)",
    "standings.publish_standings": "the first half of refresh: the derived snapshot",
    "standings.attach_outlook": "the second half of refresh: the derived outlook",
    "standings.recompute": "the task's refresh, again while results were saved meanwhile",
    "standings_store.prune_snapshots": "deletes derived snapshots no page reads any more",
    "standings_rows.complete": "copies a derived snapshot's shared rows into it with the "
    "outlook's verdicts (see store_outlook)",
    "standings.prune": "the worker's prune_snapshots after publishing (derived data)",
    "standings.prune_backlog": "the sweep's prune_snapshots of events no recompute reaches",
    "reports.request": "a Report row is a file request that records who asked and when; it "
    "changes no event data",
    "reports.build": "builds the requested file and marks its Report row done",
    "reports.public_standings_pdf": "requests the public standings file (see request)",
    "reports.record_digest": "reads only: a digest of what a report shows (hashlib .update)",
    "notifications.pairings_published": "a step inside publish_round (round.published): "
    "one mail row per player, sent after the commit",
    "notifications.dispute_opened": "a step inside format_gokodom.dispute (its audit row "
    "names the mails' key)",
    "notifications.dispute_settled": "a step inside format_gokodom_settle.settle (its audit "
    "row names the mails' key)",
    "notifications.deliver": "marks mail rows sent, skipped or failed; no event data",
    "notifications.send_later": "enqueues the mail task (without a worker: deliver)",
    "notifications.sweep": "re-enqueues mail whose task was lost (see deliver)",
    "notifications.set_player_emails": "a person's own mail switches, not event data",
    "rating_report.deliver": "marks the kept WOF copy mailed (rating_report.sent is the "
    "audit row of the sending); no event data",
    "rating_report.mail_later": "enqueues the mail task (without a worker: deliver)",
    "notifications.unsubscribe": "a person's own mail switch, from a mail's signed link",
}


# a format's own services: tournaments/formats/<key>/services.py, services_<part>.py
FORMAT_SERVICES = re.compile(r"tournaments\.formats\.(?P<key>[a-z_]+)\.services(?P<part>_[a-z_]+)?")


def _modules() -> list[tuple[str, types.ModuleType]]:
    """(name, module) of every services module; a package's modules (eventfile/) all go
    by the package's name, the one its callers use ("eventfile.import_event"), and a
    format's by the name its callers give them ("format_gokodom_director")."""
    found = []
    for info in pkgutil.walk_packages(services_package.__path__, services_package.__name__ + "."):
        found.append((_short(info.name), importlib.import_module(info.name)))
    for info in pkgutil.walk_packages(formats_package.__path__, formats_package.__name__ + "."):
        if FORMAT_SERVICES.fullmatch(info.name):
            found.append((_short(info.name), importlib.import_module(info.name)))
    assert "format_gokodom_director" in dict(found)  # the formats' services are walked
    return found


def _is_service(module_name: str) -> bool:
    return module_name.startswith(services_package.__name__ + ".") or bool(
        FORMAT_SERVICES.fullmatch(module_name)
    )


def _short(module_name: str) -> str:
    """tournaments.services.eventfile.importing -> eventfile,
    tournaments.formats.gokodom.services_director -> format_gokodom_director"""
    if found := FORMAT_SERVICES.fullmatch(module_name):
        return f"format_{found['key']}{found['part'] or ''}"
    return module_name[len(services_package.__name__) + 1 :].split(".")[0]


def find_writers() -> set[str]:
    """ "module.function" of every public services function that changes rows, directly or
    through the services functions it calls."""
    modules = _modules()
    calls: dict[str, set[str]] = {}
    writes: set[str] = set()
    for name, module in modules:
        for node in ast.walk(parse_python(inspect.getsource(module))):
            if not isinstance(node, ast.FunctionDef):
                continue
            key = f"{name}.{node.name}"
            edges = calls.setdefault(key, set())
            for sub in ast.walk(node):
                if not isinstance(sub, ast.Call):
                    continue
                func = sub.func
                if isinstance(func, ast.Attribute):
                    if func.attr in WRITE_CALLS:
                        writes.add(key)
                    target = getattr(module, getattr(func.value, "id", ""), None)
                    if isinstance(target, types.ModuleType) and _is_service(target.__name__):
                        edges.add(f"{_short(target.__name__)}.{func.attr}")
                elif isinstance(func, ast.Name):
                    target = getattr(module, func.id, None)
                    if inspect.isfunction(target) and _is_service(target.__module__):
                        edges.add(f"{_short(target.__module__)}.{target.__name__}")
                    else:
                        edges.add(f"{name}.{func.id}")

    def changes(key: str, seen: set[str]) -> bool:
        if key in seen:
            return False
        seen.add(key)
        return key in writes or any(changes(edge, seen) for edge in calls.get(key, ()))

    found = set()
    for name, module in modules:
        for attr, obj in vars(module).items():
            public = not attr.startswith("_") and inspect.isfunction(obj)
            if public and obj.__module__ == module.__name__ and changes(f"{name}.{attr}", set()):
                found.add(f"{name}.{attr}")
    return found


# -- each writer called with valid input ---------------------------------------------------
# A scenario prepares what the call needs and returns the call itself, so that only the
# call is watched.

Scenario = Callable[[Any], Callable[[], Any]]
SCENARIOS: dict[str, Scenario] = {}


def scenario(name: str) -> Callable[[Scenario], Scenario]:
    def register(func: Scenario) -> Scenario:
        SCENARIOS[name] = func
        return func

    return register


def _rr(d, **settings):
    return round_robin_event(d, players=4, slug="rr", **settings)


def _published(d, event):
    return rounds.publish_round(rounds.draft_next_round(event, by=d).round, by=d)


def _two_player_match(rnd):
    for match in rnd.matches.order_by("order").prefetch_related("participants__entrant"):
        seats = [p.entrant for p in match.participants.order_by("seat") if p.entrant_id]
        if len(seats) == 2:
            return match, seats[0], seats[1]
    raise AssertionError("no two-player match")


@scenario("events.create_event")
def _(d):
    return lambda: events.create_event(slug="new", name="New", format="round_robin", by=d)


@scenario("events.add_entrant")
def _(d):
    event = _rr(d)
    return lambda: events.add_entrant(event, name="Late Comer", by=d)


@scenario("events.withdraw")
def _(d):
    event = _rr(d)
    return lambda: events.withdraw(event.entrants.get(number=2), by=d, reason="ill")


@scenario("events.add_director")
def _(d):
    event = _rr(d)
    type(d).objects.create_user("second", password="pw-second-1")
    return lambda: events.add_director(event, "second", by=d)


@scenario("entrants.import_csv")
def _(d):
    event = _rr(d)
    return lambda: entrants.import_csv(event, "name,rating\nNew One,1500\n", by=d)


@scenario("entrants.update")
def _(d):
    entrant = _rr(d).entrants.get(number=1)
    data = {"name": "Renamed", "rating": 1999, "seed": None, "country": "", "gender": ""}
    return lambda: entrants.update(entrant, data, flags={}, team="", by=d)


@scenario("eventfile.import_event")
def _(d):
    data = eventfile.export_event(_rr(d))
    return lambda: eventfile.import_event(data, by=d, slug="copy")


@scenario("event_import.save")
def _(d):
    import json

    text = json.dumps(eventfile.export_event(_rr(d)))
    return lambda: event_import.save(text, kind="auto", by=d, slug="copy")


@scenario("event_import.run_job")
def _(d):
    import json

    from django.utils import timezone

    from tournaments.models import ImportJob

    text = json.dumps(eventfile.export_event(_rr(d)))
    job = ImportJob.objects.create(
        user=d, kind="event", slug="copy", text=text, created_at=timezone.now()
    )
    return lambda: event_import.run_job(job.pk)


@scenario("backup.restore_events")
def _(d):
    import tempfile
    from pathlib import Path

    _rr(d)
    made = backup.create_backup(Path(tempfile.mkdtemp()), database=backup.NONE)
    return lambda: backup.restore_events(made.path, by=d, replace=True)


@scenario("rounds.draft_next_round")
def _(d):
    event = _rr(d)
    return lambda: rounds.draft_next_round(event, by=d)


@scenario("rounds.publish_round")
def _(d):
    draft = rounds.draft_next_round(_rr(d), by=d).round
    return lambda: rounds.publish_round(draft, by=d)


@scenario("rounds.delete_draft")
def _(d):
    draft = rounds.draft_next_round(_rr(d), by=d).round
    return lambda: rounds.delete_draft(draft, by=d)


@scenario("rounds.redraw")
def _(d):
    published = _published(d, _rr(d))
    return lambda: rounds.redraw(published, by=d, reason="paired again")


@scenario("rounds.search_longer")
def _(d):
    from tests.tournaments.test_woc_pairing_budget_web import _hurried, _woc

    event = _woc(d, seconds=0)
    draft = rounds.draft_next_round(event, by=d).round
    _hurried(draft)
    return lambda: rounds.search_longer(draft, by=d)


@scenario("rounds.swap")
def _(d):
    draft = rounds.draft_next_round(_rr(d), by=d).round
    return lambda: rounds.swap(draft, 1, 2, by=d, reason="travel")


@scenario("round_times.set_start_time")
def _(d):
    draft = rounds.draft_next_round(_rr(d), by=d).round
    starts = dt.datetime(2031, 3, 1, 13, 30, tzinfo=dt.UTC)
    return lambda: round_times.set_start_time(draft, starts, by=d)


@scenario("rounds.complete_round")
def _(d):
    event = _rr(d)
    rnd = play_round(event, d, complete=False)
    return lambda: rounds.complete_round(rnd, by=d)


@scenario("results.record")
def _(d):
    match, _, _ = _two_player_match(_published(d, _rr(d)))
    return lambda: results.record(match, [{"scores": [1, 0]}], expected_version=0, by=d)


@scenario("double_entry.set_enabled")
def _(d):
    event = _rr(d)
    return lambda: double_entry.set_enabled(event, True, by=d)


@scenario("double_entry.enter")
def _(d):
    event = _rr(d)
    double_entry.set_enabled(event, True, by=d)
    match, _, _ = _two_player_match(_published(d, event))
    return lambda: double_entry.enter(match, [{"scores": [1, 0]}], expected_version=0, by=d)


@scenario("corrections.confirm_result")
def _(d):
    event = _rr(d)
    rnd = play_round(event, d)
    match, _, _ = _two_player_match(rnd)
    games = [{"scores": [0, 1]}]
    preview = corrections.preview_result(match, games, expected_version=match.version)
    return lambda: corrections.confirm_result(
        match,
        games,
        expected_version=match.version,
        results_version=preview.results_version,
        digest=preview.digest,
        by=d,
        reason="typo on the sheet",
    )


@scenario("rating_report.send")
def _(d):
    from django.test import override_settings

    from tournaments.services import rating_report

    event = _rr(d)
    header = {"Country": "France", "Date": "01/08/2026", "Sender": "Ada"}
    for entrant in event.entrants.all():
        entrant.family_name, entrant.given_name = "DOE", "Jo"
        entrant.save()
    play_round(event, d, scores=lambda match: [40, 24])
    event.refresh_from_db()
    token = rating_report.prepare(event, header).token

    def send():
        with override_settings(ARBITER_RATING_OFFICER_EMAIL="ratings@wof.example"):
            return rating_report.send(event, header, token, by=d)

    return send


@scenario("corrections.confirm_withdrawal")
def _(d):
    event = _rr(d)
    play_round(event, d)
    entrant = event.entrants.get(number=3)
    preview = corrections.preview_withdrawal(entrant)
    return lambda: corrections.confirm_withdrawal(
        entrant, results_version=preview.results_version, digest=preview.digest, by=d
    )


@scenario("draws.enter_external")
def _(d):
    event = _rr(d)
    now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    return lambda: draws.enter_external(event, "extra/1", [1], purpose="test", by=d, at=now)


@scenario("format_freestyle.enter_draw")
def _(d):
    event = freestyle_event(d, players=16, slug="fs-lot", external_draws=True)
    Entrant.objects.filter(event=event, number__in=[2, 3]).update(rating=1985)
    waiting = format_freestyle.waiting_draw(event)
    return lambda: format_freestyle.enter_draw(event, waiting.key, "3 2", by=d)


@scenario("format_freestyle.withdraw")
def _(d):
    event = freestyle_event(d, players=16)
    return lambda: format_freestyle.withdraw(
        event.entrants.get(number=5), during=False, by=d, reason="ill"
    )


def _goko(d, **settings):
    event = gokodom_event(d, **settings)
    match, a, b = _two_player_match(_published(d, event))
    return event, match, a, b


@scenario("format_gokodom.report")
def _(d):
    _, match, a, _ = _goko(d, swiss_rounds=3)
    return lambda: format_gokodom.report(match, a, outcome="W", by=a.user)


@scenario("format_gokodom.confirm")
def _(d):
    _, match, a, b = _goko(d, swiss_rounds=3)
    format_gokodom.report(match, a, outcome="W", by=a.user)
    return lambda: format_gokodom.confirm(Match.objects.get(pk=match.pk), b, by=b.user)


@scenario("format_gokodom.dispute")
def _(d):
    _, match, a, b = _goko(d, swiss_rounds=3)
    format_gokodom.report(match, a, outcome="W", by=a.user)
    return lambda: format_gokodom.dispute(Match.objects.get(pk=match.pk), b, note="no", by=b.user)


@scenario("format_gokodom_settle.settle")
def _(d):
    _, match, a, b = _goko(d, swiss_rounds=3)
    format_gokodom.report(match, a, outcome="W", by=a.user)
    format_gokodom.dispute(Match.objects.get(pk=match.pk), b, note="no", by=b.user)
    seen = seen_mark(Match.objects.get(pk=match.pk).details["report"])
    return lambda: format_gokodom_settle.settle(
        Match.objects.get(pk=match.pk), expected_version=0, seen=seen, claim="report", by=d
    )


@scenario("format_gokodom.message_director")
def _(d):
    _, match, a, _ = _goko(d)
    return lambda: format_gokodom.message_director(match, a, by=a.user)


@scenario("format_gokodom.set_bye_request")
def _(d):
    event = gokodom_event(d, swiss_rounds=3)
    entrant = event.entrants.get(number=1)
    return lambda: format_gokodom.set_bye_request(entrant, 1, wanted=True, by=entrant.user)


@scenario("format_gokodom_director.record_codes")
def _(d):
    _, match, a, b = _goko(d, swiss_rounds=3)
    codes = {str(a.number): "D", str(b.number): "D"}
    return lambda: format_gokodom_director.record_codes(match, codes, expected_version=0, by=d)


@scenario("corrections.confirm_details")
def _(d):
    _, match, a, b = _goko(d, swiss_rounds=3)
    codes = {str(a.number): "W", str(b.number): "L"}
    details = format_gokodom_director.details_with_codes(match, codes)
    preview = corrections.preview_details(match, details, expected_version=0)
    return lambda: corrections.confirm_details(
        match,
        details,
        expected_version=0,
        results_version=preview.results_version,
        digest=preview.digest,
        by=d,
        write=lambda: format_gokodom_director.record_codes(match, codes, expected_version=0, by=d),
        reason="typo on the sheet",
    )


@scenario("format_gokodom_director.choose_eighth_place")
def _(d):
    event = gokodom_event(d)
    return lambda: format_gokodom_director.choose_eighth_place(event, "playoff", by=d)


@scenario("format_gokodom_director.set_first_round_start")
def _(d):
    event = gokodom_event(d)
    return lambda: format_gokodom_director.set_first_round_start(event, dt.date(2031, 2, 10), by=d)


@scenario("format_gokodom_director.set_round_times")
def _(d):
    _, match, _, _ = _goko(d)
    deadline = dt.datetime(2031, 3, 1, tzinfo=dt.UTC)
    return lambda: format_gokodom_director.set_round_times(match.round, None, deadline, by=d)


@scenario("format_gokodom_director.close_at_deadline")
def _(d):
    _, match, _, _ = _goko(d)
    past = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)
    format_gokodom_director.set_round_times(match.round, None, past, by=d)
    return lambda: format_gokodom_director.close_at_deadline(match.round_id)


def _contest(d):
    event = bot_contest_event(d, entries=4)
    return event, _published(d, event)


@scenario("format_bot_contest.create_token")
def _(d):
    event, _ = _contest(d)
    return lambda: format_bot_contest.create_token(event, by=d)


@scenario("format_bot_contest.revoke_token")
def _(d):
    event, _ = _contest(d)
    format_bot_contest.create_token(event, by=d)
    return lambda: format_bot_contest.revoke_token(event, by=d)


def _game_line(rnd: Round) -> str:
    _, a, b = _two_player_match(rnd)
    return f"{rnd.number},{rnd.details['board']},{a.number},{b.number},,40,24"


@scenario("format_bot_contest.import_csv")
def _(d):
    event, rnd = _contest(d)
    text = "round,board,X,O,result,X points,O points\n" + _game_line(rnd)
    return lambda: format_bot_contest.import_csv(event, text, by=d, filename="r1.csv")


@scenario("format_bot_contest.post_game")
def _(d):
    event, rnd = _contest(d)
    token, _ = format_bot_contest.create_token(event, by=d)
    _, a, b = _two_player_match(rnd)
    game = {
        "game_id": "g-1",
        "round": rnd.number,
        "board": rnd.details["board"],
        "x": a.number,
        "o": b.number,
        "x_points": 40,
        "o_points": 24,
    }
    return lambda: format_bot_contest.post_game(event, token, game)


@scenario("format_bot_contest.choose_board")
def _(d):
    event = bot_contest_event(
        d, entries=2, board_choice="director", boards=["Open", "Cross", "Corner"]
    )
    return lambda: format_bot_contest.choose_board(event, 1, "Cross", by=d)


POOL = [f"P{n}" for n in range(1, 9)]


@scenario("format_wpf_playoffs.save_puzzles")
def _(d):
    event = wpf_playoffs_event(d)
    return lambda: format_wpf_playoffs.save_puzzles(
        event, selection="preference_lists", online=POOL, live=["L1", "L2", "L3", "L4"], by=d
    )


@scenario("format_wpf_playoffs.save_eligibility")
def _(d):
    event = wpf_playoffs_event(d, players=4)
    entries = [
        format_wpf_playoffs.EligibilityEntry(
            number=e.number,
            gp_scores=None,
            gp_total=900 - e.number,
            attending=True,
            gp_position=None,
        )
        for e in event.entrants.order_by("number")
    ]
    return lambda: format_wpf_playoffs.save_eligibility(event, entries, by=d)


@scenario("format_wpf_playoffs.save_preferences")
def _(d):
    event = wpf_playoffs_event(d, online_puzzles=POOL)
    entrant = event.entrants.get(number=1)
    order = ["P3", "P1", "P2", "P4", "P5", "P6", "P7", "P8"]
    return lambda: format_wpf_playoffs.save_preferences(
        entrant, order, letter=None, by=d, as_director=True
    )


@scenario("format_wpf_playoffs.choose_live_puzzle")
def _(d):
    event = wpf_imported_event(d, 7, live_puzzles=["L1", "L2", "L3", "L4"])
    heat = rounds.draft_next_round(event, by=d).round
    return lambda: format_wpf_playoffs.choose_live_puzzle(heat, "L3", by=d)


@scenario("format_wpf_playoffs.reveal_online_results")
def _(d):
    event = wpf_imported_event(d, 7)
    return lambda: format_wpf_playoffs.reveal_online_results(event, by=d)


@scenario("wof.import_wof")
def _(d):
    from tests.rules.test_woc_wof import elo_from_record
    from tournaments.services import wof

    text = elo_from_record("woc_2014.json")
    return lambda: wof.import_wof(text, by=d, slug="woc-2014")


@scenario("ftd.import_ftd")
def _(d):
    from tests.shared_data import load
    from tournaments.services import ftd

    data = load("ftd_israeli_championship_2026.json")
    return lambda: ftd.import_ftd(data, by=d, slug="il-2026")


@scenario("format_freestyle.record_tiebreaker")
def _(d):
    event = freestyle_event(d, players=16, slug="fs-tie")
    play_round(event, d, scores=lambda m: [5, 5])  # every game tied: tiebreakers wait
    item = format_freestyle.pending_tiebreakers(event)[0]
    return lambda: format_freestyle.record_tiebreaker(event, item.key, item.options[-1], by=d)


@scenario("format_gokodom_director.decide_advances")
def _(d):
    from tests.tournaments.test_format_gokodom import client_for, games, post, quarter_finals

    event, qf = quarter_finals(d)
    match, a, b = _two_player_match(qf)
    post(client_for(a), "report", event, match, games("0", "1", "draw", "draw", "0", "1"))
    post(client_for(b), "confirm", event, match)  # three all: the director decides
    match.refresh_from_db()
    return lambda: format_gokodom_director.decide_advances(
        match, str(b.number), expected_version=match.version, by=d
    )


@scenario("format_bot_contest.decide_final")
def _(d):
    from django.test import Client

    from tests.tournaments.test_format_bot_contest_web import run_round, seat0_wins, ties

    event = bot_contest_event(d, entries=5)
    client = Client()
    client.force_login(d)
    for points in (seat0_wins, seat0_wins, ties):  # every final game tied: totals tie
        run_round(client, event, points)
    winner = int(format_bot_contest.final_question(event).options[0])
    return lambda: format_bot_contest.decide_final(event, winner, reason="a third game", by=d)


@scenario("checkin.set_presence")
def _(d):
    entrant = _rr(d).entrants.get(number=2)
    return lambda: checkin.set_presence(entrant, present=False, by=d)


@scenario("format_gokodom_absence.set_absence")
def _(d):
    event = gokodom_event(d, swiss_rounds=3)
    entrant = event.entrants.get(number=1)
    return lambda: format_gokodom_absence.set_absence(
        entrant, present=False, by=entrant.user, source="player"
    )


@scenario("invitations.renew_code")
def _(d):
    entrant = _rr(d).entrants.get(number=1)
    return lambda: invitations.renew_code(entrant, by=d, reason="slip lost")


# webhooks: a director's endpoints are audited; a delivery row is not event data
WEBHOOK_URL = "http://93.184.216.34/hook"  # a public address: no DNS, never dialled here
EXEMPT.update(
    {
        "webhooks.notify": "a step inside the change it tells about (audited by that change)",
        "webhooks.send_test": "writes one delivery row to the director's own receiver",
        "webhooks.deliver": "marks delivery rows sent or retried (a 410 audits webhook.gone)",
        "webhooks.send_later": "enqueues the webhook task (without a worker: deliver)",
        "webhooks.sweep": "re-enqueues deliveries that are due (see deliver)",
    }
)


def _webhook(d):
    from tournaments.services import webhooks

    return webhooks, webhooks.create_endpoint(_rr(d), WEBHOOK_URL, ["round.published"], by=d)[0]


@scenario("webhooks.create_endpoint")
def _(d):
    from tournaments.services import webhooks

    event = _rr(d)
    return lambda: webhooks.create_endpoint(event, WEBHOOK_URL, ["round.published"], by=d)


@scenario("webhooks.set_active")
def _(d):
    webhooks, endpoint = _webhook(d)
    return lambda: webhooks.set_active(endpoint, False, by=d)


@scenario("webhooks.delete_endpoint")
def _(d):
    webhooks, endpoint = _webhook(d)
    return lambda: webhooks.delete_endpoint(endpoint, by=d)


@scenario("webhooks.resend")
def _(d):
    webhooks, endpoint = _webhook(d)
    row = webhooks.send_test(endpoint)  # its task runs after a commit this test never makes
    return lambda: webhooks.resend(row, seen_attempts=0, by=d)


# API tokens: made and revoked by a director, audited; a token's use only stamps last_used_at
EXEMPT["api_tokens.check"] = "stamps the token's last use (at most once a minute), no event data"


@scenario("api_tokens.create")
def _(d):
    from tournaments.services import api_tokens

    event = _rr(d)
    return lambda: api_tokens.create(event, name="mirror", scopes=["export:read"], by=d)


@scenario("api_tokens.revoke")
def _(d):
    from tournaments.services import api_tokens

    event = _rr(d)
    token, _secret = api_tokens.create(event, name="mirror", scopes=["export:read"], by=d)
    return lambda: api_tokens.revoke(event, token.pk, by=d)


# Registration and qualification (issue 32): the places machine and its settings
EXEMPT["places.registration_of"] = "makes the event's settings row on first use (closed, empty)"
EXEMPT["notifications.entry_mail"] = "a step inside the audited entry actions (one mail row)"

# Series (issue 32): a series' changes go to its own log (SeriesAuditEntry), since a
# series spans events


def _series(d, **settings):
    from tournaments.services import series

    return series, series.create_series(slug="gp", name="GP", by=d, **settings)


GP_TEXT = "player,score\nAnn,10\nBob,8\n"


@scenario("series.create_series")
def _(d):
    from tournaments.services import series

    return lambda: series.create_series(slug="gp", name="GP", by=d)


@scenario("series.update_rule")
def _(d):
    series, gp = _series(d)
    rule = {"value": "score", "points": [], "ties": "shared", "public": True, "name": "GP"}
    return lambda: series.update_rule(gp, by=d, best=1, **rule)


@scenario("series.add_event_stage")
def _(d):
    series, gp = _series(d, value="place_points", points=[3, 2, 1])
    event = _rr(d)
    return lambda: series.add_event_stage(gp, event, by=d)


@scenario("series.import_scores")
def _(d):
    series, gp = _series(d)
    return lambda: series.import_scores(gp, name="Round 1", text=GP_TEXT, by=d)


@scenario("series.move_stage")
def _(d):
    series, gp = _series(d)
    series.import_scores(gp, name="Round 1", text=GP_TEXT, by=d)
    second = series.import_scores(gp, name="Round 2", text=GP_TEXT, by=d)
    return lambda: series.move_stage(gp, second.pk, by=d, up=True)


@scenario("series.remove_stage")
def _(d):
    series, gp = _series(d)
    stage = series.import_scores(gp, name="Round 1", text=GP_TEXT, by=d)
    return lambda: series.remove_stage(gp, stage.pk, by=d)


@scenario("series.merge_names")
def _(d):
    series, gp = _series(d)
    return lambda: series.merge_names(gp, name="Jon", same_as="John", by=d)


@scenario("series.unmerge")
def _(d):
    series, gp = _series(d)
    merge = series.merge_names(gp, name="Jon", same_as="John", by=d)
    return lambda: series.unmerge(gp, merge.pk, by=d)


@scenario("series.add_feed")
def _(d):
    series, gp = _series(d)
    event = _rr(d)
    return lambda: series.add_feed(gp, event, by=d)


@scenario("series.remove_feed")
def _(d):
    series, gp = _series(d)
    event = _rr(d)
    series.add_feed(gp, event, by=d)
    return lambda: series.remove_feed(gp, event.pk, by=d)


# venue mode (docs/venue.md): linking, stopping, applying a push, taking over and handing
# over are audited (mirror.*); the outbox row and the pusher's bookkeeping are not changes
VENUE_URL = "http://public.test/e/rr/"
EXEMPT.update(
    {
        "mirror.record": "it is the outbox row, written inside the change it counts (audited)",
        "mirror.push": "records the copy's answer on the link (acknowledged, a retry); a "
        "refusal that fences the machine audits mirror.fenced",
        "mirror.run_due": "calls mirror.push for each link that is due",
        "mirror.loop": "calls mirror.run_due every second",
        "mirror.pull_event": "asks the public copy over the network (tests/tournaments/"
        "test_venue.py); audits mirror.pulled_here",
        "eventfile.replace_event": "a step inside mirror.apply_push and mirror.pull_event, "
        "which write mirror.applied and mirror.pulled_here",
    }
)


def _open_event(d, capacity=1):
    from tournaments.services import places
    from tournaments.services import registration as registration_settings

    event = _rr(d)
    registration_settings.update_settings(event, {"open": True, "capacity": capacity}, by=d)
    entries = []
    for name in ("Ann", "Bob", "Cat"):
        entry = places.enter(event, name=name, email=f"{name.lower()}@example.org")
        entries.append(places.confirm_email(entry))
    return event, entries


@scenario("places.enter")
def _(d):
    from tournaments.services import places

    event, _entries = _open_event(d)
    return lambda: places.enter(event, name="Dan", email="dan@example.org")


@scenario("places.confirm_email")
def _(d):
    from tournaments.services import places

    event, _entries = _open_event(d)
    entry = places.enter(event, name="Dan", email="dan@example.org")
    return lambda: places.confirm_email(entry)


@scenario("places.withdraw")
def _(d):
    from tournaments.services import places

    _event, entries = _open_event(d)
    return lambda: places.withdraw(entries[0])


@scenario("places.decline")
def _(d):
    from tournaments.services import places

    _event, entries = _open_event(d)
    places.withdraw(entries[0])
    return lambda: places.decline(entries[1])


@scenario("places.confirm_place")
def _(d):
    from tournaments.services import places

    _event, entries = _open_event(d)
    places.withdraw(entries[0])
    return lambda: places.confirm_place(entries[1])


@scenario("places.fill")
def _(d):
    from tournaments.models import Registration
    from tournaments.services import places

    event, _entries = _open_event(d)
    Registration.objects.filter(event=event).update(capacity=2)

    def call():
        from django.db import transaction

        from tournaments.services import locking

        with transaction.atomic():
            return places.fill(locking.lock_event(event), now=dt.datetime.now(dt.UTC))

    return call


def _overdue(d):
    from tournaments.services import places

    event, entries = _open_event(d)
    places.withdraw(entries[0])
    return event, dt.datetime.now(dt.UTC) + dt.timedelta(days=30)


@scenario("places.check_due")
def _(d):
    from tournaments.services import places

    event, later = _overdue(d)
    return lambda: places.check_due(event, now=later)


@scenario("places.sweep")
def _(d):
    from tournaments.services import places

    _event, later = _overdue(d)
    return lambda: places.sweep(now=later)


@scenario("places.director_accept")
def _(d):
    from tournaments.services import places

    _event, entries = _open_event(d)
    places.director_refuse(entries[0], by=d)  # Bob is offered the place: accepted for him
    return lambda: places.director_accept(entries[1], by=d)


@scenario("places.director_refuse")
def _(d):
    from tournaments.services import places

    _event, entries = _open_event(d)
    return lambda: places.director_refuse(entries[0], by=d, reason="no fee")


@scenario("places.director_to_waiting")
def _(d):
    from tournaments.services import places

    _event, entries = _open_event(d)
    return lambda: places.director_to_waiting(entries[0], by=d)


@scenario("places.make_entrants")
def _(d):
    from tournaments.services import places

    event, _entries = _open_event(d)
    return lambda: places.make_entrants(event, by=d)


@scenario("rating_list.replace")
def _(d):
    from tournaments.services import rating_list

    event = _rr(d)
    rows = [{"name": "Ann", "rating": 2000, "federation": "FRA", "external_id": "1"}]
    return lambda: rating_list.replace(event, rows, by=d, source="list.csv")


@scenario("registration.update_settings")
def _(d):
    from tournaments.services import registration as registration_settings

    event = _rr(d)
    return lambda: registration_settings.update_settings(event, {"open": True}, by=d)


@scenario("qualification.build")
def _(d):
    from tournaments.services import qualification

    event = _rr(d)
    people = [qualification.Candidate(name=f"P{i}", email=f"p{i}@example.org") for i in range(4)]
    return lambda: qualification.build(
        event, people, places_count=2, label="GP", confirm_hours=24, by=d
    )


@scenario("qualification.build_from_form")
def _(d):
    from tournaments.services import qualification

    event = _rr(d)
    data = {
        "source": "csv",
        "file": "name,email\nAnn,ann@example.org\nBob,bob@example.org\n",
        "places": 1,
        "invite": 2,
        "label": "GP",
        "confirm_hours": 24,
    }
    return lambda: qualification.build_from_form(event, data, by=d)


EXEMPT["format_wpf_playoffs.apply_series_seeds"] = (
    "a step inside places.make_entrants (entries.made_entrants names the seeds) and "
    "seeds_from_series (wpf.seeds_from_series)"
)


@scenario("format_wpf_playoffs.seeds_from_series")
def _(d):
    from tests.tournaments.test_wpf_series_seeds import confirm_all, linked_event
    from tournaments.services import places, series

    gp, event = linked_event(d)
    confirm_all(event)
    places.make_entrants(event, by=d)
    stage = gp.stages.get(name="Round 8")
    series.import_scores(gp, name="Round 8", text="Ann,100\nDan,400", by=d, stage=stage)
    return lambda: format_wpf_playoffs.seeds_from_series(event, by=d)


@scenario("mirror.configure")
def _(d):
    from tournaments.services.mirror import links

    event = _rr(d)
    return lambda: links.configure(event, public_url=VENUE_URL, token="arb_x", by=d)


@scenario("mirror.stop")
def _(d):
    from tournaments.services.mirror import links

    event = _rr(d)
    links.configure(event, public_url=VENUE_URL, token="arb_x", by=d)
    return lambda: links.stop(event, by=d)


def _pushed(d):
    from tournaments.services import eventfile
    from tournaments.services.mirror import receive

    event = _rr(d)
    push = {"protocol": 1, "writer": "w_1", "epoch": 1, "base": 0, "version": 1}
    push |= {"changes": [], "file": eventfile.export_event(event)}
    return event, push, receive


@scenario("mirror.apply_push")
def _(d):
    event, push, receive = _pushed(d)
    return lambda: receive.apply_push(event.pk, push)


@scenario("mirror.take_over")
def _(d):
    event, push, receive = _pushed(d)
    receive.apply_push(event.pk, push)
    event.refresh_from_db()
    return lambda: receive.take_over(event, by=d)


@scenario("mirror.pull")
def _(d):
    event, _push, receive = _pushed(d)
    return lambda: receive.pull(event.pk, {"writer": "w_2"})


def test_every_writer_is_called_here_or_exempt_with_a_reason():
    writers = find_writers()
    assert "results.record" in writers and "events.create_event" in writers  # it finds them
    covered = set(SCENARIOS) | set(EXEMPT)
    assert sorted(writers - covered) == [], "new writers: add a scenario (or an exemption)"
    assert sorted(covered - writers) == [], "listed but no longer a writer: remove"
    assert not set(SCENARIOS) & set(EXEMPT)


def _changed_tables(queries: list[dict[str, str]]) -> set[str]:
    tables = set()
    for query in queries:
        sql = query["sql"].lstrip().upper()
        for verb, word in (("INSERT", "INTO"), ("UPDATE", ""), ("DELETE", "FROM")):
            if sql.startswith(verb):
                rest = sql[len(verb) :].split()
                if word and rest and rest[0] == word:
                    rest = rest[1:]
                if rest:
                    tables.add(rest[0].strip('"').lower())
    return tables


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_writer_writes_an_audit_row(name, director):
    call = SCENARIOS[name](director)
    with CaptureQueriesContext(connection) as queries:
        call()
    changed = _changed_tables(queries.captured_queries)
    logs = changed & {
        "tournaments_auditentry",
        "tournaments_resultchange",
        "tournaments_seriesauditentry",
    }
    changed -= logs
    assert changed, f"{name} changed no rows here: give it input that does, or exempt it"
    # an audit row written by this call (counting rows would miss a replaced event's)
    assert logs, f"{name} changed {sorted(changed)} without an audit row"
