"""A round's pairing tables are built from rows stored one per match (issue 24, item 2):
after a result, a rename or an override only the rows that show it are rendered again,
and the tables read exactly as a full render of the round."""

from __future__ import annotations

from unittest import mock

import pytest
from django.utils import translation

from tests.factories import play_round, round_robin_event
from tournaments.models import Entrant, Match
from tournaments.services import results
from tournaments.views import fragments

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):
    event = round_robin_event(director, players=8, slug="rows")
    play_round(event, director)
    play_round(event, director, complete=False)
    return event


def _round(event):
    return event.rounds.get(number=2)


def _stored(event):
    event.refresh_from_db()
    return fragments.render_stored_rows(event, _round(event), False)


def _full(event):
    rnd = _round(event)
    return fragments.render_pairings(event, rnd, fragments.round_matches(event, rnd), "")


def _rendered(event):
    """The match ids whose rows were rendered while building the tables."""
    with mock.patch.object(fragments, "_render_rows", wraps=fragments._render_rows) as spy:
        html = _stored(event)
    return html, [pk for call in spy.call_args_list for pk in call.args[2]]


def test_the_tables_from_stored_rows_read_as_a_full_render(event):
    assert _stored(event) == _full(event)
    assert _stored(event) == _full(event)  # every row from the store this time


def test_a_result_renders_its_own_row_again_and_no_other(director, event):
    _stored(event)
    match = Match.objects.filter(round__event=event, round__number=2).first()
    scores = [0, 1] if (match.result or {}).get("winner") != 1 else [1, 0]
    results.record(match, [{"scores": scores}], expected_version=match.version, by=director)
    html, rendered = _rendered(event)
    assert rendered == [match.pk]
    assert html == _full(event)
    _, again = _rendered(event)
    assert again == []


def test_a_rename_renders_the_rows_of_that_entrant_only(event):
    _stored(event)
    entrant = Entrant.objects.get(event=event, name="Player 3")
    # a queryset update: no signal, no epoch moved; the row's digest still sees the name
    Entrant.objects.filter(pk=entrant.pk).update(name="Player Three")
    html, rendered = _rendered(event)
    theirs = Match.objects.filter(round__number=2, participants__entrant=entrant)
    assert rendered == [m.pk for m in theirs]
    assert "Player Three<" in html and html == _full(event)


def test_an_override_note_renders_its_row_again(event):
    _stored(event)
    match = Match.objects.filter(round__event=event, round__number=2).first()
    override = {"by": "director", "reason": "a hand change", "rules": ["II.3"]}
    Match.objects.filter(pk=match.pk).update(overridden=True, details={"override": override})
    html, rendered = _rendered(event)
    assert rendered == [match.pk]
    assert html == _full(event)


def test_rows_are_stored_per_language(event):
    english = _stored(event)
    with translation.override("fr"):
        french, rendered = _rendered(event)
        assert french == _full(event)
    assert len(rendered) == Match.objects.filter(round__event=event, round__number=2).count()
    assert french != english
