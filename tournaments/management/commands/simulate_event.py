import dataclasses
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules import variations
from rules.variations import Variations
from tournaments import simulation
from tournaments.management.commands._common import service_error
from tournaments.services import standings
from tournaments.services.errors import ServiceError
from tournaments.services.eventfile import import_event


class Command(BaseCommand):
    help = (
        "Play a whole event of a format with random legal results (the format's own "
        "simulation), and store it as an event through the checked import."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", required=True, choices=sorted(simulation.SIMULATORS))
        parser.add_argument("--entrants", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--slug", help="Default: sim-<format>-<entrants>-<seed>.")
        parser.add_argument(
            "--stop-after", type=int, help="Keep only the first N rounds, the last one half played."
        )
        parser.add_argument(
            "--vary",
            action="store_true",
            help="Add withdrawals, late entries, defaults and drawn games where the format's "
            "rules allow them (the rates of rules.variations.Variations.everything).",
        )
        for name, meaning in (
            ("withdrawals", "chance an entrant still in withdraws after a round"),
            ("defaults", "chance a game (or match) is lost by default or on time"),
            ("draws", "chance a game is drawn"),
            ("overrides", "chance the director overrides one pairing of a round"),
        ):
            parser.add_argument(f"--{name}", type=float, metavar="RATE", help=f"0 to 1: {meaning}.")
        parser.add_argument(
            "--late-entries", type=int, metavar="N", help="Entrants registering after the rest."
        )

    def handle(
        self,
        format: str,
        entrants: int,
        seed: int,
        slug: str | None = None,
        stop_after: int | None = None,
        **options: Any,
    ) -> None:
        if entrants < 1:
            raise CommandError("--entrants must be at least 1.")
        vary = Variations.everything() if options.get("vary") else variations.NONE
        changes = {}
        for name in ("withdrawals", "defaults", "draws", "overrides"):
            rate = options.get(name)
            if rate is not None:
                if not 0 <= rate <= 1:
                    raise CommandError(f"--{name} must be between 0 and 1; got {rate}.")
                changes[name] = rate
        late = options.get("late_entries")
        if late is not None:
            if late < 0:
                raise CommandError(f"--late-entries must be 0 or more; got {late}.")
            changes["late_entries"] = late
        vary = dataclasses.replace(vary, **changes)
        try:
            state = simulation.simulate(format, entrants, seed, vary)
        except Exception as error:  # the engine refused this field: say so, plainly
            raise CommandError(f"The {format} simulation stopped: {error}") from None
        if stop_after is not None:
            state = simulation.cut(state, stop_after)
        slug = slug or f"sim-{format.replace('_', '-')}-{entrants}-{seed}"
        data = simulation.to_event_file(
            state, slug=slug, name=f"Simulated {format} ({entrants} entrants, seed {seed})"
        )
        try:
            event = import_event(data, by=None)
        except ServiceError as error:
            raise service_error(error) from None
        result = standings.compute(event)
        names = {str(e.number): e.name for e in event.entrants.all()}
        self.stdout.write(
            f"Simulated '{event.slug}': {event.entrants.count()} entrants, "
            f"{event.rounds.count()} rounds{' (final)' if result.final else ''}."
        )
        overrides = sum(
            1 for r in state.rounds for m in r.matches if variations.is_overridden(m.details)
        )
        if overrides:
            self.stdout.write(f"  {overrides} overridden matches (director overrides).")
        table = result.tables[0]
        for row in table.rows[:3]:
            self.stdout.write(f"  {row.rank}. {names.get(row.entrant, row.entrant)}")
