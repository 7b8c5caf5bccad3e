"""Games that did not end on the board (a forfeit, a resignation, a time default), in words:
the public round and entrant pages, the director's results screen, the projector, the
pairings PDF, the crosstable and the results CSV mark them from the match's stored result
(``endings``, services/result_json.score_json), no query. The score beside the mark is the
format's own (the stored summary: WOC's 64-0 for a forfeit, issue 28)."""

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


def ending_marks(match: Any) -> list[str]:
    """How the match's games ended otherwise than on the board, each way once and without
    names ("forfeit"): the mark beside a score where a line has no room for a sentence
    (the projector)."""
    endings = (match.result or {}).get("endings") or []
    found = dict.fromkeys(str(ending) for _number, ending, _seat in endings)
    return [str(WORDS[e][1]) if e in WORDS else e.replace("_", " ") for e in found]


def unplayed(match: Any) -> bool:
    """Whether a game of the match was not played (a forfeit, a default): the crosstable
    marks its cell."""
    endings = (match.result or {}).get("endings") or []
    return any(is_unplayed(str(ending)) for _number, ending, _seat in endings)


def is_unplayed(ending: str) -> bool:
    """A game that was not played (forfeit, default): a rating officer does not rate it."""
    return ending in ("forfeit", "default")
