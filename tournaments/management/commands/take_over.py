from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.management.commands._common import get_event
from tournaments.services.errors import ServiceError
from tournaments.services.mirror import receive


class Command(BaseCommand):
    help = (
        "On the public copy: take the event over from the venue (docs/venue.md, 'Takeover'). "
        "The venue's machine is refused from now on."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--yes", action="store_true", help="Do not ask for confirmation.")

    def handle(self, slug: str, yes: bool, **options: Any) -> None:
        event = get_event(slug)
        if not yes:
            answer = input(f"Take {slug} over here? The venue will be refused. [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                raise CommandError("Nothing done.")
        try:
            link = receive.take_over(event, by=None)
        except ServiceError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(f"{slug}: taken over (epoch {link.epoch}) at change {link.version}.")
