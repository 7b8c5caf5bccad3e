from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Event
from tournaments.services.wof import export_wof


class Command(BaseCommand):
    help = "Write a WOC-format event as a WOF rating file (.ELO)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="File to write (default: standard output).")

    def handle(self, slug: str, output: str | None = None, **options: Any) -> None:
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event '{slug}'.")
        if event.format != "woc":
            raise CommandError(f"'{slug}' is a {event.format} event; WOF files hold woc events.")
        text = export_wof(event)
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
            self.stdout.write(f"Wrote {output}.")
        else:
            self.stdout.write(text, ending="")
