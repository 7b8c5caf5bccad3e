"""The event state read from plain rows (issue 24, item 1) is the state the model instances
gave: every format, with withdrawals, late entries, defaults, draws, overrides, groups, a
team and a drafted round, and in a fixed number of queries whatever the event's size."""

from __future__ import annotations

import pytest

from rules.contract import RoundStatus
from rules.variations import Variations
from tests.format_fields import IMPORTED as FIELDS
from tournaments import simulation
from tournaments.models import Entrant, Round, Team
from tournaments.services import rounds
from tournaments.services.eventfile import import_event
from tournaments.services.state import load_event_state, rounds_queryset

pytestmark = pytest.mark.django_db


def from_instances(event, *, drafts=True):
    """The state as the model instances give it (the loader's path for given rounds)."""
    chosen = rounds_queryset(event).select_related("stage")
    if not drafts:
        chosen = chosen.exclude(status=Round.Status.DRAFT)
    return load_event_state(event, chosen, drafts=drafts)


@pytest.mark.parametrize("format_key", sorted(FIELDS))
def test_the_rows_give_the_state_the_instances_gave(format_key):
    vary = Variations.everything().with_overrides(0.4)
    pure = simulation.simulate(format_key, FIELDS[format_key], seed=3, vary=vary)
    cut = simulation.cut(pure, max(1, len(pure.rounds) // 2), unfinished_share=1.0)
    data = simulation.to_event_file(cut, slug=f"rows-{format_key}", name="x")
    data["rounds"][-1]["status"] = "completed"
    event = import_event(data, by=None)
    team = Team.objects.create(event=event, name="Team North")
    Entrant.objects.filter(event=event, number=1).update(team=team)
    rounds.draft_next_round(event, by=None)
    state = load_event_state(event)
    assert any(r.status is RoundStatus.DRAFT for r in state.rounds)
    assert state.rounds and state.entrants
    assert state == from_instances(event)
    assert load_event_state(event, drafts=False) == from_instances(event, drafts=False)
    assert state.entrants[0].team == "Team North"
    if format_key == "freestyle":
        assert any(r.groups for r in state.rounds)


def test_the_rows_take_a_fixed_number_of_queries(django_assert_max_num_queries):
    pure = simulation.simulate("woc", 40, seed=1)
    event = import_event(simulation.to_event_file(pure, slug="rows-count", name="x"), by=None)
    with django_assert_max_num_queries(8):
        state = load_event_state(event, drafts=False)
    assert sum(len(r.matches) for r in state.rounds) >= 20 * len(state.rounds) // 2
