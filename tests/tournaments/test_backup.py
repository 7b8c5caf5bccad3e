"""Backups: the restore drill (back up, wipe, restore, every event's export byte for byte),
refusals that save nothing, retention, the commands and the database dump."""

import gzip
import json
import sqlite3
from pathlib import Path

import psycopg
import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from accounts.services import claim_entrant
from bench import table_rows
from tests.factories import (
    bot_contest_event,
    freestyle_event,
    gokodom_event,
    play_round,
    round_robin_event,
    wpf_playoffs_event,
)
from tournaments import simulation, tasks
from tournaments.formats.bot_contest import services as format_bot_contest
from tournaments.formats.gokodom import services as format_gokodom
from tournaments.formats.wpf_playoffs import services as format_wpf_playoffs
from tournaments.models import (
    AuditEntry,
    Entrant,
    Event,
    EventDirector,
    Match,
    MatchParticipant,
    Team,
)
from tournaments.services import (
    api_tokens,
    backup,
    checkin,
    corrections,
    double_entry,
    eventfile,
    events,
    notifications,
    rounds,
)
from tournaments.services.backup import BackupError

pytestmark = pytest.mark.django_db(transaction=True)


def wipe(**which):
    """Delete events as a lost database would (seats first: they protect their entrants)."""
    MatchParticipant.objects.filter(
        **{f"match__round__event__{k}": v for k, v in which.items()}
    ).delete()
    Event.objects.filter(**which).delete()


SIMULATED = {"freestyle": 16, "wpf_playoffs": 14, "woc": 10, "bot_contest": 9}


@pytest.fixture
def many_events(director, django_user_model):
    """Events of every format, built through the services and through simulated files:
    played rounds, a published round without results, recorded draws, a team, a private
    event, a second director."""
    rr = round_robin_event(director, players=5, slug="rr", draw_numbers="lot")
    play_round(rr, director, scores=lambda m: [3, 1])
    play_round(rr, director, scores=lambda m: [2, 2])
    rounds.publish_round(rounds.draft_next_round(rr, by=director).round, by=director)
    team = Team.objects.create(event=rr, name="North", country="NO")
    rr.entrants.filter(number=1).update(team=team, flags={"group_a": True})
    # family and given names (issue 28): the restore must give them back too
    rr.entrants.filter(number=2).update(family_name="Dupré", given_name="Hélène")
    django_user_model.objects.create_user("helper", password="pw-helper-1")
    events.add_director(rr, "helper", by=director)
    freestyle_event(director, players=8, slug="fs-empty")
    gokodom_event(director, players=4, slug="goko")
    bot_contest_event(director, slug="bots")
    hidden = round_robin_event(director, players=3, slug="private")
    Event.objects.filter(pk=hidden.pk).update(public=False)
    for key, size in SIMULATED.items():
        state = simulation.cut(simulation.simulate(key, size, seed=3), 2)
        data = simulation.to_event_file(state, slug=f"sim-{key}", name=f"Simulated {key}")
        event = eventfile.import_event(data, by=director)
        EventDirector.objects.get_or_create(event=event, user=director)
    return {e.slug: backup.event_file_text(e) for e in Event.objects.order_by("slug")}


def test_restore_drill_gives_back_every_event_byte_for_byte(many_events, tmp_path, director):
    formats = set(Event.objects.values_list("format", flat=True))
    assert {"round_robin", "freestyle", "gokodom", "bot_contest", "wpf_playoffs", "woc"} <= formats

    made = backup.create_backup(tmp_path)
    assert made.events == len(many_events) and made.database == "postgresql"
    manifest = backup.read_manifest(made.path)
    assert [e["slug"] for e in manifest["events"]] == sorted(many_events)
    assert (made.path / "database.pgdump").stat().st_size > 0
    for slug, text in many_events.items():
        # the backup's file is exactly what `manage.py export_event` writes
        assert (made.path / "events" / f"{slug}.json").read_text(encoding="utf-8") == text

    wipe()  # the lost database
    done = backup.restore_events(made.path, by=None)

    after = {e.slug: backup.event_file_text(e) for e in Event.objects.order_by("slug")}
    assert sorted(after) == sorted(many_events)
    for slug in many_events:
        assert after[slug].encode() == many_events[slug].encode(), slug
    assert len(done.events) == len(many_events) and done.replaced == []
    rr = Event.objects.get(slug="rr")
    assert sorted(rr.directors.values_list("username", flat=True)) == ["director", "helper"]
    assert AuditEntry.objects.filter(action="event.restored").count() == len(many_events)


