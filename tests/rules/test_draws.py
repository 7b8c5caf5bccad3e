import pytest

from rules.contract import DrawMethod, DrawRecord
from rules.draws import DrawNeeded, DrawSource, InvalidDraw


def test_same_seed_and_key_give_the_same_draw_whatever_the_order_of_asking():
    one = DrawSource("seed")
    two = DrawSource("seed")
    a1 = one.shuffle("order", ["1", "2", "3", "4", "5"])
    d1 = one.digit("digit")
    d2 = two.digit("digit")
    a2 = two.shuffle("order", ["1", "2", "3", "4", "5"])
    assert (a1, d1) == (a2, d2)
    assert [r.key for r in one.new] == ["order", "digit"]
    assert all(r.method is DrawMethod.SEEDED for r in one.new)


def test_recorded_draw_is_returned_as_recorded_not_redrawn():
    source = DrawSource("seed", [DrawRecord("digit", 7, DrawMethod.EXTERNAL)])
    assert source.digit("digit") == 7
    assert source.new == []


def test_external_draws_must_be_typed_in():
    source = DrawSource("seed", external=True)
    with pytest.raises(DrawNeeded) as needed:
        source.integer("round-2/grouping/1", 0, 9, purpose="Round 2 grouping")
    assert needed.value.key == "round-2/grouping/1"


def test_a_recorded_value_out_of_range_or_a_wrong_order_is_refused():
    source = DrawSource(
        "s", [DrawRecord("d", 12), DrawRecord("order", ["1", "2"]), DrawRecord("c", "x")]
    )
    with pytest.raises(InvalidDraw):
        source.digit("d")
    with pytest.raises(InvalidDraw):
        source.shuffle("order", ["1", "2", "3"])
    with pytest.raises(InvalidDraw):
        source.choice("c", ["a", "b"])


def test_different_seeds_give_different_orders():
    items = [str(i) for i in range(20)]
    assert DrawSource("a").shuffle("k", items) != DrawSource("b").shuffle("k", items)
