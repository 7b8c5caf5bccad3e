"""The results desk (issue 21): a result that looks saved is saved; forfeits are marked
wherever the result is shown."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import round_robin_event
from tournaments.models import Game, Match
from tournaments.services import events, rounds

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def woc_round(director, players: int = 4):
    event = events.create_event(slug="woc", name="WOC", format="woc", by=director, public=True)
    for i in range(players):
        events.add_entrant(event, name=f"Player {i + 1}", rating=2000 - i, by=director)
    draft = rounds.draft_next_round(event, by=director).round
    return event, rounds.publish_round(draft, by=director)


def first_match(rnd) -> Match:
    return Match.objects.filter(round=rnd).order_by("order").first()


def test_a_forfeit_with_no_scores_saves_the_rules_score_and_is_marked(signed_in, director):
    """Finding 1: Forfeit chosen and the scores left empty answered "Saved:" while the match
    stayed pending. WOC scores an unplayed game 64-0 for the player present (IV.8 by
    analogy, docs/formats/woc.md decision 1)."""
    event, rnd = woc_round(director)
    match = first_match(rnd)
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    data = {"version": 0, "g1-s0": "", "g1-s1": "", "g1-ending": "forfeit", "g1-defaulter": "1"}
    answer = signed_in.post(url, data, **HTMX)
    assert answer.status_code == 200, answer.content.decode()[-2000:]
    match.refresh_from_db()
    assert match.result["complete"] is True
    # the record keeps what was entered; the official score is the engine's
    game = Game.objects.get(match=match)
    assert game.ending == "forfeit" and game.details["defaulter"] == 1
    assert match.result["game_scores"] == [[64, 0]], match.result
    assert "did not play (forfeit)" in answer.content.decode()


def test_a_forfeit_the_format_cannot_score_alone_is_refused_on_the_row(signed_in, director):
    """A round robin needs the score of every game: a forfeit without one is refused with a
    message on the row, and nothing is saved (never "Saved" with the match pending)."""
    event = round_robin_event(director, players=4, slug="rr")
    draft = rounds.draft_next_round(event, by=director).round
    rnd = rounds.publish_round(draft, by=director)
    match = first_match(rnd)
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    answer = signed_in.post(url, {"version": 0, "g1-ending": "resignation"}, **HTMX)
    body = answer.content.decode()
    assert answer.status_code == 422, body[-1500:]
    assert "Saved" not in body and 'role="alert"' in body
    assert not Game.objects.filter(match=match).exists() and match.version == 0


def test_a_forfeit_is_marked_on_every_page_report_and_export(client, director):
    """Finding 1, continued: the public round page, the entrant page, the results CSV and
    the event file say it was a forfeit; the WOF export leaves it out of the rated games."""
    import json

    from tournaments.services import eventfile, report_files, results, wof

    event, rnd = woc_round(director)
    match, other = Match.objects.filter(round=rnd).order_by("order")
    results.record(
        match,
        [{"ending": "forfeit", "scores": [None, None], "details": {"defaulter": 1}}],
        expected_version=0,
        by=director,
    )
    results.record(other, [{"scores": [40, 24]}], expected_version=0, by=director)
    absent = match.participants.get(seat=1).entrant
    note = f"{absent.name} did not play (forfeit)"
    page = client.get(reverse("tournaments:round", args=[event.slug, 1])).content.decode()
    assert note in page
    number = absent.number
    mine = client.get(reverse("tournaments:entrant", args=[event.slug, number])).content.decode()
    assert note in mine
    _name, content = report_files.results_csv(event, None, lambda p: None)
    assert note in content.decode()
    exported = eventfile.export_event(event)
    games = [g for m in exported["rounds"][0]["matches"] for g in m["games"]]
    assert [g["ending"] for g in games].count("forfeit") == 1
    elo = wof.export_wof(event)
    game_lines = [line for line in elo.splitlines() if ">" in line or "<" in line]
    assert len(game_lines) == 1, elo  # the played game only
    assert json.dumps(exported)  # the file stays JSON


def test_a_players_page_gives_the_score_from_their_side(client, director):
    """Finding 9: the entrant page showed the score Black-first ("0-64 won"); it reads
    "won 64-0 as white" for the White player who won 64-0."""
    from tournaments.services import results

    event, rnd = woc_round(director)
    match = first_match(rnd)
    results.record(match, [{"scores": [0, 64]}], expected_version=0, by=director)
    white = match.participants.get(seat=1)
    black = match.participants.get(seat=0)
    page = client.get(reverse("tournaments:entrant", args=[event.slug, white.entrant.number]))
    assert f'won</span> <span class="score">64-0</span> as {white.role}' in page.content.decode()
    other = client.get(reverse("tournaments:entrant", args=[event.slug, black.entrant.number]))
    assert f'lost</span> <span class="score">0-64</span> as {black.role}' in other.content.decode()


def test_a_woc_save_loads_one_match_not_the_event(director, monkeypatch):
    """Issue 24 finding: a save on a 1,000-entrant WOC loaded the whole event inside the row
    lock to score one match (4 s of CPU). The WOC scores a match from the match, its round's
    stage and the settings: the event is not loaded, in a Swiss round or a final stage."""
    from tournaments.services import results

    _event, rnd = woc_round(director)
    match = first_match(rnd)

    def whole_event(*args, **kwargs):
        raise AssertionError("a save loaded the whole event")

    monkeypatch.setattr(results, "load_event_state", whole_event)
    results.record(match, [{"scores": [40, 24]}], expected_version=0, by=director)
    assert Match.objects.get(pk=match.pk).result["summary"] == "40-24"
