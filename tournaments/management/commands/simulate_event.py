from django.core.management.base import BaseCommand, CommandError

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

    def add_arguments(self, parser):
        parser.add_argument("--format", required=True, choices=sorted(simulation.SIMULATORS))
        parser.add_argument("--entrants", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--slug", help="Default: sim-<format>-<entrants>-<seed>.")
        parser.add_argument(
            "--stop-after", type=int, help="Keep only the first N rounds, the last one half played."
        )

    def handle(self, format, entrants, seed, slug=None, stop_after=None, **options):
        if entrants < 1:
            raise CommandError("--entrants must be at least 1.")
        try:
            state = simulation.simulate(format, entrants, seed)
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
        table = result.tables[0]
        for row in table.rows[:3]:
            self.stdout.write(f"  {row.rank}. {names.get(row.entrant, row.entrant)}")
