"""The result history replayed (tournaments/services/history.py): every match rebuilt from its
ResultChange rows in version order agrees with the stored record, and a write that went
around the history is found and named."""

import pytest
from django.core.management import call_command

from tests.factories import gokodom_event, play_round, round_robin_event
from tournaments.formats.gokodom import services as format_gokodom
from tournaments.formats.gokodom import services_director as format_gokodom_director
from tournaments.models import Game, Match, ResultChange
from tournaments.services import corrections, history, results, rounds

pytestmark = pytest.mark.django_db


def corrected_event(director):
    """Two rounds played, a result of round 1 entered twice then corrected after round 2."""
    event = round_robin_event(director, players=4, slug="hist")
    first = play_round(event, director, scores=lambda m: [2, 1])
    play_round(event, director, scores=lambda m: [1, 1])
    match = first.matches.order_by("order").first()
    preview = corrections.preview_result(match, [{"scores": [0, 3]}], expected_version=1)
    corrections.confirm_result(
        match,
        [{"scores": [0, 3]}],
        expected_version=1,
        results_version=preview.results_version,
        digest=preview.digest,
        by=director,
        reason="typo on the sheet",
    )
    return event, Match.objects.get(pk=match.pk)


def test_the_history_of_a_corrected_event_replays_to_the_stored_record(director):
    event, corrected = corrected_event(director)
    replayed = history.replay(event)[corrected.pk]
    assert replayed.version == 2 and replayed.problems == ()
    assert [g["scores"] for g in replayed.games] == [[0, 3]]
    state = history.replayed_state(event)
    assert [g.scores for g in _match(state, corrected).games] == [(0, 3)]
    checked = history.check(event)
    assert checked.agrees, checked.problems
    assert checked.rows == ResultChange.objects.filter(match__round__event=event).count() == 5
    assert "replays to the stored results of all 4 matches" in checked.summary()


def _match(state, match):
    return next(
        m
        for r in state.rounds
        if r.number == match.round.number
        for m in r.matches
        if m.code == match.code
    )


def test_games_changed_around_the_history_are_found(director):
    event, corrected = corrected_event(director)
    Game.objects.filter(match=corrected).update(scores=[3, 0])  # no ResultChange row
    problems = history.check(event).problems
    assert any("the stored games are not the games its history wrote" in p for p in problems)
    assert any(corrected.code in p for p in problems)


def test_a_result_stored_without_its_history_row_is_found(director):
    event, corrected = corrected_event(director)
    ResultChange.objects.filter(match=corrected, version=2).delete()
    problems = history.check(event).problems
    assert any("history ends at version 1, the match is at version 2" in p for p in problems)
    assert any("the stored games are not the games its history wrote" in p for p in problems)


def test_a_row_that_does_not_start_where_the_last_ended_is_found(director):
    event, corrected = corrected_event(director)
    row = ResultChange.objects.get(match=corrected, version=2)
    row.before = {"games": [{"number": 1, "scores": [9, 9]}], "result": row.before["result"]}
    row.save(update_fields=["before"])
    problems = history.check(event).problems
    assert any("version 2: its games before are not the games" in p for p in problems)


def test_a_stored_result_the_history_does_not_give_is_found(director):
    event, corrected = corrected_event(director)
    Match.objects.filter(pk=corrected.pk).update(
        result={**corrected.result, "points": [1, 0], "winner": 0, "summary": "forged"}
    )
    problems = history.check(event).problems
    assert any("its history scores 0-3, the stored result is forged" in p for p in problems)


def test_result_codes_written_then_cleared_replay_as_details(director):
    """GokoDom's Swiss results are details: a row writes the codes, a later one removes them."""
    event = gokodom_event(director, players=4, users=False, swiss_rounds=2)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = rnd.matches.order_by("order").first()
    a, b = (str(p.entrant.number) for p in match.participants.order_by("seat"))
    format_gokodom_director.record_codes(match, {a: "W", b: "L"}, expected_version=0, by=director)
    replayed = history.replay(event)[match.pk]
    assert replayed.details["results"] == {a: "W", b: "L"}
    format_gokodom_director.record_codes(match, None, expected_version=1, by=director)
    replayed = history.replay(event)[match.pk]
    assert "results" not in replayed.details and "results" in replayed.removed
    assert history.check(event).agrees
    # a player's report between two result changes is no result change: no seam
    player = match.participants.order_by("seat").first().entrant
    format_gokodom.report(match, player, outcome="L", by=director)
    format_gokodom_director.record_codes(match, {a: "L", b: "W"}, expected_version=2, by=director)
    assert history.check(event).agrees


def test_check_event_history_prints_the_differences_and_fails(director, capsys):
    event, corrected = corrected_event(director)
    call_command("check_event", event.slug, "--history")
    assert "replays to the stored results" in capsys.readouterr().out
    results.record(corrected, [{"scores": [1, 2]}], expected_version=2, by=director)
    Game.objects.filter(match=corrected).delete()
    with pytest.raises(SystemExit):
        call_command("check_event", event.slug, "--history")
    out = capsys.readouterr().out
    assert "difference" in out and corrected.code in out
