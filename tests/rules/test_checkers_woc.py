"""The WOC checker: clean simulated events (including small Swiss fields compared with an
exhaustive search), and records broken on purpose."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.checkers import audit, check
from rules.contract import EventState, Participant
from rules.formats.woc import ENGINE
from rules.formats.woc import checker as wc
from rules.formats.woc import checker_swiss as sw
from rules.formats.woc.simulate import field, play
from tests.rules.test_checkers_support import edit_match, rules_of


def event(size: int, seed: int, settings: dict[str, object] | None = None) -> EventState:
    rng = random.Random(seed)
    return play(field(size, rng, group_a=2), rng, settings)


@pytest.mark.parametrize(("size", "seed"), [(6, 0), (9, 1), (18, 2), (30, 3)])
def test_simulated_events_conform(size: int, seed: int) -> None:
    state = event(size, seed)
    report = audit(state, ENGINE.standings(state))
    assert report.violations == []
    assert report.pairings > 0 and report.rows == size


@pytest.mark.slow
@pytest.mark.parametrize("size", [6, 7, 9, 10])
@pytest.mark.parametrize("seed", [0, 1])
def test_small_swiss_rounds_are_optimal_by_exhaustive_search(size: int, seed: int) -> None:
    """II.6.2 (b)-(g) in decreasing order of priority: no pairing breaks a higher rule less."""
    state = event(size, seed, {"system": "modified_swiss", "rounds": 6})
    assert check(state, ENGINE.standings(state)) == []


def _exchange(state: EventState, number: int) -> EventState:
    """Exchange the White players of the first two tables of a round."""
    rnd = state.rounds[number - 1]
    one, two = [m for m in rnd.matches if not m.is_bye][:2]

    def put(who: Participant) -> object:
        return lambda m: dataclasses.replace(m, participants=(m.participants[0], who))

    state = edit_match(state, number, one.code, put(two.participants[1]))  # type: ignore[arg-type]
    return edit_match(state, number, two.code, put(one.participants[1]))  # type: ignore[arg-type]


def test_a_worse_pairing_is_reported_with_the_rule_that_gave_way() -> None:
    """A pairing the exhaustive search beats names the first rule where it is worse."""
    state = event(8, 0, {"system": "modified_swiss", "rounds": 6})
    found = []
    for number in range(2, 7):
        for violation in check(_exchange(state, number)):
            if violation.rule in sw.RULE_NAMES.values():
                found.append(violation)
    assert found
    assert "another pairing breaks rule" in found[0].text
    best, actual = found[0].data["best_costs"], found[0].data["rule_costs"]
    assert tuple(best.values()) < tuple(actual.values())


def test_a_rematch_in_an_unmodified_swiss_breaks_rule_a() -> None:
    """II.6.2(a) two players who have already played against each other cannot be paired."""
    state = event(30, 0)
    state = dataclasses.replace(state, rounds=state.rounds[:3])
    first = state.rounds[0].matches[0]
    state = dataclasses.replace(state, settings={"system": "swiss"})
    rounds = list(state.rounds)
    rounds[0] = dataclasses.replace(rounds[0], details={**rounds[0].details, "system": "swiss"})
    state = dataclasses.replace(state, rounds=tuple(rounds))
    state = edit_match(
        state,
        2,
        state.rounds[1].matches[0].code,
        lambda m: dataclasses.replace(m, participants=first.participants),
    )
    assert wc.RULE_A in rules_of(check(state))


def test_round_one_group_a_colours_alternate() -> None:
    """II.6.1 'with the player from group A assigned alternately black and white'."""
    state = event(20, 1)
    match = next(m for m in state.rounds[0].matches if m.table == 1)
    state = edit_match(
        state,
        1,
        match.code,
        lambda m: dataclasses.replace(
            m,
            participants=(
                dataclasses.replace(m.participants[0], entrant=m.participants[1].entrant),
                dataclasses.replace(m.participants[1], entrant=m.participants[0].entrant),
            ),
        ),
    )
    assert wc.ALTERNATE in rules_of(check(state))


def test_a_wrong_bq_is_reported() -> None:
    """Appendix A 3: the Brightwell Quotient."""
    state = event(9, 0)
    standings = ENGINE.standings(state)
    table = standings.tables[0]
    row = table.rows[2]
    bad = dataclasses.replace(row, values={**row.values, "bq": float(row.values["bq"] or 0) + 1})
    rows = (*table.rows[:2], bad, *table.rows[3:])
    standings = dataclasses.replace(
        standings, tables=(dataclasses.replace(table, rows=rows), *standings.tables[1:])
    )
    violations = [v for v in check(state, standings) if v.rule == wc.BQ]
    assert len(violations) == 1 and violations[0].where.entrant == row.entrant


def test_the_wrong_system_for_the_field_is_reported() -> None:
    """II.2 c) 15-24 players: a modified Swiss system."""
    state = event(16, 0)
    rounds = list(state.rounds)
    rounds[0] = dataclasses.replace(rounds[0], details={**rounds[0].details, "system": "swiss"})
    assert wc.SYSTEM in rules_of(check(dataclasses.replace(state, rounds=tuple(rounds))))


def _a_game_made_a_bye(state: EventState, number: int) -> EventState:
    rnd = next(r for r in state.rounds if r.number == number)
    game = next(m for m in rnd.matches if not m.is_bye)
    return edit_match(
        state,
        number,
        game.code,
        lambda m: dataclasses.replace(m, participants=m.participants[:1], games=()),
    )


def test_a_bye_in_an_even_swiss_field_is_reported() -> None:
    """II.7 a dummy player called BYE: one, and only for an odd field."""
    state = event(18, 0)
    assert state.rounds[0].details["system"] in ("swiss", "modified_swiss")
    assert wc.BYE_RULE in rules_of(check(_a_game_made_a_bye(state, 3)))


def test_a_bye_off_the_berger_table_is_reported() -> None:
    """In a round robin the Berger table says who has the round off (the odd field's dummy,
    a withdrawn opponent): any other bye breaks it."""
    state = event(9, 0)
    assert "round_robin" in state.rounds[0].details["system"]
    assert wc.BERGER in rules_of(check(_a_game_made_a_bye(state, 1)))


def test_a_field_that_leaves_out_a_player_who_played_is_reported_not_a_crash() -> None:
    """II.1: the field is the players present; one recorded as playing but missing from
    round 1's field is a finding of the record, and the standings are still checked."""
    state = event(9, 0)
    first = state.rounds[0]
    field = [str(e) for e in first.details["field"]]
    dropped = dataclasses.replace(first, details={**first.details, "field": field[1:]})
    broken = dataclasses.replace(state, rounds=(dropped, *state.rounds[1:]))
    report = audit(broken, ENGINE.standings(state))
    assert report.violations, "the missing player is reported"
    assert report.rows > 0  # the standings were read, not abandoned
