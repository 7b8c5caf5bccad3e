from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.management.commands._common import service_error
from tournaments.services import ftd, limits, wof
from tournaments.services.errors import ServiceError
from tournaments.services.eventfile import import_event


class Command(BaseCommand):
    help = (
        "Create an event from a JSON event file; the whole file is checked before anything "
        "is saved."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", help="Import under this slug instead of the file's.")
        parser.add_argument(
            "--from",
            dest="source",
            choices=("event", "wof", "ftd"),
            default="event",
            help="event: an Arbiter event file; wof: a WOF rating file (.ELO); ftd: a "
            "FlipTheDisc JSON export.",
        )

    def handle(self, file, slug=None, source="event", **options):
        if source != "event":
            return import_other(self, file, source, slug)
        try:
            with open(file, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{file} is not UTF-8 text: an event file is JSON.") from None
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


def import_other(command, file: str, source: str, slug: str | None) -> None:
    path = Path(file)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
    slug = slug or path.stem.lower().replace("_", "-").replace(" ", "-")[:80]
    try:
        if source == "wof":
            data, added, proposal = wof.propose(text, slug=slug)
            if added:
                command.stdout.write("Proposed labels of the games after the Swiss:")
                names = {str(e["number"]): e["name"] for e in data["entrants"]}
                for game, label in zip(added, proposal.labels, strict=True):
                    command.stdout.write(
                        f"  {names[game[0]]} ({game[2]:02d})-({game[3]:02d}) {names[game[1]]}: "
                        f"{label.kind} {label.match} game {label.game}"
                    )
                if proposal.note:
                    command.stdout.write(f"  {proposal.note}")
            event = wof.import_wof(text, by=None, slug=slug)
        else:
            limits.check_bytes(text)
            event = ftd.import_ftd(limits.load_json(text), by=None, slug=slug)
    except ServiceError as error:
        raise service_error(error) from None
    command.stdout.write(
        f"Imported '{event.slug}': {event.entrants.count()} entrants, "
        f"{event.rounds.count()} rounds."
    )