def test_restore_refuses_to_overwrite_events_and_saves_nothing(many_events, tmp_path):
    made = backup.create_backup(tmp_path, database=backup.NONE)
    Event.objects.filter(slug="rr").update(name="Changed after the backup")
    wipe(slug="goko")
    audit_rows = AuditEntry.objects.count()

    with pytest.raises(BackupError) as refused:
        backup.restore_events(made.path, by=None)
    message = refused.value.messages[0]
    assert "already exist" in message and "rr" in message and "--replace" in message
    assert "goko" not in message.split(":")[1]
    assert not Event.objects.filter(slug="goko").exists()  # not even the missing one
    assert Event.objects.get(slug="rr").name == "Changed after the backup"
    assert AuditEntry.objects.count() == audit_rows

    done = backup.restore_events(made.path, by=None, replace=True)
    assert "rr" in done.replaced and "goko" not in done.replaced
    assert Event.objects.get(slug="rr").name == "RR rr"
    assert backup.event_file_text(Event.objects.get(slug="goko")) == many_events["goko"]


def test_restoring_one_event_leaves_the_others_alone(many_events, tmp_path, director):
    made = backup.create_backup(tmp_path, database=backup.NONE)
    wipe(slug="bots")
    Event.objects.filter(slug="rr").update(name="Kept as it is")
    backup.restore_events(made.path, by=director, only=["bots"])
    assert backup.event_file_text(Event.objects.get(slug="bots")) == many_events["bots"]
    assert Event.objects.get(slug="rr").name == "Kept as it is"
    with pytest.raises(BackupError, match="no event 'nope'"):
        backup.restore_events(made.path, by=director, only=["nope"])


def test_a_damaged_backup_is_refused_naming_the_file(director, tmp_path):
    round_robin_event(director, players=4, slug="a")
    round_robin_event(director, players=4, slug="b")
    made = backup.create_backup(tmp_path, database=backup.NONE)
    wipe()
    damaged = made.path / "events" / "b.json"
    damaged.write_text(damaged.read_text().replace("Player 1", "Player X"))
    with pytest.raises(BackupError) as refused:
        backup.restore_events(made.path, by=None)
    assert refused.value.messages == [
        "events/b.json: damaged (its SHA-256 differs from the manifest)."
    ]
    assert not Event.objects.exists()  # a: not restored either


def test_retention_keeps_the_newest_backups_and_ignores_unfinished_ones(director, tmp_path):
    round_robin_event(director, players=3, slug="a")
    made = [backup.create_backup(tmp_path, database=backup.NONE) for _ in range(4)]
    (tmp_path / ".arbiter-backup-20990101T000000Z.partial").mkdir()  # a backup cut short
    assert backup.list_backups(tmp_path) == [m.path for m in made]
    deleted = backup.prune(tmp_path, keep=2)
    assert deleted == [made[0].path, made[1].path]
    assert backup.list_backups(tmp_path) == [made[2].path, made[3].path]
    with pytest.raises(BackupError):
        backup.prune(tmp_path, keep=0)


