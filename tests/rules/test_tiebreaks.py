from rules.tiebreaks import Step, rank


def fixed(values):
    return lambda tied: {e: values[e] for e in tied}


def test_order_and_the_step_that_split_each_neighbouring_pair():
    points = {"a": 3, "b": 3, "c": 1}
    wins = {"a": 1, "b": 2, "c": 0}
    ranking = rank(
        ["a", "b", "c"],
        [Step("points", "Points", fixed(points)), Step("wins", "Wins", fixed(wins))],
    )
    assert ranking.order == ["b", "a", "c"]
    reasons = {(d.ahead, d.behind): (d.step, d.detail) for d in ranking.decided}
    assert reasons[("b", "a")] == ("wins", "Wins 2 against 1")
    assert reasons[("a", "c")] == ("points", "Points 3 against 1")


def test_ties_no_step_splits_share_a_rank():
    ranking = rank(["a", "b", "c"], [Step("points", "Points", fixed({"a": 1, "b": 1, "c": 0}))])
    assert ranking.tiers == (("a", "b"), ("c",))
    assert ranking.ranks() == {"a": 1, "b": 1, "c": 3}


def test_restart_applies_a_set_dependent_step_again_to_the_part_still_tied():
    # head-to-head among the tied: a beat b, b beat c, c beat a, and d lost to all.
    beat = {("a", "b"), ("b", "c"), ("c", "a"), ("a", "d"), ("b", "d"), ("c", "d")}

    def h2h(tied):
        return {e: sum((e, o) in beat for o in tied if o != e) for e in tied}

    second = {"a": 5, "b": 4, "c": 4, "d": 0}
    steps = [Step("h2h", "Head-to-head", h2h), Step("diff", "Difference", fixed(second))]
    with_restart = rank(["a", "b", "c"], steps, restart=True)
    # all 1-1 among a,b,c; difference puts a first; b and c restart at head-to-head: b beat c
    assert with_restart.order == ["a", "b", "c"]
    assert ("b", "c", "h2h") in {(d.ahead, d.behind, d.step) for d in with_restart.decided}
    without = rank(["a", "b", "c"], steps, restart=False)
    assert without.tiers == (("a",), ("b", "c"))
