"""Contention speaks in codes (issue 23, item 3): each verdict's reason is a code of
rules/contention/words.py and the parameters its sentence shows, so the web side can say a
stored verdict in the reader's language."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from rules import words
from rules.contention.types import Status, english, verdict
from rules.contention.words import WORDS
from rules.contract import EventState, GameState, MatchState
from rules.formats.round_robin import ENGINE
from rules.formats.round_robin import contention as round_robin
from tests.pysource import parse_python

from .test_contention_support import people, play_rounds

RULES = Path(__file__).resolve().parents[2] / "rules"


def _first_wins_others_draw(match: MatchState) -> tuple[GameState, ...]:
    first, second = match.entrant_ids
    if "1" in (first, second):
        return (GameState(1, (1, 0) if first == "1" else (0, 1)),)
    return (GameState(1, (0, 0)),)


def test_a_clinch_by_the_points_bound_is_a_code_and_what_its_sentence_shows() -> None:
    state = play_rounds(
        EventState("round_robin", {}, people(6)), ENGINE, 4, _first_wins_others_draw
    )
    reason = round_robin.bound(state)["1"].reason
    assert reason.code == "contention.win.clinched.points"
    assert reason.params["low"] == "4" and reason.params["low_shown"] == "4"
    assert reason.params["unit"] == words.message("contention.unit.points")
    assert reason.params["left"] == words.message("contention.left.round", rounds=1)
    assert reason.text == "clinched: no one else can reach 4 points in the 1 round left"
    # as a snapshot keeps it (JSON), the same sentence
    kept = json.loads(json.dumps(dict(reason.params)))
    assert words.render(reason.code, kept) == reason.text


def test_a_half_point_is_shown_as_the_page_shows_it() -> None:
    """The bound keeps the exact value ("19/2") for code that reads it, and says 9.5."""
    from fractions import Fraction

    from rules.contention.bounds import Reach, top_bound

    reaches = [
        Reach("a", "Ann", Fraction(19, 2), Fraction(21, 2)),
        Reach("b", "Bob", Fraction(0), Fraction(1)),
    ]
    unit, left = words.message("contention.unit.points"), words.message("contention.left.group")
    said = top_bound(reaches, 1, goal="win", unit=unit, left=left)
    assert said["a"].reason.params["low"] == "19/2"
    assert (
        said["a"].reason.text
        == "clinched: no one else can reach 9.5 points in the group's games left"
    )
    assert said["b"].reason.text == (
        "eliminated: 1 entrant already has more than the 1 points Bob can still reach "
        "in the group's games left"
    )


def test_a_verdict_takes_its_status_from_its_code() -> None:
    assert verdict("contention.win.clinched.champion").status is Status.CLINCHED
    assert verdict("contention.stage.alive.playoff").status is Status.ALIVE
    assert english(words.message("contention.target.top_8")) == "reach the quarter-finals (top 8)"


def test_every_verdict_sentence_starts_with_the_status_of_its_code() -> None:
    for code, sentence in WORDS.items():
        parts = code.split(".")
        assert parts[0] == "contention", code
        if parts[1] in ("win", "stage"):
            assert sentence.startswith(f"{Status(parts[2]).value}: "), code


def _named_codes() -> set[str]:
    named = set()
    # the shared machinery, and each format's own contention module
    paths = [*(RULES / "contention").glob("*.py"), *(RULES / "formats").glob("*/contention.py")]
    for path in paths:
        if path.name == "words.py":
            continue
        for node in ast.walk(parse_python(path.read_text())):
            value = node.value if isinstance(node, ast.Constant) else None
            if isinstance(value, str) and value.startswith("contention."):
                named.add(value)
    return named


def test_every_code_contention_names_has_a_sentence_and_every_sentence_is_used() -> None:
    named = _named_codes()
    assert named - set(WORDS) == set()
    assert set(WORDS) - named == set()
