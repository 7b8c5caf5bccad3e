from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules import registry
from tournaments.management.commands._common import get_event, service_error
from tournaments.services import conformance, limits
from tournaments.services import history as results_history
from tournaments.services.errors import ServiceError
from tournaments.services.eventfile import state_from, validate


class Command(BaseCommand):
    help = (
        "Check an event's record against its format's rules: every pairing, bye, seat, "
        "group, bracket slot, score and standings row. Exit status 1 when anything breaks a rule."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", help="An event in the database.")
        parser.add_argument("--file", help="An event file (JSON) instead of a stored event.")
        parser.add_argument(
            "--history",
            action="store_true",
            help="Also replay the stored event's result history and compare it with the stored "
            "games, results and standings.",
        )

    def handle(
        self,
        slug: str | None = None,
        file: str | None = None,
        history: bool = False,
        **options: Any,
    ) -> None:
        if bool(slug) == bool(file):
            raise CommandError("Give either an event's slug or --file FILE.")
        if history and file:
            raise CommandError("--history replays a stored event's result history: give a slug.")
        if file:
            try:
                with open(file, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError as error:
                raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
            if text.lstrip().startswith("%"):
                data = self._wof(text)
            else:
                try:
                    data = limits.load_json(text)
                except ServiceError as error:
                    raise CommandError(
                        f"{file} is neither an event file ({' '.join(error.messages)}) nor a "
                        "WOF rating file."
                    ) from None
            if isinstance(data, dict) and isinstance(data.get("event"), dict):
                # checking a file must not clash with an event stored under its slug
                data["event"]["slug"] = "checked-file"
            try:
                state = state_from(validate(data, slug="checked-file-not-stored"))
            except ServiceError as error:
                raise service_error(error) from None
            verdict = conformance.check_state(state, registry.get(state.format))
        else:
            assert slug is not None  # either a slug or a file, checked above
            verdict = conformance.check_event(get_event(slug))
        replayed = results_history.check(get_event(slug)) if history and slug else None
        self.stdout.write(verdict.summary())
        for v in verdict.violations:
            where = ", ".join(
                part
                for part in (
                    f"round {v.where.round}" if v.where.round else "",
                    f"match {v.where.match}" if v.where.match else "",
                    f"entrant {v.where.entrant}" if v.where.entrant else "",
                )
                if part
            )
            self.stdout.write(f"  - {where}: {v.text} [{v.rule}]")
        for o in verdict.overrides:
            self.stdout.write(f"  * override in round {o['round']}: {o['text']}")
        # a draft is not the record: said apart, and never a failure of the command
        for draft in verdict.drafts:
            self.stdout.write(draft.summary())
            for v in draft.findings:
                self.stdout.write(f"  - {v.where.match or 'round'}: {v.text} [{v.rule}]")
        if replayed is not None:
            self.stdout.write(replayed.summary())
            for problem in replayed.problems:
                self.stdout.write(f"  - {problem}")
        if verdict.violations or (replayed is not None and not replayed.agrees):
            raise SystemExit(1)

    def _wof(self, text: str) -> dict[str, Any]:
        """A WOF rating file (.ELO): its games as an event file, the games after the Swiss
        labelled as the woc rules would schedule them."""
        from tournaments.services import wof

        try:
            data, _added, _proposal = wof.propose(text, slug="checked-file")
        except ServiceError as error:
            raise service_error(error) from None
        return data