def test_scheduled_backup_is_in_beat_and_keeps_the_setting_s_number(director, tmp_path, settings):
    entry = settings.CELERY_BEAT_SCHEDULE["backup"]
    assert entry["task"] == tasks.scheduled_backup.name
    settings.ARBITER_BACKUP_DIR = tmp_path
    settings.ARBITER_BACKUP_KEEP = 2
    round_robin_event(director, players=3, slug="a")
    made = [Path(tasks.scheduled_backup.delay().get()) for _ in range(3)]
    assert backup.list_backups(tmp_path) == made[1:]
    assert json.loads((made[2] / "manifest.json").read_text())["database"]["kind"] == "postgresql"


def test_scheduled_backup_without_pg_dump_still_writes_the_event_files(
    director, tmp_path, settings, monkeypatch
):
    settings.ARBITER_BACKUP_DIR = tmp_path
    round_robin_event(director, players=3, slug="a")
    monkeypatch.setattr(backup.shutil, "which", lambda tool: None)
    path = Path(tasks.scheduled_backup())
    manifest = backup.read_manifest(path)
    assert [e["slug"] for e in manifest["events"]] == ["a"]
    assert manifest["database"]["file"] == ""
    assert "pg_dump was not found" in manifest["database"]["notes"][0]
    with pytest.raises(BackupError, match="pg_dump was not found"):
        backup.create_backup(tmp_path)  # asked for by hand, the dump is required


def test_commands_back_up_wipe_and_restore(many_events, tmp_path, capsys, director):
    call_command("backup", dir=str(tmp_path), keep=5)
    out = capsys.readouterr().out
    assert f"Backed up {len(many_events)} events, database dump (postgresql)" in out
    path = backup.list_backups(tmp_path)[-1]

    with pytest.raises(CommandError, match=r"Nothing was restored:\n.*already exist"):
        call_command("restore", str(path))

    call_command("flush", interactive=False)  # a new machine: no events, no accounts
    newcomer = type(director).objects.create_user("newcomer", password="pw-newcomer-1")
    call_command("restore", str(path), director="newcomer")
    assert f"Restored {len(many_events)} events from {path}" in capsys.readouterr().out
    for slug, text in many_events.items():
        event = Event.objects.get(slug=slug)
        assert backup.event_file_text(event) == text
        assert event.directors.filter(pk=newcomer.pk).exists()
    with pytest.raises(CommandError, match="No user 'ghost'"):
        call_command("restore", str(path), director="ghost", replace=True)


def test_restore_without_a_backup_says_where_it_looked(tmp_path, settings):
    settings.ARBITER_BACKUP_DIR = tmp_path
    with pytest.raises(CommandError, match=f"No backup in {tmp_path}"):
        call_command("restore")
    with pytest.raises(CommandError, match=r"is not a backup: it has no manifest\.json"):
        call_command("restore", str(tmp_path))


@pytest.fixture
def scratch_database():
    """An empty PostgreSQL database beside the test database, dropped afterwards."""
    db = dict(settings.DATABASES["default"])
    db["NAME"] = f"{connection.settings_dict['NAME']}_scratch"
    params = {
        "host": db.get("HOST") or None,
        "port": db.get("PORT") or None,
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
        "dbname": "postgres",
        "autocommit": True,
    }
    with psycopg.connect(**params) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{db["NAME"]}"')
        admin.execute(f'CREATE DATABASE "{db["NAME"]}"')
    yield db, {**params, "dbname": db["NAME"]}
    with psycopg.connect(**params) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{db["NAME"]}" WITH (FORCE)')


def test_database_dump_restores_a_whole_database(many_events, tmp_path, scratch_database):
    db, params = scratch_database
    made = backup.create_backup(tmp_path)
    assert backup.restore_database(made.path, db=db) == "postgresql"
    with psycopg.connect(**params) as copy:
        slugs = [r[0] for r in copy.execute("SELECT slug FROM tournaments_event ORDER BY slug")]
        users = {r[0] for r in copy.execute("SELECT username FROM accounts_user")}
        audit_rows = copy.execute("SELECT count(*) FROM tournaments_auditentry").fetchone()[0]
    assert slugs == sorted(many_events)
    assert {"director", "helper"} <= users
    assert audit_rows == AuditEntry.objects.count()


