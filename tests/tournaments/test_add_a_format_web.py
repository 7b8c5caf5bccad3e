"""A format added by the recipe of docs/formats/README.md is served by the web side.

The toy duel of tests/rules/test_add_a_format.py (its rules package, written to a temporary
folder) gets a web package beside it, as the recipe's web step says: ``ui.py`` registering
its FormatUI, a ``templates/`` folder holding its result inputs and a ``static/`` folder.
Both are registered under the key, and then an event of that format is created on the
director's screens, a round drafted and published, a result saved through the generic
results screen, and the public standings and pairings answer with the entrants: the same
lookups every built-in format goes through (issue 23, item 1).
"""

from __future__ import annotations

import sys
import textwrap
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.template.autoreload import reset_loaders
from django.urls import reverse

from rules import registry as rules_registry
from tests.rules.test_add_a_format import PACKAGE, SOURCES
from tournaments.formats import FormatUI, registry, ui_for
from tournaments.models import Event, Match, Round
from tournaments.services import events

# the standings are computed after the result's transaction commits, as in production
pytestmark = pytest.mark.django_db(transaction=True)

WEB_PACKAGE = "toy_duel_web"
WEB_SOURCES = {
    "__init__.py": '"""The duel\'s web side."""\n',
    "ui.py": """
        from tournaments.formats import FormatUI, register

        register(
            "duel",
            FormatUI(score_label="Points", inputs_template="toy_duel/_result_inputs.html"),
        )
    """,
    "templates/toy_duel/_result_inputs.html": """
        <span class="duel-inputs">duel inputs</span>
        {% include "tournaments/manage/_result_inputs.html" %}
    """,
    "static/toy_duel/duel.css": ".duel-inputs { font-weight: bold; }\n",
}
HTMX = {"HTTP_HX_REQUEST": "true"}


def _write(folder: Path, sources: dict[str, str]) -> None:
    for name, source in sources.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")


@pytest.fixture
def duel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    _write(tmp_path / PACKAGE, SOURCES)
    _write(tmp_path / WEB_PACKAGE, WEB_SOURCES)
    monkeypatch.syspath_prepend(str(tmp_path))
    # the two lines a plugin writes: its rules package and its web package
    rules_registry.register("duel", PACKAGE)
    registry.register_package("duel", WEB_PACKAGE)
    try:
        yield "duel"
    finally:
        registry.unregister_package("duel")
        rules_registry.unregister("duel")
        for name in [n for n in sys.modules if n.split(".")[0] in (PACKAGE, WEB_PACKAGE)]:
            del sys.modules[name]
        reset_loaders()  # the cached templates of the toy's folder


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def test_an_event_of_a_registered_format_is_created_played_and_shown(duel, signed_in, director):
    # a name of its own: public pages are cached in the shared Redis under their address
    name = f"Duel {uuid.uuid4().hex[:8]}"
    create = reverse("tournaments:manage_create")
    assert 'value="duel"' in signed_in.get(create).content.decode()  # a format to choose
    created = signed_in.post(
        create, {"name": name, "format": duel, "public": "on", "time_zone": "UTC", "save": "1"}
    )
    assert created.status_code == 302
    event = Event.objects.get(name=name)
    assert event.format == duel
    for player in ("Ann Duellist", "Bob Duellist"):
        events.add_entrant(event, name=player, by=director)
    slug = event.slug

    assert signed_in.post(reverse("tournaments:manage_draft", args=[slug])).status_code == 302
    signed_in.post(reverse("tournaments:manage_round_action", args=[slug, 1, "publish"]))
    assert Round.objects.get(event=event, number=1).status == "published"

    # the results screen shows the format's own inputs, from its package's templates/
    screen = signed_in.get(reverse("tournaments:manage_round", args=[slug, 1]))
    assert screen.status_code == 200
    assert "duel inputs" in screen.content.decode()
    match = Match.objects.get(round__event=event)
    save = reverse("tournaments:manage_result", args=[slug, match.pk])
    tie = signed_in.post(save, {"version": 0, "g1-s0": "4", "g1-s1": "4"}, **HTMX)
    assert tie.status_code == 422  # the engine's rule, through the generic screen
    saved = signed_in.post(save, {"version": 0, "g1-s0": "7", "g1-s1": "3"}, **HTMX)
    assert saved.status_code == 200 and "Saved" in saved.content.decode()
    assert Match.objects.get(pk=match.pk).games.get().scores == [7, 3]

    signed_in.logout()
    for page in (
        reverse("tournaments:standings", args=[slug]),
        reverse("tournaments:round", args=[slug, 1]),
    ):
        response = signed_in.get(page)
        assert response.status_code == 200, page
        text = response.content.decode()
        assert "Ann Duellist" in text and "Bob Duellist" in text, page
    standings = signed_in.get(reverse("tournaments:standings", args=[slug])).content.decode()
    assert "Won" in standings  # the engine's column

    # its stylesheet is found under the name it would have in tournaments/static/
    found = finders.find("toy_duel/duel.css")
    assert found is not None and Path(found).is_relative_to(
        Path(sys.modules[WEB_PACKAGE].__path__[0])
    )


def test_its_registration_is_undone(duel, director):
    event = events.create_event(slug="duel-gone", name="Duel gone", format=duel, by=director)
    assert ui_for(event).inputs_template == "toy_duel/_result_inputs.html"
    assert any(WEB_PACKAGE in str(folder) for folder in registry.folders("templates"))
    registry.unregister_package(duel)
    try:
        # the web side falls back to tournaments/formats/duel/, which does not exist
        assert registry.ui_module(duel) is None
        assert type(ui_for(event)) is FormatUI
        assert ui_for(event).inputs_template == FormatUI().inputs_template
        assert not any(WEB_PACKAGE in str(folder) for folder in registry.folders("static"))
        assert finders.find("toy_duel/duel.css") is None
    finally:
        registry.register_package(duel, WEB_PACKAGE)
