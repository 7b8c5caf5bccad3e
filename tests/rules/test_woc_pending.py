"""Appendix A 3: an unplayed round adds 32 + C x own score to BQ. A game that is paired but
whose result is not entered yet is not an unplayed round (found by the conformance check
of a round in progress)."""

from dataclasses import replace

from rules.contract import RoundStatus
from rules.formats.woc import ENGINE
from rules.formats.woc.simulate import field, play


def test_a_game_waiting_for_its_result_is_not_an_unplayed_round():
    import random

    rng = random.Random(4)
    state = play(field(10, rng), rng)
    rounds = list(state.rounds[:3])
    last = rounds[-1]
    pending = last.matches[0]
    rounds[-1] = replace(
        last,
        status=RoundStatus.PUBLISHED,
        matches=(replace(pending, games=()), *last.matches[1:]),
    )
    mid_round = replace(state, rounds=tuple(rounds))
    rows = {r.entrant: r for r in ENGINE.standings(mid_round).tables[0].rows}
    for entrant in pending.entrant_ids:
        assert rows[entrant].details["brightwell"]["unplayed_rounds"] == 0


# A round in which an entrant was not paired at all (WOC 2012's player who joins in round 4)
# still counts as unplayed: tests/rules/test_woc_real.py reproduces the published order.
