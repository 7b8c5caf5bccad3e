import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.management.commands._common import get_event
from tournaments.services import standings
from tournaments.services.state import jsonable


class Command(BaseCommand):
    help = "Print the event's current standings with every tiebreak value and the reasons."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--json", action="store_true", help="Print JSON.")

    def handle(self, slug: str, json: bool = False, **options: Any) -> None:
        event = get_event(slug)
        result = standings.compute(event)
        names = {str(e.number): e.name for e in event.entrants.all()}
        tables: list[dict[str, Any]] = [
            {
                "key": t.key,
                "title": t.title,
                "columns": [c.key for c in t.columns],
                "rows": [
                    {
                        "rank": r.rank,
                        "entrant": r.entrant,
                        "name": names.get(r.entrant, r.entrant),
                        "status": r.status,
                        "values": jsonable(r.values),
                        "details": jsonable(r.details),
                    }
                    for r in t.rows
                ],
                "decided": [
                    {"ahead": d.ahead, "behind": d.behind, "step": d.step, "detail": d.detail}
                    for d in t.decided
                ],
            }
            for t in result.tables
        ]
        if json:
            payload = {"event": event.slug, "final": result.final, "tables": tables}
            self.stdout.write(_dumps(payload))
            return
        for table in tables:
            self.stdout.write(table["title"])
            header = ["#", "name", *table["columns"]]
            self.stdout.write("  ".join(header))
            for row in table["rows"]:
                cells = [str(row["rank"]), row["name"]]
                cells += [str(row["values"].get(c, "")) for c in table["columns"]]
                self.stdout.write("  ".join(cells))
            for d in table["decided"]:
                self.stdout.write(
                    f"  {names.get(d['ahead'])} above {names.get(d['behind'])}: {d['detail']}"
                )


def _dumps(payload: object) -> str:
    return json.dumps(payload, indent=1, ensure_ascii=False)
