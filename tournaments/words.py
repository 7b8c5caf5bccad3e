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
        return words.render(code, params, gettext)
    except (KeyError, IndexError, ValueError):
        # stored before this code's parameters were all kept: the English it was said in
        return text


def stored(message: Any) -> dict[str, Any]:
    """What a snapshot keeps of a message: the code and parameters it is said from, and
    the English for a reader of the raw JSON (exports, logs)."""
    code, params, text = _parts(message)
    kept = {"code": code, "text": text, "params": jsonable(dict(params))}
    rule = getattr(message, "rule", None)
    if rule is None and isinstance(message, Mapping):
        rule = message.get("rule")
    if rule is not None:
        kept["rule"] = rule
    return kept