def test_restoring_the_dump_over_existing_events_needs_replace(director, tmp_path):
    round_robin_event(director, players=3, slug="a")
    made = backup.create_backup(tmp_path)
    with pytest.raises(BackupError, match="holds 1 events: restoring the dump would replace"):
        backup.restore_database(made.path)
    assert Event.objects.filter(slug="a").exists()


def test_sqlite_copy_is_a_consistent_database(tmp_path):
    source = tmp_path / "live.sqlite3"
    live = sqlite3.connect(source)
    live.execute("CREATE TABLE t (n INTEGER)")
    live.executemany("INSERT INTO t VALUES (?)", [(n,) for n in range(1000)])
    live.commit()
    live.execute("INSERT INTO t VALUES (-1)")  # an open, uncommitted write: not copied
    backup.copy_sqlite(source, tmp_path / "copy.sqlite3")
    live.rollback()
    live.close()
    copy = sqlite3.connect(tmp_path / "copy.sqlite3")
    assert copy.execute("SELECT count(*), min(n), max(n) FROM t").fetchone() == (1000, 0, 999)
    copy.close()


# -- everything an event owns (issue 20, item 5) ---------------------------------------------


def _two_seats(rnd):
    for match in rnd.matches.order_by("order"):
        seats = [p.entrant for p in match.participants.order_by("seat") if p.entrant_id]
        if len(seats) == 2:
            return match, seats[0], seats[1]
    raise AssertionError("no two-player match")


@pytest.fixture
def lived_in(many_events, director, django_user_model):
    """The events of many_events after people used them: a claimed entrant, a correction by
    the second director, a GokoDom round with a confirmed and a disputed report, a message
    to the director and a bye request, a WPF preference list, a referee token and a posted
    game; and an account with no part in any event."""
    users = django_user_model.objects
    rr = Event.objects.get(slug="rr")
    claimant = users.create_user(
        "claimant", "claimant@example.org", "pw-claimant-1", first_name="Cleo", last_name="Ant"
    )
    claim_entrant(claimant, rr.entrants.get(number=2).claim_code)
    match, _, _ = _two_seats(rr.rounds.get(number=1))
    games = [{"scores": [0, 3]}]
    preview = corrections.preview_result(match, games, expected_version=match.version)
    corrections.confirm_result(
        match,
        games,
        expected_version=match.version,
        results_version=preview.results_version,
        digest=preview.digest,
        by=users.get(username="helper"),
        reason="the score sheet was misread",
    )

    goko = gokodom_event(director, players=6, slug="goko-live", swiss_rounds=3)
    rnd = rounds.publish_round(rounds.draft_next_round(goko, by=director).round, by=director)
    played = [m for m in rnd.matches.order_by("order") if m.participants.count() == 2]
    first, second = played[0], played[1]
    a, b = (p.entrant for p in first.participants.order_by("seat"))
    format_gokodom.report(first, a, outcome="W", by=a.user)
    format_gokodom.confirm(Match.objects.get(pk=first.pk), b, by=b.user)
    c, d = (p.entrant for p in second.participants.order_by("seat"))
    format_gokodom.report(second, c, outcome="W", by=c.user)
    format_gokodom.dispute(Match.objects.get(pk=second.pk), d, note="I won", by=d.user)
    format_gokodom.message_director(Match.objects.get(pk=second.pk), c, by=c.user)
    format_gokodom.set_bye_request(goko.entrants.get(number=1), 2, wanted=True, by=a.user)

    pool = [f"P{n}" for n in range(1, 9)]
    wpf = wpf_playoffs_event(director, players=8, slug="wpf-prefs", online_puzzles=pool)
    format_wpf_playoffs.save_preferences(
        wpf.entrants.get(number=1), pool[::-1], letter=None, by=director, as_director=True
    )

    bots = bot_contest_event(director, entries=4, slug="bots-live")
    rnd = rounds.publish_round(rounds.draft_next_round(bots, by=director).round, by=director)
    token, _ = format_bot_contest.create_token(bots, by=director)
    match, x, o = _two_seats(rnd)
    game = {"game_id": "g-1", "round": rnd.number, "board": rnd.details["board"]}
    format_bot_contest.post_game(
        bots, token, {**game, "x": x.number, "o": o.number, "x_points": 40, "o_points": 24}
    )
    # an API token of the event, and a revoked one (issue 30 step 7): a mirror keeps working
    api_tokens.create(bots, name="mirror", scopes=["export:read"], by=director)
    old, _ = api_tokens.create(bots, name="old", scopes=["export:read"], by=director)
    api_tokens.revoke(bots, old.pk, by=director)
    users.create_user("bystander", password="pw-bystander-1")  # in no event: not carried

    # the desk's own rows (issue 29 finding 2: the default restore dropped each of them):
    # double entry on with one entry waiting for its second, an entrant marked absent for
    # the next round, a pairing mail to the claimed player
    double_entry.set_enabled(rr, True, by=director)
    waiting, _, _ = _two_seats(rr.rounds.get(number=3))
    double_entry.enter(waiting, [{"scores": [3, 1]}], expected_version=waiting.version, by=director)
    checkin.set_presence(rr.entrants.get(number=3), present=False, by=director)
    notifications.pairings_published(rr.rounds.get(number=3), now=timezone.now())
    # a WOF file sent to the rating officer: the copy and its dates are the event's record
    from tournaments.models import RatingSubmission

    RatingSubmission.objects.create(
        event=rr,
        recipient="ratings@wof.example",
        filename="rr.elo",
        text="%%Tournament: RR\n",
        header={"Country": "France"},
        results_version=rr.results_version,
        sent_by=director,
        confirmed_at=timezone.now(),
        mailed_at=timezone.now(),
        attempts=1,
    )
    _registration_and_series(director, rr, goko)
    return rr


