"""WOC results after the Swiss through the director's results screen: the best-of-three
semi-finals with who played Black in each game, and the IV.9 choice of a one-game match."""

import random

import pytest
from django.urls import reverse

from rules.formats.woc.simulate import field, play
from tournaments import simulation
from tournaments.models import Match, Round
from tournaments.services import rounds
from tournaments.services.eventfile import import_event

pytestmark = pytest.mark.django_db(transaction=True)
# seed 3 ends the Swiss with 4th and 5th equal (a playoff); this one goes to the semi-finals
SEMI_FINAL_SEED = 1


def qualified_event(seed):
    rng = random.Random(seed)
    state = play(field(10, rng), rng)
    data = simulation.to_event_file(state, slug=f"woc-{seed}", name="WOC")
    data["event"]["settings"].pop("final_stages", None)  # the final stages are on by default
    return import_event(data, by=None)


@pytest.mark.parametrize("seed", [3, SEMI_FINAL_SEED])
def test_final_stage_results_are_entered_on_the_results_screen(client, director, seed):
    client.force_login(director)
    event = qualified_event(seed)
    event.directors.add(director)
    outcome = rounds.draft_next_round(event, by=director)
    rnd = rounds.publish_round(outcome.round, by=director)
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, rnd.number]))
    body = page.content.decode()
    kinds = {m.details.get("kind") for m in Match.objects.filter(round=rnd)}
    assert ("playoff" in kinds) == (seed == 3)
    if "playoff" in kinds:
        assert 'name="m-choice"' in body
        match = Match.objects.filter(round=rnd, details__kind="playoff").first()
        url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
        missing = client.post(
            url,
            {"version": 0, "g1-s0": "32", "g1-s1": "32", "g1-first": "0"},
            HTTP_HX_REQUEST="true",
        )
        assert missing.status_code == 422  # a drawn playoff needs the IV.9 choice
        saved = client.post(
            url,
            {"version": 0, "g1-s0": "32", "g1-s1": "32", "g1-first": "0", "m-choice": "colour"},
            HTTP_HX_REQUEST="true",
        )
        assert saved.status_code == 200
        match.refresh_from_db()
        assert match.details["choice"] == "colour"
        assert match.result["winner"] == 1  # chose the colour: the draw goes to the opponent
        assert match.result_changes.last().after["details"] == {"choice": "colour"}
    else:
        assert "semi_final" in kinds
        assert 'name="g3-s0"' in body and 'name="g1-first"' in body
        match = Match.objects.filter(round=rnd, details__kind="semi_final").first()
        url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
        saved = client.post(
            url,
            {
                "version": 0,
                "g1-s0": "40",
                "g1-s1": "24",
                "g1-first": "0",
                "g2-s0": "35",
                "g2-s1": "29",
                "g2-first": "1",
            },
            HTTP_HX_REQUEST="true",
        )
        assert saved.status_code == 200, saved.content.decode()
        match.refresh_from_db()
        assert match.result["winner"] == 0
        assert [g.first_seat for g in match.games.order_by("number")] == [0, 1]
    assert rnd.number == Round.objects.filter(event=event).count() == 10  # after 9 rounds


def _published(event):
    from tournaments.models import Event
    from tournaments.services import standings

    event = Event.objects.get(pk=event.pk)
    standings.refresh(event.pk, event.results_version)
    return event


def test_standings_page_shows_the_brightwell_quotient_part_by_part(client):
    """Issue 5: "Show BQ's parts on the standings page" (woc Appendix A)."""
    from tournaments.models import StandingsRow

    event = _published(qualified_event(3))
    body = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert "Brightwell Quotient, part by part" in body
    rows = StandingsRow.objects.filter(snapshot__event=event, table_key="overall")
    assert rows.count() == 10
    for row in rows:
        parts = row.details["brightwell"]
        substituted = parts["byes"] + parts["withdrawn_opponents"] + parts["unplayed_rounds"]
        # Appendix A: the parts add up to the value that ranks the entrant
        total = parts["discs"] + parts["c"] * parts["opponents_points"]
        total += substituted * (32 + parts["c"] * row.points)
        assert total == pytest.approx(row.values["bq"])
    # the entrant's page says the same in words
    top = rows.order_by("position").first()
    parts = top.details["brightwell"]
    page = client.get(reverse("tournaments:entrant", args=[event.slug, top.entrant.number]))
    assert f"{parts['discs']} discs + 6 × " in page.content.decode()


