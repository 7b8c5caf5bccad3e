"""Words at the edge (issue 23, item 3): the engines' codes are said through gettext, so
a French page says what an engine decided in French, from the code and parameters a
snapshot stores; the English stays where no page language applies (commands, logs)."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from rules import words
from rules.contract import Problem, Reason
from tests.tournaments.catalogue import PO, read_po
from tournaments.words import sentence, stored


def test_every_code_has_a_french_sentence_with_the_same_parameters():
    catalogue = read_po()
    problems = []
    for code, english in sorted(words.catalogue().items()):
        entry = catalogue.get(("", english))
        if entry is None:
            problems.append(f"{code}: {english!r} is not in {PO.name}; run `make messages`")
        elif not entry.msgstr.strip() or entry.fuzzy:
            problems.append(f"{code}: {english!r} has no French sentence (or a fuzzy one)")
        elif words.placeholders(entry.msgstr) != words.placeholders(english):
            problems.append(f"{code}: the French names other parameters than the English")
    assert not problems, "\n".join(problems)


def test_a_stored_reason_is_said_in_the_language_of_the_page():
    kept = stored(Problem("setting.unknown", "colour", params={"key": "colour"}))
    assert kept["code"] == "setting.unknown" and kept["params"] == {"key": "colour"}
    with translation.override("en"):
        assert sentence(kept) == "'colour' is not a setting of this format."
    with translation.override("fr"):
        french = sentence(kept)
    assert french != kept["text"] and "colour" in french


def test_a_message_inside_a_message_follows_the_language_too():
    problem = Problem(
        "setting.type",
        "rounds",
        params={"key": "rounds", "kind": words.message("setting.kind.number"), "value": "x"},
    )
    with translation.override("fr"):
        french = sentence(stored(problem))
    kind_en = words.catalogue()["setting.kind.number"]
    assert kind_en not in french
    with translation.override("fr"):
        assert translation.gettext(kind_en) in french


def test_without_a_sentence_the_carried_text_is_shown():
    """A service's own message (written in words, translated where it is built) and a
    snapshot stored before its parameters were kept both show the text they carry."""
    assert sentence({"code": "import.row", "text": "Line 3: no name."}) == "Line 3: no name."
    old = {"code": "setting.unknown", "text": "'x' is not a setting of this format."}
    with translation.override("fr"):
        assert sentence(old) == old["text"]  # no {key} stored: the English it was said in


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_said_filter_is_on_every_template(language):
    reason = Reason("absent", rule="r", params={"entrant": "1", "name": "Ann", "outcome": "—"})
    with translation.override(language):
        shown = Template("{{ r|said }}").render(Context({"r": reason}))
        assert shown == sentence(reason)
    assert "Ann" in shown


def test_a_message_stored_before_the_words_is_re_said_only_if_its_code_means_the_same():
    """A few codes were split when the sentences moved to the words modules: a snapshot
    from before keeps its own English rather than another sentence of the same code."""
    same = {
        "code": "setting.unknown",
        "params": {"key": "x"},
        "text": "'x' is not a setting of this format.",
    }
    changed = {"code": "setting.unknown", "params": {"key": "x"}, "text": "Some older wording."}
    with translation.override("fr"):
        assert sentence(same) != same["text"]
        assert sentence(changed) == changed["text"]
        # stored since: said from its code and parameters, even once the English it
        # carries is no longer the current wording
        kept = stored(Problem("setting.unknown", "f", params={"key": "x"}))
        kept["text"] = "An older English wording."
        assert sentence(kept) == sentence(same)


def test_a_service_s_own_words_under_an_engine_code_are_shown_as_written():
    own = Problem("setting.unknown", "f", "The service's own sentence.", {"key": "x"})
    with translation.override("fr"):
        assert sentence(own) == "The service's own sentence."
        assert sentence(stored(own)) == "The service's own sentence."
