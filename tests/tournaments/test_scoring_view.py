"""A save scores its match from what its format reads, loaded alone (issue 24, item 3): the
match alone for the WOC and the round robin, the event's frame (entrants, rounds, draws, no
other match) for the others. The database builds the same view as rules/scoring_frame.py
cuts from the whole event, and a save in every format never loads every match."""

import pytest

from rules import registry, scoring_frame
from tests.format_fields import IMPORTED as FIELDS
from tournaments import simulation
from tournaments.models import Match, Round
from tournaments.services import results
from tournaments.services.eventfile import import_event
from tournaments.services.state import load_event_state

pytestmark = pytest.mark.django_db


def event_during_a_round(key: str):
    pure = simulation.simulate(key, FIELDS[key], seed=11)
    during = simulation.cut(pure, max(1, len(pure.rounds) // 2))
    return import_event(simulation.to_event_file(during, slug=f"view-{key}", name=key), by=None)


def open_round(event) -> Round:
    return Round.objects.filter(event=event).order_by("-number").first()


@pytest.mark.parametrize("key", sorted(FIELDS))
def test_the_database_builds_the_view_the_engine_reads(key):
    event = event_during_a_round(key)
    rnd = open_round(event)
    whole = load_event_state(event)
    cut = {"alone": scoring_frame.match_alone, "frame": scoring_frame.frame}[
        scoring_frame.view_of(registry.get(key))
    ]
    checked = 0
    for match in Match.objects.filter(round=rnd).order_by("order")[:4]:
        view = results.scoring_state(event, rnd, match)
        assert sum(len(r.matches) for r in view.rounds) == 1
        expected = cut(whole, rnd.number, match.code)
        if scoring_frame.view_of(registry.get(key)) == "alone":
            # the one-match state keeps its entrants in seat order; the cut, in entry order
            expected = type(expected)(**{**expected.__dict__, "entrants": view.entrants})
            assert sorted(e.id for e in view.entrants) == sorted(
                e.id for e in cut(whole, rnd.number, match.code).entrants
            )
        assert view == expected
        checked += 1
    assert checked


@pytest.mark.parametrize("key", sorted(FIELDS))
def test_a_save_in_every_format_reads_one_match_not_the_event(key, director, monkeypatch):
    """Saving again the games a match holds goes through the engine's scoring with every
    match but this one left unloaded."""
    event = event_during_a_round(key)
    rnd = open_round(event)
    match = next(m for m in Match.objects.filter(round=rnd).order_by("order") if m.games.exists())
    loaded = load_event_state

    def one_match_only(event, rounds=None, **kwargs):
        if rounds is None:
            raise AssertionError("a save loaded every match of the event")
        return loaded(event, rounds, **kwargs)

    monkeypatch.setattr(results, "load_event_state", one_match_only)
    before = match.result
    outcome = results.record(
        match,
        results.games_json(match),
        expected_version=match.version,
        by=director,
        reason="saved again",
    )
    assert outcome.version == match.version + 1
    assert Match.objects.get(pk=match.pk).result == before
