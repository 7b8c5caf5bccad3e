"""The event file in parts (venue mode, docs/venue.md "Push"): what a change touched,
exported alone, and a whole file rebuilt from an earlier file and those parts.

A part is the file's header ("event", always sent: one row, no query), "teams", "stages",
"entrants", "draws", or one round ("r7"). A push of parts carries each touched part whole
as it is at the push's version: a round that is gone is listed in "rounds_gone". Laid over
the file at any version from the push's base on, they give the file at its version, since
every part a change in between touched is in the push.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import Event
from tournaments.services import locking
from tournaments.services.eventfile.export import (
    export_draws,
    export_entrants,
    export_header,
    export_rounds,
    export_stages,
    export_teams,
)

LISTS = {
    "teams": export_teams,
    "stages": export_stages,
    "entrants": export_entrants,
    "draws": export_draws,
}
_ROUND = re.compile(r"r([1-9][0-9]{0,5})")


def round_part(number: int) -> str:
    return f"r{number}"


def is_part(name: str) -> bool:
    """Whether ``name`` names a part (a list of the file, or one round)."""
    return name in LISTS or _ROUND.fullmatch(name) is not None


def round_numbers(parts: Iterable[str]) -> set[int]:
    return {int(found.group(1)) for name in parts if (found := _ROUND.fullmatch(name))}


def export_parts(event: Event, parts: Collection[str]) -> dict[str, Any]:
    """The header and the ``parts`` of ``event``'s file, read as one snapshot: each list
    whole, the rounds named (those no longer in the event listed in "rounds_gone")."""
    with locking.read_snapshot():
        found: dict[str, Any] = {"event": export_header(event)}
        for name, export in LISTS.items():
            if name in parts:
                found[name] = export(event)
        wanted = round_numbers(parts)
        if wanted:
            found["rounds"] = export_rounds(event, wanted)
            found["rounds_gone"] = sorted(wanted - {r["number"] for r in found["rounds"]})
    return found


def apply_parts(base: dict[str, Any], parts: Any) -> dict[str, Any]:
    """The file ``base`` with ``parts`` laid over it (a new dict; ``base`` is left as it
    is). ValueError naming the place when the parts are not shaped as export_parts makes
    them; the rebuilt file is validated as any file is when it is applied."""
    if not isinstance(parts, dict) or not isinstance(parts.get("event"), dict):
        raise ValueError(_("parts.event: must be the event's header."))
    unknown = set(parts) - {"event", "rounds", "rounds_gone", *LISTS}
    if unknown:
        raise ValueError(
            _("parts.%(name)s: not a part of the event file.") % {"name": sorted(unknown)[0]}
        )
    file = {**base, "event": parts["event"]}
    for name in LISTS:
        if name in parts:
            if not isinstance(parts[name], list):
                raise ValueError(_("parts.%(name)s: must be a list.") % {"name": name})
            file[name] = parts[name]
    rounds = {r.get("number"): r for r in base.get("rounds", []) if isinstance(r, dict)}
    sent = parts.get("rounds", [])
    gone = parts.get("rounds_gone", [])
    if not isinstance(sent, list) or not isinstance(gone, list):
        raise ValueError(_("parts.%(name)s: must be a list.") % {"name": "rounds"})
    for place, rnd in enumerate(sent):
        number = rnd.get("number") if isinstance(rnd, dict) else None
        if not isinstance(number, int) or isinstance(number, bool):
            raise ValueError(_("parts.rounds[%(n)s]: needs its number.") % {"n": place})
        rounds[number] = rnd
    for number in gone:
        rounds.pop(number, None)
    file["rounds"] = [rounds[n] for n in sorted(rounds, key=_number)]
    return file


def _number(value: Any) -> int:
    return value if isinstance(value, int) else 0
