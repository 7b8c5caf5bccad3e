"""The series operations (tournaments/api/series.py, docs/api.md "Series"): the same
standings and explanations as the page, a private series is the API's JSON 404, and the
answer's query count does not grow with the series."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.services import series

pytestmark = pytest.mark.django_db


def grand_prix(director, slug: str, players: int, rounds: int, public: bool = True):
    gp = series.create_series(slug=slug, name=slug, by=director, best=6, public=public)
    for number in range(1, rounds + 1):
        text = "\n".join(f"P{p},{(p * 13 + number) % 90},{500 + p}" for p in range(players))
        series.import_scores(gp, name=f"R{number}", text=text, by=director)
    return gp


def test_one_series_with_its_standings_explained(client, director):
    grand_prix(director, "gp", players=3, rounds=8)
    answer = client.get("/api/v1/series/gp/")
    assert answer.status_code == 200 and answer["ETag"]
    data = answer.json()
    assert [s["name"] for s in data["stages"]] == [f"R{n}" for n in range(1, 9)]
    first = data["standings"][0]
    assert first["rank"] == 1 and first["player"]["key"].startswith("wof:")
    assert first["explanation"][0].startswith("The best 6 of 8 stages played count")
    assert [line["status"] for line in first["stages"]].count("dropped") == 2
    assert (
        client.get("/api/v1/series/gp/", headers={"If-None-Match": answer["ETag"]}).status_code
        == 304
    )


def test_a_private_series_is_a_json_404(client, director):
    grand_prix(director, "hidden", players=2, rounds=1, public=False)
    answer = client.get("/api/v1/series/hidden/")
    assert answer.status_code == 404 and answer.json()["code"]
    assert client.get("/api/v1/series/").json() == {"results": []}


def test_the_answer_costs_the_same_queries_at_two_sizes(client, director):
    grand_prix(director, "small", players=4, rounds=2)
    grand_prix(director, "large", players=80, rounds=8)
    counts = []
    for slug in ("small", "large"):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/api/v1/series/{slug}/").status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]
