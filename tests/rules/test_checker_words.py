"""The rules checkers say their findings by code (issue 23, item 3): every ``report.add``
names a literal code of a words module and passes no English of its own, so the check page
can say the finding in the reader's language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules import registry, words
from rules.checkers.common import Report
from tests.pysource import parse_python

RULES = Path(__file__).resolve().parents[2] / "rules"
# The checker files converted so far. The maintainer widens this to every checker file,
# sorted(RULES.glob("formats/*/checker*.py")) + sorted(RULES.glob("checkers/*.py")), once the
# branches converting woc, gokodom and rules/checkers/common.py are merged.
# every format's checker and the shared checks (checker_swiss.py reports nothing itself)
CONVERTED: tuple[Path, ...] = (
    *(RULES / "formats" / key / "checker.py" for key in registry.formats()),
    RULES / "checkers" / "common.py",
)
# keywords only Report.add takes (a set's add takes one positional argument)
WHERE = {"code", "round", "match", "entrant"}


def report_adds(path: Path) -> list[ast.Call]:
    """The ``.add(`` calls of a Report: on a name that says it is one, or with its keywords."""
    found = []
    for node in ast.walk(parse_python(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr != "add":
            continue
        receiver = ast.unparse(node.func.value).lower()
        if "report" in receiver or WHERE & {k.arg for k in node.keywords}:
            found.append(node)
    return found


@pytest.mark.parametrize("path", CONVERTED, ids=lambda p: str(p.relative_to(RULES)))
def test_every_finding_names_a_code_and_writes_no_english(path: Path) -> None:
    adds = report_adds(path)
    assert adds, f"no report.add found in {path}: the scan would prove nothing"
    known = words.catalogue()
    wrong = []
    for call in adds:
        where = f"{path.name}:{call.lineno}"
        code = next((k.value for k in call.keywords if k.arg == "code"), None)
        # one literal code, or a choice between two ("a" if found else "b")
        choices = [code.body, code.orelse] if isinstance(code, ast.IfExp) else [code]
        literal = all(isinstance(c, ast.Constant) and isinstance(c.value, str) for c in choices)
        if len(call.args) > 1 or any(k.arg == "text" for k in call.keywords):
            wrong.append(f"{where} passes its own text")
        elif not literal:
            wrong.append(f"{where} has no literal code=")
        else:
            for choice in choices:
                assert isinstance(choice, ast.Constant)
                if choice.value not in known:
                    wrong.append(f"{where}: {choice.value} is in no words module")
    assert wrong == []


def test_the_scan_sees_a_finding_with_english_text() -> None:
    """The scan finds what it forbids (a text, positional or by keyword)."""
    source = (
        'report.add(RULE, f"{a} and {b} meet twice.", round=1)\n'
        'report.add(RULE, text="Nobody.", round=1)\n'
        "seen.add(entrant)\n"
    )
    tree = parse_python(source)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    adds = [c for c in calls if isinstance(c.func, ast.Attribute) and c.func.attr == "add"]
    assert len(adds) == 3
    flagged = [c for c in adds if len(c.args) > 1 or any(k.arg == "text" for k in c.keywords)]
    assert len(flagged) == 2


def test_a_finding_said_by_code_keeps_its_data_and_its_english() -> None:
    report = Report()
    report.add(
        "Every entrant meets every other once per cycle",
        code="round_robin.check.meet_again",
        round=3,
        match="R3-1",
        first="a",
        second="b",
    )
    (found,) = report.violations
    assert found.code == "round_robin.check.meet_again"
    assert found.params == {"first": "a", "second": "b"}
    assert found.text == "a and b meet again in the same cycle."


def test_a_wpf_playoffs_finding_says_an_empty_seat_as_a_message() -> None:
    """A virtual bye is a message inside the finding, said in the reader's language too."""
    from rules.formats.wpf_playoffs import checker as wpf

    report = Report()
    report.add(
        wpf.ORDER,
        code="wpf_playoffs.check.rank",
        entrant="None",
        rank=16,
        holder=wpf.VIRTUAL_BYE,
        shown="7",
    )
    assert report.violations[0].text == ("Rank 16 belongs to a virtual bye; the standings show 7.")
