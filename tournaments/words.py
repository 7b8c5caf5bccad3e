"""An engine's message said in the reader's language: the one place where a code and its
parameters (from rules/, or as a snapshot stored them) become a sentence.

rules/words.py holds each code's English sentence, marked for makemessages; here the
sentence goes through gettext, so a page in French says it in French. A message whose
code has no sentence (one a service wrote in words, or a snapshot stored before its
format's words existed) is shown with the text it carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from rules import words
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
    if isinstance(message, str):
        return message
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
