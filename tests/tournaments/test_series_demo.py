"""The demo series (tournaments/demo_series.py): a Grand Prix of eight imported rounds that
feeds the WPF playoffs demo and ranks its 16 as their eligibility does, and GokoDom's
Seasons II and III; loading the demo twice adds nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tournaments.demo import slug
from tournaments.models import Event, Series, SeriesScore
from tournaments.services import series_standings

pytestmark = pytest.mark.django_db


def test_demo_series_and_their_links():
    call_command("load_demo")
    counts = (Series.objects.count(), SeriesScore.objects.count(), Event.objects.count())
    call_command("load_demo")
    assert (Series.objects.count(), SeriesScore.objects.count(), Event.objects.count()) == counts
    gp = Series.objects.get(slug="demo-puzzle-gp")
    playoffs = Event.objects.get(slug=slug("wpf_playoffs"))
    assert list(gp.feeds.all()) == [playoffs] and gp.stages.count() == 8
    rows = {row.player.name: row for row in series_standings.standings(gp)}
    entrants = list(playoffs.entrants.select_related("entry").order_by("number"))
    assert len(entrants) == 16
    for entrant in entrants:
        # eligibility and seeds come from the series, not from typed GP scores
        row = rows[entrant.name]
        assert "gp_scores" not in entrant.flags
        assert entrant.flags["gp_total"] == row.total
        assert entrant.flags["gp_position"] == row.rank
        assert entrant.flags["attending"] is True
        assert entrant.entry.reason.startswith(f"Rank {row.rank} in Demo Puzzle Grand Prix")
    # the line: the top 30 by the series, two declined and their places passed on
    line = list(playoffs.entries.order_by("order").values_list("status", flat=True))
    assert len(line) == 30 and line[1] == line[6] == "declined"
    assert line.count("accepted") == 16 and line[16:18] == ["accepted", "accepted"]
    assert line[18:] == ["waiting"] * 12
    league = Series.objects.get(slug="demo-gokodom-league")
    names = list(league.stages.order_by("order").values_list("name", "event__slug"))
    assert names == [("Season II", "demo-gokodom-season-2"), ("Season III", slug("gokodom"))]
    rows = series_standings.standings(league)
    assert any(all(line.status == "counted" for line in row.lines) for row in rows)
