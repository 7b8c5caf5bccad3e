"""Sentences of the checks every format shares (engine_base.py, absence.py)."""

from __future__ import annotations

from rules.words import gettext_noop as _

WORDS: dict[str, str] = {
    "setting.unknown": _("'{key}' is not a setting of this format."),
    "setting.choice": _("'{key}' must be one of {allowed}; got {value!r}."),
    "setting.type": _("'{key}' must be {kind}; got {value!r}."),
    "setting.kind.bool": _("true or false"),
    "setting.kind.number": _("a number"),
    "setting.kind.text": _("text"),
    "setting.kind.list": _("a list"),
    # {outcome} is the format's own message: what the absence does in that match
    "absent": _("{name} is absent: {outcome}."),
    "absent.refused": _("{names} marked absent: {why}"),
}

# Labels several formats build (rules/words.py, ``patterns``): a round's default label.
ROUND = _("Round {n}")

LABELS: tuple[str, ...] = (ROUND,)
