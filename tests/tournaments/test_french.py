"""The public pages in French (issue 23, item 3): every string the public templates mark has
a French sentence, the committed .mo says what the .po says, a page follows the visitor's
language (cached or not), and the switch in the header brings the same page back in French."""

from __future__ import annotations

import re
import uuid
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.factories import play_round, round_robin_event
from tests.tournaments.catalogue import (
    PO,
    po_entries,
    public_msgids,
    read_mo,
    read_po,
    source_msgids,
)
from tournaments.endings import ending_notes
from tournaments.templatetags.arbiter_formats import role_label
from tournaments.views import pagecache, pagegen

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def test_every_string_of_the_public_pages_has_a_french_sentence():
    found = public_msgids()
    assert len(found) > 150, "the walk finds the public templates' strings"
    catalogue = read_po()
    problems = []
    for (context, msgid), template in sorted(found.items()):
        entry = catalogue.get((context, msgid))
        if entry is None:
            problems.append(f"{template}: {msgid!r} is not in {PO.name}; run `make messages`")
        elif not entry.msgstr.strip():
            problems.append(f"{template}: {msgid!r} has no French sentence")
        elif entry.fuzzy:
            problems.append(f"{template}: {msgid!r} is fuzzy (a guess by msgmerge): check it")
        elif set(PLACEHOLDER.findall(entry.msgstr)) != set(PLACEHOLDER.findall(msgid)):
            problems.append(f"{template}: {msgid!r} and its French differ in their %(...)s")
    assert not problems, "\n".join(problems)


def test_every_sentence_of_the_catalogue_is_in_french():
    """The director's screens too: a string added to the .po by `make messages` waits for
    its French here rather than showing English in the middle of a French page."""
    entries = po_entries()
    untranslated = sorted(e.msgid for e in entries if not e.msgstr.strip() or e.fuzzy)
    assert not untranslated, f"{len(untranslated)} without French: {untranslated[:10]}"


def test_the_walk_sees_strings_of_included_and_partial_templates():
    found = public_msgids()
    # base.html (extended), _event_nav.html (included), the standings partial
    assert ("", "Skip to content") in found
    assert ("", "Standings") in found
    assert ("", "Why these ties were broken") in found
    assert found[("", "Try again in a moment")] == "503.html"


def test_the_committed_mo_says_what_the_po_says():
    """Django reads the .mo; a .po translated but not compiled would show English."""
    compiled = read_mo()._catalog
    entries = [e for e in po_entries() if e.msgstr and not e.fuzzy]
    assert len(entries) > 150
    stale = [e.msgid for e in entries if compiled.get(e.mo_key) != e.msgstr]
    assert not stale, f"the .mo is older than the .po; run `make messages`: {stale[:5]}"
    translated = {e.mo_key for e in entries}
    extra = [key for key in compiled if key and key not in translated]
    assert not extra, f"the .mo holds sentences the .po no longer has: {extra[:5]}"


def test_french_and_english_are_the_languages():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "fr"]
    with translation.override("fr"):
        assert translation.gettext("Standings") == "Classement"
        assert translation.ngettext("%(n)s entrant", "%(n)s entrants", 2) == "%(n)s inscrits"
        assert translation.ngettext("%(n)s entrant", "%(n)s entrants", 1) == "%(n)s inscrit"


@pytest.fixture
def event(director):
    event = round_robin_event(director, players=5, slug="paris")
    play_round(event, director, scores=lambda m: [40, 24])
    return event


@pytest.fixture
def page_cache_on(settings):
    """The page cache as in production, under a key prefix of its own."""
    settings.ARBITER_PAGE_CACHE = True
    settings.CACHES = {
        name: {**conf, "KEY_PREFIX": f"fr-{uuid.uuid4().hex[:8]}"}
        for name, conf in settings.CACHES.items()
    }
    pagecache._down_until = pagegen._down_until = 0.0
    yield
    pagecache._down_until = pagegen._down_until = 0.0


