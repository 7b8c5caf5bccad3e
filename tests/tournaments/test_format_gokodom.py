"""GokoDom web paths: the players' own screens (report, confirm, dispute, message the
director, Bye by Request), the director's result codes and decisions, and permissions."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import gokodom_event
from tournaments.formats.gokodom import services_director as director_service
from tournaments.models import AuditEntry, Match, RandomDraw, ResultChange, Round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def start(director, **settings):
    event = gokodom_event(director, **settings)
    outcome = rounds.draft_next_round(event, by=director)
    rnd = rounds.publish_round(outcome.round, by=director)
    return event, rnd


def pair(rnd):
    """The first two-player match of the round and its two entrants, seat order."""
    for match in rnd.matches.order_by("order").prefetch_related("participants__entrant"):
        seats = [p.entrant for p in match.participants.all() if p.entrant_id]
        if len(seats) == 2:
            return match, seats[0], seats[1]
    raise AssertionError("no two-player match")


def client_for(entrant) -> Client:
    client = Client()
    client.force_login(entrant.user)
    return client


def post(client, name, event, match, data=None, **extra):
    url = reverse(f"tournaments:gokodom_{name}", args=[event.slug, match.pk])
    return client.post(url, data or {}, **extra)


def test_player_sees_match_opponent_colours_and_deadline_in_event_time_zone(director):
    event = gokodom_event(director, first_round_start="2031-02-10")
    event.time_zone = "America/New_York"
    event.save(update_fields=["time_zone"])
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match, a, b = pair(rnd)
    page = client_for(a).get(reverse("tournaments:gokodom_player", args=[event.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    assert b.name in text and match.code in text
    # I.C: the round ends on Monday 17 February near 0600, in the event's own time zone
    assert "Mon 17 Feb 2031, 06:00" in text and "America/New_York" in text
    assert page.context["mine"].role in ("red", "blue")


def test_player_page_needs_a_player(director, django_user_model):
    event, _ = start(director)
    url = reverse("tournaments:gokodom_player", args=[event.slug])
    assert Client().get(url).status_code == 302  # to sign in
    stranger = django_user_model.objects.create_user("stranger", password="pw-x-12345")
    client = Client()
    client.force_login(stranger)
    assert client.get(url).status_code == 403


def test_swiss_report_then_opponent_confirms_records_w_and_l(director):
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    response = post(client_for(a), "report", event, match, {"outcome": "W"}, **HTMX)
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.details["report"]["status"] == "reported"
    assert match.result is None  # nothing counts before the opponent confirms
    # the reporter cannot confirm their own report
    assert post(client_for(a), "confirm", event, match).status_code == 302
    match.refresh_from_db()
    assert match.result is None
    response = post(client_for(b), "confirm", event, match, **HTMX)
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.details["results"] == {str(a.number): "W", str(b.number): "L"}
    assert match.result["complete"] and match.result["points"] == [2, 0]
    assert match.details["report"]["status"] == "confirmed"
    assert ResultChange.objects.filter(match=match).count() == 1
    assert AuditEntry.objects.filter(action="gokodom.result_confirmed").count() == 1


def test_a_player_cannot_act_on_another_match(director):
    event, rnd = start(director)
    matches = [m for m in rnd.matches.prefetch_related("participants__entrant")]
    mine = next(p.entrant for p in matches[0].participants.all())
    other = matches[1]
    client = client_for(mine)
    for name in ("report", "confirm", "dispute", "message"):
        assert post(client, name, event, other, {"outcome": "W"}).status_code == 403
    other.refresh_from_db()
    assert "report" not in other.details and "messages" not in other.details


def test_the_director_is_not_a_player_of_the_match(director):
    event, rnd = start(director)
    match, _, _ = pair(rnd)
    client = Client()
    client.force_login(director)
    assert post(client, "report", event, match, {"outcome": "W"}).status_code == 403


def test_dispute_goes_to_the_director_who_records_codes_in_the_grid(director):
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    post(client_for(a), "report", event, match, {"outcome": "W"})
    response = post(client_for(b), "dispute", event, match, {"note": "I won game 5"}, **HTMX)
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.details["report"]["status"] == "disputed"
    assert match.details["report"]["note"] == "I won game 5"
    client = Client()
    client.force_login(director)
    season = client.get(reverse("tournaments:gokodom_manage", args=[event.slug]))
    assert "disputed" in season.content.decode() and "I won game 5" in season.content.decode()
    url = reverse("tournaments:gokodom_codes", args=[event.slug, match.pk])
    codes = {f"code-{a.number}": "L", f"code-{b.number}": "W", "version": match.version}
    response = client.post(url, codes, **HTMX)
    assert response.status_code == 200
    assert 'class="result-row saved' in response.content.decode()
    match.refresh_from_db()
    assert match.details["results"] == {str(a.number): "L", str(b.number): "W"}
    # the same form again holds an old version: a conflict, not a silent overwrite
    stale = client.post(url, {**codes, f"code-{a.number}": "W", f"code-{b.number}": "L"}, **HTMX)
    assert stale.status_code == 409
    match.refresh_from_db()
    assert match.details["results"][str(b.number)] == "W"


def test_grid_refuses_codes_that_cannot_go_together(director):
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:gokodom_codes", args=[event.slug, match.pk])
    data = {f"code-{a.number}": "W", f"code-{b.number}": "W", "version": match.version}
    response = client.post(url, data, **HTMX)
    assert response.status_code == 422
    assert "W for one player and W for the other cannot go together" in response.content.decode()
    match.refresh_from_db()
    assert match.result is None and "results" not in match.details


def test_the_results_grid_shows_code_selects_for_the_swiss(director):
    event, rnd = start(director, swiss_rounds=3)
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, rnd.number]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Save codes" in text and '<option value="WD">WD</option>' in text


def test_the_code_selects_start_from_a_result_the_players_reported(director):
    """A Swiss result reported and confirmed by the players (games, no codes typed): the grid
    shows the codes the engine scored, so a correction starts from the result as it is."""
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    post(client_for(a), "report", event, match, {"outcome": "W"})
    post(client_for(b), "confirm", event, match)
    match.refresh_from_db()
    codes = match.result["details"]["results"]
    assert codes == {str(a.number): "W", str(b.number): "L"}
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournaments:manage_round", args=[event.slug, rnd.number]))
    row = page.content.decode().split(f'id="match-{match.pk}"')[1].split("</form>")[0]
    assert re.search(rf'name="code-{a.number}">.*?<option value="W" selected', row, re.S)
    assert re.search(rf'name="code-{b.number}">.*?<option value="L" selected', row, re.S)


def test_codes_posted_to_the_generic_save_are_refused_not_cleared(director):
    event, rnd = start(director, swiss_rounds=3)
    match, a, b = pair(rnd)
    director_service.record_codes(
        match, {str(a.number): "D", str(b.number): "D"}, expected_version=0, by=director
    )
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    response = client.post(url, {f"code-{a.number}": "W", "version": 1}, **HTMX)
    assert response.status_code == 422
    match.refresh_from_db()
    assert match.details["results"][str(a.number)] == "D" and match.result["complete"]


def test_message_to_the_director_is_recorded_as_the_engine_reads_it(director):
    event, rnd = start(director)
    match, a, _b = pair(rnd)
    assert post(client_for(a), "message", event, match, **HTMX).status_code == 200
    assert post(client_for(a), "message", event, match).status_code == 302  # once is enough
    match.refresh_from_db()
    assert match.details["messages"] == [str(a.number)]
    assert AuditEntry.objects.filter(action="gokodom.message_to_director").count() == 1


def test_message_is_refused_after_the_deadline(director):
    event, rnd = start(director)
    match, a, _ = pair(rnd)
    past = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    director_service.set_round_times(rnd, None, past, by=director)
    response = post(client_for(a), "message", event, match, **HTMX)
    assert response.status_code == 422
    assert "is no longer possible" in response.content.decode()
    match.refresh_from_db()
    assert "messages" not in match.details


def test_bye_by_request_is_asked_for_the_next_round_and_drafted_as_br(director):
    event, rnd = start(director, swiss_rounds=3)
    _match, a, _b = pair(rnd)
    url = reverse("tournaments:gokodom_bye", args=[event.slug])
    response = client_for(a).post(url, {"round": 2, "action": "request"}, **HTMX)
    assert response.status_code == 200
    a.refresh_from_db()
    assert a.flags["bye_requests"] == [2]
    for m in rnd.matches.all():
        director_service.record_codes(
            m,
            {str(p.entrant.number): c for p, c in zip(m.participants.all(), "WL", strict=True)},
            expected_version=m.version,
            by=director,
        )
    rounds.complete_round(rnd, by=director)
    second = rounds.draft_next_round(event, by=director).round
    byes = [m for m in second.matches.all() if m.details.get("result") == "BR"]
    assert [p.entrant_id for p in byes[0].participants.all()] == [a.pk]


def test_bye_by_request_is_refused_in_the_last_swiss_round(director):
    event, _ = start(director, swiss_rounds=2)
    _, a, _ = pair(event.rounds.get(number=1))
    url = reverse("tournaments:gokodom_bye", args=[event.slug])
    response = client_for(a).post(url, {"round": 2, "action": "request"}, **HTMX)
    assert response.status_code == 422
    assert "may not be used in the final Swiss round" in response.content.decode()
    a.refresh_from_db()
    assert not a.flags.get("bye_requests")


def test_bye_by_request_is_refused_once_the_round_is_paired(director):
    event, _ = start(director, swiss_rounds=3)
    _, a, _ = pair(event.rounds.get(number=1))
    response = client_for(a).post(
        reverse("tournaments:gokodom_bye", args=[event.slug]), {"round": 1}, **HTMX
    )
    assert response.status_code == 422
    assert "already being paired" in response.content.decode()


def play_swiss(event, director, rnd):
    for m in rnd.matches.prefetch_related("participants__entrant"):
        seats = [p.entrant for p in m.participants.all()]
        if len(seats) == 2:
            director_service.record_codes(
                m,
                {str(seats[0].number): "W", str(seats[1].number): "L"},
                expected_version=m.version,
                by=director,
            )
    return rounds.complete_round(rnd, by=director)


def quarter_finals(director, **settings):
    event, rnd = start(director, swiss_rounds=1, **settings)
    play_swiss(event, director, rnd)
    qf = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    assert qf.details["stage"] == "knockout"
    return event, qf


def games(*winners, first=None):
    data = {f"g{n}-r": w for n, w in enumerate(winners, start=1)}
    if first is not None:
        data["g1-first"] = first
    return data


def test_knockout_report_of_games_confirmed(director):
    event, qf = quarter_finals(director)
    match, a, b = pair(qf)
    response = post(client_for(a), "report", event, match, games("0", "0", "1", "0", first="0"))
    assert response.status_code == 302
    post(client_for(b), "confirm", event, match)
    match.refresh_from_db()
    assert match.result["complete"] and match.result["summary"] == "3-1"
    assert match.games.count() == 4 and match.games.get(number=1).first_seat == 0


def test_knockout_report_must_finish_the_match(director):
    event, qf = quarter_finals(director)
    match, a, _ = pair(qf)
    response = post(client_for(a), "report", event, match, games("0", "1"), **HTMX)
    assert response.status_code == 422
    assert "not over" in response.content.decode()


def test_knockout_three_all_goes_to_the_director(director):
    event, qf = quarter_finals(director)
    match, a, b = pair(qf)
    tied = games("0", "1", "draw", "draw", "0", "1")
    post(client_for(a), "report", event, match, tied)
    post(client_for(b), "confirm", event, match)
    match.refresh_from_db()
    assert not match.result["complete"]
    assert match.result["reasons"][0]["code"] == "gokodom.tied"
    client = Client()
    client.force_login(director)
    season = client.get(reverse("tournaments:gokodom_manage", args=[event.slug]))
    assert "who goes through" in season.content.decode()
    url = reverse("tournaments:gokodom_advances", args=[event.slug, match.pk])
    response = client.post(url, {"advances": b.number, "version": match.version}, **HTMX)
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.result["complete"] and match.result["winner"] == 1
    assert match.details["advances"] == str(b.number)


def test_eighth_place_choice_is_stored_once_as_the_engine_asks(director):
    event, _ = start(director)
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:gokodom_eighth", args=[event.slug])
    assert client.post(url, {"method": "playoff"}).status_code == 302
    draw = RandomDraw.objects.get(event=event, key="knockout/eighth-place")
    assert draw.value == "playoff" and draw.method == "external"
    client.post(url, {"method": "coin"})
    assert RandomDraw.objects.get(event=event, key="knockout/eighth-place").value == "playoff"


def test_bracket_page_draws_the_quarter_finals_in_bracket_order(
    director, django_assert_max_num_queries
):
    event, qf = quarter_finals(director)
    match, a, b = pair(qf)
    post(client_for(a), "report", event, match, games("0", "0", "0"))
    post(client_for(b), "confirm", event, match)
    url = reverse("tournaments:gokodom_bracket", args=[event.slug])
    with django_assert_max_num_queries(12):
        page = Client().get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert text.index("QF1") < text.index("QF2") < text.index("QF3") < text.index("SF1")
    assert 'class="player won"' in text and "to be decided" in text  # semi-finals wait


def test_first_round_start_sets_the_season_dates(director):
    event = gokodom_event(director, swiss_rounds=3)
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:gokodom_schedule", args=[event.slug])
    client.post(url, {"first_round_start": "2031-02-10"})
    event.refresh_from_db()
    assert event.settings["first_round_start"] == "2031-02-10"
    rnd = rounds.draft_next_round(event, by=director).round
    assert (rnd.details["starts"], rnd.details["ends"]) == ("2031-02-10", "2031-02-17")
    page = client.get(reverse("tournaments:gokodom_manage", args=[event.slug]))
    # the last Swiss round lasts two weeks (I.C)
    assert "Mon 24 Feb 2031" in page.content.decode() and "Mon 10 Mar 2031" in page.content.decode()
    bad = client.post(url, {"first_round_start": "10/02/2031"}, follow=True)
    assert "is not a date" in bad.content.decode()


def test_round_status_is_untouched_by_a_player_report(director):
    event, rnd = start(director)
    match, a, _ = pair(rnd)
    post(client_for(a), "report", event, match, {"outcome": "D"})
    assert Round.objects.get(pk=rnd.pk).status == "published"
    assert Match.objects.get(pk=match.pk).version == 0


def test_a_drafted_knockout_and_its_coin_flips_do_not_move_the_standings(director):
    """The seeding coin flips are drawn when the quarter-finals are drafted and stored with
    the draft. The standings rank the record: before, the draft's flips became the public
    ranks at the next recompute, and deleting the draft (its flips with it) left them."""
    from tournaments.services import standings

    def ranks():
        return [(t.key, r.entrant, r.rank) for t in standings.compute(event).tables for r in t.rows]

    event, rnd = start(director, players=10, swiss_rounds=1, eighth_place_tie="coin")
    play_swiss(event, director, rnd)
    tied = ranks()
    assert len({rank for _, _, rank in tied}) < len(tied)  # five winners, five losers
    draft = rounds.draft_next_round(event, by=director).round
    assert RandomDraw.objects.filter(round=draft).exists()  # the coin flips
    assert ranks() == tied
    rounds.delete_draft(draft, by=director)
    assert ranks() == tied
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    assert len({rank for _, _, rank in ranks()}) == len(tied)  # published: the flips count


def test_moving_a_rounds_times_moves_the_public_pages_stamp(director):
    """A cached page or API answer that shows a deadline must not outlive a change of it: the
    round's times are shown on the public pages, so setting them moves the event's stamp."""
    from tournaments.views import pagecache

    event, rnd = start(director)
    event.public = True
    event.save()
    before = pagecache._stamp(event.slug)["version"]
    later = datetime.datetime(2031, 1, 1, tzinfo=datetime.UTC)
    director_service.set_round_times(rnd, None, later, by=director)
    after = pagecache._stamp(event.slug)["version"]
    assert after != before


def test_times_in_the_wrong_order_name_the_field_in_the_directors_language(director):
    from django.utils import translation

    from tournaments.services.errors import ServiceError

    _event, rnd = start(director)
    start_at = datetime.datetime(2031, 1, 2, tzinfo=datetime.UTC)
    with translation.override("fr"), pytest.raises(ServiceError) as refused:
        director_service.set_round_times(rnd, start_at, start_at, by=director)
    assert refused.value.problems[0].field == "deadline"
    assert "date limite" in refused.value.messages[0]
