"""The stages after the Swiss (woc II.3.2-3, II.4, II.5, III, IV.9), one test per sentence."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rules.contract import (
    EntrantState,
    GameState,
    MatchState,
    Participant,
    RoundPlan,
)
from rules.draws import DrawSource
from rules.formats.woc import ENGINE, simulate
from rules.formats.woc.finals import score_final_match
from rules.formats.woc.history import Played, Record, Tally
from rules.formats.woc.lists import team_rows
from rules.formats.woc.stages import Playoffs, playoff_pairs


def one_game(scores, first=0, choice=None, kind="playoff") -> MatchState:
    details = {"kind": kind, "best_of": 1}
    if choice:
        details["choice"] = choice
    return MatchState(
        "PO-4-5",
        14,
        (Participant("hi"), Participant("lo")),
        (GameState(1, scores, first=first),),
        details=details,
    )


def best_of_three(*games, kind="semi_final") -> MatchState:
    return MatchState(
        "SF1",
        15,
        (Participant("hi"), Participant("lo")),
        tuple(GameState(n, s, first=f) for n, (s, f) in enumerate(games, start=1)),
        details={"kind": kind, "best_of": 3},
    )


def points(*values) -> dict[str, Fraction]:
    return {f"p{i}": Fraction(v) for i, v in enumerate(values, start=1)}


ORDER = [f"p{i}" for i in range(1, 11)]


# -- II.3.2 playoffs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "pairs"),
    [
        ((11, 10, 10, 9, 9, 8, 8, 8, 7, 7), [(4, 5)]),
        ((11, 10, 9, 9, 9, 9, 8, 8, 7, 7), [(4, 5), (3, 6)]),
        ((11, 9, 9, 9, 9, 9, 9, 8, 7, 7), [(4, 5), (3, 6), (2, 7)]),
        ((9, 9, 9, 9, 9, 9, 9, 9, 7, 7), [(4, 5), (3, 6), (2, 7), (1, 8)]),
        ((12, 11, 10, 9, 8, 8, 8, 8, 7, 7), []),
    ],
)
def test_playoff_triggers(values, pairs) -> None:
    """II.3.2: "If the fourth and fifth-ranked players ... have the same number of points, they
    will play a playoff game" - and likewise third/sixth, second/seventh, first/eighth."""
    assert playoff_pairs(ORDER, points(*values), 4) == pairs


def test_semi_finalists_and_playoff_losers_equal_fifth() -> None:
    """II.3.3: the top 4 who needed no playoff plus the playoff winners, ranked 1-4 in
    provisional order; "All losers of playoff games are ranked equal fifth"."""
    value = points(11, 10, 9, 9, 9, 9, 8, 8, 7, 7)
    po = Playoffs(ORDER, 4, playoff_pairs(ORDER, value, 4))
    po.winners = {(4, 5): "p5", (3, 6): "p3"}
    assert po.qualified() == ["p1", "p2", "p3", "p5"]
    assert po.losers() == ["p4", "p6"]


# -- IV.9 choice of colour or draw win ---------------------------------------------------


def test_choice_of_colour_gives_the_draw_to_the_opponent() -> None:
    """IV.9 a): "Deciding the colour himself and if the game is a draw his opponent shall be
    declared the winner"."""
    score = score_final_match(one_game((32, 32), choice="colour"))
    assert score.winner == 1 and score.points == (0, 1)
    assert score.reasons[-1].rule == "woc IV.9(a)"


def test_draw_win_gives_the_draw_to_the_better_ranked() -> None:
    """IV.9 b): "Allowing his opponent to choose his colour and being declared the winner in
    the case of a draw"."""
    score = score_final_match(one_game((30, 30), first=1, choice="draw_win"))
    assert score.winner == 0 and score.game_scores == ((32, 32),)
    assert score.reasons[-1].rule == "woc IV.9(b)"


def test_a_drawn_playoff_without_a_recorded_choice_is_refused() -> None:
    score = score_final_match(one_game((32, 32)))
    assert not score.valid
    assert score.problems[0].code == "woc.choice.missing"


def test_playoff_scores_follow_the_colours_played() -> None:
    """Seat 0 had White (first = 1): the entered scores stay in seat order, empties go to the
    winner (IV.8)."""
    score = score_final_match(one_game((20, 40), first=1))
    assert score.winner == 1 and score.game_scores == ((20, 44),)


# -- III.1 best of three -----------------------------------------------------------------


def test_two_wins_end_the_match_without_a_third_game() -> None:
    """III.1: "If a player wins both the first and second game of a match, then that player
    shall be declared the winner and a third game shall not be played"."""
    score = score_final_match(best_of_three(((40, 24), 0), ((36, 28), 1)))
    assert score.complete and score.winner == 0
    refused = score_final_match(best_of_three(((40, 24), 0), ((36, 28), 1), ((30, 34), 0)))
    assert refused.problems[0].code == "woc.final.no_third"


