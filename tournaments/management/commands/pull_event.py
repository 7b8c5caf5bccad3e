from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.services.errors import ServiceError
from tournaments.services.mirror import links


class Command(BaseCommand):
    help = (
        "Pull an event from its public copy and become its writer (docs/venue.md, 'Pull'): "
        "the public event's address and a mirror token made there."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("url", help="the public event's address: https://host/e/<slug>/")
        parser.add_argument("token", help="a mirror token of that event (arb_...)")
        parser.add_argument(
            "--replace", action="store_true", help="Replace this machine's event of that slug."
        )
        parser.add_argument("--director", default="", help="Make this account a director.")

    def handle(self, url: str, token: str, replace: bool, director: str, **options: Any) -> None:
        person = None
        if director:
            person = get_user_model().objects.filter(username=director).first()
            if person is None:
                raise CommandError(f"--director: no account named '{director}'.")
        try:
            event = links.pull_event(url, token, replace=replace, director=person)
        except ServiceError as error:
            raise CommandError(" ".join(error.messages)) from None
        link = event.mirror_link
        self.stdout.write(
            f"{event.slug}: pulled at change {link.version} (epoch {link.epoch}); this machine "
            "writes the event now and publishes its changes to the public copy."
        )
