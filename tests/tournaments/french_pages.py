"""What is English on a French page: the words a reader sees (text and the attributes read
aloud or shown on hover), compared with the English of the catalogue and of rules/' label
patterns. Shared by the director pages' French test and its browser twin."""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from functools import cache
from html.parser import HTMLParser

from django.utils import translation

from rules import words
from tests.tournaments.catalogue import po_entries

# Elements whose text is not prose in the page's language: code, a file's example lines,
# the language switch's own "English".
SKIPPED = {"script", "style", "code", "pre", "textarea", "option"}
READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "data-confirm")
# Bits of text that are the same in both languages or not words: punctuation around a part.
TRIM = " \t\n()[]:;,.·\u2013-\u2014…“”\"'"  # en and em dashes too


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.depth: list[str] = []  # open skipped elements

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        # translate="no": what the director typed as a code (an entrant's format flags)
        if tag in SKIPPED or found.get("lang") == "en" or found.get("translate") == "no":
            if tag not in {"input", "br", "img", "meta", "link"}:
                self.depth.append(tag)
            return
        if self.depth:
            return
        self.texts.extend(found[a] or "" for a in READ_ATTRIBUTES if found.get(a))

    def handle_endtag(self, tag: str) -> None:
        if self.depth and self.depth[-1] == tag:
            self.depth.pop()

    def handle_data(self, data: str) -> None:
        if not self.depth and data.strip():
            self.texts.append(data)


def read_texts(page: str) -> list[str]:
    """The words of a page's body as a reader meets them, each run of text apart."""
    head, found, body = page.partition("<body")
    body = body.partition(">")[2] if found else head
    reader = _Reader()
    reader.feed(body)
    return [" ".join(t.split()) for t in reader.texts if t.strip()]


@cache
def english_sentences() -> frozenset[str]:
    """Every marked English sentence the French says otherwise (a word the same in both
    languages, "Buchholz", is not English on a French page)."""
    return frozenset(
        e.msgid
        for e in po_entries()
        if e.msgstr
        and e.msgstr != e.msgid
        and "%(" not in e.msgid
        and len(re.sub(r"[^A-Za-z]", "", e.msgid)) >= 3
    )


@cache
def english_label_patterns() -> tuple[re.Pattern[str], ...]:
    """rules/' label patterns that French says otherwise ("Round {n}" is "Ronde {n}"), as
    expressions finding their English fixed words around any part."""
    found = []
    with translation.override("fr"):
        for pattern in words.patterns():
            if translation.gettext(pattern) == pattern:
                continue
            parts = []
            for literal, field, _spec, _conversion in string.Formatter().parse(pattern):
                parts.append(re.escape(literal))
                if field is not None:
                    parts.append(r"\S+?")
            expression = "".join(parts)
            if len(re.sub(r"[^A-Za-z]", "", words.fixed_text(pattern))) >= 3:
                found.append(re.compile(rf"(?<![\w-]){expression}(?![\w-])"))
    return tuple(found)


# English the issue found that no single msgid matches: a seat in brackets, a stored
# column label, a table's title said inside a longer text.
KNOWN = re.compile(r"\((?:black|white)\)|Points / Discs|\bStandings\b|\bbye\b")
# Not English, but not French either: a month with a capital inside a date ("2 Déc 14:05",
# Django's "M"), a round's label with its capital inside a sentence ("de Ronde 4").
NOT_FRENCH = re.compile(
    r"\b\d{1,2} (?:Jan|Fév|Mar|Avr|Mai|Jui|Jul|Aoû|Sep|Oct|Nov|Déc)\b|\b(?:de|la|du) Ronde \d"
)


def english_leftovers(page: str, names: Iterable[str] = ()) -> list[str]:
    """The runs of text of a French page that are English, each as the reader sees it.
    ``names`` (of events, entrants) are what a director typed: they are not words."""
    sentences = english_sentences()
    patterns = english_label_patterns()
    typed = sorted((n for n in names if n), key=len, reverse=True)
    found = []
    for text in read_texts(page):
        for name in typed:
            text = text.replace(name, "…")
        bare = text.strip(TRIM)
        if (
            bare in sentences
            or KNOWN.search(text)
            or NOT_FRENCH.search(text)
            or any(p.search(text) for p in patterns)
        ):
            found.append(text[:160])
    return found
