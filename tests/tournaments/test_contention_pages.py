"""Contention on public pages (issue 14): the standings task stores who can still win or
reach the next stage with the snapshot; the standings page marks each row and the entrant's
page gives the reason in words."""

import pytest
from django.urls import reverse

from rules.contention import contention
from tests.factories import play_round, round_robin_event
from tournaments.models import StandingsRow, StandingsSnapshot
from tournaments.services import standings
from tournaments.services.state import load_event_state

pytestmark = pytest.mark.django_db(transaction=True)


def player_one_wins_the_rest_draw(match):
    """Player 1 wins every game; every other game is drawn (equal scores)."""
    numbers = [p.entrant.number for p in match.participants.order_by("seat")]
    if 1 in numbers:
        return [1, 0] if numbers[0] == 1 else [0, 1]
    return [1, 1]


def four_of_five_rounds(director, slug="clinch"):
    event = round_robin_event(director, players=6, slug=slug)
    for _ in range(4):
        play_round(event, director, scores=player_one_wins_the_rest_draw)
    return event


def latest(event):
    return StandingsSnapshot.objects.filter(event=event, published=True).latest("results_version")


def test_the_standings_task_stores_contention_with_the_snapshot(director):
    event = four_of_five_rounds(director)
    snapshot = latest(event)
    assert snapshot.results_version == event.__class__.objects.get(pk=event.pk).results_version
    assert snapshot.contention["method"] in {"exact", "bound"}
    assert snapshot.contention["stage_key"] == ""  # a plain round robin has no next stage
    rows = {row.entrant.number: row.contention for row in snapshot.rows.select_related("entrant")}
    assert set(rows) == {1, 2, 3, 4, 5, 6}
    # Player 1 has 4 points; nobody else has more than 2 with one game left (at most 3)
    assert rows[1]["win"]["status"] == "clinched"
    assert rows[1]["win"]["text"].startswith("clinched: ")
    assert all(rows[n]["win"]["status"] == "eliminated" for n in range(2, 7))
    assert all(rows[n]["stage"] is None for n in rows)
    # what is stored is what the package answers for the event as it is now
    fresh = contention(load_event_state(event))
    assert {int(r.entrant): r.win.status.value for r in fresh.entrants} == {
        n: rows[n]["win"]["status"] for n in rows
    }


def test_a_recompute_refreshes_the_contention(director):
    event = round_robin_event(director, players=6, slug="refresh")
    play_round(event, director, scores=player_one_wins_the_rest_draw)
    early = {r.entrant.number: r.contention["win"]["status"] for r in latest(event).rows.all()}
    assert set(early.values()) == {"alive"}  # four rounds left: anyone can still finish first
    for _ in range(3):
        play_round(event, director, scores=player_one_wins_the_rest_draw)
    late = {r.entrant.number: r.contention["win"]["status"] for r in latest(event).rows.all()}
    assert late[1] == "clinched"


def test_public_standings_mark_each_row_and_the_entrant_page_gives_the_reason(client, director):
    event = four_of_five_rounds(director, slug="shown")
    rows = {r.entrant.number: r.contention for r in latest(event).rows.all()}
    page = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert "What the outlook means" in page
    assert f'class="cmark cm-clinched cm-win" title="{rows[1]["win"]["text"]}">clinched 1st' in page
    assert page.count("cm-eliminated cm-win") == 5
    winner = client.get(reverse("tournaments:entrant", args=[event.slug, 1])).content.decode()
    assert 'id="outlook"' in winner and rows[1]["win"]["text"] in winner
    other = client.get(reverse("tournaments:entrant", args=[event.slug, 2])).content.decode()
    assert rows[2]["win"]["text"] in other and "cannot win" in other


def test_standings_without_contention_show_no_outlook(client, director, settings):
    event = round_robin_event(director, players=4, slug="plain")
    play_round(event, director)
    # as snapshots stored before contention existed
    StandingsSnapshot.objects.filter(event=event).update(contention={})
    StandingsRow.objects.filter(snapshot__event=event).update(contention={})
    # a stored snapshot never changes, so its rendered tables are kept: start afresh
    settings.CACHES = {
        name: {**conf, "KEY_PREFIX": "no-outlook"} for name, conf in settings.CACHES.items()
    }
    page = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert "outlook" not in page.lower() and "cmark" not in page


def test_a_contention_failure_never_holds_the_standings_back(director, monkeypatch):
    event = round_robin_event(director, players=4, slug="robust")

    def broken(state):
        raise RuntimeError("boom")

    monkeypatch.setattr(standings, "contention_of", broken)
    play_round(event, director)
    snapshot = latest(event)
    assert snapshot.contention == {} and snapshot.rows.count() == 4


def test_a_stored_verdict_is_said_from_its_code_in_the_page_language(director):
    """The snapshot keeps each verdict's code and parameters (a goal inside it as a message
    of its own): the page says it in English as the engine did, and in the reader's language
    down to the goal."""
    import json

    from django.template import Context, Template
    from django.utils import translation

    from rules.contention.types import verdict
    from rules.formats.woc.contention import TARGET

    said = verdict("contention.win.eliminated.stage", target=TARGET)
    kept = json.loads(json.dumps(standings.verdict_json(said)))
    assert kept["code"] == "contention.win.eliminated.stage" and kept["status"] == "eliminated"
    assert kept["params"]["target"] == {"code": "contention.target.semi_finals", "params": {}}
    shown = Template("{{ stage|said }}")
    with translation.override("en"):
        assert shown.render(Context({"stage": kept})) == said.reason.text
    assert said.reason.text == "eliminated: cannot reach the semi-finals"
    with translation.override("fr"):
        french = shown.render(Context({"stage": kept}))
        goal = translation.gettext("reach the semi-finals")
        assert french == translation.gettext("eliminated: cannot {target}").format(target=goal)
