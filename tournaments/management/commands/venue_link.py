from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.management.commands._common import get_event
from tournaments.services.errors import ServiceError
from tournaments.services.mirror import links


class Command(BaseCommand):
    help = (
        "Publish an event from this machine to its public copy (docs/venue.md): the public "
        "event's address and a mirror token made there; --off stops publishing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--url", default="", help="https://arbiter.example.org/e/<slug>/")
        parser.add_argument("--token", default="", help="the mirror token (arb_...)")
        parser.add_argument("--off", action="store_true", help="Stop publishing.")

    def handle(self, slug: str, url: str, token: str, off: bool, **options: Any) -> None:
        event = get_event(slug)
        try:
            if off:
                links.stop(event, by=None)
                self.stdout.write(f"{slug}: publishing stopped.")
                return
            link = links.configure(event, public_url=url, token=token, by=None)
        except ServiceError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(
            f"{slug}: publishing to {link.public_url} (epoch {link.epoch}); "
            f"{link.version - link.acked_version} changes waiting."
        )
