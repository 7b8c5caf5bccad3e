"""A GokoDom player's account of a match in words, from the side of whoever reads it: the
player ("You reported a win", "Ann reported that you lost") or the director ("Ann says Ann
won", "Bob says it was a draw"). Reads the report stored in match details."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# Lazy: worded in the language of the page that shows them, not the one active at import
OUTCOME_WORDS = {
    "W": gettext_lazy("a win"),
    "L": gettext_lazy("a loss"),
    "D": gettext_lazy("a draw"),
}
THAT_YOU = {
    "W": gettext_lazy("you won"),
    "L": gettext_lazy("you lost"),
    "D": gettext_lazy("you drew"),
}
# The report's statuses in match details["report"] (services.py writes them; SETTLED:
# the director decided a dispute, services_settle.py).
REPORTED, DISPUTED, CONFIRMED, SETTLED = "reported", "disputed", "confirmed", "settled"


def winner_of(claim: Mapping[str, Any], seats: list[str]) -> int | None:
    """The winning seat a claim gives (None: a draw, or not known)."""
    codes = claim.get("results")
    if codes:
        won = [seat for seat, number in enumerate(seats) if codes.get(number) == "W"]
        return won[0] if won else None
    winner = claim.get("winner")
    return winner if isinstance(winner, int) else None


def for_player(claim: Mapping[str, Any], me: str, names: Mapping[str, str]) -> str:
    """The claim as the player ``me`` reads it."""
    mine = (claim.get("results") or {}).get(me)
    who = names.get(str(claim.get("by")), "")
    if claim.get("by") == me:
        if mine:
            return _("You reported %(what)s.") % {"what": OUTCOME_WORDS[mine]}
        return _("You reported %(summary)s.") % {"summary": claim.get("summary", "")}
    if mine:
        return _("%(name)s reported that %(what)s.") % {"name": who, "what": THAT_YOU[mine]}
    return _("%(name)s reported %(summary)s.") % {"name": who, "summary": claim.get("summary")}


def claim_lines(match: Any) -> list[str]:
    """The players' accounts of a reported or disputed match, as the director reads them
    (participants prefetched)."""
    people = list(match.participants.all())
    seats = [str(p.entrant.number) if p.entrant else "" for p in people]
    names = {str(p.entrant.number): p.entrant.name for p in people if p.entrant}
    return [for_director(c, seats, names) for c in claims(match)]


def for_director(claim: Mapping[str, Any], seats: list[str], names: Mapping[str, str]) -> str:
    """The claim as the director reads it: who says what."""
    who = names.get(str(claim.get("by")), "")
    winner = winner_of(claim, seats)
    # the games' score when games were reported (an elimination match); a Swiss result is
    # its winner alone (its W-L summary in seat order only confuses)
    score = "" if claim.get("results") else f" ({claim.get('summary', '')})"
    if winner is None:
        return _("%(name)s says it was a draw") % {"name": who} + score
    return (
        _("%(name)s says %(winner)s won") % {"name": who, "winner": names.get(seats[winner], "")}
        + score
    )


def seen_mark(entry: Mapping[str, Any]) -> str:
    """What the director was shown of a dispute: the time stamps of both claims. A player
    who changes their account changes it, so a decision read from the older accounts is
    refused (reporting writes no new match version)."""
    counter = entry.get("counter") or {}
    return f"{entry.get('at', '')}|{counter.get('at', '')}"


def claims(match: Any) -> list[dict[str, Any]]:
    """The players' accounts of a match: the report, and in a dispute the other player's
    claim when they gave one (each {"by", "summary", "winner", "results" or "games"})."""
    entry = match.details.get("report") or {}
    if entry.get("status") not in (REPORTED, DISPUTED):
        return []
    return [c for c in (entry, entry.get("counter")) if c and c.get("summary")]
