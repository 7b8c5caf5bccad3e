"""A WPF playoffs event qualified from a series (issue 32): its candidates' eligibility
scores, GP positions and attendance come from the series, not from typed flags.

An event is linked when its line was built from a series (Registration.source "series",
services/qualification.py): each entrant made from that line keeps its entry
(Entry.entrant), and the entry names the series player it came from. The series is read
here; the values are written into the entrant flags the engine reads (gp_total,
gp_position, attending), so the event file and a replay keep what the series said when
round A fixed the seeds ("Eligibility": the six best GP rounds are the eligibility score;
"Express an intention to be present" is the entry's confirmed place). Events without a
series keep the typed flags (docs/formats/wpf_playoffs.md, "Seeds from a series").
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.series import normal_name
from tournaments.models import Entry, Event, Registration, Series
from tournaments.services import series_standings


@dataclass(frozen=True)
class SeriesSeed:
    """What the series says of one entrant."""

    number: int
    name: str
    total: Fraction
    total_text: str
    rank: int
    attending: bool
    reason: str  # the place's reason in the line ("Rank 3 in Demo Puzzle GP (4,210)")

    def flags(self) -> dict[str, Any]:
        total: int | float = (
            self.total.numerator if self.total.denominator == 1 else float(self.total)
        )
        # gp_position: the series rank, shared by equal totals, so that equal eligibility
        # scores go to the recorded draw as the rule says, never to the order of names
        return {"gp_total": total, "gp_position": self.rank, "attending": self.attending}


def linked_series(event: Event) -> Series | None:
    registration = Registration.objects.filter(
        event=event, source=Registration.Source.SERIES
    ).first()
    if registration is None or not registration.series_key:
        return None
    return Series.objects.filter(slug=registration.series_key).first()


def seeds(event: Event, series: Series | None = None) -> dict[int, SeriesSeed]:
    """entrant number -> what the series says, for each entrant made from the series'
    line; {} when the event is not linked. An entry the series no longer ranks (its
    stage removed) is absent: the director sees it among the typed candidates."""
    series = series or linked_series(event)
    if series is None:
        return {}
    rows = series_standings.standings(series)
    by_user = {r.player.user_id: r for r in rows if r.player.user_id is not None}
    by_wof = {r.player.wof_id: r for r in rows if r.player.wof_id}
    by_name: dict[str, series_standings.SeriesStanding] = {}
    for row in rows:
        by_name.setdefault(normal_name(row.player.name), row)
    entries = Entry.objects.filter(
        event=event, source=Entry.Source.QUALIFIED, entrant__isnull=False
    ).select_related("entrant")
    found = {}
    for entry in entries:
        match: series_standings.SeriesStanding | None = (
            (by_user.get(entry.user_id) if entry.user_id is not None else None)
            or (by_wof.get(entry.external_id) if entry.external_id else None)
            or by_name.get(normal_name(entry.name))
        )
        if match is None or entry.entrant is None:
            continue
        found[entry.entrant.number] = SeriesSeed(
            number=entry.entrant.number,
            name=entry.entrant.name,
            total=match.total,
            total_text=match.total_text,
            rank=match.rank,
            attending=entry.status == Entry.Status.ACCEPTED,
            reason=entry.reason,
        )
    return found
