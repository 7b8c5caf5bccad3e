import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import play_round, round_robin_event
from tournaments.models import Round

pytestmark = pytest.mark.django_db(transaction=True)


def test_standings_json_has_every_tiebreak_value_and_the_reasons(director, capsys):
    event = round_robin_event(director, players=4, slug="cmd")
    play_round(event, director, scores=lambda m: [2, 1])
    call_command("standings", "cmd", "--json")
    data = json.loads(capsys.readouterr().out)
    table = data["tables"][0]
    assert table["columns"] == [
        "points",
        "head_to_head",
        "sonneborn_berger",
        "wins",
        "score_difference",
    ]
    assert all(set(table["columns"]) <= set(row["values"]) for row in table["rows"])
    assert [row["rank"] for row in table["rows"]] == [1, 1, 3, 3]
    assert table["decided"][0]["step"] == "points"


def test_next_round_drafts_and_prints_the_round(director, capsys):
    round_robin_event(director, players=5, slug="nr")
    call_command("next_round", "nr", "--json")
    data = json.loads(capsys.readouterr().out)
    assert data["number"] == 1 and data["status"] == "draft"
    assert len(data["matches"]) == 3  # two games and a bye
    assert Round.objects.get(event__slug="nr").status == "draft"
    with pytest.raises(CommandError, match="still a draft"):
        call_command("next_round", "nr")


def test_unknown_slug_is_a_clear_error():
    with pytest.raises(CommandError, match="No event with the slug 'nope'"):
        call_command("standings", "nope")


# `load_demo` twice (nothing created twice, the accounts printed) is checked with the demo
# series it builds, in one load of the demo: tests/tournaments/test_series_demo.py.
