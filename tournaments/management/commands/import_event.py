from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.management.commands._common import service_error
from tournaments.services import file_check, ftd, limits, wof
from tournaments.services.errors import ServiceError
from tournaments.services.eventfile import import_event


class Command(BaseCommand):
    help = (
        "Create an event from a JSON event file, a WOF rating file or a FlipTheDisc export; "
        "the whole file is checked before anything is saved. With --check, read and check "
        "files (or folders, walked) as the import would, and save nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="+", help="The file (with --check: files or folders).")
        parser.add_argument("--slug", help="Import under this slug instead of the file's.")
        parser.add_argument(
            "--from",
            dest="source",
            choices=("event", "wof", "ftd"),
            default="event",
            help="event: an Arbiter event file; wof: a WOF rating file (.ELO); ftd: a "
            "FlipTheDisc JSON export (the site's own or re-packaged).",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="Read and check each file as the import would, save nothing: one line per "
            "file, then 'N files: R read, F refused, D with differences'.",
        )
        parser.add_argument(
            "--accept-truncated",
            action="store_true",
            help="Import a WOF file whose games cover fewer rounds or players than its list "
            "says: you confirm it holds all that was played.",
        )
        parser.add_argument(
            "--resolve",
            action="append",
            default=[],
            metavar="LINE=CHOICE",
            help="A WOF file's game that contradicts itself or the list, at LINE: sign (trust "
            "the sign), discs (trust the discs) or drop (drop the game); once per such line.",
        )

    def handle(
        self,
        file: list[str],
        slug: str | None = None,
        source: str = "event",
        check: bool = False,
        **options: Any,
    ) -> None:
        accept = bool(options.get("accept_truncated"))
        resolutions = parse_resolutions(options.get("resolve") or [])
        if check:
            return self.check_files(file, source, accept)
        if len(file) != 1:
            raise CommandError("Give one file to import (several only with --check).")
        if source != "event":
            return import_other(self, file[0], source, slug, accept, resolutions)
        try:
            with open(file[0], encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise CommandError(f"Cannot read {file[0]}: {error.strerror}.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{file[0]} is not UTF-8 text: an event file is JSON.") from None
        try:
            limits.check_bytes(text)
            data = limits.load_json(text)
            event = import_event(data, by=None, slug=slug)
        except ServiceError as error:
            raise service_error(error) from None
        self.stdout.write(
            f"Imported '{event.slug}': {event.entrants.count()} entrants, "
            f"{event.rounds.count()} rounds."
        )

    def check_files(self, paths: list[str], source: str, accept: bool) -> None:
        if source == "event":
            raise CommandError("--check reads WOF files (--from wof) or FlipTheDisc exports.")
        files = file_check.walk(paths, source)
        if not files:
            raise CommandError("No file to check (a WOF file ends in .elo, an export in .json).")
        tally = file_check.Tally()
        for path in files:
            outcome = file_check.check_path(path, source, accept_truncated=accept)
            tally.add(outcome)
            self.stdout.write(f"{path}: {outcome.line}")
            for detail in outcome.details:
                self.stdout.write(detail)
        self.stdout.write(tally.summary())


def parse_resolutions(given: list[str]) -> dict[int, str]:
    """'--resolve 12=drop', repeated: line -> choice; a malformed one is refused by name."""
    out: dict[int, str] = {}
    for item in given:
        line, _, choice = item.partition("=")
        if not line.strip().isdigit() or choice.strip() not in ("sign", "discs", "drop"):
            raise CommandError(f"--resolve {item}: give LINE=sign, discs or drop (e.g. 12=drop).")
        out[int(line)] = choice.strip()
    return out


def read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror}.") from None
    return wof.decode(data)


def import_other(
    command: BaseCommand,
    file: str,
    source: str,
    slug: str | None,
    accept: bool,
    resolutions: dict[int, str] | None = None,
) -> None:
    path = Path(file)
    text = read_text(path)
    slug = slug or path.stem.lower().replace("_", "-").replace(" ", "-")[:80]
    try:
        limits.check_bytes(text)
        if source == "wof":
            examined = wof.examine(text, resolutions)
            for row in wof.contradiction_rows(examined.parsed):
                chosen = row["chosen"] or "no choice yet"
                command.stdout.write(
                    f"Line {row['line']}: '{row['text']}': {' '.join(row['what'])} ({chosen})"
                )
            for note in examined.notes:
                command.stdout.write(f"Note: {note.text}")
            for row in examined.difference_rows()[:20]:
                command.stdout.write(
                    f"List and games differ: {row['id']} {row['name']}: {row['what']} "
                    f"{row['listed']} in the list, {row['games']} from the games"
                )
            unresolved = wof.resolution_problems(examined.parsed, resolutions or {})
            if unresolved:
                raise ServiceError(unresolved)
            data, added, proposal = wof.propose(text, slug=slug, resolutions=resolutions)
            if added:
                command.stdout.write("Proposed labels of the games after the Swiss:")
                names = {str(e["number"]): e["name"] for e in data["entrants"]}
                for game, label in zip(added, proposal.labels, strict=True):
                    command.stdout.write(
                        f"  {names[game[0]]} {file_check.discs(game[2], game[3])} "
                        f"{names[game[1]]}: {label.kind} {label.match} game {label.game}"
                    )
                if proposal.note:
                    command.stdout.write(f"  {proposal.note}")
            event = wof.import_wof(
                text, by=None, slug=slug, accept_truncated=accept, resolutions=resolutions
            )
        else:
            event = ftd.import_ftd(limits.load_json(text), by=None, slug=slug)
    except ServiceError as error:
        raise service_error(error) from None
    command.stdout.write(
        f"Imported '{event.slug}': {event.entrants.count()} entrants, "
        f"{event.rounds.count()} rounds."
    )
