"""Series totals (rules/series.py): best N of M, sum, points by place, missing stages,
equal totals, and players across stages. A rule's test quotes the sentence it enforces
where the WPF GP Playoff Rules (wpf_playoffs.txt, "Eligibility") speak; the others name
the decision of docs/series.md they enforce."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from rules import series, words
from rules.formats.wpf_playoffs.eligibility import eligibility_score
from rules.series import (
    Entry,
    LineStatus,
    SeriesRule,
    Stage,
    StageKind,
    StageResult,
    Ties,
    Value,
)

F = Fraction
WPF = SeriesRule(value=Value.SCORE, best=6)


def scores_stage(key: str, scores: dict[str, int | Fraction]) -> Stage:
    return Stage(
        key,
        key.upper(),
        StageKind.SCORES,
        tuple(StageResult(p, score=F(s)) for p, s in scores.items()),
    )


def places_stage(key: str, places: dict[str, int]) -> Stage:
    return Stage(
        key,
        key.upper(),
        StageKind.PLACES,
        tuple(StageResult(p, place=n) for p, n in places.items()),
    )


def by_player(totals: tuple[series.Total, ...]) -> dict[str, series.Total]:
    return {t.player: t for t in totals}


def test_eligibility_score_is_the_six_best_rounds() -> None:
    """ "The score of their six best rounds in the corresponding (Sudoku or Puzzle) GP
    competition is added together to get the eligibility score." """
    values = [10, 80, 20, 70, 30, 60, 40, 50]
    stages = [scores_stage(f"r{i}", {"ann": v}) for i, v in enumerate(values, 1)]
    (ann,) = series.standings(stages, WPF)
    assert ann.total == 80 + 70 + 60 + 50 + 40 + 30
    assert [line.stage for line in ann.lines if line.status is LineStatus.DROPPED] == ["r1", "r3"]
    assert ann.reasons[0].code == "series.total.best"
    assert ann.reasons[0].text == (
        "The best 6 of 8 stages played count, 330 in all; dropped: R1, R3."
    )


def test_fewer_rounds_than_six_add_up_what_there_is() -> None:
    """ "their six best rounds": a player who played five GP rounds has five, and a round
    not played counts as nothing (docs/series.md, "A stage not played")."""
    stages = [scores_stage(f"r{i}", {"ann": 100} if i <= 5 else {"bob": 1}) for i in range(1, 9)]
    ann = by_player(series.standings(stages, WPF))["ann"]
    assert ann.total == 500
    assert [line.status for line in ann.lines].count(LineStatus.ABSENT) == 3
    assert ann.reasons[0].text == (
        "5 stages played, no more than the best 6 that count: all count, 500 in all."
    )
    assert ann.reasons[1].text == ("Not played: R6, R7, R8 (a stage not played counts as nothing).")


def test_a_missing_stage_is_not_a_zero_among_the_best() -> None:
    """docs/series.md, "A stage not played counts as nothing": with a stage that can score
    below zero, a round not played must not stand in as a zero that beats it."""
    rule = SeriesRule(best=2)
    stages = [scores_stage("a", {"ann": 5}), scores_stage("b", {"ann": -3}), scores_stage("c", {})]
    (ann,) = series.standings(stages, rule)
    assert ann.total == 2  # 5 + (-3): the stage "c" she did not play is no zero


def test_equal_values_drop_the_later_stage() -> None:
    """docs/series.md, "Best N of M": of two equal values the earlier stage counts."""
    stages = [scores_stage(k, {"ann": 7}) for k in ("a", "b", "c")]
    (ann,) = series.standings(stages, SeriesRule(best=2))
    assert [line.status for line in ann.lines] == [
        LineStatus.COUNTED,
        LineStatus.COUNTED,
        LineStatus.DROPPED,
    ]


def test_sum_counts_every_stage() -> None:
    """docs/series.md, "Sum": without a best N every stage played counts."""
    stages = [scores_stage("a", {"ann": 3, "bob": 1}), scores_stage("b", {"ann": 4})]
    totals = by_player(series.standings(stages, SeriesRule()))
    assert totals["ann"].total == 7 and totals["bob"].total == 1
    assert totals["ann"].reasons[0].text == "Every stage played counts (2): 7 in all."


