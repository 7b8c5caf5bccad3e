"""No import cycle among the project's Django-side modules, and no service imports a task.

The graph is read from the source (ast), not from what happens to be imported: every
``import`` and ``from ... import`` of a project module counts, at the top of a file or
inside a function, and importing ``a.b.c`` also runs the packages ``a.b`` and ``a`` first.
A cycle hidden inside a function still ties the two modules together (each needs the
other to be loaded first to be understood, tested or moved), so it fails here too.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

from tests.pysource import parse_python

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tournaments", "accounts")

# Cycles known and not yet broken, each a sorted tuple of module names. It may only
# shrink: none is left today, and a new cycle is a failure, not an entry here.
ALLOWED_CYCLES: frozenset[tuple[str, ...]] = frozenset()
# a module of a format's web package, tournaments/formats/<key>/<module>.py
FORMAT_MODULE = re.compile(r"tournaments\.formats\.[a-z_]+\.[a-z_]+")


def module_files(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    files = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
    return files


def _imported_names(module: str, path: Path) -> Iterable[str]:
    is_package = path.name == "__init__.py"
    for node in ast.walk(parse_python(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            # "from a import b" is the module a.b when there is one, else a name in a
            yield from (f"{source}.{alias.name}" for alias in node.names)


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    files = module_files(root, packages)
    graph: dict[str, set[str]] = {name: set() for name in files}
    for module, path in files.items():
        for name in _imported_names(module, path):
            while name and name not in files:
                name = name.rpartition(".")[0]
            if not name or name == module:
                continue
            graph[module].add(name)
            # the packages above it run first (not the importer's own packages: they are
            # already running when it is imported)
            parent = name.rpartition(".")[0]
            while parent:
                if parent in files and not module.startswith(parent + "."):
                    graph[module].add(parent)
                parent = parent.rpartition(".")[0]
    return graph


def cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(tuple(sorted(component)))
    return found


def _described(cycle: tuple[str, ...], graph: dict[str, set[str]]) -> str:
    members = set(cycle)
    return "\n".join(f"  {m} -> {', '.join(sorted(graph[m] & members))}" for m in cycle)


def test_no_import_cycle_among_the_project_modules():
    graph = import_graph(ROOT, PACKAGES)
    assert len(graph) > 100  # the walk found the project, not an empty folder
    new = [c for c in cycles(graph) if c not in ALLOWED_CYCLES]
    assert not new, "import cycles:\n" + "\n\n".join(_described(c, graph) for c in new)


def test_the_allowed_cycles_are_still_cycles():
    # an entry whose cycle was broken is removed, so that the list only shrinks
    found = set(cycles(import_graph(ROOT, PACKAGES)))
    assert found >= ALLOWED_CYCLES


def test_no_service_imports_a_task_module():
    graph = import_graph(ROOT, PACKAGES)
    tasks = {m for m in graph if m == "tournaments.tasks" or m.startswith("tournaments.tasks_")}
    # a format's own tasks and services live in its package (tournaments/formats/<key>/)
    tasks |= {m for m in graph if FORMAT_MODULE.fullmatch(m) and m.endswith(".tasks")}
    assert tasks == {"tournaments.tasks", "tournaments.formats.gokodom.tasks"}
    services = {
        m
        for m in graph
        if m.startswith("tournaments.services.")
        or (FORMAT_MODULE.fullmatch(m) and m.rpartition(".")[2].startswith("services"))
    }
    assert "tournaments.formats.gokodom.services_director" in services
    importers = {m: sorted(graph[m] & tasks) for m in services}
    assert {m: t for m, t in importers.items() if t} == {}


def test_a_cycle_inside_a_function_or_through_a_package_is_found(tmp_path):
    # the detector itself: a cycle through an in-function import, and one through a
    # package __init__ that imports its own submodule's importer
    for name, text in {
        "app/__init__.py": "",
        "app/a.py": "from app import b\n",
        "app/b.py": "def f():\n    from app.a import thing\n",
        "app/c.py": "from . import d\n",
        "app/d.py": "import app.e\n",
        "app/e.py": "",
        "app/pkg/__init__.py": "from app.pkg.inner import x\n",
        "app/pkg/inner.py": "from app import user\n",
        "app/user.py": "from app.pkg.other import y\n",
        "app/pkg/other.py": "",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = import_graph(tmp_path, ["app"])
    assert graph["app.c"] == {"app.d"}
    assert sorted(cycles(graph)) == [
        ("app.a", "app.b"),
        ("app.pkg", "app.pkg.inner", "app.user"),
    ]
