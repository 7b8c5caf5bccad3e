import contextlib
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.services.mirror import runner


class Command(BaseCommand):
    help = (
        "Push the venue's waiting changes to their public copies, every second until stopped "
        "(docs/venue.md, 'The pusher'): run it beside the server with "
        "ARBITER_MIRROR_PUSHER=command, or --once to push what waits and stop."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", default="", help="Only this event.")
        parser.add_argument("--once", action="store_true", help="Push what waits, then stop.")
        parser.add_argument(
            "--tick", type=float, default=runner.TICK, help="Seconds between looks."
        )

    def handle(self, slug: str = "", once: bool = False, tick: float = 1.0, **options: Any) -> None:
        if once:
            for event_id, outcome in runner.run_due(slug).items():
                self.stdout.write(f"event {event_id}: {outcome}")
            return
        self.stderr.write("Pushing venue changes (Ctrl-C to stop).")
        with contextlib.suppress(KeyboardInterrupt):
            runner.loop(slug=slug, tick=tick)
