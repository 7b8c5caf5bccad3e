"""Official times and winners, online and live (WPF GP Playoff Rules)."""

from __future__ import annotations

from typing import Any

from rules.contract import (
    EntrantState,
    EntrantStatus,
    EventState,
    GameState,
    MatchState,
    Participant,
    RoundState,
    RoundStatus,
)
from rules.formats.wpf_playoffs import ENGINE, timing
from rules.formats.wpf_playoffs.timing import Submission

PEOPLE = tuple(EntrantState(f"p{i}", f"Player {i}") for i in range(1, 17))
SEEDS = [f"p{i}" for i in range(1, 17)]


def state(*, withdrawn: str | None = None, seeds: list[Any] | None = None) -> EventState:
    people = tuple(
        EntrantState(p.id, p.name, status=EntrantStatus.WITHDRAWN, withdrawn_after_round=7)
        if p.id == withdrawn
        else p
        for p in PEOPLE
    )
    first = RoundState(1, "Round A", RoundStatus.COMPLETED, details={"seeds": seeds or SEEDS})
    return EventState("wpf_playoffs", {}, people, (first,))


def match(
    code: str, a: str | None, b: str | None, subs: list[Any] | None, round_number: int = 1
) -> MatchState:
    games = (GameState(1, (None, None), details={"submissions": subs}),) if subs else ()
    seats = (
        Participant(a, details={"seed": 15}),
        Participant(b, details={"seed": 16}),
    )
    return MatchState(code, round_number, seats, games)


def ok(time: float) -> list[dict[str, Any]]:
    return [{"time": time, "correct": True}]


WRONG = [{"time": 300, "correct": False}]


def test_online_faster_official_time_wins() -> None:
    """ "The player with the faster (smaller) official time will win the match.\""""
    score = ENGINE.score_match(state(), match("A1", "p1", "p16", [ok(700), ok(650)]))
    assert score.winner == 1
    assert score.details["official_times"] == [700, 650]
    assert score.summary == "11:40 - 10:50"
    assert score.points == (0, 1)


def test_online_incorrect_answer_is_22_minutes() -> None:
    """ "A player's official time for each puzzle is 22 minutes if their submission is
    incorrect. Otherwise, it is the time between the start of the password request and the
    time of submission.\""""
    score = ENGINE.score_match(state(), match("A1", "p1", "p16", [WRONG, ok(1199)]))
    assert score.details["official_times"] == [1320, 1199]
    assert score.winner == 1


def test_online_only_the_last_submission_is_scored() -> None:
    """ "They may submit multiple times; however, only the last-submitted set of answer
    strings will be scored.\""""
    assert timing.online_time([Submission(100, True), Submission(200, False)], "x", "X") == (
        1320,
        [],
    )
    assert timing.online_time([Submission(100, False), Submission(200, True)], "x", "X") == (
        200,
        [],
    )
    assert timing.online_time([], "x", "X") == (1320, [])


def test_online_round_has_a_maximum_of_20_minutes() -> None:
    """ "Each round has a maximum time of 20 minutes." A later submission is a typing error."""
    score = ENGINE.score_match(state(), match("A1", "p1", "p16", [ok(1201), ok(600)]))
    assert not score.valid
    assert "after the end of the 20-minute round" in score.problems[0].text


def test_online_tie_goes_to_the_better_seed() -> None:
    """ "In the rare case of a tie, the player with the better seed wins.\""""
    score = ENGINE.score_match(state(), match("A1", "p16", "p1", [ok(500), ok(500)]))
    assert score.winner == 1
    assert score.reasons[0].code == "wpf.tie_seed"
    both_wrong = ENGINE.score_match(state(), match("A1", "p1", "p16", [WRONG, []]))
    assert both_wrong.winner == 0


def live(a: list[Any], b: list[Any], seeds: tuple[int, int] = (1, 2)) -> MatchState:
    order = {1: "p1", 2: "p2", 5: "p5", 9: "p9"}
    return match("F1", order[seeds[0]], order[seeds[1]], [a, b], round_number=8)


def test_live_worse_seed_wins_only_under_10_minutes_and_faster() -> None:
    """ "the competitor with the worse seed (not rank) wins the match if they solve the
    puzzle in less than 10 minutes and they solve it faster than the other competitor (with
    the better seed). Otherwise, the competitor with the better seed wins the match.\""""
    s = state()
    assert ENGINE.score_match(s, live(ok(400), ok(300))).winner == 1
    assert ENGINE.score_match(s, live(ok(300), ok(400))).winner == 0
    assert ENGINE.score_match(s, live([], ok(599))).winner == 1
    # 10:00 exactly is not "less than 10 minutes"
    over = ENGINE.score_match(s, live([], ok(600)))
    assert over.winner == 0
    assert "not under 10:00" in over.reasons[0].text
    assert ENGINE.score_match(s, live([], [])).winner == 0
    # a better seed solving after 10 minutes still beats a worse seed who did not solve
    assert ENGINE.score_match(s, live(ok(700), [])).winner == 0


