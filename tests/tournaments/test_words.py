"""Words at the edge (issue 21, finding 10): no internal code reaches a director's or a
visitor's page: audit actions, raw draw values, setting codes, round labels that do not
match what the standings hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import play_round, round_robin_event
from tournaments import audit_words
from tournaments.forms import SettingsForm
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def written_actions() -> set[str]:
    found = set()
    for path in [
        *ROOT.joinpath("tournaments").rglob("*.py"),
        *ROOT.joinpath("accounts").rglob("*.py"),
    ]:
        text = path.read_text()
        found |= set(re.findall(r'audit\.log\(\s*[^,]+,\s*"([a-z_]+\.[a-z_.]+)"', text, re.S))
        found |= set(re.findall(r'action\s*=\s*"([a-z_]+\.[a-z_.]+)"', text))
    return found


def test_every_audit_action_the_code_writes_has_words():
    actions = written_actions()
    assert len(actions) > 20, "the scan finds the actions"
    assert actions - set(audit_words.ACTIONS) == set()


def test_the_dashboard_shows_changes_in_words(client, director):
    event = round_robin_event(director, players=4, slug="words")
    play_round(event, director)
    client.force_login(director)
    page = client.get(reverse("tournaments:manage", args=[event.slug])).content.decode()
    assert "Round published" in page and "round.published" not in page
    assert "entrant.added" not in page


def test_the_draws_page_says_who_was_drawn_in_which_order(client, director):
    event = round_robin_event(director, players=4, slug="lots", draw_numbers="lot")
    rounds.draft_next_round(event, by=director)
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_draws", args=[event.slug])).content.decode()
    assert "['" not in page
    assert re.search(r'<ol class="drawn-order"><li>Player \d \(#\d\)</li>', page)


def test_a_setting_choice_reads_as_words():
    form = SettingsForm("woc")
    choices = dict(form.fields["setting_system"].choices)
    assert choices["modified_swiss"] == "modified swiss"


def test_standings_say_after_which_round_and_what_is_in_play(
    client, director, django_capture_on_commit_callbacks
):
    event = round_robin_event(director, players=4, slug="moment")
    with django_capture_on_commit_callbacks(execute=True):  # the standings are computed
        play_round(event, director)
        play_round(event, director, complete=False)  # round 2 published, its results in
    page = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert "After round 1, with the results of Round 2 so far" in page
    assert "After round 2" not in page