def test_points_by_place_share_the_tied_places_points() -> None:
    """docs/series.md, "Points by place": two players tied 2nd share the points of places 2
    and 3, each getting their average."""
    rule = SeriesRule(value=Value.PLACE_POINTS, points=(F(10), F(6), F(4), F(3)))
    stage = places_stage("gokodom-2", {"ann": 1, "bob": 2, "cid": 2, "dan": 4, "eve": 5})
    totals = by_player(series.standings([stage], rule))
    assert totals["bob"].total == totals["cid"].total == 5
    assert totals["dan"].total == 3 and totals["eve"].total == 0  # past the table: 0
    line = totals["bob"].lines[0]
    assert line.reason is not None and line.reason.text == (
        "GOKODOM-2: place 2 shared by 2 players, 5 points "
        "(the average of the points of places 2 to 3)."
    )


def test_imported_scores_become_places_under_points_by_place() -> None:
    """docs/series.md, "Points by place": imported scores are ranked first, ties shared."""
    rule = SeriesRule(value=Value.PLACE_POINTS, points=(F(3), F(2), F(1)))
    stage = scores_stage("r1", {"ann": 50, "bob": 40, "cid": 40})
    totals = by_player(series.standings([stage], rule))
    assert totals["ann"].total == 3
    assert totals["bob"].total == totals["cid"].total == F(3, 2)
    assert totals["bob"].lines[0].reason is not None
    assert totals["bob"].lines[0].reason.code == "series.line.place_shared_scored"


def test_an_events_stage_always_goes_through_the_points_table() -> None:
    """docs/series.md, "Score": an event has places, not a score comparable across events."""
    stage = places_stage("ev", {"ann": 1})
    assert [p.code for p in series.check_rule(SeriesRule(), [stage])] == ["series.points_missing"]
    (ann,) = series.standings([stage], SeriesRule(points=(F(25),)))
    assert ann.total == 25


def test_equal_totals_share_the_rank_by_default() -> None:
    """The WPF text does not say how equal eligibility scores are ordered ("The 16 eligible
    players with the highest eligibility scores will be invited"): docs/series.md, "Equal
    totals", shares the rank (1, 2, 2, 4), names in alphabetical order."""
    stage = scores_stage("r1", {"zoe": 9, "bob": 5, "amy": 5, "cid": 1})
    totals = series.standings([stage], WPF)
    assert [(t.player, t.rank) for t in totals] == [
        ("zoe", 1),
        ("amy", 2),
        ("bob", 2),
        ("cid", 4),
    ]
    assert totals[1].reasons[-1].text == "Level on 5 with bob: the rank is shared."


def test_countback_orders_equal_totals_by_their_best_values() -> None:
    """docs/series.md, "Equal totals", countback: counted values best first, then dropped."""
    rule = SeriesRule(best=2, ties=Ties.COUNTBACK)
    stages = [
        scores_stage("a", {"ann": 9, "bob": 6, "cid": 6}),
        scores_stage("b", {"ann": 1, "bob": 4, "cid": 4}),
        scores_stage("c", {"ann": 0, "bob": 1, "cid": 1}),
    ]
    totals = series.standings(stages, rule)
    assert [(t.player, t.rank) for t in totals] == [("ann", 1), ("bob", 2), ("cid", 2)]
    assert totals[0].reasons[-2].text == (
        "Ahead of bob on countback: counted value 1, 9 against 6."
    )
    assert totals[1].reasons[-1].code == "series.tie.countback_shared"


def test_bad_rules_are_refused_with_their_field() -> None:
    problems = series.check_rule(
        SeriesRule(value=Value.PLACE_POINTS, best=0, points=(F(1), F(5), F(-1))), []
    )
    assert [(p.code, p.field) for p in problems] == [
        ("series.best", "best"),
        ("series.points_negative", "points"),
        ("series.points_order", "points"),
    ]


def test_every_code_has_a_sentence() -> None:
    for code in series_codes():
        assert words.template(code) is not None, code


def series_codes() -> list[str]:
    from rules.series_words import WORDS

    return list(WORDS)


# -- players across stages --------------------------------------------------------------


def test_same_account_or_same_wof_id_is_one_person() -> None:
    """Issue 32, item 4: "one person is the same player in every event of a series (by
    account or by WOF id)"."""
    people = series.identify(
        [
            Entry("e1", "Ann Lee", account="12"),
            Entry("e2", "Ann LEE", account="12", wof_id="700"),
            Entry("s1", "A. Lee", wof_id="700"),
            Entry("s2", "Bob Roy", wof_id="701"),
        ]
    )
    assert [(p.key, sorted(p.refs)) for p in people] == [
        ("account:12", ["e1", "e2", "s1"]),
        ("wof:701", ["s2"]),
    ]


