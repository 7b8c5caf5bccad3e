"""Checkers' findings said by code (issue 23, item 3): the WOC and GokoDom checkers and the
shared checks name a code and the parameters the sentence shows, beside the data other code
reads, so a page says a finding in the reader's language."""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path

import pytest

from rules import words
from rules.checkers import OVERRIDE, check
from rules.checkers.common import Report, Violation, Where, attribute_overrides
from rules.contract import EventState, Participant
from rules.formats.gokodom import checker as gc
from rules.formats.gokodom.simulate import simulate
from rules.formats.woc import checker as wc
from rules.formats.woc.simulate import field, play
from tests.pysource import parse_python
from tests.rules.test_checkers_support import edit_match, swap_players

RULES = Path(__file__).resolve().parents[2] / "rules"
CONVERTED = [
    RULES / "checkers" / "common.py",
    RULES / "formats" / "woc" / "checker.py",
    RULES / "formats" / "woc" / "checker_swiss.py",
    RULES / "formats" / "gokodom" / "checker.py",
]


def _literals(node: ast.expr) -> list[str] | None:
    """The codes a code argument can be: a literal, or a choice between literals."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        a, b = _literals(node.body), _literals(node.orelse)
        return a + b if a is not None and b is not None else None
    return None


@pytest.mark.parametrize("path", CONVERTED, ids=lambda p: str(p.relative_to(RULES)))
def test_every_finding_names_a_code_and_writes_no_sentence(path: Path) -> None:
    known = words.catalogue()
    for node in ast.walk(parse_python(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add"):
            continue
        if getattr(node.func.value, "id", None) != "report":  # type: ignore[attr-defined]
            continue
        where = f"{path.relative_to(RULES)}:{node.lineno}"
        assert len(node.args) == 1, f"{where}: a text of its own"
        code = next((k.value for k in node.keywords if k.arg == "code"), None)
        codes = _literals(code) if code is not None else None
        assert codes, f"{where}: no literal code"
        assert all(c in known for c in codes), f"{where}: {codes}"


def test_a_woc_finding_keeps_its_data_and_says_the_system_by_code() -> None:
    """II.2 c) 15-24 players: a modified Swiss system."""
    rng = random.Random(0)
    state = play(field(16, rng, group_a=2), rng)
    rounds = list(state.rounds)
    rounds[0] = dataclasses.replace(rounds[0], details={**rounds[0].details, "system": "swiss"})
    found = [
        v for v in check(dataclasses.replace(state, rounds=tuple(rounds))) if v.rule == wc.SYSTEM
    ]
    assert len(found) == 1
    (v,) = found
    assert v.code == "woc.check.system"
    assert v.data["players"] == 16 and v.data["system"] == "swiss"
    assert v.text == "16 players play a modified_swiss; the record uses a swiss."
    assert words.render(v.code, v.params) == v.text


def _berger_game_swapped(state: EventState) -> EventState:
    rnd = state.rounds[1]
    one, two = [m for m in rnd.matches if not m.is_bye][:2]

    def put(who: Participant) -> object:
        return lambda m: dataclasses.replace(m, participants=(m.participants[0], who))

    state = edit_match(state, 2, one.code, put(two.participants[1]))  # type: ignore[arg-type]
    return edit_match(state, 2, two.code, put(one.participants[1]))  # type: ignore[arg-type]


def test_a_berger_game_is_a_message_of_its_own() -> None:
    """A game off the Berger table names its two players by colour as a nested message."""
    rng = random.Random(0)
    state = play(field(9, rng, group_a=2), rng)
    found = [v for v in check(_berger_game_swapped(state)) if v.rule == wc.BERGER]
    games = [v for v in found if len(v.data["pairing"]) == 2]
    assert games
    for v in games:
        black, white = v.data["pairing"]
        assert v.code in ("woc.check.berger.missing", "woc.check.berger.extra")
        assert v.params["seats"] == words.message("woc.check.berger.game", black=black, white=white)
        assert f"Round 2: {black} (Black) v {white} is in the" in v.text


def test_a_gokodom_bracket_finding_keeps_expected_and_recorded() -> None:
    """III.B: QF1 is seed 1 against seed 8."""
    state = simulate(16, random.Random(0)).state
    number = next(r.number for r in state.rounds if r.details.get("bracket_round") == 1)
    state = swap_players(state, number, "QF1", 1, "QF2", 1)
    (v,) = [v for v in check(state) if v.rule == gc.SEEDING and v.where.match == "QF1"]
    assert v.code == "gokodom.check.bracket"
    assert v.params["seed"] == 1 and v.params["against"] == 8
    assert v.text == (
        f"QF1 is seed 1 against seed 8 ({' v '.join(v.data['expected'])}); the record has "
        f"{' v '.join(v.data['recorded'])}."
    )


def _overridden(state: EventState, override: object, broken: list[Violation]) -> Report:
    rnd = state.rounds[0]
    match = next(m for m in rnd.matches if not m.is_bye)
    state = edit_match(
        state,
        rnd.number,
        match.code,
        lambda m: dataclasses.replace(m, details={**m.details, "override": override}),
    )
    report = Report()
    report.violations = [
        dataclasses.replace(v, where=Where(rnd.number, match.code)) for v in broken
    ]
    return attribute_overrides(state, report)


def test_an_override_note_is_said_by_code_with_the_rules_it_departs_from() -> None:
    state = simulate(9, random.Random(1)).state
    broken = [Violation(gc.REMATCH, Where(), "A rematch.")]
    override = {"by": "Ann", "reason": "travel", "engine": ["p1", "p2"]}
    (note,) = _overridden(state, override, broken).violations
    assert note.rule == OVERRIDE and note.code == "check.override.departs"
    # the override's own record stays as conformance.py reads it
    assert note.data["by"] == "Ann" and note.data["reason"] == "travel"
    assert note.data["breaks"] == [{"rule": gc.REMATCH, "text": "A rematch."}]
    assert note.text == (
        f"{note.where.match} was overridden by Ann (travel); the engine proposed p1 v p2. "
        f"The change departs from: {gc.REMATCH}."
    )


def test_an_override_without_who_or_why_says_the_defaults_as_messages() -> None:
    state = simulate(9, random.Random(1)).state
    (note,) = _overridden(state, {"by": "", "reason": ""}, []).violations
    assert note.code == "check.override"
    assert note.params["who"] == words.message("check.override.a_director")
    assert note.params["proposal"] == words.message("check.override.another_pairing")
    assert note.data["by"] == ""
    assert note.text == (
        f"{note.where.match} was overridden by a director (no reason given); the engine "
        "proposed another pairing."
    )
