"""Every format through the service layer: a simulated event imported into the database
gives the engine's own standings, and the engine drafts the same next round from the
database as from its own state."""

import pytest
from django.core.management import CommandError, call_command

from rules import checkers, registry
from rules.contract import EntrantStatus, RoundPlan
from rules.draws import DrawSource
from rules.variations import Variations
from tests.format_fields import IMPORTED as FIELDS
from tournaments import simulation
from tournaments.models import Event, Match
from tournaments.services import conformance, rounds, standings
from tournaments.services.eventfile import import_event
from tournaments.services.state import load_event_state

pytestmark = pytest.mark.django_db(transaction=True)


def ranks(result):
    return [(row.rank, row.entrant, row.values.get("points")) for row in result.tables[0].rows]


@pytest.mark.parametrize("format_key", sorted(FIELDS))
def test_a_whole_simulated_event_imports_with_the_engines_standings(format_key):
    pure = simulation.simulate(format_key, FIELDS[format_key], seed=5)
    data = simulation.to_event_file(pure, slug=f"full-{format_key}", name="x")
    event = import_event(data, by=None)
    engine = registry.get(format_key)
    assert standings.compute(event).final
    mapped = engine.standings(load_event_state(event))
    assert ranks(mapped) == ranks(engine.standings(_renumbered(pure, data)))


@pytest.mark.parametrize("format_key", sorted(FIELDS))
def test_the_engine_pairs_on_from_the_database_as_from_its_own_state(format_key):
    pure = simulation.simulate(format_key, FIELDS[format_key], seed=9)
    cut_at = max(1, len(pure.rounds) // 2)
    cut = simulation.cut(pure, cut_at, unfinished_share=1.0)
    data = simulation.to_event_file(cut, slug=f"cut-{format_key}", name="x")
    data["rounds"][-1]["status"] = "completed"
    event = import_event(data, by=None)
    state = load_event_state(event)
    expected = registry.get(format_key).next_round(
        state, DrawSource(event.random_seed, state.draws)
    )
    outcome = rounds.draft_next_round(event, by=None)
    if isinstance(expected, RoundPlan):
        drafted = [
            [p.entrant.number if p.entrant else None for p in m.participants.order_by("seat")]
            for m in outcome.round.matches.order_by("order")
        ]
        planned = [
            [None if p.entrant is None else int(p.entrant) for p in m.participants]
            for m in expected.matches
        ]
        assert outcome.round.number == cut_at + 1
        assert drafted == planned
    else:
        assert outcome.round is None


def _renumbered(pure, data):
    """The pure state with the file's entrant numbers, to compare like with like."""
    from tournaments.services.eventfile import state_from, validate

    data = {**data, "event": {**data["event"], "slug": "compare-only"}}
    return state_from(validate(data))


@pytest.mark.parametrize("format_key", sorted(FIELDS))
def test_a_varied_event_imports_and_its_verdict_lists_only_its_overrides(format_key):
    """Withdrawals, late entries, defaults, draws and overrides survive the event file: the
    stored event has the same withdrawals, its overridden matches are marked, and the rules
    check reports each of them as an override and nothing else."""
    vary = Variations.everything().with_overrides(0.4)
    pure = simulation.simulate(format_key, FIELDS[format_key], seed=3, vary=vary)
    data = simulation.to_event_file(pure, slug=f"varied-{format_key}", name="x")
    event = import_event(data, by=None)
    withdrawn = sum(e.status is EntrantStatus.WITHDRAWN for e in pure.entrants)
    assert event.entrants.filter(status="withdrawn").count() == withdrawn
    assert event.entrants.count() == len(pure.entrants)
    made = {(r.number, m.code) for r in pure.rounds for m in r.matches if m.details.get("override")}
    marked = set(
        Match.objects.filter(round__event=event, overridden=True).values_list(
            "round__number", "code"
        )
    )
    assert marked == made
    # the play-offs have nothing to override: a match's seats are its ranks
    assert bool(made) is (format_key != "wpf_playoffs")
    verdict = conformance.check_event(event)
    assert verdict.violations == ()
    assert {(v.rule, v.where.round, v.where.match) for v in verdict.overridden} == {
        (checkers.OVERRIDE, number, code) for number, code in made
    }
    assert len(verdict.overrides) == len(made)


def test_simulate_event_names_a_rate_outside_0_to_1():
    with pytest.raises(CommandError, match=r"--withdrawals must be between 0 and 1; got 2\.0"):
        call_command("simulate_event", "--format=woc", "--entrants=8", "--withdrawals=2")
    assert not Event.objects.exists()