def test_a_name_only_entry_joins_the_one_person_of_that_name() -> None:
    """docs/series.md, "Players across events": a row with only a name joins the one person
    who carries it; when two people carry it, it stays apart (a director merges it)."""
    people = series.identify(
        [
            Entry("e1", "Ann Lee", wof_id="700"),
            Entry("s1", " ann  lee "),
            Entry("e2", "Kim Park", wof_id="1"),
            Entry("e3", "Kim Park", wof_id="2"),
            Entry("s2", "Kim Park"),
        ]
    )
    by_key = {p.key: p for p in people}
    assert sorted(by_key["wof:700"].refs) == ["e1", "s1"]
    assert by_key["name:kim park"].ambiguous and by_key["name:kim park"].refs == ("s2",)


def test_a_directors_merge_joins_two_spellings() -> None:
    """docs/series.md, "Players across events": the explicit merge for name-only entries."""
    entries = [Entry("s1", "Jon Smith"), Entry("s2", "John Smith")]
    assert len(series.identify(entries)) == 2
    (person,) = series.identify(entries, merges={"Jon Smith": "John Smith"})
    assert sorted(person.refs) == ["s1", "s2"] and person.key == "name:john smith"


# -- properties ---------------------------------------------------------------------------

score_values = st.integers(min_value=0, max_value=1000)
players = st.sampled_from(["a", "b", "c", "d", "e", "f"])
stage_maps = st.lists(st.dictionaries(players, score_values, max_size=6), min_size=1, max_size=9)


def build(maps: list[dict[str, int]]) -> list[Stage]:
    return [scores_stage(f"s{i}", m) for i, m in enumerate(maps)]


@given(st.lists(score_values, min_size=1, max_size=12), st.integers(min_value=1, max_value=10))
def test_best_n_is_the_sum_of_the_n_largest(values: list[int], best: int) -> None:
    stages = build([{"a": v} for v in values])
    (a,) = series.standings(stages, SeriesRule(best=best))
    assert a.total == sum(sorted(values, reverse=True)[:best])
    assert a.total == eligibility_score(values, best)  # the playoffs engine agrees
    assert len(a.counted) == min(best, len(values))


@given(stage_maps, st.integers(min_value=1, max_value=9), st.sampled_from(list(Ties)))
def test_ranks_follow_totals(maps: list[dict[str, int]], best: int, ties: Ties) -> None:
    totals = series.standings(build(maps), SeriesRule(best=best, ties=ties))
    assert [t.total for t in totals] == sorted((t.total for t in totals), reverse=True)
    for index, total in enumerate(totals):
        assert total.rank <= index + 1
        assert len(total.lines) == len(maps)
        if index:
            before = totals[index - 1]
            assert before.rank <= total.rank
            if ties is Ties.SHARED:
                assert (before.rank == total.rank) == (before.total == total.total)
            elif before.total != total.total:
                assert total.rank == index + 1


@given(stage_maps, st.integers(min_value=1, max_value=9))
def test_another_stage_never_lowers_a_total(maps: list[dict[str, int]], best: int) -> None:
    rule = SeriesRule(best=best)
    before = by_player(series.standings(build(maps), rule))
    after = by_player(series.standings(build([*maps, {p: 0 for p in before}]), rule))
    assert all(after[p].total >= before[p].total for p in before)


@given(st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=8))
def test_shared_places_hand_out_the_same_points_in_all(places: list[int]) -> None:
    points = (F(25), F(18), F(15), F(12), F(10), F(8), F(6), F(4))
    # a ranking with ties: competition ranks of arbitrary values
    ranking = series.ranks({f"p{i}": F(-v) for i, v in enumerate(places)})
    stage = places_stage("x", ranking)
    totals = series.standings([stage], SeriesRule(value=Value.PLACE_POINTS, points=points))
    handed = sum((t.total for t in totals), F(0))
    assert handed == sum(points[: len(places)], F(0))


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "1", "2"]),
            st.sampled_from(["", "7", "8"]),
            st.sampled_from(["Ann", "Bob"]),
        ),
        max_size=8,
    ),
    st.randoms(),
)
def test_identity_does_not_depend_on_the_order(
    rows: list[tuple[str, str, str]], rng: object
) -> None:
    entries = [
        Entry(f"r{i}", name, account=acc, wof_id=wof) for i, (acc, wof, name) in enumerate(rows)
    ]
    shuffled = list(entries)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    first = {frozenset(p.refs) for p in series.identify(entries)}
    again = {frozenset(p.refs) for p in series.identify(shuffled)}
    assert first == again
