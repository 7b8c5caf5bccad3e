"""An engine's message said in the reader's language: the one place where a code and its
parameters (from rules/, or as a snapshot stored them) become a sentence.

rules/words.py holds each code's English sentence, marked for makemessages; here the
sentence goes through gettext, so a page in French says it in French. A message whose
code has no sentence (one a service wrote in words, or a snapshot stored before its
format's words existed) is shown with the text it carries.

A plain string is a label an engine gave (a column, a table's title, a round's label, a
match summary, a format's name): said by its own translation, or, when it was built from
one of the patterns of rules/ ("Round {n}"), by that pattern's translation with its parts
said in turn. Anything else (a name, a score) is shown as it is.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from functools import cache
from typing import Any

from django.utils import formats
from django.utils.translation import get_language, gettext

from rules import tiebreaks, words
from tournaments.services.state import jsonable

# Marks a message stored with its code and parameters complete: said from them, in the
# reader's language, even after its English is reworded.
SAID_BY_CODE = "by_code"


def _parts(message: Any) -> tuple[str, Mapping[str, Any], str]:
    if isinstance(message, Mapping):
        return (
            message.get("code") or "",
            message.get("params") or {},
            message.get("text") or "",
        )
    return (
        getattr(message, "code", "") or "",
        getattr(message, "params", None) or {},
        getattr(message, "text", "") or "",
    )


def sentence(message: Any) -> str:
    """A Reason, a Problem, or their stored form ({"code", "params", "text"}) as a
    sentence in the active language."""
    if message is None:
        return ""
    if isinstance(message, str) or not (isinstance(message, Mapping) or hasattr(message, "code")):
        return label(str(message))  # a label, or words already said (a lazy string)
    code, params, text = _parts(message)
    if words.template(code) is None:
        return text
    try:
        # a service's own words under an engine's code, or a message stored before the
        # words modules (a few codes were split then): re-said only if the code says what
        # the message says
        marked = isinstance(message, Mapping) and message.get(SAID_BY_CODE)
        if not marked and text and words.render(code, params) != text:
            return text
        return words.render(code, params, gettext)
    except (KeyError, IndexError, ValueError):
        # stored before this code's parameters were all kept: the English it was said in
        return text


def label(text: str) -> str:
    """A label from rules/ in the active language (see the module's docstring)."""
    if not text:
        return ""
    translated = gettext(text)
    if translated != text:
        return translated
    for regex, said in _patterns(get_language() or ""):
        found = regex.fullmatch(text)
        if found is None:
            continue
        try:
            return said.format_map({k: label(v) for k, v in found.groupdict().items()})
        except (KeyError, IndexError, ValueError):
            return text
    return text


def subject(text: str) -> str:
    """A subject a service wrote with a label at its head ("Round 2, R2-T1: Ann - Bob",
    "Round 4 A3: Ann"; the audit log, a correction) or after a name ("Ann: Round 4") in
    the active language: the label said, the names kept. A subject without a label stays
    as it is."""
    said = label(text)
    if said != text or not text:
        return said
    head, colon, rest = text.partition(": ")
    words_of_head = head.split(" ")
    for cut in range(len(words_of_head), 0, -1):  # the longest label first
        prefix = " ".join(words_of_head[:cut])
        said = label(prefix)
        if said != prefix:
            return said + head[len(prefix) :] + colon + rest
    said = label(rest)
    return head + colon + said if colon and said != rest else text


@cache
def _patterns(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each label pattern of rules/ that the language says in other words, with the
    expression that finds its parts in a label (none in English: a label stays as it is)."""
    compiled = []
    for pattern in words.patterns():
        said = gettext(pattern)
        if said == pattern:
            continue
        parts: list[str] = []
        seen: set[str] = set()
        for literal, field, _spec, _conversion in string.Formatter().parse(pattern):
            parts.append(re.escape(literal))
            if field is None:
                continue
            name = field.split(".")[0].split("[")[0]
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
        compiled.append((re.compile("".join(parts), re.DOTALL), said))
    return tuple(compiled)


def decided_detail(decided: Any) -> str:
    """Why a tie was broken (a Decided, or as a snapshot stored it) in the active language:
    from its parts when it was built from rules/tiebreaks.DETAIL, else as a label."""
    detail = _get(decided, "detail") or ""
    params = _get(decided, "params") or {}
    try:
        if not params or tiebreaks.DETAIL.format_map(params) != detail:
            return label(detail)
        return gettext(tiebreaks.DETAIL).format_map({k: _part(str(v)) for k, v in params.items()})
    except (KeyError, IndexError, ValueError):
        return detail


DECIMAL = re.compile(r"-?\d+\.\d+")


def _part(text: str) -> str:
    """A part of a tie's detail: a decimal with the language's separator ("0,75"), else a
    label."""
    if DECIMAL.fullmatch(text):
        return text.replace(".", formats.get_format("DECIMAL_SEPARATOR"))
    return label(text)


def _get(value: Any, name: str) -> Any:
    return value.get(name) if isinstance(value, Mapping) else getattr(value, name, None)


def stored(message: Any) -> dict[str, Any]:
    """What a snapshot keeps of a message: the code and parameters it is said from, and
    the English for a reader of the raw JSON (exports, logs)."""
    code, params, text = _parts(message)
    kept = {"code": code, "text": text, "params": jsonable(dict(params))}
    if _says(code, kept["params"], text):
        kept[SAID_BY_CODE] = 1
    rule = getattr(message, "rule", None)
    if rule is None and isinstance(message, Mapping):
        rule = message.get("rule")
    if rule is not None:
        kept["rule"] = rule
    return kept


def _says(code: str, params: Mapping[str, Any], text: str) -> bool:
    """Whether ``text`` is what ``code`` says with ``params`` (in English)."""
    if words.template(code) is None:
        return False
    try:
        return words.render(code, params) == text
    except (KeyError, IndexError, ValueError):
        return False
