"""Freestyle random digits: drawn from the seed or typed in from an outside draw, one key
per attempt, and every digit shown publicly with the grouping it chose.

freestyle.txt, "Random processes for Round 2 and Round 3 groups": "a random digit is
generated repeatedly until the result is 1-6" (Round 2); "1, 4, 7: use grouping #1 ...
0: try again" (Round 3).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import freestyle_event, play_round
from tournaments.formats.freestyle import services as format_freestyle
from tournaments.models import AuditEntry, Entrant, RandomDraw, Round
from tournaments.services import rounds
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


@pytest.fixture
def outside(director):
    """An event with outside draws whose Round 1 is complete: Round 2 waits for a digit."""
    event = freestyle_event(director, players=16, slug="fs-out", external_draws=True)
    play_round(event, director, scores=lambda m: [10, 4])
    return event


def test_drafting_waits_for_the_digit_and_explains_it(client, director, outside):
    client.force_login(director)
    response = client.post(url("manage_draft", outside.slug), follow=True)
    page = response.content.decode()
    # drafting sends the director to the format's own digit screen (FormatUI.decision_url)
    assert response.redirect_chain[-1][0] == url("freestyle_manage_draws", outside.slug)
    # ... and the message says what the digit does
    assert "1 to 6 choose groupings 1 to 6; 0, 7, 8 and 9 are drawn again" in page
    mine = client.get(url("freestyle_manage_draws", outside.slug)).content.decode()
    assert "round-2/grouping/1" in mine and "Digit drawn (0 to 9)" in mine


def test_a_digit_that_fits_no_grouping_is_drawn_again(client, director, outside):
    """ "generated repeatedly until the result is 1-6": 8 asks for attempt 2, 3 chooses."""
    client.force_login(director)
    target = url("freestyle_manage_draws", outside.slug)
    assert client.post(target, {"key": "round-2/grouping/1", "value": "8"}).status_code == 302
    page = client.get(target).content.decode()
    assert "round-2/grouping/2" in page and "drawn before: 8" in page
    assert "8 chooses no grouping: drawn again" in page
    client.post(target, {"key": "round-2/grouping/2", "value": "3"})
    page = client.get(target).content.decode()
    assert "Every draw the next round needs is in." in page
    client.post(url("manage_draft", outside.slug))
    rnd = Round.objects.get(event=outside, number=2)
    assert rnd.details == {"grouping": 3, "digits": [8, 3]}
    rounds.publish_round(rnd, by=director)
    public = client.get(url("freestyle_draws", outside.slug)).content.decode()
    assert "3: grouping 3" in public and "Typed in from an outside draw" in public
    # grouping 3 as printed (T: B1, Y3, R2, G4), each place with its player
    members = [m.entrant.name for m in rnd.groups.get(key="T").members.order_by("seed")]
    for code, name in zip(("B1", "R2", "Y3", "G4"), members, strict=True):
        assert f"<small>{code}</small> {name}" in public
    assert AuditEntry.objects.filter(event=outside, action="draw.entered").count() == 2


def test_the_generic_draw_screen_handles_one_key_per_attempt(client, director, outside):
    client.force_login(director)
    generic = url("manage_draws", outside.slug)
    client.post(generic, {"key": "round-2/grouping/1", "value": "0"})
    response = client.post(url("manage_draft", outside.slug))
    assert response["Location"] == url("freestyle_manage_draws", outside.slug)
    client.post(generic, {"key": "round-2/grouping/2", "value": "6"})
    response = client.post(url("manage_draft", outside.slug))
    assert response["Location"] == url("manage_round", outside.slug, 2)
    assert Round.objects.get(event=outside, number=2).details["digits"] == [0, 6]


def test_a_digit_out_of_range_or_for_another_draw_is_refused(client, director, outside):
    client.force_login(director)
    target = url("freestyle_manage_draws", outside.slug)
    response = client.post(target, {"key": "round-2/grouping/1", "value": "12"})
    assert response.status_code == 422
    assert "Type one whole number from 0 to 9; &#x27;12&#x27; is not." in response.content.decode()
    response = client.post(target, {"key": "round-3/grouping/1", "value": "1"})
    assert response.status_code == 422
    assert "not the one the tournament is waiting for" in response.content.decode()
    assert not RandomDraw.objects.filter(event=outside, key__startswith="round-2").exists()


def test_equal_ratings_take_a_typed_lot(director):
    event = freestyle_event(director, players=16, slug="fs-lot", external_draws=True)
    Entrant.objects.filter(event=event, number__in=[2, 3]).update(rating=1985)
    waiting = format_freestyle.waiting_draw(event)
    assert waiting.key == "round-1/equal-rating/1985"
    assert waiting.items == ("2", "3")
    with pytest.raises(ServiceError, match="exactly these entrants"):
        format_freestyle.enter_draw(event, waiting.key, "2, 5", by=director)
    format_freestyle.enter_draw(event, waiting.key, "3 2", by=director)
    outcome = rounds.draft_next_round(event, by=director)
    assert outcome.round.details["rating_order"][:4] == ["1", "3", "2", "4"]


def test_seeded_events_draw_by_themselves_and_hide_draft_draws(client, director):
    event = freestyle_event(director, players=16, slug="fs-seed")
    play_round(event, director, scores=lambda m: [10, 4])
    client.force_login(director)
    page = client.get(url("freestyle_manage_draws", event.slug)).content.decode()
    assert "Arbiter draws every digit itself" in page
    draft = rounds.draft_next_round(event, by=director).round
    client.logout()
    assert "round-2/grouping" not in client.get(url("freestyle_draws", event.slug)).content.decode()
    rounds.publish_round(draft, by=director)
    assert "round-2/grouping/1" in client.get(url("freestyle_draws", event.slug)).content.decode()


def test_the_public_draws_page_runs_a_fixed_number_of_queries(
    client, director, django_assert_max_num_queries
):
    event = freestyle_event(director, players=16, slug="fs-q")
    for _ in range(3):
        play_round(event, director, scores=lambda m: [10, 4])
    with django_assert_max_num_queries(12):
        response = client.get(url("freestyle_draws", event.slug))
    assert response.status_code == 200
    assert "Round 3" in response.content.decode()