def _registration_and_series(director, rr, goko):
    """Issue 32's rows: an open event with a rating list, entries (one made an entrant, one
    waiting, one not confirmed yet) and a series of an event stage and an imported stage,
    with a merge, a qualified event and its audit log."""
    from tournaments.services import places, rating_list, registration, series

    event = round_robin_event(director, players=2, slug="open-rr")
    rows = [{"name": "Ann Entry", "rating": 2100, "federation": "FRA", "external_id": "77"}]
    rating_list.replace(event, rows, by=director, source="list.csv")
    registration.update_settings(event, {"open": True, "capacity": 1}, by=director)
    for name in ("Ann Entry", "Bob Entry"):
        places.confirm_email(places.enter(event, name=name, email=f"{name[:3]}@example.org"))
    places.enter(event, name="Cat Entry", email="cat@example.org")
    places.make_entrants(event, by=director)

    gp = series.create_series(
        slug="season", name="Season", by=director, value="place_points", points=[3, 2, 1]
    )
    series.add_event_stage(gp, rr, by=director)
    series.import_scores(gp, name="Online", text="Ann,3\nBob,2.5\n", by=director)
    series.merge_names(gp, name="Jon", same_as="John", by=director)
    series.add_feed(gp, goko, by=director)


def owned_by_events() -> list[str]:
    """Every model whose rows belong to an event: a foreign key leads to Event, directly or
    through the rows it points to."""
    found = {"tournaments.Event"}
    grew = True
    while grew:
        grew = False
        for model in apps.get_models(include_auto_created=True):
            label = model._meta.label
            if label in found:
                continue
            targets = {
                f.related_model._meta.label
                for f in model._meta.concrete_fields
                if f.is_relation and f.related_model is not None
            }
            if targets & found:
                found.add(label)
                grew = True
    return sorted(found)


