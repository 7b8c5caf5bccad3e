"""Django admin cannot change what a service must write with its audit row.

A round's status (publishing, closing), an entrant's status (a withdrawal), an event's
format and its settings carry rules: changing them in the admin wrote no audit row and
raised no results version. They are read-only there; the director's screens change them
through the services. Each test posts a whole change form, as the page would, with the
guarded field changed and one harmless field changed too: the save goes through (the
harmless change is kept) and the guarded value stays.
"""

from __future__ import annotations

import json

import pytest
from django.forms.widgets import SplitDateTimeWidget
from django.urls import reverse

from tests.factories import round_robin_event
from tournaments.models import AuditEntry, Entrant, Event, ResultChange, Round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def _value(field, bound):
    value = bound.value()
    return "" if value is None else value


def page_data(response) -> dict:
    """What the change page's form posts back unchanged (the form and its inlines)."""
    data: dict = {}

    def add(form):
        for name, field in form.fields.items():
            bound = form[name]
            key = form.add_prefix(name)
            value = _value(field, bound)
            if isinstance(field.widget, SplitDateTimeWidget):
                parts = field.widget.decompress(bound.value())
                data[f"{key}_0"], data[f"{key}_1"] = (p or "" for p in parts)
            elif isinstance(value, bool):
                if value:
                    data[key] = "on"
            elif isinstance(value, list | tuple):
                data[key] = [str(v) for v in value]
            else:
                data[key] = value

    add(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        add(formset.management_form)
        for form in formset.forms:
            add(form)
    return data


def post_change(client, obj, changes: dict):
    url = reverse(f"admin:tournaments_{obj._meta.model_name}_change", args=[obj.pk])
    page = client.get(url)
    assert page.status_code == 200
    data = {**page_data(page), **changes}
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    return response


@pytest.fixture
def event(director):
    event = round_robin_event(director, players=4, slug="adm")
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    return event


@pytest.fixture
def signed_in(client, admin_user):
    client.force_login(admin_user)
    return client


def _quiet(event):
    """What a service's write would leave: audit rows, result rows, the results version."""
    event.refresh_from_db()
    return (AuditEntry.objects.count(), ResultChange.objects.count(), event.results_version)


def test_a_rounds_status_stays_as_the_services_left_it(signed_in, event):
    rnd = event.rounds.get(number=1)
    before = _quiet(event)
    post_change(signed_in, rnd, {"status": Round.Status.COMPLETED, "label": "First round"})
    rnd.refresh_from_db()
    assert rnd.label == "First round"  # the form was saved
    assert rnd.status == Round.Status.PUBLISHED
    assert _quiet(event) == before


def test_an_entrants_status_stays_a_withdrawal_is_the_services(signed_in, event):
    entrant = event.entrants.get(number=2)
    before = _quiet(event)
    post_change(
        signed_in,
        entrant,
        {"status": Entrant.Status.WITHDRAWN, "withdrawn_after_round": "1", "name": "Renamed"},
    )
    entrant.refresh_from_db()
    assert entrant.name == "Renamed"
    assert entrant.status == Entrant.Status.ACTIVE and entrant.withdrawn_after_round is None
    assert _quiet(event) == before


def test_an_events_format_and_settings_stay(signed_in, event):
    settings = dict(event.settings)
    before = _quiet(event)
    post_change(
        signed_in,
        event,
        {
            "format": "freestyle",
            "settings": json.dumps({**settings, "rounds": 99}),
            "venue": "Town hall",
        },
    )
    event.refresh_from_db()
    assert event.venue == "Town hall"
    assert event.format == "round_robin" and event.settings == settings
    assert _quiet(event) == before


def test_a_new_event_still_gets_its_format_in_the_admin(signed_in):
    url = reverse("admin:tournaments_event_add")
    form = signed_in.get(url).context["adminform"].form
    assert "format" in form.fields and "settings" in form.fields
    assert not Event.objects.exists()
