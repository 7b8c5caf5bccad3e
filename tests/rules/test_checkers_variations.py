"""The generator's variations (withdrawals, late entries, defaults, draws, director
overrides) give records each format's checker accepts, and every override is reported as an
override and nothing else."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules import registry, variations
from rules.checkers import OVERRIDE, audit, check
from rules.contract import EntrantStatus, EventState, GameEnding, Participant, PlannedMatch
from rules.variations import Variations
from tests.format_fields import IN_MEMORY as SIZES
from tournaments.simulation import SIMULATORS  # pure: the simulators simulate_event runs


def simulate(key: str, seed: int, vary: Variations) -> EventState:
    return SIMULATORS[key](SIZES[key], random.Random(f"{key}/{seed}"), vary)


def overridden(state: EventState) -> set[tuple[int, str]]:
    return {
        (r.number, m.code) for r in state.rounds for m in r.matches if m.details.get("override")
    }


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(SIZES))
def test_withdrawals_late_entries_defaults_and_draws_conform(key: str) -> None:
    vary = dataclasses.replace(Variations.everything(), withdrawals=0.08)
    found = {"withdrawn": 0, "late": 0}
    for seed in range(4):
        state = simulate(key, seed, vary)
        assert audit(state, registry.get(key).standings(state)).violations == []
        found["withdrawn"] += sum(e.status is EntrantStatus.WITHDRAWN for e in state.entrants)
        found["late"] += sum(bool(e.flags.get("late")) for e in state.entrants)
    assert found["withdrawn"] > 0 and found["late"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(set(SIZES) - {"wpf_playoffs"}))
def test_every_override_is_reported_once_and_nothing_else(key: str) -> None:
    vary = Variations.everything().with_overrides(0.5)
    made = 0
    for seed in range(3):
        state = simulate(key, seed, vary)
        report = audit(state, registry.get(key).standings(state))
        assert {(v.where.round, v.where.match) for v in report.violations} == overridden(state)
        assert all(v.rule == OVERRIDE for v in report.violations)
        assert report.overrides == len(overridden(state))
        made += report.overrides
    assert made > 0


def test_the_same_seed_gives_the_same_event() -> None:
    vary = Variations.everything().with_overrides(0.3)
    assert simulate("gokodom", 1, vary) == simulate("gokodom", 1, vary)


def test_no_variation_leaves_the_plain_simulation_unchanged() -> None:
    """Switched off, the variations draw nothing from the generator."""
    from rules.formats.gokodom.simulate import simulate as season

    plain = season(12, random.Random(3)).state
    assert season(12, random.Random(3), vary=variations.NONE).state == plain


def test_an_override_records_who_why_and_the_engines_pairing() -> None:
    one = PlannedMatch("R1-1", (Participant("a", "black"), Participant("b", "white")))
    two = PlannedMatch("R1-2", (Participant("c", "black"), Participant("d", "white")))
    first, second = variations.swap_players(one, two, random.Random(0))
    assert {p.entrant for p in (*first.participants, *second.participants)} == set("abcd")
    assert [p.role for p in first.participants] == ["black", "white"]
    for before, after in ((one, first), (two, second)):
        record = after.details["override"]
        assert record["engine"] == [p.entrant for p in before.participants]
        assert record["by"] and record["reason"]
    seats = variations.swap_seats(one)
    assert [(p.entrant, p.role) for p in seats.participants] == [("b", "black"), ("a", "white")]


def test_an_override_found_by_the_checker_replaces_what_it_breaks() -> None:
    """A round-robin pairing with its colours changed breaks the Berger table: with the
    override recorded the checker reports only the override; without it, the Berger rule."""
    state = simulate("round_robin", 0, variations.NONE)
    rnd = state.rounds[0]
    match = next(m for m in rnd.matches if not m.is_bye)
    a, b = match.participants
    flipped = (dataclasses.replace(b, role=a.role), dataclasses.replace(a, role=b.role))

    def edited(details: dict[str, object]) -> EventState:
        changed = dataclasses.replace(match, participants=flipped, details=details)
        matches = tuple(changed if m.code == match.code else m for m in rnd.matches)
        return dataclasses.replace(
            state, rounds=(dataclasses.replace(rnd, matches=matches), *state.rounds[1:])
        )

    bare = check(edited({}))
    assert bare and all(v.rule != OVERRIDE for v in bare)
    record = {"by": "arbiter", "reason": "colour-blind player", "engine": [a.entrant, b.entrant]}
    reported = check(edited({"override": record}))
    assert [(v.rule, v.where.match) for v in reported] == [(OVERRIDE, match.code)]
    assert "colour-blind player" in reported[0].text and reported[0].data["by"] == "arbiter"
    # what the override costs is still named, for the director who made it
    assert {b["rule"] for b in reported[0].data["breaks"]} == {v.rule for v in bare}
    assert all(v.rule in reported[0].text for v in bare)


def test_defaults_appear_where_the_format_has_them() -> None:
    state = simulate("woc", 2, dataclasses.replace(variations.NONE, defaults=0.5))
    endings = {g.ending for r in state.rounds for m in r.matches for g in m.games}
    assert GameEnding.TIME_DEFAULT in endings
    assert check(state) == []