def test_colours_are_reversed_for_the_second_game() -> None:
    """III.1: "Colours shall be reversed for the second game"."""
    score = score_final_match(best_of_three(((40, 24), 0), ((36, 28), 0)))
    assert score.problems[0].code == "woc.final.colours"


def test_after_one_and_a_half_to_a_half_a_third_game_is_played() -> None:
    """III.1: a win and a draw is not two wins; game 3's colour choice goes to "the player
    having the greater number of discs in the first two games"."""
    score = score_final_match(best_of_three(((30, 34), 0), ((32, 32), 1)))
    assert not score.complete and score.summary == "0.5-1.5"
    assert score.details["game3_choice"] == 1  # 62 discs against 66
    score = score_final_match(best_of_three(((30, 34), 0), ((32, 32), 1), ((40, 24), 0)))
    assert score.complete and score.winner == 0 and score.summary == "1.5-1.5"
    assert score.reasons[-1].code == "woc.final.discs"  # 102 against 90


def test_equal_discs_after_two_games_give_game_3_choice_to_the_higher_ranked() -> None:
    """III.1: "In the case of a tie, the higher ranked player in the IFRL shall have choice"."""
    score = score_final_match(best_of_three(((30, 34), 0), ((34, 30), 1)))
    assert score.details["game3_choice"] == 0


def test_three_games_decided_on_points_then_discs_then_rank() -> None:
    """III.1: "the player having more points in the match shall be declared the winner. If
    ... the same number of points, the total number of discs ... In case of a further tie the
    higher ranked player in the IFRL shall be declared the winner"."""
    by_points = score_final_match(best_of_three(((40, 24), 0), ((24, 40), 1), ((20, 44), 0)))
    assert by_points.winner == 1 and by_points.reasons[-1].code == "woc.final.points"
    by_discs = score_final_match(best_of_three(((33, 31), 0), ((32, 32), 1), ((20, 44), 0)))
    assert by_discs.winner == 1 and by_discs.reasons[-1].code == "woc.final.discs"
    by_rank = score_final_match(best_of_three(((34, 30), 0), ((32, 32), 1), ((30, 34), 0)))
    assert by_rank.winner == 0 and by_rank.reasons[-1].code == "woc.final.rank"


def test_third_place_is_one_game_with_choice() -> None:
    """III.3: "a single playoff game for third place ... choice of colour or draw win"."""
    score = score_final_match(one_game((32, 32), choice="draw_win", kind="third_place"))
    assert score.winner == 0
    two = MatchState(
        "3RD",
        16,
        (Participant("a"), Participant("b")),
        (GameState(1, (40, 24), first=0), GameState(2, (40, 24), first=1)),
        details={"kind": "third_place"},
    )
    assert score_final_match(two).problems[0].code == "woc.final.one_game"


# -- the rounds the engine plans ---------------------------------------------------------


def _women(entrants, every=3):
    return [
        e if i % every else EntrantState(e.id, e.name, country=e.country, gender="F")
        for i, e in enumerate(entrants)
    ]


def test_whole_championship_plans_playoffs_semi_finals_and_finals() -> None:
    """II.1 and III: semi-finals 1-4 and 2-3, then the final, third place and time limits of
    IV.1 (35 minutes in semi-finals and third place, 40 in the final)."""
    rng = random.Random(20)
    state = simulate.play(simulate.field(20, rng), rng, finals=True)
    stages = [r.stage for r in state.rounds if r.stage not in ("swiss", "round_robin")]
    assert stages[-2:] == ["semi_final", "final"]
    semi = next(r for r in state.rounds if r.stage == "semi_final")
    assert [m.details["ranks"] for m in semi.matches if m.details["kind"] == "semi_final"] == [
        [1, 4],
        [2, 3],
    ]
    assert {m.details["minutes"] for m in semi.matches if m.details["kind"] == "semi_final"} == {35}
    final = state.rounds[-1]
    kinds = {m.details["kind"]: m.details["minutes"] for m in final.matches}
    assert kinds["final"] == 40 and kinds["third_place"] == 35
    standings = ENGINE.standings(state)
    assert standings.final and standings.tables[0].key == "final"
    top = standings.tables[0].rows[:4]
    assert [r.rank for r in top] == [1, 2, 3, 4]
    semi_players = {
        e for m in semi.matches if m.details["kind"] == "semi_final" for e in m.entrant_ids
    }
    assert {r.entrant for r in top} == semi_players


def test_women_final_is_skipped_when_a_woman_reached_the_semi_finals() -> None:
    """II.5.3 / III.5: "If one or several women are qualified for the WOC semi-finals, no
    women's final shall be played"."""
    rng = random.Random(12)
    entrants = [
        EntrantState(e.id, e.name, country=e.country, gender="F") for e in simulate.field(12, rng)
    ]
    state = simulate.play(entrants, rng, finals=True)
    kinds = {m.details.get("kind") for r in state.rounds for m in r.matches}
    assert "women_final" not in kinds and "women_playoff" not in kinds
    women = ENGINE.standings(state).table("women")
    assert women.notes[0].code == "woc.women.semi_final"
    final = ENGINE.standings(state).table("final")
    assert [r.entrant for r in women.rows[:4]] == [r.entrant for r in final.rows[:4]]


