from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Event
from tournaments.services import rating_report
from tournaments.services.errors import ServiceError


class Command(BaseCommand):
    help = (
        "Write a WOC or round-robin event as a WOF rating file (.ELO); with --check, print "
        "what the rating officer's page checks, line by line (exit status 1 on a problem)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="File to write (default: standard output).")
        parser.add_argument(
            "--check", action="store_true", help="Check the file instead of writing it."
        )
        parser.add_argument("--country", help="The header's Country (default: as last sent).")
        parser.add_argument("--date", help="The header's Date (default: as last sent).")
        parser.add_argument("--sender", help="The header's Sender (default: as last sent).")

    def handle(self, slug: str, output: str | None = None, **options: Any) -> None:
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event '{slug}'.")
        given = {
            "Country": options.get("country"),
            "Date": options.get("date"),
            "Sender": options.get("sender"),
        }
        try:
            prepared = rating_report.prepare(
                event, {k: v for k, v in given.items() if v is not None}
            )
        except ServiceError as error:
            raise CommandError(" ".join(error.messages)) from error
        if options.get("check"):
            self._check(prepared)
            return
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(prepared.text)
            self.stdout.write(f"Wrote {output}.")
        else:
            self.stdout.write(prepared.text, ending="")

    def _check(self, prepared: rating_report.Prepared) -> None:
        for finding in rating_report.said(prepared.findings):
            where = f"line {finding['line']}" if finding["line"] else "file"
            self.stdout.write(
                f"{prepared.filename}:{where}, {finding['field']}: "
                f"{finding['severity']}: {finding['text']}"
            )
        errors, warnings = len(prepared.errors), len(prepared.warnings)
        self.stdout.write(f"{errors} errors, {warnings} warnings.")
        if errors:
            raise CommandError(f"{prepared.filename}: {errors} problems to fix before sending.")
