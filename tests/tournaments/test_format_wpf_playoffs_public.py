"""WPF GP Playoffs: online results stay hidden from the public until the director reveals
them (issue 8: "Online results stay hidden from the public until the director reveals them
at the start of the live stage (then ranks 11-16 are final and the live pairings are
shown)").

Round A is played so that rank 16 beats rank 1 (seed 16 becomes rank 1): before the
reveal, nothing public may show a time, a rank other than the seed, or the online
pairings. The public views call FormatUI.public_rounds / public_table (the hooks of
tournaments/formats/base.py).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import wpf_imported_event
from tournaments.formats import ui_for
from tournaments.formats.wpf_playoffs import services as service
from tournaments.models import AuditEntry, Event, Match, Round, StandingsRow
from tournaments.services import rounds, standings
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db

# "1:40" is the winner's time in every match the factories play; 22:00 the loser's
SECRETS = ("1:40", "22:00", "ranks swapped", "Losses")


UPSET = {"A1": 1}  # rank 16 beats rank 1 in A1; elsewhere the better rank wins


def _refresh(event):
    event = Event.objects.get(pk=event.pk)
    standings.refresh(event.pk, event.results_version)
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def hidden(director):
    """Rounds A and B played, round C published with no result yet; nothing revealed."""
    event = wpf_imported_event(director, 2, UPSET)
    rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    return _refresh(event)


@pytest.fixture
def revealed(director):
    event = wpf_imported_event(director, 7, UPSET)
    service.reveal_online_results(event, by=director)
    return _refresh(event)


def _assert_hidden(html: str) -> None:
    for secret in SECRETS:
        assert secret not in html, secret


# -- the hooks themselves -----------------------------------------------------------------


def test_hooks_hide_online_rounds_and_the_overall_table_until_the_reveal(hidden, director):
    ui = ui_for(hidden)
    published = list(hidden.rounds.exclude(status="draft").order_by("number"))
    assert len(published) == 3
    assert ui.public_rounds(hidden, published) == []
    assert not ui.public_table(hidden, "overall")
    assert ui.public_table(hidden, "public")
    assert ui.public_table(hidden, "eligibility")
    match = Match.objects.get(round__event=hidden, code="A1")
    assert match.details["hidden_until_reveal"] is True
    assert match.result["details"]["public"] is False


def test_hooks_show_everything_after_the_reveal(revealed):
    published = list(revealed.rounds.exclude(status="draft").order_by("number"))
    assert ui_for(revealed).public_rounds(revealed, published) == published
    assert Match.objects.get(round__event=revealed, code="A1").result["details"]["public"]


def test_publishing_a_live_heat_reveals_as_the_engine_does(director):
    event = wpf_imported_event(director, 7)
    heat = rounds.draft_next_round(event, by=director).round
    published = list(event.rounds.exclude(status="draft"))
    assert ui_for(event).public_rounds(event, published) == []
    rounds.publish_round(heat, by=director)
    published = list(event.rounds.exclude(status="draft").order_by("number"))
    assert len(ui_for(event).public_rounds(event, published)) == 8


# -- the reveal ---------------------------------------------------------------------------


def test_reveal_waits_for_the_end_of_the_online_stage(hidden, director, client):
    with pytest.raises(ServiceError, match="close Round C first"):
        service.reveal_online_results(hidden, by=director)
    client.force_login(director)
    response = client.post(reverse("tournaments:wpf_playoffs_reveal", args=[hidden.slug]))
    assert response.status_code == 302
    assert not Event.objects.get(pk=hidden.pk).settings.get("online_results_revealed")


def test_reveal_button_publishes_the_ranks_and_is_audited(director, client):
    event = wpf_imported_event(director, 7, UPSET)
    event = _refresh(event)
    public = StandingsRow.objects.filter(snapshot__event=event, table_key="public")
    assert {r.details.get("hidden") for r in public} == {True}
    version = event.results_version
    client.force_login(director)
    page = client.get(reverse("tournaments:wpf_playoffs_manage", args=[event.slug]))
    assert "Reveal the online results" in page.content.decode()
    response = client.post(reverse("tournaments:wpf_playoffs_reveal", args=[event.slug]))
    assert response.status_code == 302
    event = _refresh(event)
    assert event.settings["online_results_revealed"] is True
    assert event.results_version == version + 1
    entry = AuditEntry.objects.get(event=event, action="wpf.online_results_revealed")
    assert entry.actor == director
    snapshot = event.snapshots.order_by("-results_version").first()
    rows = {
        key: [r.entrant.name for r in snapshot.rows.filter(table_key=key).order_by("position")]
        for key in ("overall", "public")
    }
    assert rows["public"] == rows["overall"]
    assert rows["public"][0] == "Solver 16"  # the upset in A1 made seed 16 rank 1
    with pytest.raises(ServiceError, match="public already"):
        service.reveal_online_results(event, by=director)


def test_only_the_director_may_reveal(hidden, client, django_user_model):
    stranger = django_user_model.objects.create_user("someone", password="pw-someone-1")
    client.force_login(stranger)
    response = client.post(reverse("tournaments:wpf_playoffs_reveal", args=[hidden.slug]))
    assert response.status_code == 404
    client.logout()
    response = client.post(reverse("tournaments:wpf_playoffs_reveal", args=[hidden.slug]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# -- the format's own public page ------------------------------------------------------------


def test_public_ladder_shows_only_seeds_before_the_reveal(hidden, client, director):
    response = client.get(reverse("tournaments:wpf_playoffs_ladder", args=[hidden.slug]))
    html = response.content.decode()
    _assert_hidden(html)
    assert "Until then, the seeds" in html
    assert html.index("Solver 1<") < html.index("Solver 16<")  # seed order
    assert reverse("tournaments:round", args=[hidden.slug, 1]) not in html  # no round links
    # the director sees everything on the overview screen
    client.force_login(director)
    page = client.get(reverse("tournaments:wpf_playoffs_manage", args=[hidden.slug]))
    assert "ranks swapped" in page.content.decode()


def test_public_ladder_shows_ranks_and_brackets_after_the_reveal(revealed, client):
    html = client.get(reverse("tournaments:wpf_playoffs_ladder", args=[revealed.slug]))
    html = html.content.decode()
    assert ("ranks swapped" in html and "1:40 - 22:00" in html) or "22:00 - 1:40" in html
    assert "Winner&#x27;s Bracket" in html and "Placement Bracket" in html
    assert html.index("Solver 16<") < html.index("Solver 1<")  # seed 16 holds rank 1
    assert html.count('<abbr title="final">') >= 6  # ranks 11-16 final after round G


def test_ladder_runs_a_fixed_number_of_queries(revealed, client, django_assert_max_num_queries):
    url = reverse("tournaments:wpf_playoffs_ladder", args=[revealed.slug])
    with django_assert_max_num_queries(16):
        assert client.get(url).status_code == 200


# -- the shared public pages (need the public views to call the hooks) ----------------------


def test_public_pages_hide_online_results_before_the_reveal(hidden, client):
    slug = hidden.slug
    for url in (
        reverse("tournaments:event", args=[slug]),
        reverse("tournaments:standings", args=[slug]),
        reverse("tournaments:entrant", args=[slug, 16]),
        reverse("tournaments:entrant", args=[slug, 1]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        _assert_hidden(response.content.decode())
    for number in (1, 2, 3):
        assert client.get(reverse("tournaments:round", args=[slug, number])).status_code == 404


def test_version_endpoint_counts_no_hidden_round(hidden, client):
    data = client.get(reverse("tournaments:version", args=[hidden.slug])).json()
    assert data["rounds"] == 0
    _assert_hidden(str(data))


def test_public_pages_show_online_results_after_the_reveal(revealed, client):
    slug = revealed.slug
    html = client.get(reverse("tournaments:round", args=[slug, 1])).content.decode()
    assert "1:40" in html and "Solver 16" in html
    html = client.get(reverse("tournaments:standings", args=[slug])).content.decode()
    assert "Losses" in html
    data = client.get(reverse("tournaments:version", args=[slug])).json()
    assert data["rounds"] == 7
    assert Round.objects.filter(event=revealed).count() == 7


# -- nothing derived from hidden results reaches a public page (issue 21, finding 4) --------

OUTLOOK = ("can win", "cannot win", "clinched", "in the race", "cm-")


def _public_urls(event) -> list[str]:
    """Every public page of the event a visitor can reach: the shared pages, each
    entrant's page, each round number the event has, and the format's own pages."""
    slug = event.slug
    urls = [
        reverse("tournaments:event", args=[slug]),
        reverse("tournaments:standings", args=[slug]),
        reverse("tournaments:version", args=[slug]),
    ]
    urls += [reverse("tournaments:entrant", args=[slug, e.number]) for e in event.entrants.all()]
    urls += [reverse("tournaments:round", args=[slug, r.number]) for r in event.rounds.all()]
    urls += [url for _label, url in ui_for(event).public_links(event)]
    return urls


def test_no_public_page_shows_anything_derived_from_hidden_results(hidden, client):
    """ "The WPF demo leaks hidden results: the page says online results are not public, yet
    the outlook shows seed 1 'cannot win' and seed 8 'can win'." Every public page, as a
    visitor and as htmx, shows no outlook, no rank other than the seed and no time."""
    assert StandingsRow.objects.filter(snapshot__event=hidden, table_key="overall").exists()
    for url in _public_urls(hidden):
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(url, headers=headers)
            if response.status_code == 404:
                continue  # a hidden online round
            assert response.status_code in (200, 204), url
            html = response.content.decode()
            _assert_hidden(html)
            for word in OUTLOOK:
                assert word not in html, (url, word)
            assert "results_version" not in html and "standings_version" not in html, url


def test_a_hidden_result_does_not_change_what_pages_poll(hidden, client, director):
    """The version token changes when something public changes; a hidden online result is
    not public, so its save (and the standings it makes) leave the token as it was."""
    url = reverse("tournaments:version", args=[hidden.slug])
    before = client.get(url).json()["token"]
    open_round = hidden.rounds.get(number=3)
    match = open_round.matches.order_by("order").first()
    from tests.factories import wpf_submissions
    from tournaments.services import results

    results.record(match, wpf_submissions(0), expected_version=match.version, by=director)
    after_event = _refresh(hidden)
    assert after_event.standings_version > hidden.standings_version
    assert client.get(url).json()["token"] == before
    # the reveal is public news: the token moves (the reveal itself waits for the end of
    # the online stage: tested above; here its setting is set directly)
    event = Event.objects.get(pk=hidden.pk)
    Event.objects.filter(pk=hidden.pk).update(
        settings={**event.settings, "online_results_revealed": True}
    )
    assert client.get(url).json()["token"] != before
