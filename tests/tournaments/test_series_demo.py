"""The demo series (tournaments/demo_series.py): a Grand Prix of eight imported rounds that
feeds the WPF playoffs demo and ranks its 16 as their eligibility does, and GokoDom's
Seasons II and III; loading the demo twice adds nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from rules.formats.wpf_playoffs.eligibility import eligibility_score
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
    totals = {row.player.name: row.total for row in series_standings.standings(gp)}
    for entrant in playoffs.entrants.all():
        # the GP's six best of eight are the playoffs' eligibility scores
        assert totals[entrant.name] == eligibility_score(entrant.flags["gp_scores"], 6)
    league = Series.objects.get(slug="demo-gokodom-league")
    names = list(league.stages.order_by("order").values_list("name", "event__slug"))
    assert names == [("Season II", "demo-gokodom-season-2"), ("Season III", slug("gokodom"))]
    rows = series_standings.standings(league)
    assert any(all(line.status == "counted" for line in row.lines) for row in rows)
