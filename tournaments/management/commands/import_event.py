import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.management.commands._common import service_error
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

    def handle(self, file, slug=None, **options):
        try:
            with open(file, encoding="utf-8") as handle:
                data = json.load(handle)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{file} is not valid JSON: line {error.lineno}, column {error.colno}: {error.msg}."
            ) from None
        try:
            event = import_event(data, by=None, slug=slug)
        except ServiceError as error:
            raise service_error(error) from None
        self.stdout.write(
            f"Imported '{event.slug}': {event.entrants.count()} entrants, "
            f"{event.rounds.count()} rounds."
        )
