import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.management.commands._common import get_event, service_error
from tournaments.selectors import round_with_matches
from tournaments.services import rounds
from tournaments.services.errors import ServiceError


class Command(BaseCommand):
    help = "Draft the event's next round (stored as a draft for review) and print it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--json", action="store_true", help="Print JSON.")
        parser.add_argument("--publish", action="store_true", help="Publish the draft at once.")

    def handle(self, slug: str, json: bool = False, publish: bool = False, **options: Any) -> None:
        event = get_event(slug)
        try:
            outcome = rounds.draft_next_round(event, by=None)
            if outcome.round is not None and publish:
                rounds.publish_round(outcome.round, by=None)
        except ServiceError as error:
            raise service_error(error) from None
        if outcome.finished is not None:
            self._print(json, {"finished": True, "reason": outcome.finished.reason.text})
            return
        if outcome.decision is not None:
            raise CommandError(f"The director must decide first: {outcome.decision.text}")
        assert outcome.round is not None  # neither finished nor waiting: a round was drafted
        rnd = round_with_matches(event, outcome.round.number, include_drafts=True)
        assert rnd is not None  # the draft just stored
        payload: dict[str, Any] = {
            "number": rnd.number,
            "label": rnd.label,
            "status": rnd.status,
            "reasons": [r["text"] for r in rnd.reasons],
            "matches": [
                {
                    "code": m.code,
                    "table": m.table,
                    "participants": [
                        {
                            "entrant": p.entrant.number if p.entrant else None,
                            "name": p.entrant.name if p.entrant else None,
                            "role": p.role,
                        }
                        for p in m.participants.all()
                    ],
                    "reasons": [r["text"] for r in m.reasons],
                }
                for m in rnd.matches.all()
            ],
        }
        self._print(json, payload)

    def _print(self, as_json: bool, payload: dict[str, Any]) -> None:
        if as_json:
            self.stdout.write(_dumps(payload))
            return
        if payload.get("finished"):
            self.stdout.write(f"The event is finished: {payload['reason']}")
            return
        self.stdout.write(f"{payload['label']} ({payload['status']})")
        for m in payload["matches"]:
            names = " - ".join(_side(p) for p in m["participants"])
            self.stdout.write(f"  {m['code']}: {names}")


def _side(participant: dict[str, Any]) -> str:
    name: str = participant["name"] or "bye"
    return f"{name} ({participant['role']})" if participant["role"] else name


def _dumps(payload: object) -> str:
    return json.dumps(payload, indent=1, ensure_ascii=False)
