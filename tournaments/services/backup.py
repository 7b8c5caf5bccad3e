"""Backups a director can make and restore alone (docs/operations.md, "Backups").

A backup is one folder under ``ARBITER_BACKUP_DIR`` named after the time it was made
(``arbiter-backup-20261123T031500Z``): every event as an event file (docs/event-file.md) in
``events/``, beside it the rows the event owns that the event file does not carry
(``events/<slug>.owned.json.gz``: claims, claim codes, directors, audit log, result history,
standings, referee tokens, check-ins, waiting result entries, e-mails, registration and
entries; tournaments/services/backup_owned.py), the series (``series.json``: they span
events; tournaments/services/backup_series.py), the accounts those rows
name (``accounts.json``), a dump of the whole database (``database.pgdump`` from pg_dump
with PostgreSQL, ``database.sqlite3`` made with SQLite's online backup with SQLite) and
``manifest.json`` naming each file with its size and SHA-256. The folder is written under a
hidden name and renamed when complete, so a folder with the backup name is never half
written.

Restoring the event files re-imports every event with its own rows (all or nothing) and
refuses to touch an event that already exists unless told to replace it; what it does not
bring back is said (NOT_RESTORED). Restoring the dump replaces the whole database.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone

from rules.contract import Problem
from tournaments.models import (
    ApiToken,
    Entrant,
    Entry,
    Event,
    EventDirector,
    MatchParticipant,
    RefereeToken,
    Series,
)
from tournaments.services import audit, backup_owned, backup_series, eventfile
from tournaments.services.errors import ServiceError

MANIFEST = "manifest.json"
PREFIX = "arbiter-backup-"
NAME = re.compile(r"^arbiter-backup-(\d{8}T\d{6})Z(?:-(\d+))?$")
PG_DUMP = "database.pgdump"
SQLITE_COPY = "database.sqlite3"
ACCOUNTS = "accounts.json"
SERIES = "series.json"
OWNED_SUFFIX = ".owned.json.gz"
# database= choices of create_backup
REQUIRED, IF_AVAILABLE, NONE = "required", "if-available", "none"


# The tables a restore of the event files leaves as they are here, each with the words the
# restore prints (docs/operations.md lists them; test_backup compares every other table).
NOT_RESTORED = {
    "tournaments.Report": "built reports (pairing sheets, result slips, PDFs, CSVs): ask "
    "for them again",
    "tournaments.ImportJob": "the import page's record of imports made (the imported events "
    "are restored)",
    # a restored copy must not start sending to other sites beside the original (two
    # senders, duplicate deliveries): its director adds the receivers again, with new secrets
    "tournaments.WebhookEndpoint": "webhook receivers and their delivery log: add the "
    "receivers again on the Webhooks page",
    "tournaments.WebhookDelivery": "webhook receivers and their delivery log: add the "
    "receivers again on the Webhooks page",
    # a restored venue link would be a second writer with the first one's identity
    # (docs/venue.md): a restored event is a plain event; pull it or link it again
    "tournaments.MirrorLink": "venue mode's link and queue: a restored event is not "
    "published; pull it from the public copy or link it again (docs/venue.md)",
    "tournaments.MirrorChange": "venue mode's link and queue: a restored event is not "
    "published; pull it from the public copy or link it again (docs/venue.md)",
    # written by the database's triggers as the restore writes the entrants (EntrantChange)
    "tournaments.EntrantChange": "the database's count of changes to entrants, which the "
    "standings' workers compare: it counts again from the restored entrants",
    "sessions.Session": "sign-ins: everyone signs in again",
    "axes.AccessAttempt": "failed sign-in counts and lockouts",
    "axes.AccessAttemptExpiration": "failed sign-in counts and lockouts",
    "axes.AccessFailureLog": "failed sign-in counts and lockouts",
    "axes.AccessLog": "failed sign-in counts and lockouts",
    "admin.LogEntry": "Django admin's own history of its edits",
    "auth.Group": "account groups and permissions given in Django admin",
    "auth.Group_permissions": "account groups and permissions given in Django admin",
    "accounts.User_groups": "account groups and permissions given in Django admin",
    "accounts.User_user_permissions": "account groups and permissions given in Django admin",
}
OWNED_LACKING = (
    "claims, claim codes (invite links), directors without an account here, audit log, "
    "result history, who drew each draw, standings history, referee tokens and posted games, "
    "check-in marks, result entries waiting for a second entry, e-mails, the double-entry "
    "switch, registration settings, entries and the rating list"
)
# a restore of some events (--event) leaves the series as they are here
SERIES_LEFT = (
    "series (seasons, circuits, Grand Prix): restored only with the whole backup (a "
    "restore without --event)"
)


class BackupError(ServiceError):
    """A backup that cannot be made or read; nothing was changed."""

    def __init__(self, messages: list[str]):
        super().__init__([Problem("backup", "", text) for text in messages])


@dataclass
class Backup:
    path: Path
    events: int
    bytes: int
    seconds: float
    database: str  # "postgresql", "sqlite" or "" (no dump)
    notes: list[str] = field(default_factory=list)


@dataclass
class Restored:
    events: list[Event]
    replaced: list[str]
    seconds: float
    accounts_created: list[str] = field(default_factory=list)
    accounts_matched: list[str] = field(default_factory=list)
    # what this restore did not bring back, in words
    not_restored: list[str] = field(default_factory=list)
    series: list[str] = field(default_factory=list)  # the slugs of the series restored


def backup_dir() -> Path:
    return Path(settings.ARBITER_BACKUP_DIR)


def event_file_text(event: Event) -> str:
    """The exact text ``manage.py export_event`` writes, so both kinds of file compare."""
    return json.dumps(eventfile.export_event(event), indent=1, ensure_ascii=False) + "\n"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _file_name(slug: str, suffix: str = ".json") -> str:
    # a slug is [-a-zA-Z0-9_]; this keeps a file name safe should that ever change
    return re.sub(r"[^-a-zA-Z0-9_]", "_", slug) + suffix


def _json_bytes(data: Any) -> bytes:
    # isoformat, not DjangoJSONEncoder: that one cuts times to milliseconds
    text = json.dumps(data, indent=1, ensure_ascii=False, default=_isoformat)
    return (text + "\n").encode("utf-8")


def _isoformat(value: Any) -> str:
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    raise TypeError(f"{type(value).__name__} is not JSON")


def _file_entry(path: Path, data: bytes, folder: Path) -> dict[str, Any]:
    path.write_bytes(data)
    return {
        "file": path.relative_to(folder).as_posix(),
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


# -- making a backup -----------------------------------------------------------------------


def create_backup(
    directory: Path | None = None, *, database: str = REQUIRED, now: datetime | None = None
) -> Backup:
    """Write a complete backup folder and return what it holds. Reads the database only.

    ``database``: "required" fails when the dump cannot be made (pg_dump missing),
    "if-available" writes the event files anyway and says why the dump is missing (the
    scheduled backup), "none" makes no dump."""
    started = time.monotonic()
    now = now or timezone.now()
    root = Path(directory) if directory else backup_dir()
    root.mkdir(parents=True, exist_ok=True)
    name = base = PREFIX + now.strftime("%Y%m%dT%H%M%S") + "Z"
    n = 1
    while (root / name).exists():  # two backups in one second: keep both
        n += 1
        name = f"{base}-{n}"
    final = root / name
    work = root / f".{name}.partial"
    shutil.rmtree(work, ignore_errors=True)
    (work / "events").mkdir(parents=True)
    try:
        entries, accounts, series = _write_event_files(work)
        kind, dump, notes = _dump_database(work, database)
        manifest: dict[str, Any] = {
            "arbiter_backup": 1,
            "created_at": now.isoformat(),
            "event_file_version": eventfile.FILE_VERSION,
            "owned_rows_version": backup_owned.OWNED_VERSION,
            "database": {"kind": kind, "file": dump, "notes": notes},
            "accounts": accounts,
            "series": series,
            "events": entries,
        }
        if dump:
            manifest["database"].update(
                bytes=(work / dump).stat().st_size, sha256=_sha256(work / dump)
            )
        (work / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        os.replace(work, final)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    size = sum(p.stat().st_size for p in final.rglob("*") if p.is_file())
    return Backup(final, len(entries), size, time.monotonic() - started, kind, notes)


def _write_event_files(
    work: Path,
) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """Every event's file and owned rows, the series, and the accounts they name, from one
    snapshot of the database. Returns the manifest's event, accounts and series entries."""
    snapshot = connection.vendor == "postgresql" and not connection.in_atomic_block
    folder = work / "events"
    entries = []
    usernames: set[str] = set()
    with transaction.atomic():
        if snapshot:  # one consistent view of every event, even while results are typed
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        directors: dict[int, list[str]] = {}
        for event_id, username in EventDirector.objects.order_by("user__username").values_list(
            "event_id", "user__username"
        ):
            directors.setdefault(event_id, []).append(username)
        for event in Event.objects.order_by("slug"):
            data = event_file_text(event).encode("utf-8")
            entry = _file_entry(folder / _file_name(event.slug), data, work)
            owned, named = backup_owned.export_owned(event)
            usernames |= named
            entries.append(
                {
                    "slug": event.slug,
                    **entry,
                    "directors": directors.get(event.pk, []),
                    # gzip: a result history as long as the event file would double the
                    # backup (measured: 17.9 MB of owned rows for 108 events, 0.9 gzipped);
                    # mtime=0, so the same rows give the same bytes
                    "owned": _file_entry(
                        folder / _file_name(event.slug, OWNED_SUFFIX),
                        gzip.compress(_json_bytes(owned), compresslevel=6, mtime=0),
                        work,
                    ),
                }
            )
        doc, named = backup_series.export_series()
        usernames |= named
        series = {**_file_entry(work / SERIES, _json_bytes(doc), work), "count": len(doc["series"])}
        rows = backup_owned.export_accounts(usernames)
        accounts = _file_entry(
            work / ACCOUNTS,
            _json_bytes({"arbiter_accounts": backup_owned.ACCOUNTS_VERSION, "accounts": rows}),
            work,
        )
        left_out = get_user_model().objects.exclude(username__in=usernames).count()
    return entries, {**accounts, "count": len(rows), "left_out": left_out}, series