def _get(client, url, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(url)


# Strings the templates mark (the words rules/ gives, a table's title, "Round 1" and the
# tiebreak names, are checked in test_engine_labels.py)
FRENCH_STANDINGS = [
    "Comment ces égalités ont été départagées",
    "Après la ronde 1",
    "Ce que signifient les perspectives",
    "peut gagner",
]
ENGLISH_STANDINGS = ["Why these ties were broken", "After round 1", "What the outlook means"]


@pytest.mark.django_db(transaction=True)
def test_the_same_cached_page_in_french_then_in_english(client, event, page_cache_on):
    url = reverse("tournaments:standings", args=[event.slug])
    french = _get(client, url, "fr")
    assert french["X-Page-Cache"] == "miss"
    text = french.content.decode()
    assert '<html lang="fr">' in text
    assert all(words in text for words in FRENCH_STANDINGS), text
    assert not any(words in text for words in [*ENGLISH_STANDINGS, "can win", "Skip to"])
    english = _get(client, url, "en")
    assert english["X-Page-Cache"] == "miss", "the language is part of the page's key"
    text = english.content.decode()
    assert '<html lang="en">' in text
    assert all(words in text for words in ENGLISH_STANDINGS)
    assert not any(words in text for words in FRENCH_STANDINGS)
    again = _get(client, url, "fr")
    assert again["X-Page-Cache"] == "hit"
    assert "Comment ces égalités ont été départagées" in again.content.decode()
    assert "Accept-Language" in again["Vary"] and "Cookie" in again["Vary"]


@pytest.mark.django_db(transaction=True)
def test_a_round_page_in_french(client, event):
    text = _get(client, reverse("tournaments:round", args=[event.slug, 1]), "fr").content.decode()
    assert '<html lang="fr">' in text
    for words in ["Terminée", "Trouver mon nom", "Aperçu", "Classement", "Aller au contenu"]:
        assert words in text, words
    for words in ["Find my name", "Overview", "Skip to content", ">Sign in<"]:
        assert words not in text, words
    assert "exempt" in text  # five players: one has the bye


@pytest.mark.django_db(transaction=True)
def test_the_browser_language_is_followed_without_a_cookie(client, event):
    url = reverse("tournaments:event", args=[event.slug])
    text = client.get(url, headers={"Accept-Language": "fr-FR,fr;q=0.9"}).content.decode()
    assert '<html lang="fr">' in text and "Aperçu" in text


@pytest.mark.django_db(transaction=True)
def test_the_switch_posts_to_set_language_and_comes_back_in_french(client, event):
    url = reverse("tournaments:standings", args=[event.slug]) + "?all=1"
    page = client.get(url).content.decode()
    switch = r'<form class="language" method="post" action="([^"]+)">(.*?)</form>'
    form = re.search(switch, page, re.S)
    assert form, "every page carries the language switch"
    assert form.group(1) == reverse("set_language")
    assert f'name="next" value="{url}"' in form.group(2).replace("&amp;", "&")
    button = r'<button type="submit" name="language" value="fr" lang="fr"[^>]*>Français<'
    assert re.search(button, form.group(2))
    assert 'value="en"' not in form.group(2), "the language shown is not offered"
    moved = client.post(reverse("set_language"), {"language": "fr", "next": url})
    assert moved.status_code == 302 and moved.url == url
    back = client.get(moved.url).content.decode()
    assert '<html lang="fr">' in back and "Classement" in back
    assert re.search(r'value="en" lang="en"[^>]*>English<', back), "and back to English from there"


@pytest.mark.django_db
def test_the_switch_refuses_a_get(client):
    assert client.get(reverse("set_language"), {"language": "fr"}).status_code == 405


class _Participants:
    def __init__(self, *names):
        self.names = names

    def all(self):
        return [SimpleNamespace(entrant=SimpleNamespace(name=name)) for name in self.names]


def test_a_game_ending_and_a_seat_are_worded_in_the_language_of_the_page():
    """The words are looked up when the page is built, not once when the module loads."""
    match = SimpleNamespace(
        result={"endings": [[1, "resignation", 0]]}, participants=_Participants("Ann", "Bob")
    )
    with translation.override("fr"):
        assert ending_notes(match) == ["Ann a abandonné"]
        assert str(role_label("black")) == "noir" and role_label("A") == "A"
    with translation.override("en"):
        assert ending_notes(match) == ["Ann resigned"]
        assert str(role_label("black")) == "black"


def test_every_gettext_call_is_one_makemessages_can_see():
    """xgettext knows gettext, gettext_lazy, ngettext, pgettext... and "_": a string marked
    through another alias (``gettext as _g``) never reaches the .po and stays English."""
    alias = re.compile(r"from django\.utils\.translation import \w*gettext\w* as (\w+)")
    root = PO.parents[3]
    found = [
        f"{path.relative_to(root)}: as {name}"
        for folder in ("tournaments", "accounts", "config")
        for path in (root / folder).rglob("*.py")
        for name in alias.findall(path.read_text(encoding="utf-8"))
        if name != "_"
    ]
    assert not found, found


def test_every_marked_string_of_the_code_and_templates_is_in_the_catalogue():
    """A string marked after the last `make messages` is in no .po, so no other test sees it
    untranslated: the webhook screens were English on French pages that way."""
    catalogue = read_po()
    found = source_msgids()
    assert len(found) > 1000, "the walk finds the project's marked strings"
    missing = sorted(
        f"{where}: {msgid!r}"
        for (context, msgid), where in found.items()
        if (context, msgid) not in catalogue
    )
    assert not missing, f"{len(missing)} not in {PO.name} (run `make messages`):\n" + "\n".join(
        missing[:30]
    )
