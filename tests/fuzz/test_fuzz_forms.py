"""Hostile form posts to every URL that takes a POST (the rows of the authorization TABLE),
as the director, the player and a stranger, plus each form class on its own.

For every post: no server error (the test client re-raises any uncaught exception); a
refused post (400, 403, 404, 405, 409, 422, 429) leaves the database exactly as it was; a 422
page says what is wrong next to the field (an element with role="alert" or an errorlist).
"""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from accounts.forms import ClaimForm, SignUpForm
from rules import registry
from tests.fuzz.conftest import TALLY, digest, fuzz_settings
from tests.fuzz.strategies import form_values
from tests.test_authorization import PARAMS, TABLE, _clients, _format_events, _url, world
from tournaments.forms import (
    CsvImportForm,
    DrawForm,
    EntrantForm,
    EventForm,
    SettingsForm,
    SwapForm,
)

__all__ = ["world"]  # the fixture, imported for pytest

pytestmark = pytest.mark.django_db

REFUSED = {400, 403, 404, 405, 409, 422, 429}
NAME = re.compile(r'<(?:input|select|textarea)[^>]*\sname="([^"]+)"')
SKIP = {"accounts:logout"}  # signs the client out: nothing to fuzz
PER_ENTRY = 1  # CI examples per POST entry point (about 50 of them); bench/fuzz.py: more


def _entries(world) -> list[tuple[str, str, dict]]:
    entries = []
    for name in sorted(TABLE):
        if name in SKIP or name not in PARAMS:
            continue
        for case in TABLE[name]:
            if case.method == "POST":
                if case.format != "round_robin":
                    _format_events(world, case.format)
                entries.append((name, _url(name, PARAMS[name], world, case), dict(case.data)))
    return entries


def _field_names(clients, world) -> list[str]:
    """Every field name the director's and the player's pages show: what posts are made of."""
    names = {"version", "csrfmiddlewaretoken", "next", "text", "reason", "value", "kind"}
    for name in sorted(TABLE):
        for case in TABLE[name]:
            if case.method != "GET" or name in SKIP or name not in PARAMS:
                continue
            url = _url(name, PARAMS[name], world, case)
            response = clients["director"].get(url)
            if response.status_code == 200 and "html" in response.get("Content-Type", ""):
                names.update(NAME.findall(response.content.decode()))
    return sorted(names)


def test_every_post_endpoint(world):
    clients = _clients(world)
    entries = _entries(world)
    names = _field_names(clients, world)
    personas = ["director", "director", "director", "player", "anonymous", "other_director"]

    @fuzz_settings(ci=PER_ENTRY * len(entries))
    @given(
        entry=st.sampled_from(entries),
        persona=st.sampled_from(personas),
        fields=st.dictionaries(st.sampled_from(names), form_values(), max_size=8),
        htmx=st.booleans(),
    )
    def post(entry, persona, fields, htmx):
        name, url, base = entry
        data = {**base, **fields}
        headers = {"HX-Request": "true"} if htmx else {}
        with transaction.atomic():
            before = digest()
            response = clients[persona].post(url, data, headers=headers)
            status = response.status_code
            assert status < 500, f"{name}: HTTP {status} for {data!r}"
            if status in REFUSED:
                TALLY.add(f"POST {name}", "refused")
                assert digest() == before, f"{name}: a refused post ({status}) changed data"
                if status == 422:
                    body = response.content.decode()
                    assert 'role="alert"' in body or "errorlist" in body, (name, url, data)
            else:
                TALLY.add(f"POST {name}", f"answered {status}")
            transaction.set_rollback(True)

    post()


def test_an_empty_post_is_refused_with_a_message(world):
    """An empty form is refused with a message (several views once treated an empty POST
    as no form at all and answered 422 with nothing to read)."""
    director = _clients(world)["director"]
    for name, url, base in _entries(world):
        for headers in ({}, {"HX-Request": "true"}):  # the full page and the htmx partial
            with transaction.atomic():
                response = director.post(url, base, headers=headers)
                if response.status_code == 422:
                    body = response.content.decode()
                    assert 'role="alert"' in body or "errorlist" in body, (name, url, headers)
                transaction.set_rollback(True)


# -- the form classes on their own: every error is keyed by a field and says something --


def _check_errors(form, entry: str) -> None:
    if form.is_valid():
        TALLY.add(entry, "accepted")
        return
    TALLY.add(entry, "refused")
    for field, errors in form.errors.items():
        assert field == "__all__" or field in form.fields, (entry, field)
        assert all(str(e).strip() for e in errors), (entry, field)


def _data(names):
    return st.fixed_dictionaries({}, optional={n: form_values() for n in names})


@fuzz_settings()
@given(
    data=_data(["name", "slug", "public", "starts_on", "ends_on", "venue"]),
    # valid choices often enough that the other fields are checked too
    fmt=st.one_of(st.sampled_from(registry.formats()), form_values()),
    zone=st.one_of(st.sampled_from(["UTC", "Europe/Paris", "Asia/Tokyo"]), form_values()),
)
def test_event_form(data, fmt, zone):
    data = {**data, "format": fmt, "time_zone": zone}
    _check_errors(EventForm(data), "EventForm")


@fuzz_settings()
@given(fmt=st.sampled_from(["round_robin", "freestyle", "gokodom", "woc", "bot_contest",
                            "wpf_playoffs"]), data=st.data())  # fmt: skip
def test_settings_form(fmt, data):
    keys = [f"setting_{s.key}" for s in SettingsForm(fmt).engine.settings]
    _check_errors(SettingsForm(fmt, data.draw(_data(keys))), f"SettingsForm {fmt}")


@fuzz_settings()
@given(data=_data(["name", "family_name", "given_name", "rating", "seed", "country", "gender",
                   "team_name", "flags_text"]))  # fmt: skip
def test_entrant_form(director, data):
    from tests.factories import round_robin_event

    event = round_robin_event(director, players=2, slug="entrant-form")
    _check_errors(EntrantForm(data, event=event), "EntrantForm")
    event.delete()


@fuzz_settings()
@given(
    swap=_data(["first", "second", "reason"]),
    draw=_data(["key", "value", "low", "high"]),
    csv_text=_data(["text", "order"]),
    claim=_data(["code"]),
    signup=_data(["username", "email", "password1", "password2"]),
)
def test_small_forms(swap, draw, csv_text, claim, signup):
    _check_errors(SwapForm(swap), "SwapForm")
    _check_errors(DrawForm(draw), "DrawForm")
    _check_errors(CsvImportForm(csv_text), "CsvImportForm")
    _check_errors(ClaimForm(claim), "ClaimForm")
    _check_errors(SignUpForm(signup), "SignUpForm")
