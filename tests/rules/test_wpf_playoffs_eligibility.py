"""Eligibility and seeding ("Eligibility" in the WPF GP Playoff Rules)."""

from __future__ import annotations

from rules.contract import EntrantState, EventState, RoundPlan
from rules.draws import DrawSource
from rules.formats.wpf_playoffs import ENGINE, eligibility


def person(index: int, total: float, attending: bool = True, **flags: object) -> EntrantState:
    return EntrantState(
        f"p{index}", f"Player {index}", flags={"gp_total": total, "attending": attending, **flags}
    )


def test_eligibility_score_is_the_six_best_rounds() -> None:
    """ "The score of their six best rounds in the corresponding (Sudoku or Puzzle) GP
    competition is added together to get the eligibility score.\""""
    assert eligibility.eligibility_score([10, 80, 20, 70, 30, 60, 40, 50]) == 330
    assert eligibility.eligibility_score([5, 5]) == 10


def test_gp_scores_flag_gives_the_score() -> None:
    entrant = EntrantState("x", "X", flags={"gp_scores": [1, 2, 3, 4, 5, 6, 7], "attending": True})
    found, problems = eligibility.candidates([entrant], 6)
    assert problems == [] and found[0].score == 27


def test_missing_or_bad_scores_are_problems_a_director_reads() -> None:
    bad = [
        EntrantState("a", "Ann", flags={"attending": True}),
        EntrantState("b", "Bob", flags={"gp_scores": [1, "x"]}),
        EntrantState("c", "Cid", flags={"gp_total": -3}),
    ]
    _, problems = eligibility.candidates(bad, 6)
    assert [p.code for p in problems] == ["wpf.no_score", "wpf.gp_scores", "wpf.gp_total"]
    assert problems[0].text == "Ann has no GP round scores and no eligibility score."


def test_must_have_one_of_the_top_30_scores() -> None:
    """ "Have one of the top 30 eligibility scores." - a score equal to the 30th counts."""
    people = [person(i, 100 - i) for i in range(1, 33)]
    people.append(person(40, 70))  # equal to the 30th best (p30 has 70)
    found, _ = eligibility.candidates(people, 6)
    chosen, reasons = eligibility.eligible(found, 30)
    ids = {c.entrant for c in chosen}
    assert "p30" in ids and "p40" in ids and "p31" not in ids
    assert any(r.code == "wpf.not_top" and r.params["entrant"] == "p31" for r in reasons)


def test_must_intend_to_be_present() -> None:
    """ "Express an intention to be present at the live finals ... in response to that
    email.\""""
    found, _ = eligibility.candidates([person(1, 99, attending=False), person(2, 50)], 6)
    chosen, reasons = eligibility.eligible(found, 30)
    assert [c.entrant for c in chosen] == ["p2"]
    assert reasons[0].code == "wpf.not_attending"


def test_the_16_highest_are_invited_and_seeded_by_score() -> None:
    """ "The 16 eligible players with the highest eligibility scores will be invited to the
    playoffs, and get their initial seed based on their eligibility score.\""""
    people = [person(i, 10 * i) for i in range(1, 21)]
    seeding, problems = eligibility.seed(people, DrawSource("s"))
    assert problems == []
    assert seeding.seeds == tuple(f"p{i}" for i in range(20, 4, -1))
    assert any(r.code == "wpf.not_invited" for r in seeding.reasons)


def test_fewer_than_16_eligible_are_filled_with_virtual_byes() -> None:
    """ "In the rare case that there are fewer than 16 eligible players ... they will be
    replaced with a virtual "bye" player. A "bye" player is seeded worst".\""""
    people = [person(i, 10 * i) for i in range(1, 13)]
    seeding, _ = eligibility.seed(people, DrawSource("s"))
    assert seeding.seeds[:12] == tuple(f"p{i}" for i in range(12, 0, -1))
    assert seeding.seeds[12:] == (None, None, None, None)


def test_equal_scores_go_by_gp_position_then_a_recorded_draw() -> None:
    """Silent: equal eligibility scores. Ordered by the regular competition position when
    the director enters it ("seeded by their position in the regular competition"), else by
    a recorded draw."""
    people = [person(1, 50, gp_position=4), person(2, 50, gp_position=3), person(3, 90)]
    seeding, _ = eligibility.seed(people, DrawSource("s"))
    assert seeding.seeds[:3] == ("p3", "p2", "p1")
    tied = [person(1, 50), person(2, 50)]
    draws = DrawSource("s")
    seeding, _ = eligibility.seed(tied, draws)
    assert [d.key for d in draws.new] == ["seeding/score-50/position-None"]
    assert set(seeding.seeds[:2]) == {"p1", "p2"}
    assert any(r.code == "wpf.seed_lot" for r in seeding.reasons)


def test_round_a_records_the_seeds() -> None:
    people = tuple(person(i, 10 * i) for i in range(1, 15))
    plan = ENGINE.next_round(EventState("wpf_playoffs", {}, people), DrawSource("s"))
    assert isinstance(plan, RoundPlan)
    assert plan.details["seeds"][:2] == ["p14", "p13"]
    assert plan.details["seeds"][14:] == [None, None]
    a1 = next(m for m in plan.matches if m.code == "A1")
    assert a1.participants[0].entrant == "p14"
    assert a1.participants[1].entrant is None
    assert a1.participants[1].details == {"rank": 16, "seed": 16, "virtual": True}


def test_standings_before_round_a_show_eligibility() -> None:
    people = (person(1, 10), person(2, 30, attending=False), person(3, 20))
    standings = ENGINE.standings(EventState("wpf_playoffs", {}, people))
    table = standings.table("eligibility")
    assert [r.entrant for r in table.rows] == ["p2", "p3", "p1"]
    assert [r.values["seed"] for r in table.rows] == [None, 1, 2]
    assert [r.values["eligible"] for r in table.rows] == [False, True, True]
