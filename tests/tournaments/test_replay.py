"""``manage.py replay`` on the six real records: 0 unexplained differences (issue 12)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tests.shared_data import real

FILES = [
    "woc_2012.json",
    "woc_2014.json",
    "woc_2015.json",
    "ftd_asia_pacific_championship_2026.json",
    "ftd_israeli_championship_2026.json",
    "ftd_scottish_open_2026.json",
]


@pytest.mark.parametrize("name", FILES)
def test_replay_ends_with_zero_unexplained_differences(name: str) -> None:
    path = real(name)
    out = StringIO()
    call_command("replay", str(path), stdout=out)
    text = out.getvalue()
    assert text.rstrip().endswith("0 unexplained differences"), text[-2000:]
    assert "DIFFERS" not in text
    if name == "ftd_israeli_championship_2026.json":
        assert "1 known deviations of the record" in text and "20766" in text


@pytest.mark.parametrize(
    ("name", "playoffs", "champion"),
    [
        ("woc_2012.json", 0, "TAKANASHI"),
        ("woc_2014.json", 1, "SUEKUNI"),
        ("woc_2015.json", 1, "TAKANASHI"),
    ],
)
def test_replay_schedules_the_playoffs_played_and_finds_the_winners(name, playoffs, champion):
    out = StringIO()
    call_command("replay", str(real(name)), stdout=out)
    text = out.getvalue()
    assert text.count(" playoff PO-") == playoffs
    assert f"1. {champion}" in text


@pytest.mark.django_db
def test_replay_saves_nothing() -> None:
    from tournaments.models import Event

    call_command("replay", str(real("woc_2015.json")), stdout=StringIO())
    assert not Event.objects.exists()


def test_replay_marks_a_difference(tmp_path) -> None:
    """A changed published score is marked and counted."""
    import json

    data = json.loads(real("ftd_scottish_open_2026.json").read_text())
    data["published_standings"]["rows"][0]["mbq"] += 5
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data))
    out = StringIO()
    call_command("replay", str(path), stdout=out)
    assert "DIFFERS (mbq)" in out.getvalue()
    assert out.getvalue().rstrip().endswith("1 unexplained differences")


def test_replay_reads_a_wof_file(tmp_path) -> None:
    from tests.rules.test_woc_wof import elo_from_record

    path = tmp_path / "WOC_2014.ELO"
    path.write_text(elo_from_record("woc_2014.json"))
    out = StringIO()
    call_command("replay", str(path), stdout=out)
    assert out.getvalue().rstrip().endswith("0 unexplained differences")
    assert "1. SUEKUNI" in out.getvalue()