def test_default_restore_gives_back_every_row_of_every_table(
    lived_in, tmp_path, capsys, django_user_model
):
    """Back up, lose the whole database (events and accounts), restore the folder without
    its dump, and compare every table by natural keys: only the rows named as not restored
    (and the accounts that had no part in any event) may differ."""
    codes = dict(Entrant.objects.values_list("claim_code", "name"))
    before = table_rows.every_table(skip=backup.NOT_RESTORED)
    # The drill holds rows of every table an event owns: a model added to the event later
    # fails here until the drill has a row of it, and then below until the backup carries
    # it or NOT_RESTORED names it with its reason.
    empty = [m for m in owned_by_events() if m not in backup.NOT_RESTORED and not before[m]]
    assert empty == [], f"the drill has no rows of {empty}: give lived_in some"
    assert Event.objects.get(slug="rr").double_entry
    call_command("backup", dir=str(tmp_path), no_database=True)
    path = backup.list_backups(tmp_path)[-1]
    call_command("flush", interactive=False)  # a new machine: no events, no accounts
    capsys.readouterr()

    call_command("restore", str(path))
    out = capsys.readouterr().out
    after = table_rows.every_table(skip=backup.NOT_RESTORED)

    # the restore adds one audit row per event saying so, and nothing else
    restored = [r for r in after["tournaments.AuditEntry"] if '"event.restored"' in r]
    assert len(restored) == Event.objects.count()
    after["tournaments.AuditEntry"] = [
        r for r in after["tournaments.AuditEntry"] if r not in restored
    ]
    # and one to each series' own log
    series_log = after["tournaments.SeriesAuditEntry"]
    restored = [r for r in series_log if '"series.restored"' in r]
    assert len(restored) == 1
    after["tournaments.SeriesAuditEntry"] = [r for r in series_log if r not in restored]
    before["accounts.User"] = [r for r in before["accounts.User"] if '"bystander"' not in r]
    assert sorted(after) == sorted(before)
    differ = [
        f"{label}: {len(before[label])} rows before, {len(after[label])} after, "
        f"{len(set(before[label]) - set(after[label]))} lost or changed"
        for label in before
        if after[label] != before[label]
    ]
    assert differ == []
    # every invite link still works, and the player can still sign in
    for code, name in codes.items():
        assert Entrant.objects.get(claim_code=code).name == name
    assert django_user_model.objects.get(username="claimant").check_password("pw-claimant-1")
    # and what did not come back is said
    assert "Accounts: 13 created from the backup" in out
    said = out.split("Not restored:\n", 1)[1]
    for words in backup.NOT_RESTORED.values():
        assert f"- {words}\n" in said
    assert "- accounts with no part in any event (1): not in the backup\n" in said


@pytest.fixture
def claimed(director, django_user_model):
    """Two small events: 'rr' with a claimed entrant, a second director and a played
    round; 'other' with nothing claimed."""
    rr = round_robin_event(director, players=4, slug="rr")
    play_round(rr, director)
    django_user_model.objects.create_user("helper", password="pw-helper-1")
    events.add_director(rr, "helper", by=director)
    claimant = django_user_model.objects.create_user("claimant", password="pw-claimant-1")
    claim_entrant(claimant, rr.entrants.get(number=2).claim_code)
    round_robin_event(director, players=3, slug="other")
    return rr


def test_restore_matches_accounts_already_here_by_username(claimed, tmp_path, django_user_model):
    made = backup.create_backup(tmp_path, database=backup.NONE)
    wipe()
    django_user_model.objects.filter(username="helper").delete()
    claimant = django_user_model.objects.get(username="claimant")
    claimant.username, claimant.email = "Claimant", "new@example.org"
    claimant.set_password("pw-changed-2")
    claimant.save()

    done = backup.restore_events(made.path, by=None)

    assert done.accounts_created == ["helper"]
    assert done.accounts_matched == ["Claimant", "director"]
    claimant.refresh_from_db()  # matched, left as it is here
    assert claimant.email == "new@example.org" and claimant.check_password("pw-changed-2")
    assert Entrant.objects.get(event__slug="rr", number=2).user == claimant
    rr = Event.objects.get(slug="rr")
    assert sorted(rr.directors.values_list("username", flat=True)) == ["director", "helper"]
    assert django_user_model.objects.get(username="helper").check_password("pw-helper-1")
    assert django_user_model.objects.filter(username__iexact="claimant").count() == 1


