"""The other words of rules/ (issue 23, item 3): column labels and their help, table titles,
round labels, match summaries, format names and settings' help are English strings marked
where rules/ defines them, said on the web side through gettext (tournaments/words.label);
a label built from a pattern ("Round 3") is said from the pattern's French."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from rules import registry, words
from rules.contract import Decided
from rules.tiebreaks import DETAIL
from tests.factories import play_round, round_robin_event
from tests.pysource import parse_python
from tests.tournaments.catalogue import PO, read_po
from tournaments.words import decided_detail, label, sentence

RULES = Path(words.__file__).parent


def _marked() -> dict[str, str]:
    """Every string rules/ marks with ``_`` (``gettext_noop``), with where it is."""
    found: dict[str, str] = {}
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(parse_python(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(node.args[0].value, f"{path.relative_to(RULES)}:{node.lineno}")
    return found


def test_every_marked_string_of_rules_has_french_with_the_same_parameters():
    catalogue = read_po()
    marked = _marked()
    assert len(marked) > 600  # the sentences of the words modules and the labels
    problems = []
    for english, where in sorted(marked.items()):
        entry = catalogue.get(("", english))
        if entry is None:
            problems.append(f"{where}: {english!r} is not in {PO.name}; run `make messages`")
        elif not entry.msgstr.strip() or entry.fuzzy:
            problems.append(f"{where}: {english!r} has no French (or a fuzzy one)")
        elif words.placeholders(entry.msgstr) != words.placeholders(english):
            problems.append(f"{where}: the French names other parameters than the English")
    assert not problems, "\n".join(problems)


def test_every_label_pattern_is_marked_and_has_fixed_words_to_be_found_by():
    marked = _marked()
    for pattern in words.patterns():
        assert pattern in marked, pattern
        # a pattern of placeholders only would match any label
        assert sum(c.isalpha() for c in words.fixed_text(pattern)) >= 3, pattern
    assert DETAIL in marked


def test_format_names_and_settings_help_are_said_in_french():
    """Marked where rules/ defines them, or built from a pattern (the round robin's
    tiebreaks help names the tiebreaks)."""
    with translation.override("fr"):
        for key in registry.formats():
            engine = registry.get(key)
            assert label(engine.name) != engine.name, engine.name
            for setting in engine.settings:
                assert label(setting.help) != setting.help, (key, setting.key)


@pytest.mark.parametrize(
    ("english", "french"),
    [
        ("Round 3", "Ronde 3"),
        ("Quarter-finals", "Quarts de finale"),
        ("Semi-finals", "Demi-finales"),
        ("Final", "Finale"),
        ("Round 7 (last Swiss round)", "Ronde 7 (dernière ronde suisse)"),
        ("Round 2, Group T", "Ronde 2, Poule T"),  # a pattern inside a pattern
        ("Round 1, Group B (Blue)", "Ronde 1, Poule B (Bleu)"),
        ("Heat 2 (round F, live)", "Manche 2 (ronde F, sur place)"),
        ("Result in round 4", "Résultat de la ronde 4"),
        ("9:58.4 - no solve", "9:58.4 - non résolu"),
        ("bye", "exempt"),
        ("Standings", "Classement"),
        # what no pattern makes is shown as it is: a score, a name, a short label
        ("33-31", "33-31"),
        ("Ann Smith", "Ann Smith"),
        ("R4", "R4"),
        ("", ""),
    ],
)
def test_a_label_is_said_in_the_language_of_the_page(english, french):
    with translation.override("fr"):
        assert label(english) == french
        assert sentence(english) == french
    with translation.override("en"):
        assert label(english) == english


def test_the_engines_round_labels_are_built_from_the_patterns():
    """What an engine stores as a round's label is found again by a pattern."""
    from rules.formats.gokodom.words import LAST_SWISS_ROUND
    from rules.words_common import ROUND

    with translation.override("fr"):
        assert label(ROUND.format(n=12)) == "Ronde 12"
        assert label(LAST_SWISS_ROUND.format(n=5)) == "Ronde 5 (dernière ronde suisse)"


def test_why_a_tie_was_broken_is_said_from_its_parts():
    kept = {
        "detail": "Drawing of lots lot place 1 against lot place 2",
        "params": {"label": "Drawing of lots", "ahead": "lot place 1", "behind": "lot place 2"},
    }
    with translation.override("fr"):
        assert decided_detail(kept) == "Tirage au sort place au tirage 1 contre place au tirage 2"
        # a fixed detail is said as a label; one whose parts do not make it, as stored
        assert decided_detail({"detail": "coin flip"}) == "pile ou face"
        assert decided_detail({**kept, "detail": "as typed"}) == "as typed"
    with translation.override("en"):
        assert decided_detail(kept) == kept["detail"]


def test_a_tiebreak_keeps_the_parts_of_its_detail():
    from rules.tiebreaks import Step, rank

    ranking = rank(["a", "b"], [Step("sb", "Sonneborn-Berger", lambda t: {"a": 3.5, "b": 1})])
    (decided,) = ranking.decided
    assert decided == Decided(
        "a",
        "b",
        "sb",
        "Sonneborn-Berger 3.5 against 1",
        {"label": "Sonneborn-Berger", "ahead": "3.5", "behind": "1"},
    )
    with translation.override("fr"):
        assert decided_detail(decided) == "Sonneborn-Berger 3,5 contre 1"


def test_the_said_filter_says_a_label():
    with translation.override("fr"):
        assert Template("{{ x|said }}").render(Context({"x": "Round 2"})) == "Ronde 2"


def _get(client, url, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(url)


@pytest.fixture
def event(director):
    event = round_robin_event(director, players=5, slug="lyon")
    play_round(event, director, scores=lambda m: [40, 24])
    return event


@pytest.mark.django_db(transaction=True)
def test_a_french_standings_page_shows_french_columns_and_round_labels(client, event):
    text = _get(client, reverse("tournaments:standings", args=[event.slug]), "fr").content.decode()
    # the columns of the round robin (rules/formats/round_robin.py) and their help
    assert '<abbr title="Sonneborn-Berger">SB</abbr>' in text
    assert "<b>Gag</b> Parties gagnées" in text
    assert "Différence de score" in text
    assert "Games won" not in text and "Score difference" not in text
    assert ">Classement</h3>" in text  # the table's title
    assert "Ronde 1" in text and "Round 1" not in text  # the event's rounds, in its menu
    english = _get(client, reverse("tournaments:standings", args=[event.slug]), "en")
    text = english.content.decode()
    assert "<b>Won</b> Games won" in text and "Round 1" in text


@pytest.mark.django_db(transaction=True)
def test_a_french_round_page_says_the_round_and_the_bye(client, event):
    text = _get(client, reverse("tournaments:round", args=[event.slug, 1]), "fr").content.decode()
    assert "<title>Ronde 1 ·" in text
    assert "Round 1" not in text
    assert "exempt" in text
