"""WPF GP Playoffs on the web (issue 8): eligibility entry and seeding, submissions typed per
player with the engine's official times, puzzle pools, preference lists, live choices."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EntrantFactory, wpf_imported_event, wpf_play, wpf_playoffs_event
from tournaments.formats import ui_for
from tournaments.formats.wpf_playoffs import services as service
from tournaments.formats.wpf_playoffs.entry import parse, parse_time
from tournaments.models import AuditEntry, Entrant, Match, Round
from tournaments.services import rounds
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def _url(name, event, *args):
    return reverse(f"tournaments:wpf_playoffs_{name}", args=[event.slug, *args])


# -- eligibility and seeding ---------------------------------------------------------------


def test_eligibility_screen_seeds_by_six_best_rounds_and_attendance(signed_in, director):
    """ "The score of their six best rounds ... is added together"; "Express an intention
    to be present"; "The 16 eligible players with the highest eligibility scores will be
    invited ... and get their initial seed based on their eligibility score"."""
    event = wpf_playoffs_event(director, players=18)
    data = {}
    for entrant in event.entrants.all():
        n = entrant.number
        # eight rounds: the two worst (0 and 1) must not count
        data[f"e{n}-scores"] = f"{100 * n}, {100 * n} {100 * n}; {100 * n} {100 * n} {100 * n} 0 1"
        data[f"e{n}-attending"] = "1"
    del data["e18-attending"]  # the best scorer will not come
    data["e17-scores"] = ""
    data["e17-total"] = "550.5"  # the total typed directly
    response = signed_in.post(_url("eligibility", event), data)
    assert response.status_code == 302
    flags = Entrant.objects.get(event=event, number=3).flags
    assert flags["gp_scores"] == [300, 300, 300, 300, 300, 300, 0, 1]
    assert flags["attending"] is True
    assert AuditEntry.objects.filter(event=event, action="wpf.eligibility_saved").exists()

    page = signed_in.get(_url("eligibility", event)).content.decode()
    assert "6000" in page and "550.5" in page  # entrant 10: six best rounds of 1000

    outcome = rounds.draft_next_round(event, by=director)
    seeds = outcome.round.details["seeds"]
    # 18 does not attend; 17 (550.5) is 17th; the rest by score, best first
    assert seeds == [str(n) for n in range(16, 0, -1)]