def _strip_owned_rows(path):
    """The backup as made before owned rows were kept: no owned files, no accounts."""
    manifest = json.loads((path / "manifest.json").read_text())
    (path / manifest.pop("accounts")["file"]).unlink()
    for entry in manifest["events"]:
        (path / entry.pop("owned")["file"]).unlink()
    (path / "manifest.json").write_text(json.dumps(manifest))


def test_an_older_backup_still_restores_and_says_what_it_lacks(claimed, tmp_path, capsys):
    call_command("backup", dir=str(tmp_path), no_database=True)
    path = backup.list_backups(tmp_path)[-1]
    _strip_owned_rows(path)
    wipe()
    capsys.readouterr()

    call_command("restore", str(path))

    out = capsys.readouterr().out
    assert "Restored 2 events" in out
    assert "- for 2 events backed up without their owned rows" in out
    assert "(a backup made before they were kept: other, rr)" in out
    assert "claims, claim codes (invite links)" in out and "result history" in out
    # the directors whose accounts exist here come back, as before
    rr = Event.objects.get(slug="rr")
    assert sorted(rr.directors.values_list("username", flat=True)) == ["director", "helper"]
    assert not rr.entrants.filter(user__isnull=False).exists()


def _rewrite(path, name, change):
    """Edit a gzipped owned-rows file and give the manifest its new SHA-256 (a backup
    edited by hand)."""
    file = path / name
    file.write_bytes(gzip.compress(change(gzip.decompress(file.read_bytes()).decode()).encode()))
    manifest = json.loads((path / "manifest.json").read_text())
    for entry in manifest["events"]:
        if entry["owned"]["file"] == name:
            entry["owned"]["sha256"] = backup._sha256(file)
    (path / "manifest.json").write_text(json.dumps(manifest))


def test_owned_rows_that_cannot_be_put_back_restore_nothing(claimed, tmp_path, django_user_model):
    made = backup.create_backup(tmp_path, database=backup.NONE)
    wipe()
    django_user_model.objects.exclude(username="director").delete()
    events_here: list[str] = []

    def refused(**options):
        with pytest.raises(BackupError) as error:
            backup.restore_events(made.path, by=None, **options)
        assert list(Event.objects.values_list("slug", flat=True)) == events_here
        assert list(django_user_model.objects.values_list("username", flat=True)) == ["director"]
        return error.value.messages

    rr, other = "events/rr.owned.json.gz", "events/other.owned.json.gz"
    data = (made.path / rr).read_bytes()
    (made.path / rr).write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    assert refused() == [f"{rr}: damaged (its SHA-256 differs from the manifest)."]
    (made.path / rr).write_bytes(data)

    # edited by hand, with the manifest's SHA-256 made to match
    ghost = ('"user": "claimant"', '"user": "ghost"')
    thirty = ('"number": 3,', '"number": 30,')
    _rewrite(made.path, rr, lambda t: t.replace(*ghost))
    _rewrite(made.path, other, lambda t: t.replace(*thirty))
    assert refused() == [
        f"{other}: entrants[2].number: the event file has no entrant 30.",
        f"{rr}: entrants[1].user: no account 'ghost' in the backup.",
    ]
    _rewrite(made.path, rr, lambda t: t.replace(*ghost[::-1]))
    _rewrite(made.path, other, lambda t: t.replace(*thirty[::-1]))

    # a claim code is unique across events: one held by an event here (renamed since)
    event = round_robin_event(django_user_model.objects.get(), players=3, slug="renamed")
    code = json.loads(gzip.decompress((made.path / rr).read_bytes()))["entrants"][1]["claim_code"]
    Entrant.objects.filter(event=event, number=1).update(claim_code=code)
    events_here.append("renamed")
    assert refused(only=["rr"]) == [
        f"{rr}: the claim code of entrant 2 is already used by 'Player 1' of event 'renamed' here."
    ]


