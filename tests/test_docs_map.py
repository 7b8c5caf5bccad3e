"""docs/formats/map.md stays true: every file it names exists, every function, class or
constant it names is defined in that file, and every format key has its section.

A reference is a backquoted path from the repository root, optionally followed by
``:name`` or ``:name1,name2`` (``Class.method`` for a method). No database, no Django.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rules.registry import FORMATS
from tests.pysource import parse_python

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "docs" / "formats" / "map.md"
RECIPE = ROOT / "docs" / "formats" / "README.md"
# where a list of every format key can live (the format's own files name only their key)
SOURCES = ("rules", "tournaments", "accounts", "config", "bench", "tests")

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
            trees[path] = parse_python(file.read_text(encoding="utf-8"))
        found.extend(
            f"{path}: {name} is not defined there" for name in names if not _has(trees[path], name)
        )
    return found


def test_every_reference_in_the_map_holds() -> None:
    text = MAP.read_text(encoding="utf-8")
    assert len(references(text)) > 100, "the map names too few files to be read"
    assert problems(text, ROOT) == []


def test_every_file_the_add_a_format_recipe_names_exists() -> None:
    """A path from the root, that is; a bare ``words.py`` is a module of the new package."""
    text = RECIPE.read_text(encoding="utf-8")
    paths = " ".join(f"`{path}`" for path, _ in references(text) if "/" in path)
    assert paths, "the recipe names no file"
    assert problems(paths, ROOT) == []


def test_every_registered_format_has_a_section() -> None:
    sections = set(SECTION.findall(MAP.read_text(encoding="utf-8")))
    assert set(FORMATS) <= sections, sorted(set(FORMATS) - sections)


def lists_of_every_key(tree: ast.AST, keys: set[str]) -> bool:
    """Whether ``tree`` holds a literal dict, list, tuple or set naming every key."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            items: list[ast.expr | None] = list(node.keys)
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = list(node.elts)
        else:
            continue
        named = {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
        if keys <= named:
            return True
    return False


def test_the_add_a_format_recipe_names_every_list_of_format_keys() -> None:
    """A registry or a cross-format test list the recipe forgets is where a new format would
    be missing without a sound (as contention once was)."""
    keys = set(FORMATS)
    recipe = RECIPE.read_text(encoding="utf-8").partition("## How to add a format")[2]
    listing = sorted(
        path.relative_to(ROOT).as_posix()
        for folder in SOURCES
        for path in (ROOT / folder).rglob("*.py")
        if lists_of_every_key(parse_python(path.read_text(encoding="utf-8")), keys)
    )
    assert "rules/registry.py" in listing  # the scan sees the one list of the keys
    assert [path for path in listing if path not in recipe] == []


def test_a_list_of_every_key_is_found_and_a_partial_one_is_not() -> None:
    keys = {"a", "b"}
    assert lists_of_every_key(parse_python("X = {'a': 1, 'b': 2}"), keys)
    assert lists_of_every_key(parse_python("f(['b', 'a', 'c'])"), keys)
    assert not lists_of_every_key(parse_python("X = ('a',); Y = {'b'}"), keys)


def test_the_check_catches_a_missing_file_name_and_method() -> None:
    text = (
        "`rules/registry.py:get,formats` `rules/nowhere.py` "
        "`rules/registry.py:vanished` "
        "`rules/formats/round_robin/engine.py:RoundRobinEngine.next_round` "
        "`rules/formats/round_robin/engine.py:RoundRobinEngine.flies` "
        "`rules/registry.py:FORMATS`"
    )
    assert problems(text, ROOT) == [
        "rules/nowhere.py: no such file",
        "rules/registry.py: vanished is not defined there",
        "rules/formats/round_robin/engine.py: RoundRobinEngine.flies is not defined there",
    ]
