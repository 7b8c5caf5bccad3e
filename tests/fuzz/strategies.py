"""Hostile values: the shapes that break parsers and databases (huge numbers, NUL bytes,
control characters, wrong types, deep nesting), mixed with ordinary ones."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

HUGE = [2**31, -(2**31) - 1, 2**63, 10**30, -(10**30)]
NASTY_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ufeff",
    "\u202e",
    "😀" * 3,
    "x" * 400,
    "'; DROP TABLE x; --",
    "<script>alert(1)</script>",
    "{{ 7*7 }}",
    "\r\n",
    "\udcff",
    "NaN",
    "-0",
    "1e999",
    "9" * 40,
    "0x10",
    "\uff11\uff12",  # fullwidth digits
]


def texts(max_size: int = 40, surrogates: bool = True) -> st.SearchStrategy[str]:
    """Text for files (which may hold lone surrogates) or forms (which cannot: a browser
    sends UTF-8)."""
    nasty = NASTY_TEXT if surrogates else [t for t in NASTY_TEXT if t != "\udcff"]
    chars = st.characters() if surrogates else st.characters(exclude_categories=["Cs"])
    return st.one_of(
        st.sampled_from(nasty),
        st.text(chars, max_size=max_size),
        st.text(alphabet=st.characters(codec="ascii"), max_size=max_size),
    )


def numbers_as_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(-5, 2000).map(str),
        st.sampled_from(HUGE).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(str),
        st.sampled_from(["", " 3 ", "1.5", "½", "3,5", "+1", "--1", "1_000", "0"]),
    )


def form_values() -> st.SearchStrategy[str]:
    return st.one_of(texts(surrogates=False), numbers_as_text())


def json_scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 3000),
        st.sampled_from(HUGE),
        st.floats(allow_nan=True, allow_infinity=True),
        texts(),
    )


def json_values() -> st.SearchStrategy[Any]:
    return st.recursive(
        st.one_of(json_scalars(), deeply_nested()),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(st.one_of(texts(8), st.sampled_from(["number", "name"])), inner,
                            max_size=4),
        ),
        max_leaves=40,
    )  # fmt: skip


# Nesting depths worth trying: around the import limit (20), then far past it (a JSON parser
# that recurses fails near Python's 1,000 frames).
DEPTHS = st.one_of(st.integers(1, 30), st.sampled_from([100, 999, 1000, 1001, 5000]))


@st.composite
def deeply_nested(draw: st.DrawFn) -> Any:
    """A scalar wrapped in lists and objects up to 5,000 deep (built without recursion)."""
    depth = draw(DEPTHS)
    shape = draw(st.lists(st.sampled_from(["list", "object"]), min_size=1, max_size=3))
    value = draw(json_scalars())
    for level in range(depth):
        value = [value] if shape[level % len(shape)] == "list" else {"a": value}
    return value


@st.composite
def nested_json_texts(draw: st.DrawFn) -> str:
    """JSON text nested up to 20,000 deep, closed or cut short: built as text, since
    json.dumps itself recurses."""
    depth = draw(st.one_of(DEPTHS, st.just(20_000)))
    opener, closer = draw(st.sampled_from([('{"a":', "}"), ("[", "]"), ('[{"b":', "}]")]))
    leaf = draw(st.sampled_from(["1", '"x"', "null", "", "[]"]))
    missing = draw(st.sampled_from([0, 0, 0, 1]))
    return opener * depth + leaf + closer * max(0, depth - missing)


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys and indexes) into a JSON document (without recursion: a document
    may be nested thousands deep)."""
    found, stack = [], [(value, prefix)]
    while stack:
        item, where = stack.pop()
        found.append(where)
        if isinstance(item, dict):
            stack.extend((child, (*where, key)) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, (*where, index)) for index, child in enumerate(item))
    return found


@st.composite
def mutated_json(draw: st.DrawFn, seed: dict[str, Any], max_edits: int = 3) -> Any:
    """The seed document with a few values replaced, deleted or added at random paths."""
    doc = json.loads(json.dumps(seed))
    for _ in range(draw(st.integers(1, max_edits))):
        where = draw(st.sampled_from(paths(doc)))
        if not where:
            continue
        parent = doc
        for step in where[:-1]:
            parent = parent[step]
        key = where[-1]
        action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if action == "replace":
            parent[key] = draw(json_values())
        elif action == "delete":
            del parent[key]
        elif isinstance(parent, dict):
            parent[draw(texts(12))] = draw(json_values())
        else:
            parent.append(draw(json_values()))
    return doc