def test_a_backup_restores_an_event_past_the_upload_limits(director, tmp_path, settings):
    """The import limits (issue 20) guard uploads, not the server's own backups: an event
    the server held comes back whatever its size."""
    from tests.factories import play_round, round_robin_event
    from tournaments.models import Event
    from tournaments.services import backup

    settings.ARBITER_BACKUP_DIR = tmp_path
    event = round_robin_event(director, players=6, slug="big")
    play_round(event, director)
    made = backup.create_backup(database=backup.NONE)
    settings.ARBITER_IMPORT_LIMITS = {**settings.ARBITER_IMPORT_LIMITS, "entrants": 2}
    backup.restore_events(made.path, replace=True, by=director)
    assert Event.objects.get(slug="big").entrants.count() == 6


@pytest.fixture
def season(director):
    """An event taking entries and a series of it and an imported stage (issue 32)."""
    from tournaments.services import places, registration, series

    event = round_robin_event(director, players=4, slug="season-rr")
    play_round(event, director)
    registration.update_settings(event, {"open": True, "capacity": 5}, by=director)
    entry = places.confirm_email(places.enter(event, name="Eve", email="eve@example.org"))
    gp = series.create_series(
        slug="season", name="Season", by=director, value="place_points", points=[3, 2, 1]
    )
    series.add_event_stage(gp, event, by=director)
    series.import_scores(gp, name="Online", text="Ann,3\nBob,2.5\n", by=director)
    return gp, entry


def _totals(slug):
    from tournaments.models import Series
    from tournaments.services import series_standings

    rows = series_standings.standings(Series.objects.get(slug=slug))
    return [(r.rank, r.player.name, r.total, r.explanation) for r in rows]


def test_series_and_entries_come_back_with_a_whole_restore(season, director, tmp_path, client):
    """Series and entries are in the backup (issue 32): a restore of the whole backup gives
    the series' totals and every entry back, and an entry's mailed link still works."""
    from tournaments.models import Entry, Series

    _gp, entry = season
    totals = _totals("season")
    assert len(totals) > 2
    made = backup.create_backup(tmp_path, database=backup.NONE)
    assert backup.read_manifest(made.path)["series"]["count"] == 1
    Series.objects.all().delete()
    wipe()
    done = backup.restore_events(made.path, by=director)
    assert done.series == ["season"]
    assert _totals("season") == totals
    restored = Entry.objects.get(token=entry.token)
    assert (restored.name, restored.status, restored.order) == ("Eve", "accepted", entry.order)
    response = client.get(reverse("tournaments:entry", args=["season-rr", entry.token]))
    assert response.status_code == 200 and "Eve" in response.content.decode()


def test_a_series_already_here_is_refused_and_a_partial_restore_leaves_series(
    season, director, tmp_path
):
    from tournaments.models import Series

    made = backup.create_backup(tmp_path, database=backup.NONE)
    wipe()
    with pytest.raises(BackupError, match=r"These series already exist .*: season"):
        backup.restore_events(made.path, by=director)
    assert not Event.objects.exists()  # nothing restored
    Series.objects.filter(slug="season").update(name="Kept as it is")
    done = backup.restore_events(made.path, by=director, only=["season-rr"])
    assert done.series == [] and backup.SERIES_LEFT in done.not_restored
    assert Series.objects.get(slug="season").name == "Kept as it is"
    wipe()
    done = backup.restore_events(made.path, by=director, replace=True)
    assert done.series == ["season"] and Series.objects.get(slug="season").name == "Season"
    assert Series.objects.get(slug="season").stages.count() == 2
