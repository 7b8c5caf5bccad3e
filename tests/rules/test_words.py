"""Words at the edge (issue 23, item 3): an engine says a code and its parameters; the
English sentence is looked up by code (rules/words.py), so the web side can say it in the
reader's language from what a snapshot stores."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from rules import words
from rules.contract import NeedsDecision, Problem, Reason
from tests.pysource import parse_python

RULES = Path(__file__).resolve().parents[2] / "rules"
# class -> position of its text argument
MESSAGE_CLASSES = {"Reason": 1, "Problem": 2, "NeedsDecision": 1, "Note": 1}


def converted_files() -> list[Path]:
    """Files whose sentences live in a words module: the shared checks, and every file of each
    package (a format, contention) that has a words module."""
    files = [RULES / "engine_base.py", RULES / "absence.py"]
    for module in words.modules():
        path = RULES.parent / (module.replace(".", "/") + ".py")
        if path.exists() and path.name == "words.py":
            files += sorted(path.parent.rglob("*.py"))
    return files


def constructions(path: Path):
    tree = parse_python(path.read_text(), str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name in MESSAGE_CLASSES or name == "message":
            yield name, node


def _code(node: ast.Call) -> ast.expr | None:
    if node.args:
        return node.args[0]
    return next((k.value for k in node.keywords if k.arg == "code"), None)


def test_a_message_without_text_says_its_code_in_english():
    problem = Problem("setting.unknown", "colour", params={"key": "colour"})
    assert problem.text == "'colour' is not a setting of this format."
    nested = Problem(
        "setting.type",
        "rounds",
        params={"key": "rounds", "kind": words.message("setting.kind.number"), "value": "x"},
    )
    assert nested.text == "'rounds' must be a number; got 'x'."


def test_a_decision_asked_of_the_director_says_its_code_too():
    asked = NeedsDecision("absent.refused", params={"names": "Ann", "why": "no byes here"})
    assert asked.text == "Ann marked absent: no byes here"


def test_a_text_given_is_kept_as_given():
    assert Reason("anything", "As written.").text == "As written."


def test_a_code_no_words_module_knows_is_an_error():
    with pytest.raises(KeyError):
        Reason("no.such.code")


def test_every_sentence_reads_as_a_format_string():
    for code, sentence in words.catalogue().items():
        assert code and code == code.strip(), code
        list(string.Formatter().parse(sentence))  # raises on a stray brace


@pytest.mark.parametrize("path", converted_files(), ids=lambda p: str(p.relative_to(RULES)))
def test_engines_say_codes_not_sentences(path):
    """In a converted module every Reason, Problem and message names a literal code the
    words modules know, and no engine writes the sentence itself."""
    known = words.catalogue()
    for name, node in constructions(path):
        where = f"{path.relative_to(RULES)}:{node.lineno}"
        code = _code(node)
        if isinstance(code, ast.Constant) and isinstance(code.value, str):
            assert code.value in known, f"{where}: {code.value} has no sentence"
        elif name != "message":
            # a code passed on from another message (Reason(p.code, ...)) is allowed
            assert not isinstance(code, ast.JoinedStr), f"{where}: a code built from text"
        if name in MESSAGE_CLASSES:
            position = MESSAGE_CLASSES[name]
            text = node.args[position] if len(node.args) > position else None
            text = text or next((k.value for k in node.keywords if k.arg == "text"), None)
            carried = isinstance(text, ast.Attribute) and text.attr == "text"
            assert text is None or carried, f"{where}: writes its sentence; give params"


def test_the_shared_checks_are_converted():
    assert {p.name for p in converted_files()} >= {"engine_base.py", "absence.py"}