def test_live_uses_seed_not_rank() -> None:
    """ "the competitor with the worse seed (not rank)": seat order does not matter."""
    s = state()
    # seat 0 holds the better rank but seed 9: faster, yet not under 10:00
    score = ENGINE.score_match(s, live(ok(650), ok(700), seeds=(9, 5)))
    assert score.winner == 1
    assert score.reasons[0].code == "wpf.live_better_seed"


def test_live_incorrect_answer_is_a_one_minute_penalty() -> None:
    """ "The punishment for an incorrect answer is a one-minute penalty." Each attempt's
    time is the precision timer's reading, which restarts after the grading minute."""
    subs = [{"time": 200, "correct": False}, {"time": 150, "correct": True}]
    assert timing.live_time([Submission(200, False), Submission(150, True)], "x", "X") == (
        410,
        [],
    )
    score = ENGINE.score_match(state(), live(ok(400), subs))
    assert score.details["official_times"] == [400, 410]
    assert score.winner == 0


def test_live_penalty_can_push_past_10_minutes() -> None:
    subs = [{"time": 300, "correct": False}, {"time": 250, "correct": True}]
    assert ENGINE.score_match(state(), live([], subs)).winner == 0  # 10:10


def test_live_tie_goes_to_the_better_seed() -> None:
    """ "In the very rare case where there is a tie ... the better-seeded player will be the
    winner".\""""
    assert ENGINE.score_match(state(), live(ok(300), ok(300))).winner == 0


def test_live_no_submission_after_a_correct_one() -> None:
    """ "the grader announces the correct answer ... and the match stops.\""""
    subs = [{"time": 100, "correct": True}, {"time": 50, "correct": False}]
    score = ENGINE.score_match(state(), live(ok(300), subs))
    assert not score.valid and score.problems[0].code == "wpf.after_correct"


def test_bad_submission_entries_are_problems() -> None:
    score = ENGINE.score_match(state(), live(ok(300), [{"time": "5", "correct": True}]))
    assert not score.valid
    assert "time in seconds" in score.problems[0].text


def test_virtual_bye_loses_every_match() -> None:
    """ "A "bye" player is seeded worst and loses all head-to-head competitions.\""""
    s = state(seeds=[*SEEDS[:15], None])
    score = ENGINE.score_match(s, match("A1", "p1", None, None))
    assert score.winner == 0 and score.complete
    two = ENGINE.score_match(s, match("A1", None, None, None))
    assert two.winner == 0  # two byes: the better seed (15 against 16)


def test_finalist_not_present_is_replaced_by_a_bye() -> None:
    """ "or a finalist ends up not being present at the WSPC ... they will be replaced with
    a virtual "bye" player.\""""
    s = state(withdrawn="p1")
    assert ENGINE.score_match(s, live(ok(30), [], seeds=(1, 2))).winner == 1


def test_judges_decisions_are_final() -> None:
    """ "Judges' decisions are final.\""""
    m = live(ok(300), ok(100))
    decided = MatchState(
        m.code, m.round_number, m.participants, m.games, details={"judges_winner": 0}
    )
    assert ENGINE.score_match(state(), decided).winner == 0


def test_official_times_may_be_entered_as_scores() -> None:
    s = state()
    m = MatchState(
        "A1", 1, match("A1", "p1", "p16", None).participants, (GameState(1, (1320, 90)),)
    )
    assert ENGINE.score_match(s, m).winner == 1
    bad = MatchState("A1", 1, m.participants, (GameState(1, (1300, 90)),))
    assert ENGINE.score_match(s, bad).problems[0].code == "wpf.online_time"


def test_unplayed_match_is_incomplete_and_unknown_code_is_a_problem() -> None:
    assert not ENGINE.score_match(state(), match("A1", "p1", "p16", None)).complete
    assert (
        ENGINE.score_match(state(), match("Z9", "p1", "p16", None)).problems[0].code == "wpf.code"
    )


def test_online_results_are_not_public_until_revealed() -> None:
    """ "Players will not know ... their opponent for each puzzle, or their official times"
    until "At the beginning of the live stage, the official results of the online stage
    will be presented".\""""
    hidden = ENGINE.score_match(state(), match("A1", "p1", "p16", [ok(1), ok(2)]))
    assert hidden.details["public"] is False
    s = state()
    shown = EventState(s.format, {"online_results_revealed": True}, s.entrants, s.rounds)
    assert ENGINE.score_match(shown, match("A1", "p1", "p16", [ok(1), ok(2)])).details["public"]
    assert ENGINE.score_match(s, live(ok(1), ok(2))).details["public"] is True
