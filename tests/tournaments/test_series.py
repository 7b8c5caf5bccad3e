"""Series services (tournaments/services/series.py, series_standings.py): stages from an
event's ranking and from imported CSV scores, players across them, and the standings read
that qualification uses (docs/series.md, "Interface for qualification")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from accounts.models import User
from accounts.services import claim_entrant
from tests.factories import play_round, round_robin_event
from tournaments.models import SeriesScore
from tournaments.services import series, series_standings, standings
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


def finished(director, slug, capture, players=4):
    with capture(execute=True):
        event = round_robin_event(director, players=players, slug=slug)
        for _ in range(players - 1):
            play_round(event, director)
    event.refresh_from_db()
    standings.refresh(event.pk, event.results_version)
    return event


def gp(director, **options):
    defaults = {"kind": "grand_prix", "best": 2, "public": True}
    return series.create_series(slug="gp", name="GP", by=director, **{**defaults, **options})


def test_imported_scores_give_the_best_n_total_explained(director):
    gp_series = gp(director)
    series.import_scores(
        gp_series, name="Round 1", text="player,score\nAnn,10\nBob,30\n", by=director
    )
    series.import_scores(gp_series, name="Round 2", text="Ann,20\nBob,5\n", by=director)
    series.import_scores(gp_series, name="Round 3", text="Ann,25,\n", by=director)
    rows = series_standings.standings(gp_series)
    assert [(r.player.name, r.total, r.rank) for r in rows] == [
        ("Ann", 45, 1),
        ("Bob", 35, 2),
    ]
    assert rows[0].explanation[0] == (
        "The best 2 of 3 stages played count, 45 in all; dropped: Round 1."
    )
    assert [line.status for line in rows[1].lines] == ["counted", "counted", "absent"]
    assert rows[1].explanation[1] == ("Not played: Round 3 (a stage not played counts as nothing).")


def test_a_bad_csv_names_each_bad_line_and_saves_nothing(director):
    gp_series = gp(director)
    text = "player,score,wof\nAnn,10\n,4\nBob,abc\nAnn,3\nCid,1,7,x\nDan,2,9\nEve,2,9\n"
    with pytest.raises(ServiceError) as refused:
        series.import_scores(gp_series, name="Round 1", text=text, by=director)
    assert refused.value.messages == [
        "Line 3: the player's name is empty.",
        "Line 4: the score 'abc' of Bob is not a number.",
        "Line 5: Ann is already on line 2.",
        "Line 6: expected player, score and an optional WOF id; found 4 cells.",
        "Line 8: the WOF id 9 is already on line 7.",
    ]
    assert not gp_series.stages.exists() and not SeriesScore.objects.exists()


def test_replacing_a_stages_scores_with_a_bad_file_keeps_the_old_ones(director):
    gp_series = gp(director)
    stage = series.import_scores(gp_series, name="Round 1", text="Ann,10\n", by=director)
    with pytest.raises(ServiceError):
        series.import_scores(gp_series, name="Round 1", text="Ann,x\n", by=director, stage=stage)
    assert list(stage.scores.values_list("name", "score")) == [("Ann", 10)]


def test_an_events_final_ranking_gives_points_by_place(
    director, django_capture_on_commit_callbacks
):
    event = finished(director, "season-2", django_capture_on_commit_callbacks)
    season = series.create_series(
        slug="goko",
        name="GokoDom",
        by=director,
        value="place_points",
        points=series.parse_points("10, 6 4 2"),
    )
    series.add_event_stage(season, event, by=director)
    rows = series_standings.standings(season)
    assert sum((r.total for r in rows), Fraction(0)) == 22  # every place's points handed out
    assert rows[0].lines[0].text.startswith(f"{event.name}: place 1")
    with pytest.raises(ServiceError):
        series.add_event_stage(season, event, by=director)


def test_an_event_needs_a_points_table(director, django_capture_on_commit_callbacks):
    event = finished(director, "ev", django_capture_on_commit_callbacks)
    with pytest.raises(ServiceError) as refused:
        series.add_event_stage(gp(director), event, by=director)
    assert "points table" in refused.value.messages[0]


def test_one_person_across_an_event_and_imported_scores(
    director, django_capture_on_commit_callbacks
):
    """Issue 32 item 4: the same account or WOF id is the same player in every stage."""
    event = finished(director, "ev", django_capture_on_commit_callbacks)
    ann = event.entrants.get(number=1)
    ann.external_id = "700"
    ann.save()
    user = User.objects.create_user("bob", password="pw-bob-12345")
    claim_entrant(user, event.entrants.get(number=2).claim_code)
    circuit = series.create_series(
        slug="c", name="C", by=director, kind="circuit", points=["3", "2", "1"]
    )
    series.add_event_stage(circuit, event, by=director)
    series.import_scores(circuit, name="Online", text="Someone,5,700\nPlayer 3,1\n", by=director)
    rows = {r.player.key: r for r in series_standings.standings(circuit)}
    assert rows["wof:700"].player.entrant_ids == (ann.pk,)
    assert [line.status for line in rows["wof:700"].lines] == ["counted", "counted"]
    assert f"account:{user.pk}" in rows
    # a name-only row joins the one person of that name
    third = event.entrants.get(number=3)
    assert any(
        third.pk in r.player.entrant_ids and r.lines[1].status == "counted" for r in rows.values()
    )


def test_a_directors_merge_joins_two_spellings(director):
    gp_series = gp(director)
    series.import_scores(gp_series, name="R1", text="Jon Smith,10\n", by=director)
    series.import_scores(gp_series, name="R2", text="John Smith,20\n", by=director)
    assert len(series_standings.standings(gp_series)) == 2
    series.merge_names(gp_series, name="Jon Smith", same_as="John Smith", by=director)
    (row,) = series_standings.standings(gp_series)
    assert row.total == 30


def test_stages_are_ordered_and_removed(director):
    gp_series = gp(director)
    one = series.import_scores(gp_series, name="R1", text="A,1\n", by=director)
    two = series.import_scores(gp_series, name="R2", text="A,2\n", by=director)
    series.move_stage(gp_series, two.pk, by=director, up=True)
    assert list(gp_series.stages.values_list("name", flat=True)) == ["R2", "R1"]
    series.remove_stage(gp_series, one.pk, by=director)
    assert list(gp_series.stages.values_list("name", "order")) == [("R2", 1)]


def test_bad_rule_is_refused(director):
    with pytest.raises(ServiceError) as refused:
        series.create_series(slug="x", name="X", by=director, value="place_points")
    assert refused.value.problems[0].field == "points"
    with pytest.raises(ServiceError):
        series.parse_points("25 18 x")
