"""Issue 30 step 7: "A whole-event export over the API: /api/v1/events/<slug>/export returns
the lossless event file for a director's token (read scopes per token; tokens made and
revoked on the director's screen, stored hashed)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from tests.factories import play_round, round_robin_event
from tournaments.models import ApiToken, AuditEntry
from tournaments.services import api_tokens, eventfile

pytestmark = pytest.mark.django_db

URL = "/api/v1/events/{}/export/"


@pytest.fixture
def played(director):
    event = round_robin_event(director, players=6, slug="rr-export")
    play_round(event, director)
    play_round(event, director, scores=lambda match: [1, 1])
    event.refresh_from_db()
    return event


def _token(event, director, scopes=("export:read",), **kwargs):
    return api_tokens.create(event, name="mirror", scopes=list(scopes), by=director, **kwargs)


def _export(client, slug, secret, **headers):
    if secret is not None:
        headers["Authorization"] = f"Bearer {secret}"
    return client.get(URL.format(slug), headers=headers)


# -- the file --------------------------------------------------------------------------------


def test_the_export_is_the_directors_download_byte_for_byte(client, director, played):
    _row, secret = _token(played, director)
    answer = _export(client, played.slug, secret)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json; charset=utf-8"
    assert answer["Content-Disposition"] == 'attachment; filename="rr-export.json"'
    client.force_login(director)
    download = client.get(reverse("tournaments:manage_export_event", args=[played.slug]))
    assert download.status_code == 200
    assert answer.content == download.content


def test_the_export_round_trips_through_the_import(client, director, played):
    _row, secret = _token(played, director)
    data = json.loads(_export(client, played.slug, secret).content)
    assert data["arbiter_event_file"] == eventfile.FILE_VERSION
    data["event"]["slug"] = "rr-export-copy"
    copy = eventfile.import_event(data, by=director)
    again = eventfile.export_event(copy)
    assert again["event"]["slug"] == "rr-export-copy"
    again["event"]["slug"] = played.slug
    assert again == json.loads(_export(client, played.slug, secret).content)
    assert len(again["rounds"]) == 2


def test_etag_answers_304_while_the_event_is_unchanged(client, director, played):
    _row, secret = _token(played, director)
    first = _export(client, played.slug, secret)
    etag = first["ETag"]
    assert "private" in first["Cache-Control"] and "Authorization" in first["Vary"]
    same = _export(client, played.slug, secret, **{"If-None-Match": etag})
    assert same.status_code == 304 and same.content == b""
    play_round(played, director)  # a new round: the file and its tag change
    changed = _export(client, played.slug, secret, **{"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag


# -- refusals --------------------------------------------------------------------------------


def test_no_token_is_a_json_401_with_the_bearer_challenge(client, played):
    for headers in ({}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer "}):
        answer = client.get(URL.format(played.slug), headers=headers)
        assert answer.status_code == 401, headers
        assert answer.json()["code"] == "unauthorized"
        assert answer["WWW-Authenticate"].startswith("Bearer")


def test_a_signed_in_director_without_a_token_is_refused(client, director, played):
    client.force_login(director)
    assert _export(client, played.slug, None).status_code == 401


def test_a_wrong_token_is_401(client, played):
    answer = _export(client, played.slug, "arb_" + "x" * 43)
    assert answer.status_code == 401
    assert answer.json() == {"code": "invalid_token", "message": "Wrong token: no such API token."}


def test_a_revoked_token_is_refused_at_once(client, director, played):
    row, secret = _token(played, director)
    assert _export(client, played.slug, secret).status_code == 200
    api_tokens.revoke(played, row.pk, by=director)
    answer = _export(client, played.slug, secret)
    assert answer.status_code == 401
    assert answer.json()["message"] == "This API token was revoked."


def test_an_expired_token_is_refused(client, director, played):
    row, secret = _token(played, director, expires_in_days=30)
    ApiToken.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    answer = _export(client, played.slug, secret)
    assert answer.status_code == 401
    assert answer.json()["message"] == "This API token has expired."


def test_a_token_without_the_scope_is_403(client, director, played):
    row, secret = _token(played, director)
    ApiToken.objects.filter(pk=row.pk).update(scopes=["mirror:push"])  # a later scope
    answer = _export(client, played.slug, secret)
    assert answer.status_code == 403
    assert answer.json()["code"] == "insufficient_scope"


def test_a_token_of_another_event_is_404_as_no_such_event(client, director, played):
    other = round_robin_event(director, players=4, slug="rr-other")
    _row, secret = _token(other, director)
    hidden = round_robin_event(director, players=4, slug="rr-hidden")
    hidden.public = False
    hidden.save(update_fields=["public"])
    answers = [_export(client, slug, secret) for slug in ("rr-export", "rr-hidden", "rr-none")]
    assert [a.status_code for a in answers] == [404, 404, 404]
    # the same body whether the event is public, private or missing: nothing leaks
    assert len({a.content for a in answers}) == 1
    assert answers[0].json()["code"] == "not_found"


def test_failed_tokens_are_rate_limited_per_address(client, played, settings):
    settings.ARBITER_RATE_LIMITS = {**settings.ARBITER_RATE_LIMITS, "api_bad_token": "3/m"}
    codes = [_export(client, played.slug, f"arb_wrong{i}").status_code for i in range(4)]
    assert codes == [401, 401, 401, 429]
    refused = _export(client, played.slug, "arb_wrong")
    assert refused.json()["code"] == "rate_limited" and int(refused["Retry-After"]) > 0


# -- the tokens ------------------------------------------------------------------------------


def test_tokens_are_stored_hashed_and_the_secret_is_nowhere_in_the_database(director, played):
    row, secret = _token(played, director)
    assert secret.startswith("arb_") and len(secret) >= 40
    assert row.prefix == secret[:12] and row.token_hash != secret and len(row.token_hash) == 64
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM tournaments_apitoken")
        stored = repr(cursor.fetchall())
        cursor.execute("SELECT subject, after FROM tournaments_auditentry")
        stored += repr(cursor.fetchall())
    assert secret not in stored and secret[12:] not in stored


def test_the_hash_is_peppered(director, played, settings):
    _row, secret = _token(played, director)
    assert api_tokens.check(secret).token is not None
    settings.ARBITER_API_TOKEN_PEPPER = "another pepper"
    assert api_tokens.check(secret).refusal == "unknown"


def test_use_is_recorded(client, director, played):
    row, secret = _token(played, director)
    assert row.last_used_at is None
    _export(client, played.slug, secret)
    row.refresh_from_db()
    assert row.last_used_at is not None


def test_bad_token_input_is_refused_naming_the_field(director, played):
    from tournaments.services.errors import ServiceError

    with pytest.raises(ServiceError) as refused:
        api_tokens.create(played, name=" ", scopes=["export:write"], by=director)
    fields = {p.field for p in refused.value.problems}
    assert fields == {"name", "scopes"}
    assert not ApiToken.objects.exists()


# -- the director's screen -------------------------------------------------------------------


def _page(slug):
    return reverse("tournaments:manage_tokens", args=[slug])


def test_a_director_makes_a_token_sees_it_once_and_revokes_it(client, director, played):
    client.force_login(director)
    made = client.post(
        _page(played.slug),
        {"name": "federation mirror", "scopes": ["export:read"], "expires": "90"},
        headers={"HX-Request": "true"},
    )
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    row = ApiToken.objects.get()
    text = made.content.decode()
    secret = text.split('id="new-token">')[1].split("<")[0]
    assert secret.startswith(row.prefix) and row.scopes == ["export:read"]
    assert row.expires_at is not None and row.created_by == director
    assert "<html" not in text  # the partial only
    assert _export(client, played.slug, secret).status_code == 200
    page = client.get(_page(played.slug)).content.decode()
    assert row.prefix in page and secret not in page and "federation mirror" in page
    revoked = client.post(
        reverse("tournaments:manage_token_revoke", args=[played.slug, row.pk]),
        headers={"HX-Request": "true"},
    )
    assert revoked.status_code == 200 and "revoked" in revoked.content.decode()
    assert _export(client, played.slug, secret).status_code == 401
    actions = list(AuditEntry.objects.filter(event=played).values_list("action", flat=True))
    assert "api_token.created" in actions and "api_token.revoked" in actions


def test_a_refused_form_names_the_field_and_saves_nothing(client, director, played):
    client.force_login(director)
    answer = client.post(_page(played.slug), {"name": "", "expires": "0"})
    assert answer.status_code == 422
    assert not ApiToken.objects.exists()
    assert "This field is required." in answer.content.decode()


def test_only_the_events_directors_make_or_revoke_tokens(
    client, director, played, django_user_model
):
    row, _secret = _token(played, director)
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    client.force_login(stranger)
    assert client.get(_page(played.slug)).status_code == 404
    made = client.post(_page(played.slug), {"name": "x", "scopes": ["export:read"], "expires": "0"})
    assert made.status_code == 404
    revoke = reverse("tournaments:manage_token_revoke", args=[played.slug, row.pk])
    assert client.post(revoke).status_code == 404
    assert ApiToken.objects.count() == 1 and ApiToken.objects.get().revoked_at is None


def test_a_token_of_another_event_cannot_be_revoked_from_this_one(client, director, played):
    other = round_robin_event(director, players=4, slug="rr-other")
    row, _secret = _token(other, director)
    client.force_login(director)
    answer = client.post(reverse("tournaments:manage_token_revoke", args=[played.slug, row.pk]))
    assert answer.status_code == 302
    row.refresh_from_db()
    assert row.revoked_at is None


def test_the_schema_documents_the_operation_and_its_security(client):
    schema = client.get("/api/v1/schema/").json()
    operation = schema["paths"]["/api/v1/events/{slug}/export/"]["get"]
    assert set(operation["responses"]) >= {"200", "304", "401", "403", "404", "429"}
    assert operation["security"] == [{"EventToken": []}]
    assert schema["components"]["securitySchemes"]["EventToken"] == {
        "type": "http",
        "scheme": "bearer",
    }
