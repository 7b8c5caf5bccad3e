"""docs/formats/map.md stays true: every file it names exists, every function, class or
constant it names is defined in that file, and every format key has its section.

A reference is a backquoted path from the repository root, optionally followed by
``:name`` or ``:name1,name2`` (``Class.method`` for a method). No database, no Django.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rules.registry import ENGINE_MODULES

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "docs" / "formats" / "map.md"

# `path/to/file.ext` or `path/to/file.py:name` or `path/to/file.py:a,B.c`
REFERENCE = re.compile(
    r"`(?P<path>[A-Za-z0-9_./-]+\.(?:py|md|html|txt|css|js))(?::(?P<names>[A-Za-z0-9_.,]+))?`"
)
SECTION = re.compile(r"^## `(?P<key>[a-z_]+)`", re.MULTILINE)


def references(text: str) -> list[tuple[str, list[str]]]:
    return [
        (m["path"], m["names"].split(",") if m["names"] else []) for m in REFERENCE.finditer(text)
    ]


def _defined(tree: ast.Module) -> dict[str, ast.AST]:
    """Top-level functions, classes and assigned names of a module."""
    found: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found[node.target.id] = node
    return found


def _has(tree: ast.Module, dotted: str) -> bool:
    head, _, rest = dotted.partition(".")
    node = _defined(tree).get(head)
    if node is None:
        return False
    if not rest:
        return True
    if not isinstance(node, ast.ClassDef) or "." in rest:
        return False
    return any(
        isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == rest
        for item in node.body
    )


def problems(text: str, root: Path) -> list[str]:
    """Every reference of ``text`` that does not hold in the tree under ``root``."""
    found: list[str] = []
    trees: dict[str, ast.Module] = {}
    for path, names in references(text):
        file = root / path
        if not file.is_file():
            found.append(f"{path}: no such file")
            continue
        if not names:
            continue
        if file.suffix != ".py":
            found.append(f"{path}: names {names} but is not a Python file")
            continue
        if path not in trees:
            trees[path] = ast.parse(file.read_text(encoding="utf-8"))
        found.extend(
            f"{path}: {name} is not defined there" for name in names if not _has(trees[path], name)
        )
    return found


def test_every_reference_in_the_map_holds() -> None:
    text = MAP.read_text(encoding="utf-8")
    assert len(references(text)) > 100, "the map names too few files to be read"
    assert problems(text, ROOT) == []


def test_every_registered_format_has_a_section() -> None:
    sections = set(SECTION.findall(MAP.read_text(encoding="utf-8")))
    assert set(ENGINE_MODULES) <= sections, sorted(set(ENGINE_MODULES) - sections)


def test_the_check_catches_a_missing_file_name_and_method() -> None:
    text = (
        "`rules/registry.py:get,formats` `rules/nowhere.py` "
        "`rules/registry.py:vanished` `rules/formats/round_robin.py:RoundRobinEngine.next_round` "
        "`rules/formats/round_robin.py:RoundRobinEngine.flies` `rules/registry.py:ENGINE_MODULES`"
    )
    assert problems(text, ROOT) == [
        "rules/nowhere.py: no such file",
        "rules/registry.py: vanished is not defined there",
        "rules/formats/round_robin.py: RoundRobinEngine.flies is not defined there",
    ]
