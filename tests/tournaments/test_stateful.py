"""Random sequences of director actions on one event, through the real service layer and
database, checking after every step that:
- the published standings equal a fresh replay of the event's record by the engine;
- every result version of every match has its audit row (ResultChange 1..version);
- every published round has its audit row, and a refused action changed nothing.

CI runs a bounded profile; `make test-deep` runs HYPOTHESIS_PROFILE=deep (500 x 50).
"""

import itertools
import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from accounts.models import User
from tournaments.models import AuditEntry, Event, Match, ResultChange, Round
from tournaments.services import eventfile, events, results, rounds, standings
from tournaments.services.errors import InvalidResult, ServiceError, StaleResult
from tournaments.services.state import jsonable, load_event_state

PROFILES = {"ci": (25, 30), "deep": (500, 50)}
EXAMPLES, STEPS = PROFILES[os.environ.get("HYPOTHESIS_PROFILE", "ci")]
counter = itertools.count()


def snapshot_rows(event):
    snapshot = standings.latest_published(event)
    if snapshot is None:
        return None
    return [
        (r.entrant.number, r.rank, r.values)
        for r in snapshot.rows.select_related("entrant").filter(table_key="overall")
    ]


def fresh_rows(event):
    table = event.engine.standings(load_event_state(event)).tables[0]
    return [(int(r.entrant), r.rank, jsonable(dict(r.values))) for r in table.rows]


class DirectorActions(RuleBasedStateMachine):
    @initialize(players=st.integers(min_value=2, max_value=7))
    def create(self, players):
        self.director = User.objects.get_or_create(username="sm-director")[0]
        self.event = events.create_event(
            slug=f"sm-{next(counter)}-{os.getpid()}",
            name="State machine",
            format="round_robin",
            by=self.director,
            public=True,
        )
        for i in range(players):
            events.add_entrant(self.event, name=f"P{i}", rating=2000 - i, by=self.director)

    def refresh(self):
        self.event = Event.objects.get(pk=self.event.pk)

    def last_round(self):
        return self.event.rounds.order_by("-number").first()

    def published_matches(self):
        return list(
            Match.objects.filter(round__event=self.event)
            .exclude(round__status=Round.Status.DRAFT)
            .prefetch_related("participants")
            .order_by("pk")
        )

    @rule()
    def draft(self):
        last = self.last_round()
        try:
            rounds.draft_next_round(self.event, by=self.director)
        except ServiceError:
            # only refused when the last round is a draft or not complete
            assert last is not None and last.status != Round.Status.COMPLETED

    @rule()
    def publish(self):
        last = self.last_round()
        if last is not None and last.status == Round.Status.DRAFT:
            rounds.publish_round(last, by=self.director)

    @rule()
    def delete_draft(self):
        last = self.last_round()
        if last is not None and last.status == Round.Status.DRAFT:
            rounds.delete_draft(last, by=self.director)

    @rule(data=st.data(), a=st.integers(0, 3), b=st.integers(0, 3))
    def enter(self, data, a, b):
        playable = [m for m in self.published_matches() if len(m.participants.all()) == 2]
        if not playable:
            return
        match = data.draw(st.sampled_from(playable))
        results.record(
            match, [{"scores": [a, b]}], expected_version=match.version, by=self.director
        )

    @rule(data=st.data())
    def stale_or_invalid_changes_nothing(self, data):
        playable = [m for m in self.published_matches() if len(m.participants.all()) == 2]
        if not playable:
            return
        match = data.draw(st.sampled_from(playable))
        before = (match.version, list(match.games.values_list("scores", flat=True)))
        stale = data.draw(st.booleans())
        with pytest.raises(StaleResult if stale else InvalidResult):
            results.record(
                match,
                [{"scores": [1, 0] if stale else [-1, 0]}],
                expected_version=match.version + 1 if stale else match.version,
                by=self.director,
            )
        match.refresh_from_db()
        assert (match.version, list(match.games.values_list("scores", flat=True))) == before

    @rule()
    def close(self):
        last = self.last_round()
        if last is not None and last.status == Round.Status.PUBLISHED:
            try:
                rounds.complete_round(last, by=self.director)
            except ServiceError:
                assert any(not m.result or not m.result.get("complete") for m in last.matches.all())

    @rule(data=st.data())
    def withdraw(self, data):
        active = list(self.event.entrants.filter(status="active"))
        if len(active) > 2:
            events.withdraw(data.draw(st.sampled_from(active)), by=self.director)

    @precondition(lambda self: self.event.rounds.exists())
    @rule()
    def export_import_gives_the_same_standings(self):
        data = eventfile.export_event(self.event)
        copy = eventfile.import_event(data, by=None, slug=f"{self.event.slug}-copy{next(counter)}")
        assert fresh_rows(copy) == fresh_rows(self.event)

    @invariant()
    def standings_follow_the_record(self):
        if not hasattr(self, "event"):
            return
        self.refresh()
        assert self.event.standings_version == self.event.results_version
        if self.event.results_version:
            assert snapshot_rows(self.event) == fresh_rows(self.event)

    @invariant()
    def every_result_version_is_audited(self):
        if not hasattr(self, "event"):
            return
        for match in Match.objects.filter(round__event=self.event):
            versions = list(
                ResultChange.objects.filter(match=match).values_list("version", flat=True)
            )
            assert versions == list(range(1, match.version + 1))

    @invariant()
    def every_published_round_is_audited(self):
        if not hasattr(self, "event"):
            return
        published = self.event.rounds.exclude(status=Round.Status.DRAFT).count()
        logged = AuditEntry.objects.filter(event=self.event, action="round.published").count()
        assert logged == published


DirectorActions.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.mark.django_db(transaction=True)
def test_director_actions_keep_standings_and_audit_consistent():
    DirectorActions.TestCase().runTest()
