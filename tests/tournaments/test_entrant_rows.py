"""An entrant page's table of matches is written in Python (fragments.entrant_match_rows):
after a release hundreds of these pages are built once each, and the template's loop was
half of each. Its rows are the rows that loop rendered, byte for byte, in both languages,
from the book's dicts and from the models a signed-in player's page reads."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template import engines
from django.utils import translation

from tournaments.views import fragments

# The template's loop as it was (tournaments/templates/tournaments/entrant.html)
LOOP = (
    '{% load i18n arbiter_formats %}{% for item in items %}\n    <tr class="'
    '{{ item.outcome }}">\n      <th scope="row"><a href="{{ item.round_url }}">'
    '{{ item.round.label|said }}</a></th>\n      {% if has_tables %}<td class="num">'
    '{{ item.match.table|default_if_none:"" }}</td>{% endif %}\n      <td>'
    "{% for opp in item.opponent_links %}{% if not forloop.first %}, {% endif %}"
    '{% if opp %}<a href="{{ opp.1 }}">{{ opp.0 }}</a>{% else %}<em>{% translate "bye" %}'
    '</em>{% endif %}{% empty %}<em>{% translate "bye" %}</em>{% endfor %}'
    "{% if item.seat.role %} <small>("
    "{% blocktranslate with role=item.seat.role|role_label %}you: {{ role }}"
    "{% endblocktranslate %})</small>{% endif %}{% if item.match.overridden %}"
    '{% include "tournaments/_override.html" with override=item.match.details.override %}'
    "{% endif %}</td>\n      <td>{% if item.match.result %}"
    '{% if item.outcome and item.outcome != "bye" %}<span class="outcome">'
    '{% if item.outcome == "win" %}{% translate "won" %}{% elif item.outcome == "loss" %}'
    '{% translate "lost" %}{% else %}{% translate "drawn" %}{% endif %}</span> {% endif %}'
    '<span class="score">{{ item.score|said }}</span>'
    '{% if item.seat.role and item.outcome != "bye" %} '
    "{% blocktranslate with role=item.seat.role|role_label %}as {{ role }}"
    '{% endblocktranslate %}{% endif %}{% else %}<span class="pending">'
    '{% translate "pending" %}</span>{% endif %}{% for note in item.notes %}'
    '<small class="match-note">{{ note }}</small>{% endfor %}</td>\n      <td class="num">'
    '{{ item.points|default_if_none:"" }}</td>\n    </tr>\n  {% endfor %}'
)

OVERRIDE = {
    "reason": "Friends <& family>",
    "engine": ["Ann", None],
    "engine_reasons": ["colour", "score's"],
    "after": ["Ann", "Bob"],
    "kind": "seats",
    "by": "The director",
    "at": "2026-12-03T10:15:00+00:00",
}


def _item(
    outcome,
    result,
    *,
    role="black",
    opponents=(("Bob & Co", "/e/x/entrants/2/"),),
    table=3,
    points=1,
    notes=("forfeit <by default>",),
    overridden=False,
    label="Round 2",
):
    line = {
        "table": table,
        "overridden": overridden,
        "details": {"override": OVERRIDE} if overridden else {},
        "result": result,
    }
    return {
        "match": line,
        "round": SimpleNamespace(label=label),
        "round_url": "/e/x/rounds/2/",
        "seat": {"seat": 0, "role": role, "entrant": None},
        "table": table,
        "opponent_links": list(opponents),
        "outcome": outcome,
        "score": (result or {}).get("summary", ""),
        "points": points,
        "notes": list(notes),
    }


def _items() -> list[dict]:
    done = {"summary": "40-24", "complete": True}
    return [
        _item("win", done),
        _item("loss", done, role="white", points=0, notes=()),
        _item("draw", {"summary": "32-32"}, points=0.5, table=None),
        _item("bye", {"summary": "bye"}, opponents=(), role="", table=None),
        _item("", None, points=None, overridden=True, label="Round 10"),
        _item("", {"summary": "3-2"}, opponents=(("Ann", "/a/"), None, ("O'Hara", "/o/"))),
    ]


def _as_models(item: dict) -> dict:
    """The same item as a signed-in player's page reads it: a Match and its seat."""
    return {
        **item,
        "match": SimpleNamespace(**item["match"]),
        "seat": SimpleNamespace(**item["seat"]),
    }


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("has_tables", [True, False])
@pytest.mark.parametrize("models", [False, True])
def test_the_rows_are_the_rows_the_template_wrote(language, has_tables, models):
    items = [_as_models(i) if models else i for i in _items()]
    loop = engines["django"].from_string(LOOP)
    with translation.override(language):
        expected = loop.render({"items": items, "has_tables": has_tables})
        written = fragments.entrant_match_rows(items, has_tables)
    assert written == expected
    assert "&lt;&amp; family&gt;" in written and "Bob &amp; Co" in written  # escaped
    if language == "fr":
        assert "0,5" in written  # a number localised as the template did
