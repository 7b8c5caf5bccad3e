"""The service layer: rounds, results with optimistic locking, standings, audit."""

import pytest

from tests.factories import play_round, round_robin_event
from tournaments.models import AuditEntry, Event, Match, ResultChange, Round
from tournaments.services import events, results, rounds, standings
from tournaments.services.errors import InvalidResult, ServiceError, StaleResult

pytestmark = pytest.mark.django_db(transaction=True)


def test_draft_publish_enter_complete_and_standings_follow(director):
    event = round_robin_event(director, players=4)
    rnd = play_round(event, director, scores=lambda m: [2, 1])
    assert rnd.status == Round.Status.COMPLETED
    event.refresh_from_db()
    # on_commit ran the (eager) recompute: published standings are current
    assert event.standings_version == event.results_version > 0
    snapshot = standings.latest_published(event)
    assert snapshot.after_round == 1
    points = sorted(r.points for r in snapshot.rows.all())
    assert points == [0, 0, 1, 1]
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {
        "event.created",
        "entrant.added",
        "round.drafted",
        "round.published",
        "round.completed",
    } <= actions


def test_a_stale_save_is_a_conflict_that_overwrites_nothing(director):
    event = round_robin_event(director, players=4)
    play_round(event, director, complete=False)
    match = Match.objects.filter(round__event=event).order_by("pk").first()
    read_version = match.version  # both directors opened the form at this version
    results.record(match, [{"scores": [0, 3]}], expected_version=read_version, by=director)
    with pytest.raises(StaleResult) as conflict:
        results.record(match, [{"scores": [3, 0]}], expected_version=read_version, by=director)
    assert conflict.value.current["games"][0]["scores"] == [0, 3]
    match.refresh_from_db()
    assert match.games.get().scores == [0, 3]
    assert list(match.result_changes.values_list("version", flat=True)) == [1, 2]


def test_an_invalid_result_is_refused_and_nothing_is_saved(director):
    event = round_robin_event(director, players=4)
    play_round(event, director, complete=False)
    match = Match.objects.filter(round__event=event).order_by("pk").last()
    before = (match.version, list(match.games.values_list("scores", flat=True)))
    version = Event.objects.get(pk=event.pk).results_version
    with pytest.raises(InvalidResult) as refused:
        results.record(match, [{"scores": [-2, 1]}], expected_version=match.version, by=director)
    assert "negative" in refused.value.messages[0]
    with pytest.raises(InvalidResult) as refused:
        results.record(match, [{"scores": ["ten", 1]}], expected_version=match.version, by=director)
    assert refused.value.problems[0].field == "games[0].scores[0]"
    match.refresh_from_db()
    assert (match.version, list(match.games.values_list("scores", flat=True))) == before
    assert Event.objects.get(pk=event.pk).results_version == version


def test_results_wait_for_publication_and_rounds_wait_for_results(director):
    event = round_robin_event(director, players=4)
    draft = rounds.draft_next_round(event, by=director).round
    match = draft.matches.first()
    with pytest.raises(InvalidResult):
        results.record(match, [{"scores": [1, 0]}], expected_version=0, by=director)
    with pytest.raises(ServiceError, match="draft"):
        rounds.draft_next_round(event, by=director)
    rounds.publish_round(draft, by=director)
    with pytest.raises(ServiceError, match="2 matches still need a result"):
        rounds.complete_round(draft, by=director)


def test_the_engine_says_when_the_event_is_finished(director):
    event = round_robin_event(director, players=3)
    for _ in range(3):
        play_round(event, director)
    outcome = rounds.draft_next_round(event, by=director)
    assert outcome.finished is not None and outcome.round is None
    assert standings.compute(event).final


def test_refresh_is_idempotent_and_never_goes_backwards(director):
    event = round_robin_event(director, players=4)
    play_round(event, director)
    event.refresh_from_db()
    assert standings.refresh(event.pk, event.results_version) is False  # already current
    count = event.snapshots.count()
    assert standings.refresh(event.pk, 1) is False  # an old version never republishes
    assert event.snapshots.count() == count


def test_withdrawal_is_recorded_with_its_round_and_moves_the_results_version(director):
    event = round_robin_event(director, players=4)
    play_round(event, director)
    entrant = event.entrants.get(number=1)
    version = Event.objects.get(pk=event.pk).results_version
    events.withdraw(entrant, by=director, reason="ill")
    entrant.refresh_from_db()
    assert entrant.withdrawn_after_round == 1
    assert Event.objects.get(pk=event.pk).results_version == version + 1
    outcome = rounds.draft_next_round(event, by=director)
    assert any(len(m.participants.all()) == 1 for m in outcome.round.matches.all())


def test_every_result_change_has_an_audit_row_with_before_and_after(director):
    event = round_robin_event(director, players=4)
    play_round(event, director, complete=False)
    match = Match.objects.filter(round__event=event).order_by("pk").first()
    results.record(
        match, [{"scores": [5, 5]}], expected_version=match.version, by=director, reason="typo"
    )
    change = ResultChange.objects.filter(match=match).order_by("-version").first()
    assert change.changed_by == director
    assert change.before["games"][0]["scores"] == [1, 0]
    assert change.after["games"][0]["scores"] == [5, 5]
    assert change.reason == "typo"
