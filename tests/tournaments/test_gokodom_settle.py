"""Issue 28, item 4: settling a GokoDom dispute. The "Needs you" link opens the disputed
match with both players' accounts, the note and the decision; the decision is one
player's account or a result code for each player, saved through the format's services
under a version check (a stale form never overwrites a newer result) with an audit row,
and both players (those with an e-mail) are mailed it after the commit."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_format_gokodom import (
    client_for,
    games,
    pair,
    post,
    quarter_finals,
    start,
)
from tournaments.formats.gokodom import services as gokodom
from tournaments.formats.gokodom import services_settle
from tournaments.formats.gokodom.claims import seen_mark
from tournaments.models import AuditEntry, Match, Notification, ResultChange
from tournaments.services.errors import InvalidResult, StaleResult

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def disputed(director):
    """A Swiss match: A reported a win, B disputed it ("I won on time") and says B won."""
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    gokodom.report(match, a, outcome="W", by=a.user)
    post(client_for(b), "dispute", event, match, {"note": "I won on time", "outcome": "W"})
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:gokodom_settle", args=[event.slug, match.pk])
    return {"event": event, "match": match, "a": a, "b": b, "client": client, "url": url}


def _form(d, **data):
    match = Match.objects.get(pk=d["match"].pk)
    fields = {"version": match.version, "seen": seen_mark(match.details["report"])}
    return {**fields, **data}


def test_the_link_opens_both_accounts_the_note_and_the_decision(disputed):
    d = disputed
    dashboard = d["client"].get(reverse("tournaments:manage", args=[d["event"].slug]))
    assert f'href="{d["url"]}"' in dashboard.content.decode()
    page = d["client"].get(d["url"])
    assert page.status_code == 200
    text = page.content.decode()
    a, b = d["a"], d["b"]
    assert f"{a.name} says {a.name} won" in text and f"{b.name} says {b.name} won" in text
    assert "I won on time" in text and f"What is wrong, says {b.name}" in text
    assert f"{a.name}'s account" in text and f"{b.name}'s account" in text
    assert f'name="code-{a.number}"' in text and f'name="code-{b.number}"' in text
    assert "Settle the result" in text
    # the season page links each disputed match to it too
    season = d["client"].get(reverse("tournaments:gokodom_manage", args=[d["event"].slug]))
    assert f'href="{d["url"]}"' in season.content.decode()


def test_settling_with_one_players_account_records_it_with_an_audit_row(disputed):
    d = disputed
    a, b = d["a"], d["b"]
    answer = d["client"].post(d["url"], _form(d, decision="counter", reason="the clock log"))
    assert answer.status_code == 302
    assert answer["Location"] == reverse("tournaments:manage", args=[d["event"].slug])
    match = Match.objects.get(pk=d["match"].pk)
    assert match.details["results"] == {str(a.number): "L", str(b.number): "W"}
    assert match.result["complete"] and match.version == 1
    assert match.details["report"]["status"] == "settled"
    change = ResultChange.objects.get(match=match)
    assert change.changed_by.username == "director" and change.reason == "the clock log"
    logged = AuditEntry.objects.get(action="gokodom.dispute_settled")
    assert logged.before["note"] == "I won on time"
    assert f"{a.name} says {a.name} won" in logged.before["accounts"]
    assert logged.after["codes"] == {a.name: "L", b.name: "W"}
    # it no longer needs the director
    dashboard = d["client"].get(reverse("tournaments:manage", args=[d["event"].slug]))
    assert "Needs you" not in dashboard.content.decode()
    assert f"{match.code} is settled: {a.name} L, {b.name} W." in dashboard.content.decode()


def test_settling_with_result_codes_of_the_directors_choice(disputed):
    d = disputed
    a, b = d["a"], d["b"]
    codes = {f"code-{a.number}": "wd", f"code-{b.number}": "LD"}
    answer = d["client"].post(d["url"], _form(d, **codes))  # no choice ticked: the codes
    assert answer.status_code == 302
    match = Match.objects.get(pk=d["match"].pk)
    assert match.details["results"] == {str(a.number): "WD", str(b.number): "LD"}


def test_bad_input_names_the_field_and_saves_nothing(disputed):
    d = disputed
    a, b = d["a"], d["b"]
    nothing = d["client"].post(d["url"], _form(d))
    assert nothing.status_code == 422
    assert "a result code (W, L, D, WD, DD or LD) for each player" in nothing.content.decode()
    half = d["client"].post(d["url"], _form(d, decision="codes", **{f"code-{a.number}": "W"}))
    assert half.status_code == 422
    assert 'aria-invalid="true"' in half.content.decode()
    wrong = d["client"].post(
        d["url"], _form(d, decision="codes", **{f"code-{a.number}": "X", f"code-{b.number}": "L"})
    )
    assert wrong.status_code == 422
    assert "Choose one result code (W, L, D, WD, DD or LD) for each player" in (
        wrong.content.decode()
    )
    match = Match.objects.get(pk=d["match"].pk)
    assert match.result is None and match.version == 0
    assert match.details["report"]["status"] == "disputed"
    assert not ResultChange.objects.exists()
    assert not AuditEntry.objects.filter(action="gokodom.dispute_settled").exists()


def test_a_stale_form_never_overwrites_a_newer_result(disputed):
    """Opened before a player accepted the other's account (the result is recorded, the
    version rose): the decision is refused and the page shows the result as it is."""
    d = disputed
    stale = _form(d, decision="report")
    gokodom.confirm(Match.objects.get(pk=d["match"].pk), d["a"], by=d["a"].user)
    answer = d["client"].post(d["url"], stale)
    assert answer.status_code == 409
    assert "Someone else saved a result for this match" in answer.content.decode()
    match = Match.objects.get(pk=d["match"].pk)
    assert match.details["results"][str(d["b"].number)] == "W"  # B's account, accepted
    assert not AuditEntry.objects.filter(action="gokodom.dispute_settled").exists()
    with pytest.raises(StaleResult):
        services_settle.settle(match, expected_version=0, seen="", claim="report", by=None)


def test_an_account_changed_since_it_was_shown_is_not_recorded(disputed):
    """Reporting writes no new version: the accounts the director read are checked too."""
    d = disputed
    shown = _form(d, decision="report")
    gokodom.report(Match.objects.get(pk=d["match"].pk), d["a"], outcome="D", by=d["a"].user)
    answer = d["client"].post(d["url"], shown)
    assert answer.status_code == 409
    text = answer.content.decode()
    assert "changed their account since you opened this page" in text
    assert f"{d['a'].name} says it was a draw" in text
    assert Match.objects.get(pk=d["match"].pk).result is None


def test_codes_outside_the_list_are_refused_by_the_service_too(disputed):
    d = disputed
    match = Match.objects.get(pk=d["match"].pk)
    with pytest.raises(InvalidResult) as refused:
        services_settle.settle(
            match,
            expected_version=0,
            seen=seen_mark(match.details["report"]),
            codes={str(d["a"].number): "W", str(d["b"].number): "X"},
            by=None,
        )
    assert refused.value.problems[0].field == "codes"


def test_an_elimination_dispute_is_settled_with_one_players_games(director):
    event, qf = quarter_finals(director)
    match, a, b = pair(qf)
    post(client_for(a), "report", event, match, games("0", "0", "1", "0", first="0"))
    post(client_for(b), "dispute", event, match, {"note": "game 4 was mine"})
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:gokodom_settle", args=[event.slug, match.pk])
    page = client.get(url).content.decode()
    assert f"{a.name} says {a.name} won (3-1)" in page and "game 4 was mine" in page
    assert 'name="code-' not in page and "Results grid" in page  # games, not codes
    version = Match.objects.get(pk=match.pk).version
    codes_only = client.post(
        url,
        {"version": version, "seen": seen_mark(Match.objects.get(pk=match.pk).details["report"])},
    )
    assert codes_only.status_code == 422 and "Choose one player" in codes_only.content.decode()
    fields = {
        "version": version,
        "seen": seen_mark(Match.objects.get(pk=match.pk).details["report"]),
    }
    answer = client.post(url, {**fields, "decision": "report"})
    assert answer.status_code == 302
    match = Match.objects.get(pk=match.pk)
    assert match.result["complete"] and match.result["summary"] == "3-1"
    assert match.games.count() == 4 and match.details["report"]["status"] == "settled"
    assert services_settle.decided(match) == f"{a.name} won 3-1"
    assert AuditEntry.objects.filter(action="gokodom.dispute_settled").count() == 1


def test_both_players_with_an_e_mail_are_mailed_the_decision(
    disputed, django_capture_on_commit_callbacks
):
    d = disputed
    a, b = d["a"], d["b"]
    a.user.email = "ann@example.org"
    a.user.save(update_fields=["email"])
    b.user.email = "bob@example.org"
    b.user.save(update_fields=["email"])
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        answer = d["client"].post(d["url"], _form(d, decision="counter"))
    assert answer.status_code == 302
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "bob@example.org"]
    match = Match.objects.get(pk=d["match"].pk)
    for message in mail.outbox:
        assert f"the director decided the result of {match.round.label} {match.code}" in (
            message.subject
        )
        assert f"The director decided the disputed result of {match.round.label}" in message.body
        assert f"{match.code}: {a.name} L, {b.name} W." in message.body
        assert f"{a.name} says {a.name} won" in message.body
    rows = Notification.objects.filter(kind=Notification.Kind.SETTLED)
    assert rows.count() == 2 and all(r.status == "sent" for r in rows)


def test_a_player_without_an_e_mail_gets_none(disputed, django_capture_on_commit_callbacks):
    d = disputed
    d["a"].user.email = "ann@example.org"
    d["a"].user.save(update_fields=["email"])
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        d["client"].post(d["url"], _form(d, decision="report"))
    assert [m.to[0] for m in mail.outbox] == ["ann@example.org"]


def test_a_match_that_is_not_disputed_offers_no_decision(disputed):
    d = disputed
    gokodom.confirm(Match.objects.get(pk=d["match"].pk), d["a"], by=d["a"].user)
    page = d["client"].get(d["url"]).content.decode()
    assert "Settle the result" not in page
    a, b = d["a"], d["b"]
    assert re.search(rf"Result: <strong>{a.name} L, {b.name} W</strong>", page)
