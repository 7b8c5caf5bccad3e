from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from tournaments.services import backup


class Command(BaseCommand):
    help = (
        "Restore a backup made by `manage.py backup`: re-import its event files with the rows "
        "each event owns (claims, claim codes, directors, audit log, result history) and the "
        "accounts they name, all or nothing; or with --database replace the whole database "
        "with its dump. Existing events are never overwritten unless --replace is given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "backup",
            nargs="?",
            help="The backup folder; 'latest' or nothing: the newest in ARBITER_BACKUP_DIR.",
        )
        parser.add_argument(
            "--event", action="append", dest="events", help="Restore only this slug (repeat)."
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="Delete the existing events of the same slugs (or, with --database, the "
            "whole database) and restore the backup's copy.",
        )
        parser.add_argument(
            "--database",
            action="store_true",
            help="Restore the database dump (pg_restore or the SQLite copy) instead of the "
            "event files: every table, every account, sign-ins and built reports too.",
        )
        parser.add_argument("--director", help="Username to make director of every restored event.")
        parser.add_argument("--list", action="store_true", help="List the backups and stop.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["list"]:
            for path in backup.list_backups():
                try:
                    count = f"{len(backup.read_manifest(path)['events'])} events"
                except backup.BackupError as error:
                    count = "DAMAGED: " + " ".join(error.messages)
                self.stdout.write(f"{path}  {count}")
            return
        path = self._path(options.get("backup"))
        try:
            if options["database"]:
                kind = backup.restore_database(path, replace=options["replace"])
                self.stdout.write(f"Restored the {kind} database from {path}.")
                return
            director = self._user(options["director"])
            done = backup.restore_events(
                path,
                by=None,
                replace=options["replace"],
                only=options["events"],
                director=director,
            )
        except backup.BackupError as error:
            raise CommandError("Nothing was restored:\n" + "\n".join(error.messages)) from None
        replaced = f" ({len(done.replaced)} replaced)" if done.replaced else ""
        self.stdout.write(
            f"Restored {len(done.events)} events{replaced} from {path} in {done.seconds:.1f} s."
        )
        if done.accounts_created or done.accounts_matched:
            self.stdout.write(
                f"Accounts: {len(done.accounts_created)} created from the backup (they sign in "
                f"with their old passwords), {len(done.accounts_matched)} already here and "
                "matched by username (left as they are)."
            )
        self.stdout.write("Not restored:")
        for words in done.not_restored:
            self.stdout.write(f"- {words}")

    def _path(self, given: str | None) -> Path:
        if given and given != "latest":
            return Path(given)
        found = backup.list_backups()
        if not found:
            raise CommandError(f"No backup in {backup.backup_dir()}; name a backup folder.")
        return found[-1]

    def _user(self, username: str | None) -> User | None:
        if not username:
            return None
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user '{username}': --director must name an account.")
        return user
