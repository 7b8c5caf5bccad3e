from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.services import backup


class Command(BaseCommand):
    help = (
        "Back up every event as an event file with the rows it owns (claims, directors, "
        "audit log, result history) and the accounts they name, plus a dump of the "
        "database, into a new timestamped folder under ARBITER_BACKUP_DIR "
        "(docs/operations.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", help="Folder to write the backup into (default: the setting).")
        parser.add_argument(
            "--no-database",
            action="store_true",
            help="Write the event files, owned rows and accounts only, without pg_dump or "
            "the SQLite copy.",
        )
        parser.add_argument(
            "--keep",
            type=int,
            help="Then delete all but the newest KEEP backups in that folder.",
        )

    def handle(
        self,
        dir: str | None = None,
        no_database: bool = False,
        keep: int | None = None,
        **options: Any,
    ) -> None:
        try:
            made = backup.create_backup(
                Path(dir) if dir else None,
                database=backup.NONE if no_database else backup.REQUIRED,
            )
            pruned = backup.prune(made.path.parent, keep=keep) if keep is not None else []
        except backup.BackupError as error:
            raise CommandError("No backup was made:\n" + "\n".join(error.messages)) from None
        dump = f", database dump ({made.database})" if made.database else ", no database dump"
        self.stdout.write(
            f"Backed up {made.events} events{dump} to {made.path}: "
            f"{made.bytes:,} bytes in {made.seconds:.1f} s."
        )
        for path in pruned:
            self.stdout.write(f"Deleted the old backup {path.name}.")
