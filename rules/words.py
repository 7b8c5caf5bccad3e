"""Words at the edge: what an engine says is a code and its parameters; the sentence is
looked up here, by code.

Each format (and contention, and the shared checks) keeps its sentences in a ``words``
module beside its code: ``WORDS = {code: gettext_noop("English with {params}.")}``. A
``Reason`` or ``Problem`` built without a text gets its English sentence from that table,
so the engine never writes the sentence itself and the web side can say it in another
language from the stored code and parameters (tournaments/words.py, through gettext).

Labels (a column's name, a table's title, a round's label, a match summary) are plain
strings, not codes: a fixed one is marked where it is defined (``_("Seed")``) and the web
side translates the string itself. One built from a pattern ("Round 3") is built from a
pattern a words module lists in ``LABELS`` (``_("Round {n}")``), so the web side can find
the pattern again in the stored string and say it in the reader's language (``patterns``).

A parameter is shown as it is (``str.format``), so an engine passes what a reader sees:
names, whole numbers, a score already written as ``12½``. A parameter that is itself a
message (a mapping with a ``code``) is said as a sentence in the same language.
"""

from __future__ import annotations

import importlib
import re
import string
from collections.abc import Mapping
from functools import cache
from typing import Any

from rules import registry

# The shared words modules; each format's own is found through the registry. Imported on
# first use by name, so that no words module imports the contract that imports this one.
SHARED_MODULES: tuple[str, ...] = (
    "rules.words_common",
    "rules.contention.words",
    "rules.series_words",
)


def modules() -> tuple[str, ...]:
    """Every module that holds WORDS: the shared ones, then each registered format's."""
    return SHARED_MODULES + tuple(registry.part_name(key, "words") for key in registry.formats())


def gettext_noop(message: str) -> str:
    """Marks a sentence for translation without translating it (``makemessages`` finds
    this name, as it finds Django's own)."""
    return message


class DuplicateCode(ValueError):
    pass


def catalogue() -> dict[str, str]:
    """Every code's English sentence. A code is said one way only: two modules giving the
    same code is an error, not an override."""
    return _catalogue(registry.generation())


@cache
def _catalogue(generation: int) -> dict[str, str]:
    merged: dict[str, str] = {}
    for name in modules():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue  # a format without sentences of its own
        for code, sentence in module.WORDS.items():
            if code in merged:
                raise DuplicateCode(f"{code} is in {name} and an earlier words module")
            merged[code] = sentence
    return merged


def patterns() -> tuple[str, ...]:
    """Every words module's ``LABELS``: the patterns labels are built from, the longest
    fixed text first (so "Round {n} (last Swiss round)" is tried before "Round {n}")."""
    return _patterns(registry.generation())


@cache
def _patterns(generation: int) -> tuple[str, ...]:
    found: list[str] = []
    for name in modules():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue
        found.extend(p for p in getattr(module, "LABELS", ()) if p not in found)
    return tuple(sorted(found, key=lambda p: (-len(fixed_text(p)), p)))


def fixed_text(pattern: str) -> str:
    """A pattern without its placeholders."""
    return "".join(literal for literal, _, _, _ in string.Formatter().parse(pattern))


def template(code: str) -> str | None:
    return catalogue().get(code)


def english(code: str) -> str:
    """The English sentence of ``code``. A code that starts with a format's key
    (``woc.pairing.bye``) is looked up in that format's words module first: building the
    whole catalogue imports every format's package, and each imports its engine (about
    0.1 s of CPU, the fixed cost of a fresh process's first pairing before issue 33). Any
    other code, or one not found there, comes from the whole catalogue, which still refuses
    a code two modules give (and the tests build it)."""
    key = code.partition(".")[0]
    if key in registry.PACKAGES:
        found = _own(registry.generation(), key).get(code)
        if found is not None:
            return found
    return catalogue()[code]


@cache
def _own(generation: int, key: str) -> dict[str, str]:
    """The sentences of format ``key``'s own words module (empty: it has none)."""
    name = registry.part_name(key, "words")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return {}
    own: dict[str, str] = module.WORDS
    return own


def placeholders(sentence: str) -> set[str]:
    """The parameter names a sentence uses (``{name}``, ``{name!r}``, ``{name:>3}``)."""
    return {
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(sentence)
        if field
    }


# A sentence about one game of a match starts by naming it ("Game {game}: ...", in French
# "Partie {game} : ..."); a match of one game has nothing to tell apart (issue 28)
_GAME_PREFIX = re.compile(r"^[^{}:]*\{game\}\s*:\s*")


def without_game(sentence: str) -> str | None:
    """``sentence`` without its leading "Game {game}: " (in any language), the rest
    starting with a capital; None when the game is named elsewhere in it."""
    found = _GAME_PREFIX.match(sentence)
    if found is None:
        return None
    rest = sentence[found.end() :]
    return rest[:1].upper() + rest[1:]


def say(sentence: str, params: Mapping[str, Any], translate: Any = None) -> str:
    """``sentence`` with its parameters; a parameter that is a message is said first
    (by ``translate`` on the web side, in English here). ``game`` None means the match
    has one game: the sentence leaves out which (see ``without_game``)."""
    if "game" in params and params["game"] is None:
        shorter = without_game(sentence)
        # named elsewhere in the sentence ("Game {game} of {match}"): it is game 1
        sentence, params = (shorter, params) if shorter else (sentence, {**params, "game": 1})
    values = {
        key: (
            render(value["code"], value.get("params") or {}, translate)
            if isinstance(value, Mapping) and "code" in value
            else value
        )
        for key, value in params.items()
    }
    return sentence.format_map(values)


def render(code: str, params: Mapping[str, Any], translate: Any = None) -> str:
    """The sentence of ``code`` (through ``translate`` when given: gettext on the web
    side). KeyError for a code no words module knows."""
    text = english(code)
    return say(text if translate is None else translate(text), params, translate)


def message(code: str, **params: Any) -> dict[str, Any]:
    """A message as a parameter of another (``{"why": message("woc.x", n=3)}``)."""
    return {"code": code, "params": params}
