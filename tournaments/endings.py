"""Games that did not end on the board (a forfeit, a resignation, a time default), in words:
the public round and entrant pages, the director's results screen and the results CSV mark
them from the match's stored result (``endings``, services/result_json.score_json), no query."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# Lazy: built once at import, each note is worded in the language of the page that shows it
WORDS = {
    # ending: (with the player named, without)
    "forfeit": (gettext_lazy("%(name)s did not play (forfeit)"), gettext_lazy("forfeit")),
    "default": (gettext_lazy("%(name)s did not play (default)"), gettext_lazy("default")),
    "resignation": (gettext_lazy("%(name)s resigned"), gettext_lazy("resignation")),
    "time_default": (gettext_lazy("%(name)s lost on time"), gettext_lazy("time default")),
}


def ending_notes(match: Any) -> list[str]:
    """One note per game that ended otherwise than on the board, e.g. "Ann did not play
    (forfeit)", "Game 2: Bob resigned" (participants prefetched)."""
    endings = (match.result or {}).get("endings") or []
    if not endings:
        return []
    names = [p.entrant.name if p.entrant else "" for p in match.participants.all()]
    several = len({number for number, _ending, _seat in endings}) > 1 or any(
        number != 1 for number, _ending, _seat in endings
    )
    notes = []
    for number, ending, seat in endings:
        named, plain = WORDS.get(ending, (None, ending.replace("_", " ")))
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
        text = named % {"name": who} if named and who else str(plain)
        notes.append(_("Game %(n)s: %(text)s") % {"n": number, "text": text} if several else text)
    return notes


def is_unplayed(ending: str) -> bool:
    """A game that was not played (forfeit, default): a rating officer does not rate it."""
    return ending in ("forfeit", "default")
