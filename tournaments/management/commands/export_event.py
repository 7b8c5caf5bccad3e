import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.management.commands._common import get_event
from tournaments.services.eventfile import export_event


class Command(BaseCommand):
    help = "Write an event as a JSON event file (docs/event-file.md) to stdout or a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="File to write; stdout when omitted.")

    def handle(self, slug: str, output: str | None = None, **options: Any) -> None:
        text = json.dumps(export_event(get_event(slug)), indent=1, ensure_ascii=False)
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
            self.stderr.write(f"Wrote {output}")
        else:
            self.stdout.write(text)