def test_women_final_between_the_top_two_women() -> None:
    """III.5: "a one game final will be played between the top two women in the WFRL";
    40 minutes (IV.1); II.5.2 playoffs when 2nd and 3rd women are equal on points."""
    for seed in range(30):
        rng = random.Random(seed)
        field = list(simulate.field(30, rng))
        field = [
            EntrantState(e.id, e.name, country=e.country, gender="F") if i >= 24 else e
            for i, e in enumerate(field)
        ]
        state = simulate.play(field, rng, finals=True)
        final = state.rounds[-1]
        women_final = [m for m in final.matches if m.details["kind"] == "women_final"]
        if not women_final:
            continue
        assert women_final[0].details["minutes"] == 40
        table = ENGINE.standings(state).table("women")
        decided = score_final_match(women_final[0])
        winner = women_final[0].entrant_ids[decided.winner]
        assert table.rows[0].entrant == winner and table.rows[0].rank == 1
        return
    pytest.fail("no simulated event had a women's final")


def test_playoff_round_comes_first_and_names_its_rule() -> None:
    """II.3.2: the playoff games are a round of their own before the semi-finals."""
    for seed in range(40):
        rng = random.Random(seed)
        state = simulate.play(simulate.field(26, rng), rng, {"rounds": 7}, finals=True)
        playoff = [r for r in state.rounds if r.stage == "playoff"]
        if playoff:
            match = playoff[0].matches[0]
            assert match.details["minutes"] == 30
            assert match.code.startswith("PO-")
            return
    pytest.fail("no simulated event needed a playoff")


def test_next_round_after_the_swiss_is_a_plan_not_finished() -> None:
    rng = random.Random(5)
    state = simulate.play(simulate.field(16, rng), rng, {"rounds": 5})
    live = type(state)(state.format, {"rounds": 5}, state.entrants, state.rounds, state.draws)
    plan = ENGINE.next_round(live, DrawSource("x", live.draws))
    assert isinstance(plan, RoundPlan) and plan.stage in ("playoff", "semi_final")
    assert not ENGINE.standings(live).final


# -- II.4 team ranking -------------------------------------------------------------------


def _tally(scores: dict[str, float], internal: list[tuple[str, str]] = ()) -> Tally:
    records = {e: Record(points=Fraction(v)) for e, v in scores.items()}
    for a, b in internal:
        records[a].games.append(Played(1, b, 0, 33, 31, Fraction(1)))
        records[b].games.append(Played(1, a, 1, 31, 33, Fraction(0)))
    return Tally(records, [1])


def test_team_points_are_the_best_three_and_the_host_extra_player_does_not_count() -> None:
    """II.4: "only the three best results will be used" and "the points scored by the
    designated additional player will not be taken into account if the team is already
    composed of at least three players"."""
    people = [
        EntrantState("a1", "A1", team="A"),
        EntrantState("a2", "A2", team="A"),
        EntrantState("a3", "A3", team="A"),
        EntrantState("a4", "A4", team="A"),
        EntrantState("ax", "AX", team="A", flags={"host_additional": True}),
        EntrantState("b1", "B1", team="B"),
    ]
    tally = _tally({"a1": 9, "a2": 8, "a3": 7, "a4": 6, "ax": 12, "b1": 10})
    rows, _ = team_rows(people, tally, {})
    assert rows[0][0] == "A" and rows[0][2]["points"] == 24


def test_team_tie_goes_to_most_games_between_members_then_best_player() -> None:
    """II.4: "In case of a tie for first place, the country with the greatest number of games
    between members of its team shall be declared the champion" then "the team having the
    top player in the IFRL", then "second-ranked player", "else equal"."""
    people = [EntrantState(f"{t}{i}", f"{t}{i}", team=t) for t in "AB" for i in (1, 2, 3)]
    flat = {e.id: 8 for e in people}
    rows, notes = team_rows(people, _tally(flat, [("B1", "B2")]), {})
    assert rows[0][0] == "B" and notes[0].code == "woc.team.tie"
    ranks = {"A1": 3, "A2": 9, "A3": 10, "B1": 1, "B2": 20, "B3": 21}
    rows, _ = team_rows(people, _tally(flat), ranks)
    assert rows[0][0] == "B" and rows[1][1] == 2
    ranks = {"A1": 1, "A2": 4, "A3": 10, "B1": 1, "B2": 5, "B3": 21}
    rows, _ = team_rows(people, _tally(flat), ranks)
    assert rows[0][0] == "A"
    ranks = {"A1": 1, "A2": 4, "A3": 10, "B1": 1, "B2": 4, "B3": 21}
    rows, _ = team_rows(people, _tally(flat), ranks)
    assert [r[1] for r in rows] == [1, 1]
