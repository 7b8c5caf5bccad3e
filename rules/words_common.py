"""Sentences of the checks every format shares (engine_base.py, absence.py, and the
checkers' shared findings in checkers/common.py)."""

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
    # -- the checkers' shared findings (rules/checkers/common.py) ------------------------
    "check.paired_twice": _("{player} is paired twice in round {number} ({first} and {second})."),
    "check.not_paired": _("{player} should play round {number} but has no match or bye."),
    "check.not_in_event": _("{player} is paired in round {number} but is not in the event for it."),
    # a director's override, reported in place of what it breaks; {who}, {why} and
    # {proposal} are as recorded, or the messages below when the record leaves them out
    "check.override": _(
        "{match_code} was overridden by {who} ({why}); the engine proposed {proposal}."
    ),
    "check.override.departs": _(
        "{match_code} was overridden by {who} ({why}); the engine proposed {proposal}. "
        "The change departs from: {departs}."
    ),
    "check.override.a_director": _("a director"),
    "check.override.no_reason": _("no reason given"),
    "check.override.another_pairing": _("another pairing"),
}

# Labels several formats build (rules/words.py, ``patterns``): a round's default label.
ROUND = _("Round {n}")

LABELS: tuple[str, ...] = (ROUND,)