def test_eligibility_refuses_bad_numbers_naming_the_field_and_saves_nothing(signed_in, director):
    event = wpf_playoffs_event(director, players=3)
    before = {e.number: dict(e.flags) for e in event.entrants.all()}
    response = signed_in.post(
        _url("eligibility", event),
        {"e1-scores": "812 abc", "e2-total": "-5", "e2-attending": "1", "e3-position": "x"},
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "Solver 1, GP round scores: &#x27;abc&#x27; is not a number." in page
    assert "Solver 2, eligibility score" in page
    assert "Solver 3, GP position" in page
    assert {e.number: dict(e.flags) for e in event.entrants.all()} == before


def test_eligibility_is_fixed_once_round_a_is_drafted(signed_in, director):
    event = wpf_playoffs_event(director, players=16)
    rounds.draft_next_round(event, by=director)
    response = signed_in.post(_url("eligibility", event), {"e1-total": "5", "e1-attending": "1"})
    assert response.status_code == 422
    assert "the seeds are fixed" in response.content.decode()
    assert Entrant.objects.get(event=event, number=1).flags["gp_total"] == 1000


def test_fewer_than_sixteen_candidates_gives_virtual_byes(signed_in, director):
    event = wpf_playoffs_event(director, players=14)
    outcome = rounds.draft_next_round(event, by=director)
    assert outcome.round.details["seeds"][14:] == [None, None]
    page = signed_in.get(_url("eligibility", event)).content.decode()
    assert page.count("virtual bye player") == 2


# -- typing submissions ----------------------------------------------------------------------


def test_parse_time_accepts_clock_and_seconds():
    assert parse_time("3:25") == 205
    assert parse_time("3:25.4") == 205.4
    assert parse_time("1:03:25") == 3805
    assert parse_time("205") == 205
    assert parse_time("3:75") is None
    assert parse_time("abc") is None
    assert parse_time("-3") is None


def test_parse_names_the_missing_player_and_clears_an_empty_row():
    _games, problems = parse({"s0-t1": "3:00", "s0-v1": "correct", "stage": "online"}, 2, {})
    assert [p.field for p in problems] == ["s1-v1"]
    assert parse({"stage": "online"}, 2, {}) == ([], [])
    _games, problems = parse({"s0-t1": "3:00", "s1-v1": "correct", "stage": "online"}, 2, {})
    fields = {p.field for p in problems}
    assert fields == {"s0-v1", "s1-t1"}


def _first_match(event, number):
    return Match.objects.filter(round__event=event, round__number=number).order_by("order").first()


def test_online_result_typed_shows_the_engines_official_times(signed_in, director):
    """ "A player's official time for each puzzle is 22 minutes if their submission is
    incorrect." The director types the time and the verdict; the engine decides."""
    event = wpf_playoffs_event(director)
    outcome = rounds.draft_next_round(event, by=director)
    rounds.publish_round(outcome.round, by=director)
    match = _first_match(event, 1)  # A1: rank 1 against rank 16
    response = signed_in.post(
        reverse("tournaments:manage_result", args=[event.slug, match.pk]),
        {
            "version": "0",
            "stage": "online",
            "s0-t1": "19:50",
            "s0-v1": "correct",
            "s1-t1": "2:10",
            "s1-v1": "wrong",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.result["winner"] == 0
    assert match.result["details"]["official_times"] == [1190, 1320]
    assert match.result["details"]["public"] is False
    submissions = match.games.get().details["submissions"]
    assert submissions == [[{"time": 1190, "correct": True}], [{"time": 130, "correct": False}]]
    page = response.content.decode()
    assert "Official time: <strong>19:50</strong>" in page
    assert "Official time: <strong>22:00</strong>" in page


def test_online_tie_goes_to_the_better_seed_through_the_form(signed_in, director):
    """ "In the rare case of a tie, the player with the better seed wins.\""""
    event = wpf_playoffs_event(director)
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = _first_match(event, 1)
    signed_in.post(
        reverse("tournaments:manage_result", args=[event.slug, match.pk]),
        {"version": "0", "stage": "online", "s0-v1": "none", "s1-v1": "none"},
    )
    match.refresh_from_db()
    assert match.result["winner"] == 0  # seed 1; both 22:00
    assert "better seed" in match.result["reasons"][0]["text"]


def test_a_refused_submission_keeps_what_was_typed(signed_in, director):
    event = wpf_playoffs_event(director)
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = _first_match(event, 1)
    response = signed_in.post(
        reverse("tournaments:manage_result", args=[event.slug, match.pk]),
        {"version": "0", "stage": "online", "s0-t1": "7:3x", "s0-v1": "correct"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "&#x27;7:3x&#x27; is not a time" in page
    assert 'value="7:3x"' in page
    assert "Player 2: enter a submission" in page
    match.refresh_from_db()
    assert match.result is None and match.version == 0


def test_live_submissions_with_penalties_give_the_official_time(signed_in, director):
    """Live: "the competitor with the worse seed ... wins ... if they solve the puzzle in
    less than 10 minutes and ... faster"; "a one-minute penalty" per incorrect answer."""
    event = wpf_imported_event(director, 7, live_puzzles=["L1", "L2", "L3", "L4"])
    heat = rounds.draft_next_round(event, by=director).round
    assert heat.details["stage"] == "live"
    rounds.publish_round(heat, by=director)
    match = _first_match(event, 8)  # F1: rank 1 (seed 1) against rank 2 (seed 2)
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    response = signed_in.post(
        url,
        {
            "version": "0",
            "stage": "live",
            "s0-t1": "6:00",
            "s0-v1": "correct",
            "s1-t1": "1:00",
            "s1-v1": "wrong",
            "s1-t2": "3:00",
            "s1-v2": "correct",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    match.refresh_from_db()
    # seed 2: 1:00 + 3:00 + one penalty minute = 5:00, under 10:00 and faster than 6:00
    assert match.result["details"]["official_times"] == [360, 300]
    assert match.result["winner"] == 1
    page = response.content.decode()
    assert "<strong>5:00</strong>" in page and "1 penalty minute" in page

    # the same with the worse seed at 10:00 exactly: "less than 10 minutes" fails
    response = signed_in.post(
        url,
        {
            "version": "1",
            "stage": "live",
            "s0-v1": "none",
            "s1-t1": "9:00",
            "s1-v1": "wrong",
            "s1-t2": "0:00",
            "s1-v2": "correct",
        },
    )
    match.refresh_from_db()
    assert match.result["details"]["official_times"] == [None, 600]
    assert match.result["winner"] == 0


def test_judges_decide_a_live_match_the_timers_cannot(signed_in, director):
    """Live: "If there is a malfunction in the timers ... Judges' decisions are final." The
    decision is typed with the result, overrides the timers, and can be taken back."""
    event = wpf_imported_event(director, 7, live_puzzles=["L1", "L2", "L3", "L4"])
    heat = rounds.draft_next_round(event, by=director).round
    rounds.publish_round(heat, by=director)
    match = _first_match(event, 8)
    page = signed_in.get(reverse("tournaments:manage_round", args=[event.slug, 8]))
    assert 'name="m-judges_winner"' in page.content.decode()
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    # the timers stopped: no reading at all, the judges give it to seed 2
    response = signed_in.post(
        url, {"version": "0", "stage": "live", "m-judges_winner": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.details["judges_winner"] == 1
    assert match.result["winner"] == 1
    assert [r["rule"] for r in match.result["reasons"]] == ["Grading (Live Stage Only)"]
    # readings that favour seed 1 do not overturn a final decision
    readings = {"stage": "live", "s0-t1": "1:00", "s0-v1": "correct", "s1-v1": "none"}
    signed_in.post(url, {"version": "1", **readings})
    match.refresh_from_db()
    assert match.result["winner"] == 1
    # back to the timers: the readings decide
    signed_in.post(url, {"version": "2", **readings, "m-judges_winner": "timers"})
    match.refresh_from_db()
    assert match.details["judges_winner"] is None
    assert match.result["winner"] == 0
    # a seat that is not in the match is refused, naming the field
    response = signed_in.post(url, {"version": "3", **readings, "m-judges_winner": "5"})
    assert response.status_code == 422
    assert "Judges&#x27; decision: choose one." in response.content.decode()


def test_online_matches_have_no_judges_decision(signed_in, director):
    event = wpf_playoffs_event(director)
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    page = signed_in.get(reverse("tournaments:manage_round", args=[event.slug, 1])).content
    assert b"m-judges_winner" not in page


def test_wpf_results_row_shows_one_slot_online_and_attempts_live(signed_in, director):
    event = wpf_playoffs_event(director)
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    page = signed_in.get(reverse("tournaments:manage_round", args=[event.slug, 1])).content
    page = page.decode()
    assert 'name="s0-t1"' in page and 'name="s0-t2"' not in page
    assert isinstance(ui_for(event), type(ui_for(event)))
    assert ui_for(event).inputs_template.endswith("wpf_playoffs/_result_inputs.html")


# -- puzzles ----------------------------------------------------------------------------------

POOL = [f"P{n}" for n in range(1, 9)]


def test_puzzle_pools_saved_and_checked(signed_in, director):
    event = wpf_playoffs_event(director)
    response = signed_in.post(
        _url("puzzles", event),
        {"puzzle_selection": "preference_lists", "online_puzzles": "P1\nP2", "live_puzzles": ""},
    )
    assert response.status_code == 422
    assert "The online pool has 8 puzzles; you entered 2." in response.content.decode()
    response = signed_in.post(
        _url("puzzles", event),
        {
            "puzzle_selection": "preference_lists",
            "online_puzzles": "\n".join(POOL),
            "live_puzzles": "L1, L2, L3, L4",
        },
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.settings["online_puzzles"] == POOL
    assert event.settings["live_puzzles"] == ["L1", "L2", "L3", "L4"]
    assert AuditEntry.objects.filter(event=event, action="wpf.puzzles_saved").count() == 1


def test_sudoku_gp_mode_uses_the_fixed_puzzle_of_each_round(signed_in, director):
    """ "For Sudoku GP, the puzzle selection for each round is predetermined.\""""
    event = wpf_playoffs_event(director)
    signed_in.post(
        _url("puzzles", event),
        {"puzzle_selection": "fixed", "online_puzzles": "S-A\nS-B\nS-C", "live_puzzles": ""},
    )
    wpf_play(event, director, 1)
    draft = rounds.draft_next_round(event, by=director).round
    assert draft.details["puzzle"] == "S-B"
    page = signed_in.get(_url("puzzles", event)).content.decode()
    assert "S-B, fixed in advance" in page
    # the pool is fixed once round A is drafted
    response = signed_in.post(
        _url("puzzles", event),
        {"puzzle_selection": "fixed", "online_puzzles": "X\nY", "live_puzzles": ""},
    )
    assert response.status_code == 422


def _player(event, number, django_user_model):
    user = django_user_model.objects.create_user(f"solver{number}", password="pw-solver-1")
    Entrant.objects.filter(event=event, number=number).update(user=user)
    return user


def test_player_enters_a_preference_list_and_it_picks_round_a(client, director, django_user_model):
    """ "each player is asked to submit a preference list of all 8 puzzles"; seed 1 (Winner's
    bracket, best seed) has the highest pick priority in round A."""
    event = wpf_playoffs_event(director, online_puzzles=POOL)
    client.force_login(_player(event, 1, django_user_model))
    url = _url("preferences", event)
    mine = ["P3", "P1", "P2", "P4", "P5", "P6", "P7", "P8"]
    twice = {"letter": "", **{f"c{n}": "P1" for n in range(1, 9)}}
    response = client.post(url, twice)
    assert response.status_code == 422
    assert "P1 is already your choice 1." in response.content.decode()
    response = client.post(url, {"letter": "", **{f"c{n}": p for n, p in enumerate(mine, 1)}})
    assert response.status_code == 302
    assert Entrant.objects.get(event=event, number=1).flags["puzzle_preferences"] == mine
    draft = rounds.draft_next_round(event, by=director).round
    assert draft.details["puzzle"] == "P3"
    assert draft.details["puzzle_picker"] == "1"
    # "Before the online stage begins": closed to the player now
    response = client.post(url, {"letter": "", **{f"c{n}": p for n, p in enumerate(POOL, 1)}})
    assert response.status_code == 422
    assert "preference lists are closed" in response.content.decode()


def test_preferences_page_is_for_players_of_the_event_only(client, director, django_user_model):
    event = wpf_playoffs_event(director, online_puzzles=POOL)
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    client.force_login(stranger)
    assert client.get(_url("preferences", event)).status_code == 403
    client.logout()
    assert client.get(_url("preferences", event)).status_code == 302  # to sign in


def test_director_enters_a_list_for_one_round_on_a_players_behalf(signed_in, director):
    """Per-round lists ("for each of the 8 rounds"): the director's entry for round B only;
    a used puzzle is removed and round C reverses the top player's list."""
    event = wpf_playoffs_event(director, online_puzzles=POOL)
    wpf_play(event, director, 1)  # round A: a random list (nobody submitted one)
    used = Round.objects.get(event=event, number=1).details["puzzle"]
    order = [used] + [p for p in POOL if p != used]
    url = _url("preferences_for", event, 2)
    response = signed_in.post(url, {"letter": "B", **{f"c{n}": p for n, p in enumerate(order, 1)}})
    assert response.status_code == 302
    flags = Entrant.objects.get(event=event, number=2).flags
    assert flags["puzzle_preferences"] == {"B": order}
    entry = AuditEntry.objects.get(event=event, action="wpf.preferences_saved")
    assert entry.reason == "entered by the director"
    # round A is drafted: its list can no longer change
    response = signed_in.post(url, {"letter": "A", **{f"c{n}": p for n, p in enumerate(POOL, 1)}})
    assert response.status_code == 422
    draft = rounds.draft_next_round(event, by=director).round
    assert draft.details["puzzle_picker"] == "2"  # the only list: "lower pick priority" for others
    assert draft.details["puzzle"] == order[1]  # the used puzzle is removed from the list


def test_live_puzzle_choice_recorded_on_the_first_heat(signed_in, director):
    """ "the player with rank 1 (not seed 1) will choose that round's puzzle from the pool
    ... Once a puzzle is selected, it is removed from the pool.\""""
    event = wpf_imported_event(director, 7, live_puzzles=["L1", "L2", "L3", "L4"])
    heat = rounds.draft_next_round(event, by=director).round
    assert heat.details["puzzle_options"] == ["L1", "L2", "L3", "L4"]
    response = signed_in.post(_url("live_puzzle", event, heat.number), {"puzzle": "L3"})
    assert response.status_code == 302
    heat.refresh_from_db()
    assert heat.details["puzzle"] == "L3"
    rounds.publish_round(heat, by=director)
    for match in heat.matches.all():
        from tests.factories import wpf_submissions
        from tournaments.services import results

        results.record(match, wpf_submissions(0), expected_version=0, by=director)
    rounds.complete_round(heat, by=director)
    second = rounds.draft_next_round(event, by=director).round
    assert second.details["puzzle_options"] == ["L1", "L2", "L4"]
    with pytest.raises(ServiceError):
        service.choose_live_puzzle(second, "L3", by=director)


def test_other_formats_have_no_wpf_screens(signed_in, director):
    event = EntrantFactory().event
    event.directors.add(director)
    assert signed_in.get(_url("manage", event)).status_code == 404


# -- a finalist who is not present (decision 3) ----------------------------------------------


def test_a_withdrawn_finalists_later_matches_count_as_lost_and_the_round_closes(director):
    """Decision 3: a withdrawn finalist loses every later match without games. The match is
    scored when its round is published (as a bye is), so the round can close; before, its
    result stayed empty (the standings counted it) and no result could ever be saved."""
    from tests.factories import wpf_submissions
    from tournaments.services import events, results

    event = wpf_playoffs_event(director)
    wpf_play(event, director, 1)
    gone = event.entrants.get(number=1)
    events.withdraw(gone, by=director)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    walkover = Match.objects.get(round=rnd, participants__entrant=gone)
    lost = [p.seat for p in walkover.participants.all() if p.entrant_id == gone.pk]
    assert walkover.result["complete"] and walkover.result["winner"] == 1 - lost[0]
    assert rounds.can_redraw(rnd)  # scored at publication, not entered: nothing played is lost
    for match in rnd.matches.exclude(pk=walkover.pk):
        results.record(match, wpf_submissions(0), expected_version=match.version, by=director)
    assert rounds.complete_round(rnd, by=director).status == Round.Status.COMPLETED


def _loses_instead(match):
    """The games of ``match`` (decided) with the other player winning."""
    from tests.factories import wpf_submissions

    return wpf_submissions(1 - match.result["winner"])


def test_a_correction_that_would_break_a_played_ladder_round_is_refused(director):
    """Round B is paired from round A's results by the ladder: correcting an A result after B
    was played made B's matches wrong for the engine ("Match B1 is for ranks 1 and 8, but
    other players were entered"), and no later round could ever be drafted. The correction
    is refused, naming the round, and nothing is saved."""
    from tournaments.services import corrections

    event = wpf_playoffs_event(director)
    wpf_play(event, director, 2)
    match = Match.objects.get(round__event=event, round__number=1, code="A1")
    with pytest.raises(ServiceError, match="Round B"):
        corrections.preview_result(match, _loses_instead(match), expected_version=1)
    assert Match.objects.get(pk=match.pk).version == 1
    assert rounds.draft_next_round(event, by=director).round is not None  # still goes on


def test_a_correction_before_the_next_ladder_round_is_played_pairs_it_again(director):
    """With round B paired but unplayed, the correction is confirmed only with round B
    paired again (the choice the preview offers); the playoffs then go on."""
    from tests.factories import wpf_submissions
    from tournaments.services import corrections, results

    event = wpf_playoffs_event(director)
    wpf_play(event, director, 1)
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = Match.objects.get(round__event=event, round__number=1, code="A1")
    games = _loses_instead(match)
    preview = corrections.preview_result(match, games, expected_version=1)
    assert preview.diff["redraw"]["number"] == preview.diff["must_redraw"]["number"] == 2

    def confirm(redraw):
        return corrections.confirm_result(
            match,
            games,
            expected_version=1,
            results_version=preview.results_version,
            digest=preview.digest,
            by=director,
            redraw=redraw,
            reason="typo on the sheet",
        )

    with pytest.raises(ServiceError, match="pair Round B again"):
        confirm(redraw=0)
    assert Match.objects.get(pk=match.pk).version == 1
    confirm(redraw=2)
    again = event.rounds.get(number=2)
    assert again.status == Round.Status.DRAFT
    rounds.publish_round(again, by=director)
    for m in again.matches.all():
        if not (m.result or {}).get("complete"):
            results.record(m, wpf_submissions(0), expected_version=m.version, by=director)
    rounds.complete_round(again, by=director)
    assert rounds.draft_next_round(event, by=director).round is not None