def _dump_database(folder: Path, mode: str) -> tuple[str, str, list[str]]:
    if mode == NONE:
        return "", "", ["no database dump was asked for"]
    db = settings.DATABASES["default"]
    vendor = connection.vendor
    try:
        if vendor == "postgresql":
            pg_dump(db, folder / PG_DUMP)
            return "postgresql", PG_DUMP, []
        if vendor == "sqlite":
            copy_sqlite(Path(db["NAME"]), folder / SQLITE_COPY)
            return "sqlite", SQLITE_COPY, []
        raise BackupError([f"No database dump for a {vendor} database; use --no-database."])
    except BackupError as error:
        if mode == REQUIRED:
            raise
        return "", "", error.messages


def _pg_args(db: Mapping[str, Any]) -> tuple[list[str], dict[str, str]]:
    args = []
    if db.get("HOST"):
        args += ["-h", str(db["HOST"])]
    if db.get("PORT"):
        args += ["-p", str(db["PORT"])]
    if db.get("USER"):
        args += ["-U", str(db["USER"])]
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])  # never on the command line (ps shows it)
    return args, env


def _run(tool: str, args: list[str], env: dict[str, str]) -> None:
    exe = shutil.which(tool)
    if exe is None:
        raise BackupError(
            [
                f"{tool} was not found: install the PostgreSQL client (Debian: "
                f"postgresql-client), or back up the event files alone with --no-database."
            ]
        )
    done = subprocess.run([exe, *args], env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError([f"{tool} failed: {done.stderr.strip() or done.returncode}"])


def pg_dump(db: Mapping[str, Any], target: Path) -> None:
    """The whole database in pg_dump's custom format (compressed; pg_restore reads it)."""
    args, env = _pg_args(db)
    _run("pg_dump", [*args, "-Fc", "--no-owner", "-f", str(target), str(db["NAME"])], env)


def copy_sqlite(source: Path, target: Path) -> None:
    """SQLite's online backup: a consistent copy even while the application writes."""
    if not source.exists():
        raise BackupError([f"The SQLite database {source} does not exist."])
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        with dst:
            src.backup(dst)
    finally:
        dst.close()
        src.close()


# -- listing and pruning -------------------------------------------------------------------


def list_backups(directory: Path | None = None) -> list[Path]:
    """Complete backups, oldest first (the name sorts by time)."""
    root = Path(directory) if directory else backup_dir()
    if not root.is_dir():
        return []
    found = []
    for path in root.iterdir():
        match = NAME.match(path.name)
        if match and path.is_dir() and (path / MANIFEST).exists():
            found.append((match[1], int(match[2] or 1), path))
    return [path for *_, path in sorted(found)]


def prune(directory: Path | None = None, *, keep: int | None = None) -> list[Path]:
    """Delete all but the newest ``keep`` complete backups; returns the deleted folders.
    Touches files only, never the database."""
    keep = settings.ARBITER_BACKUP_KEEP if keep is None else keep
    if keep < 1:
        raise BackupError(["keep must be at least 1: the newest backup is never deleted."])
    old = list_backups(directory)[:-keep]
    for path in old:
        shutil.rmtree(path)
    return old


# -- reading and restoring -----------------------------------------------------------------


def read_manifest(path: Path) -> dict[str, Any]:
    """The manifest of a backup folder, with every file checked against its SHA-256."""
    path = Path(path)
    try:
        manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BackupError([f"{path} is not a backup: it has no {MANIFEST}."]) from None
    except (OSError, ValueError) as error:
        raise BackupError([f"{path / MANIFEST} cannot be read: {error}."]) from None
    if not isinstance(manifest, dict) or manifest.get("arbiter_backup") != 1:
        raise BackupError([f"{path / MANIFEST} is not an Arbiter backup manifest (version 1)."])
    files = [manifest.get("accounts") or {}, manifest.get("series") or {}]
    for entry in manifest.get("events", []):
        files += [entry, entry.get("owned") or {}]
    problems = []
    for entry in files:
        if not entry.get("file"):
            continue  # an older backup: no owned rows, no accounts
        file = path / entry["file"]
        if not file.is_file():
            problems.append(f"{entry['file']}: missing.")
        elif _sha256(file) != entry["sha256"]:
            problems.append(f"{entry['file']}: damaged (its SHA-256 differs from the manifest).")
    if problems:
        raise BackupError(problems)
    return manifest


def restore_events(
    path: Path,
    *,
    by: Any,
    replace: bool = False,
    only: list[str] | None = None,
    director: Any = None,
    now: datetime | None = None,
) -> Restored:
    """Re-import the backup's event files (``only``: these slugs) with the rows each event
    owns and the accounts they name, all or nothing.

    An event whose slug already exists is refused unless ``replace``: then it is deleted
    and imported again from the backup. Accounts are matched by username, a missing one is
    created from the backup. ``director`` is added to every restored event. A backup made
    before owned rows were backed up restores as an import does, with the directors whose
    accounts exist here; ``Restored.not_restored`` says what is missing."""
    started = time.monotonic()
    now = now or timezone.now()
    path = Path(path)
    manifest = read_manifest(path)
    entries = manifest.get("events", [])
    if only:
        known = {e["slug"] for e in entries}
        missing = [s for s in only if s not in known]
        if missing:
            raise BackupError([f"The backup has no event '{s}'." for s in missing])
        entries = [e for e in entries if e["slug"] in only]
    slugs = [e["slug"] for e in entries]
    existing = sorted(Event.objects.filter(slug__in=slugs).values_list("slug", flat=True))
    if existing and not replace:
        raise BackupError(
            [
                f"These events already exist and would be overwritten: {', '.join(existing)}. "
                "Nothing was restored. Restore into an empty database, or replace them "
                "(manage.py restore --replace)."
            ]
        )
    done = Restored([], existing, 0.0, not_restored=_not_restored(manifest, entries))
    series_doc = _series_doc(path, manifest, only, replace, done)
    place = str(path)
    try:
        with transaction.atomic():
            for event in Event.objects.filter(slug__in=existing).select_for_update():
                _delete_event(event)
            files, users = _checked_files(path, manifest, entries, done, series_doc)
            for entry, data, owned in files:
                place = entry["file"]
                replaced = entry["slug"] in existing
                done.events.append(
                    _restore_one(path, entry, data, owned, users, by, director, replaced, now)
                )
            if series_doc is not None:
                place = SERIES
                for series in backup_series.apply(series_doc, users):
                    done.series.append(series.slug)
                    audit.log_series(
                        series,
                        "series.restored",
                        actor=by,
                        at=now,
                        subject=series.slug,
                        after={"backup": path.name},
                    )
    except (IntegrityError, DataError, ValidationError, ValueError, KeyError, TypeError) as error:
        # a hand-edited file whose SHA-256 was made to match: refused, never half restored
        raise BackupError(
            [f"{place}: its rows could not be put back ({error}). Nothing was restored."]
        ) from None
    done.seconds = time.monotonic() - started
    return done


def _series_doc(
    path: Path, manifest: dict[str, Any], only: list[str] | None, replace: bool, done: Restored
) -> Any:
    """The backup's series to restore (None: none to restore), read before anything is
    changed; a series that exists here is refused unless ``replace``, as an event is."""
    entry = manifest.get("series") or {}
    if not entry.get("file"):
        return None  # a backup made before series were kept
    if only:
        done.not_restored.insert(0, SERIES_LEFT)
        return None
    doc = _read_json(path, entry["file"])
    slugs = [s.get("slug") for s in doc.get("series", [])] if isinstance(doc, dict) else []
    here = sorted(Series.objects.filter(slug__in=slugs).values_list("slug", flat=True))
    if here and not replace:
        raise BackupError(
            [
                f"These series already exist and would be overwritten: {', '.join(here)}. "
                "Nothing was restored. Restore into an empty database, or replace them "
                "(manage.py restore --replace)."
            ]
        )
    return doc


def _checked_files(
    path: Path,
    manifest: dict[str, Any],
    entries: list[dict[str, Any]],
    done: Restored,
    series_doc: Any = None,
) -> tuple[list[tuple[dict[str, Any], Any, Any]], dict[str, Any]]:
    """Every file read and checked before the first event is imported (a bad file restores
    nothing), and the accounts the owned rows and the series name, matched or created."""
    accounts: list[dict[str, Any]] = []
    if (manifest.get("accounts") or {}).get("file"):
        accounts = _read_json(path, manifest["accounts"]["file"])["accounts"]
    carried = {str(a["username"]).lower() for a in accounts}
    files, problems, named = [], [], set()
    older: list[str] = []  # owned rows of version 1: without the desk's rows
    for entry in entries:
        data = _read_json(path, entry["file"])
        try:
            # our own files (each checked against its SHA-256): an event the server held is
            # restored whatever its size, past the upload limits
            eventfile.validate(data, limited=False)
        except ServiceError as error:
            problems += [f"{entry['file']}: {text}" for text in error.messages]
        owned = None
        if (entry.get("owned") or {}).get("file"):
            file = entry["owned"]["file"]
            owned = _read_json(path, file)
            found = backup_owned.check(owned, data, entry["slug"], carried)
            problems += [f"{file}: {text}" for text in found]
            if not found:
                named |= backup_owned.named(owned)
                problems += _clashes(file, owned)
            if owned.get("arbiter_owned_rows") == 1:
                older.append(entry["slug"])
        files.append((entry, data, owned))
    if series_doc is not None:
        events = {e["slug"] for e in entries} | set(Event.objects.values_list("slug", flat=True))
        found = backup_series.check(series_doc, events, carried)
        problems += [f"{SERIES}: {text}" for text in found]
        if not found:
            named |= backup_series.named(series_doc)
    if older:
        done.not_restored.insert(
            0,
            f"for {len(older)} events backed up before they were kept ({', '.join(older)}): "
            f"{backup_owned.LACKING_IN_1}",
        )
    if problems:
        raise BackupError(problems)
    users, done.accounts_created, done.accounts_matched = backup_owned.ensure_accounts(
        accounts, named
    )
    return files, users


def _read_json(path: Path, name: str) -> Any:
    try:
        data = (path / name).read_bytes()
        return json.loads(gzip.decompress(data) if name.endswith(".gz") else data)
    except (OSError, EOFError, ValueError) as error:
        raise BackupError([f"{name} cannot be read: {error}."]) from None


def _clashes(file: str, owned: dict[str, Any]) -> list[str]:
    """Claim codes and referee tokens are unique across events: one already held by another
    event here (one renamed since the backup) would stop the restore half way."""
    codes = [e["claim_code"] for e in owned["entrants"]]
    taken = Entrant.objects.filter(claim_code__in=codes).select_related("event")
    number = {e["claim_code"]: e["number"] for e in owned["entrants"]}
    problems = [
        f"{file}: the claim code of entrant {number[e.claim_code]} is already used by "
        f"'{e.name}' of event '{e.event.slug}' here."
        for e in taken
    ]
    tokens = [e["token"] for e in backup_owned.sections_of(owned)["entries"]]
    for held in Entry.objects.filter(token__in=tokens).select_related("event"):
        problems.append(
            f"{file}: the link of entry '{held.name}' is already the link of an entry of "
            f"event '{held.event.slug}' here."
        )
    hashes = [t["token_hash"] for t in owned["referee_tokens"]]
    for token in RefereeToken.objects.filter(token_hash__in=hashes).select_related("event"):
        problems.append(
            f"{file}: referee token …{token.hint} is already a token of event "
            f"'{token.event.slug}' here."
        )
    hashes = [t["token_hash"] for t in backup_owned.sections_of(owned)["api_tokens"]]
    for api_token in ApiToken.objects.filter(token_hash__in=hashes).select_related("event"):
        problems.append(
            f"{file}: API token {api_token.prefix}… is already a token of event "
            f"'{api_token.event.slug}' here."
        )
    return problems


def _restore_one(
    path: Path,
    entry: dict[str, Any],
    data: Any,
    owned: Any,
    users: dict[str, Any],
    by: Any,
    director: Any,
    replaced: bool,
    now: datetime,
) -> Event:
    # the restorer is not the importer: who made and directs the event comes from the backup
    event = eventfile.import_event(data, by=None, now=now, limited=False)
    if owned is not None:
        backup_owned.apply(event, owned, users)
    else:  # an older backup: its manifest names the directors
        names = entry.get("directors", [])
        for person in get_user_model().objects.filter(username__in=names):
            EventDirector.objects.get_or_create(event=event, user=person)
    if director is not None:
        EventDirector.objects.get_or_create(event=event, user=director)
    audit.log(
        event,
        "event.restored",
        actor=by,
        at=now,
        subject=event.slug,
        after={
            "backup": path.name,
            "replaced": replaced,
            "directors": sorted(event.directors.values_list("username", flat=True)),
            "owned_rows": owned is not None,
        },
    )
    return event


def _not_restored(manifest: dict[str, Any], entries: list[dict[str, Any]]) -> list[str]:
    """What a restore of these entries leaves out, in words."""
    said = list(dict.fromkeys(NOT_RESTORED.values()))
    left_out = (manifest.get("accounts") or {}).get("left_out")
    if left_out:
        said.append(f"accounts with no part in any event ({left_out}): not in the backup")
    older = [e["slug"] for e in entries if not (e.get("owned") or {}).get("file")]
    if older:
        said.insert(
            0,
            f"for {len(older)} events backed up without their owned rows (a backup made "
            f"before they were kept: {', '.join(older)}): {OWNED_LACKING}",
        )
    return said


def _delete_event(event: Event) -> None:
    """Delete an event and everything in it (seats first: they protect their entrants).
    Its audit rows go with it; the caller records why in the event that replaces it."""
    MatchParticipant.objects.filter(match__round__event=event).delete()
    event.delete()


def _event_count() -> int:
    """Events in the database; 0 in a new database that has no tables yet."""
    if Event._meta.db_table not in connection.introspection.table_names():
        return 0
    return Event.objects.count()


def restore_database(path: Path, *, replace: bool = False, db: dict[str, Any] | None = None) -> str:
    """Replace the whole database with the backup's dump; returns the kind restored.

    Not audited as a change of the running database: the dump holds its own audit log, and
    anything written before the restore would be overwritten by it."""
    path = Path(path)
    manifest = read_manifest(path)
    info = manifest.get("database") or {}
    if not info.get("file"):
        raise BackupError([f"{path.name} holds no database dump; restore its event files."])
    dump = path / info["file"]
    if not dump.is_file() or _sha256(dump) != info.get("sha256"):
        raise BackupError([f"{info['file']}: missing or damaged (SHA-256 differs)."])
    target = db or settings.DATABASES["default"]
    if db is None and not replace and _event_count():
        raise BackupError(
            [
                f"The database holds {_event_count()} events: restoring the dump would "
                "replace all of them. Nothing was restored. Use --replace to go ahead."
            ]
        )
    kind: str = info["kind"]
    if db is None and kind != connection.vendor:
        raise BackupError(
            [f"The dump is of a {kind} database; this server uses {connection.vendor}."]
        )
    if kind == "postgresql":
        args, env = _pg_args(target)
        connection.close()  # our own session must not hold locks on the tables being dropped
        _run(
            "pg_restore",
            [
                *args,
                "--clean",
                "--if-exists",
                "--no-owner",
                "--single-transaction",
                "-d",
                str(target["NAME"]),
                str(dump),
            ],
            env,
        )
    elif kind == "sqlite":
        connection.close()
        copy_sqlite(dump, Path(target["NAME"]))
    else:
        raise BackupError([f"Unknown database dump kind '{kind}' in the manifest."])
    return kind
