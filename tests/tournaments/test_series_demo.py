"""The demo series (tournaments/demo_series.py): a Grand Prix of eight imported rounds that
feeds the WPF playoffs demo and ranks its 16 as their eligibility does, and GokoDom's
Seasons II and III; loading the demo twice adds nothing and says where the site is."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tournaments.demo import slug
from tournaments.models import Event, Round, Series, SeriesScore
from tournaments.services import series_standings

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Series, SeriesScore, Event, Round))


@pytest.mark.django_db(transaction=True)  # the demo's commits run what waits for them
def test_load_demo_twice_creates_nothing_twice_and_links_the_series(capsys, settings):
    """One load of the demo for what three tests loaded it for: nothing created twice
    (tests/tournaments/test_commands.py), the site it is served at printed
    (tests/test_newcomer.py, issue 28 item 9), and the series' links."""
    settings.ARBITER_SITE_URL = "http://127.0.0.1:8123"
    call_command("load_demo")
    first = capsys.readouterr().out
    assert "open http://127.0.0.1:8123/ (events) and http://127.0.0.1:8123/admin/" in first
    assert "8000" not in first
    counts = _counts()
    call_command("load_demo")
    assert _counts() == counts
    out = first + capsys.readouterr().out
    assert "admin / " in out and "director / " in out
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


def test_the_demo_event_takes_entries(client, director):
    """`make run` shows the entry form: an open event with capacity, a waiting list and a
    rating-list rule (tournaments/demo_entries.py)."""
    from django.urls import reverse

    from tournaments import demo_entries
    from tournaments.models import Entry

    event = demo_entries.build(director=director)
    assert demo_entries.build(director=director) is None  # idempotent
    line = list(Entry.objects.filter(event=event).order_by("order", "created_at"))
    statuses = [e.status for e in line]
    assert statuses == ["accepted"] * 8 + ["waiting"] * 2 + ["unconfirmed"]
    assert [e.rating for e in line[:3]] == [1912, 1788, 2104]  # read from the rating list
    home = client.get(reverse("tournaments:event", args=[event.slug])).content.decode()
    assert "Enter this event" in home
    url = reverse("tournaments:enter", args=[event.slug])
    assert client.get(url).status_code == 200
    refused = client.post(url, {"name": "Luca Romano", "email": "luca@example.org"})
    assert refused.status_code == 422
    assert "Luca Romano is rated 1288; this event asks for 1400 or more." in (
        refused.content.decode()
    )
    entered = client.post(url, {"name": "Mia Jensen", "email": "mia@example.org"})
    assert entered.status_code == 422  # 1196: below the minimum too
    assert Entry.objects.filter(event=event).count() == 11
