"""Backups a director can make and restore alone (docs/operations.md, "Backups").

A backup is one folder under ``ARBITER_BACKUP_DIR`` named after the time it was made
(``arbiter-backup-20261123T031500Z``): every event as an event file (docs/event-file.md) in
``events/``, a dump of the whole database (``database.pgdump`` from pg_dump with PostgreSQL,
``database.sqlite3`` made with SQLite's online backup with SQLite) and ``manifest.json``
naming each file with its size and SHA-256. The folder is written under a hidden name and
renamed when complete, so a folder with the backup name is never half written.

Restoring the event files re-imports every event (all or nothing) and refuses to touch an
event that already exists unless told to replace it; restoring the dump replaces the whole
database.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from rules.contract import Problem
from tournaments.models import Event, EventDirector, MatchParticipant
from tournaments.services import audit, eventfile
from tournaments.services.errors import ServiceError

MANIFEST = "manifest.json"
PREFIX = "arbiter-backup-"
NAME = re.compile(r"^arbiter-backup-(\d{8}T\d{6})Z(?:-(\d+))?$")
PG_DUMP = "database.pgdump"
SQLITE_COPY = "database.sqlite3"
# database= choices of create_backup
REQUIRED, IF_AVAILABLE, NONE = "required", "if-available", "none"


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


def _file_name(slug: str) -> str:
    # a slug is [-a-zA-Z0-9_]; this keeps a file name safe should that ever change
    return re.sub(r"[^-a-zA-Z0-9_]", "_", slug) + ".json"


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
        entries = _write_event_files(work / "events")
        kind, dump, notes = _dump_database(work, database)
        manifest = {
            "arbiter_backup": 1,
            "created_at": now.isoformat(),
            "event_file_version": eventfile.FILE_VERSION,
            "database": {"kind": kind, "file": dump, "notes": notes},
            "events": [
                {
                    "slug": e["slug"],
                    "file": f"events/{e['file']}",
                    "bytes": e["bytes"],
                    "sha256": e["sha256"],
                    "directors": e["directors"],
                }
                for e in entries
            ],
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


def _write_event_files(folder: Path) -> list[dict[str, Any]]:
    """Every event exported from one snapshot of the database."""
    snapshot = connection.vendor == "postgresql" and not connection.in_atomic_block
    entries = []
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
            path = folder / _file_name(event.slug)
            data = event_file_text(event).encode("utf-8")
            path.write_bytes(data)
            entries.append(
                {
                    "slug": event.slug,
                    "file": path.name,
                    "bytes": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "directors": directors.get(event.pk, []),
                }
            )
    return entries


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


def _pg_args(db: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
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


def pg_dump(db: dict[str, Any], target: Path) -> None:
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
    problems = []
    for entry in manifest.get("events", []):
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
    """Re-import the backup's event files (``only``: these slugs), all or nothing.

    An event whose slug already exists is refused unless ``replace``: then it is deleted
    and imported again from the backup. Each restored event gets back the directors it had
    whose accounts exist here, plus ``director``."""
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
    users = get_user_model().objects
    restored = []
    with transaction.atomic():
        for event in Event.objects.filter(slug__in=existing).select_for_update():
            _delete_event(event)
        # every file is checked before the first is imported: a bad file restores nothing
        files, problems = [], []
        for entry in entries:
            data = json.loads((path / entry["file"]).read_text(encoding="utf-8"))
            try:
                eventfile.validate(data)
            except ServiceError as error:
                problems += [f"{entry['file']}: {text}" for text in error.messages]
            files.append((entry, data))
        if problems:
            raise BackupError(problems)
        for entry, data in files:
            event = eventfile.import_event(data, by=by, now=now)
            people = list(users.filter(username__in=entry.get("directors", [])))
            if director is not None:
                people.append(director)
            for person in people:
                EventDirector.objects.get_or_create(event=event, user=person)
            audit.log(
                event,
                "event.restored",
                actor=by,
                at=now,
                subject=event.slug,
                after={
                    "backup": path.name,
                    "replaced": event.slug in existing,
                    "directors": sorted({p.get_username() for p in people}),
                },
            )
            restored.append(event)
    return Restored(restored, existing, time.monotonic() - started)


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
    kind = info["kind"]
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