def test_breakdown_counts_a_bye_as_a_substituted_game():
    """Appendix A 3a: a bye is left out and replaced by 32 + C x own points."""
    from types import SimpleNamespace

    from tournaments.formats import ui_for

    parts = {
        "discs": 100,
        "opponents_points": 3.5,
        "c": 6,
        "strength": 21,
        "withdrawn_opponents": 0,
        "byes": 1,
        "unplayed_rounds": 0,
        "each_substitute": 50,
        "bq": 171,
    }
    row = SimpleNamespace(details={"brightwell": parts}, entrant=SimpleNamespace(name="A"))
    ui = ui_for(SimpleNamespace(format="woc"))
    breakdown = ui.table_breakdown({"key": "overall"}, [row])
    assert breakdown.rows[0][1] == ("100", "3.5", "21", "1 bye(s)", "50", "171")
    assert ui.row_explanation(row) == (
        "BQ 171 = 100 discs + 6 × 3.5 opponents' points (21) + 1 × 50 for 1 bye(s) "
        "(32 + C × own points)."
    )


def test_public_round_page_shows_the_iv9_choice_and_the_colours(client, director):
    """IV.9: the better-ranked player chose the colour (a draw goes to the opponent)."""
    event = qualified_event(3)
    outcome = rounds.draft_next_round(event, by=director)
    rnd = rounds.publish_round(outcome.round, by=director)
    match = Match.objects.filter(round=rnd, details__kind="playoff").first()
    client.force_login(director)
    event.directors.add(director)
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    data = {"version": 0, "g1-s0": "32", "g1-s1": "32", "g1-first": "1", "m-choice": "colour"}
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    better, other = (p.entrant.name for p in match.participants.order_by("seat"))
    client.logout()
    body = client.get(reverse("tournaments:round", args=[event.slug, rnd.number])).content
    body = body.decode()
    assert f"{better} chose the colour; a draw goes to {other}" in body
    assert f"{other} had Black" in body


def test_public_round_page_shows_who_chooses_the_colour_of_game_3(client, director):
    """III.1: after 1-1, the player with more discs in games 1 and 2 chooses game 3's colour."""
    event = qualified_event(SEMI_FINAL_SEED)
    outcome = rounds.draft_next_round(event, by=director)
    rnd = rounds.publish_round(outcome.round, by=director)
    match = Match.objects.filter(round=rnd, details__kind="semi_final").first()
    client.force_login(director)
    event.directors.add(director)
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    data = {
        "version": 0,
        **{"g1-s0": "40", "g1-s1": "24", "g1-first": "0"},
        **{"g2-s0": "30", "g2-s1": "34", "g2-first": "1"},
    }
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    first, second = (p.entrant.name for p in match.participants.order_by("seat"))
    body = client.get(reverse("tournaments:round", args=[event.slug, rnd.number]))
    body = body.content.decode()
    assert f"Game 1: {first} had Black" in body
    assert f"Game 2: {second} had Black" in body
    # 70 discs to 58 over games 1 and 2
    assert f"Game 3: {first} chooses the colour (more discs in games 1 and 2)" in body


def test_a_lot_drawn_for_equal_players_reaches_the_published_standings(director):
    """Appendix A 4: players equal on points, BQ and discs are ordered by lot. The lot typed
    in by the director decides their ranks; before, the published standings kept them equal
    until some later result made the standings be recomputed."""
    from django.utils import timezone

    from tournaments.services import draws, standings

    rng = random.Random(41)  # eight players; the qualifying ends with two of them equal
    data = simulation.to_event_file(play(field(8, rng), rng), slug="woc-lot", name="WOC")
    event = import_event(data, by=None)
    (lot,) = [p for p in standings.compute(event).pending if p.code == "woc.lot.list"]
    tied = [int(e) for e in lot.options]

    def published_ranks():
        snapshot = standings.latest_published(event)
        rows = snapshot.rows.filter(table_key="overall", entrant__number__in=tied)
        return {row.entrant.number: row.rank for row in rows.select_related("entrant")}

    assert len(set(published_ranks().values())) == 1
    order = [str(n) for n in reversed(tied)]
    draws.enter_external(event, lot.key, order, purpose="lot", by=director, at=timezone.now())
    ranks = published_ranks()
    assert ranks[int(order[0])] < ranks[int(order[1])]
