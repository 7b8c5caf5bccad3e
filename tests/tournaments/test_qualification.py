"""Qualification and invitations (issue 32, item 2): the line built from a ranked source
with the reason for each place, invitations with a deadline, declines and missed
deadlines promoting in order, and the WPF playoffs seeded from a series.

WPF GP Playoff Rules, "Eligibility": "The 16 eligible players with the highest eligibility
scores will be invited to the playoffs, and get their initial seed based on their
eligibility score." The issue: "If any of the top 16 ... decline, the next eligible
players are invited"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tournaments.models import AuditEntry, Entry, Registration
from tournaments.services import events, places, qualification
from tournaments.services import series as series_service
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def _event(director, fmt="round_robin", slug="finals"):
    return events.create_event(slug=slug, name="Finals", format=fmt, by=director, public=True)


CSV = "name,email,score\n" + "".join(f"P{i},p{i}@example.org,{100 - i}\n" for i in range(6))


def _statuses(event):
    return [(e.name, e.status) for e in Entry.objects.filter(event=event).order_by("order")]


def test_the_line_is_built_in_rank_order_with_each_reason_and_the_top_invited(
    director, django_capture_on_commit_callbacks
):
    event = _event(director)
    candidates, problems = qualification.parse_csv(CSV)
    assert not problems
    with django_capture_on_commit_callbacks(execute=True):
        invited = qualification.build(
            event, candidates, places_count=2, label="GP 2026", confirm_hours=24, by=director
        )
    assert invited == 2
    line = list(Entry.objects.filter(event=event).order_by("order"))
    assert [e.reason for e in line[:2]] == ["Rank 1 in GP 2026 (100)", "Rank 2 in GP 2026 (99)"]
    assert _statuses(event)[:3] == [("P0", "offered"), ("P1", "offered"), ("P2", "waiting")]
    assert sorted(m.to[0] for m in mail.outbox) == ["p0@example.org", "p1@example.org"]
    assert "you are invited" in mail.outbox[0].subject
    assert "Rank " in mail.outbox[0].body and "GP 2026" in mail.outbox[0].body
    assert AuditEntry.objects.filter(event=event, action="qualification.built").exists()
    with pytest.raises(ServiceError, match="built once"):
        qualification.build(
            event, candidates, places_count=2, label="x", confirm_hours=1, by=director
        )


def test_declines_and_missed_deadlines_invite_the_next_in_order(director):
    """ "If any of the top 16 ... decline, the next eligible players are invited"."""
    event = _event(director)
    now = timezone.now()
    candidates, _ = qualification.parse_csv(CSV)
    qualification.build(
        event, candidates, places_count=2, label="GP", confirm_hours=24, by=director, now=now
    )
    places.decline(Entry.objects.get(name="P0"), now=now)
    assert _statuses(event)[:4] == [
        ("P0", "declined"),
        ("P1", "offered"),
        ("P2", "offered"),
        ("P3", "waiting"),
    ]
    places.confirm_place(Entry.objects.get(name="P2"), now=now)
    places.sweep(now=now + timedelta(hours=24))  # P1 never answered
    assert _statuses(event) == [
        ("P0", "declined"),
        ("P1", "expired"),
        ("P2", "accepted"),
        ("P3", "offered"),
        ("P4", "waiting"),
        ("P5", "waiting"),
    ]


def test_equal_scores_share_the_rank_in_the_reason():
    rows, _ = qualification.parse_csv("name,score\nA,10\nB,9\nC,9\nD,8\n")
    assert qualification.ranks(rows) == [1, 2, 2, 4]


def test_a_bad_ranked_list_names_its_lines_and_builds_nothing(director):
    _rows, problems = qualification.parse_csv("name,email\nAnn,not-mail\n,b@example.org\n")
    assert [p.text for p in problems] == [
        "Line 2, email: not-mail is not an e-mail address.",
        "Line 3: no name.",
    ]


def test_previous_seasons_top_comes_from_its_final_standings(director):
    from tests.factories import play_round, round_robin_event

    previous = round_robin_event(director, players=4, slug="season-1")
    for _ in range(3):
        play_round(previous, director)
    from tournaments.services import standings

    standings.refresh(previous.pk, previous.__class__.objects.get(pk=previous.pk).results_version)
    event = _event(director)
    data = {
        "source": "event",
        "from_event": "season-1",
        "places": 2,
        "invite": 3,
        "label": "Season I",
        "confirm_hours": 48,
    }
    assert qualification.build_from_form(event, data, by=director) == 2
    line = list(Entry.objects.filter(event=event).order_by("order"))
    assert len(line) == 3 and line[0].reason.startswith("Rank 1 in Season I")
    assert places.registration_of(event).source == Registration.Source.RANKED_LIST


def _gp_series(director, players):
    gp = series_service.create_series(slug="gp", name="GP", by=director, best=6, public=True)
    for stage in range(8):
        text = "".join(f"{name},{score - stage}\n" for name, score in players)
        series_service.import_scores(gp, name=f"Round {stage + 1}", text=text, by=director)
    return gp


def test_wpf_playoffs_seeds_and_eligibility_come_from_the_series(director):
    """Where a series exists, its totals give the eligibility scores and the confirmed
    players are the ones "attending": no gp_scores typed by hand."""
    players = [(f"Player {i:02d}", 1000 - 10 * i) for i in range(20)]
    gp = _gp_series(director, players)
    event = _event(director, fmt="wpf_playoffs", slug="wpf-finals")
    data = {
        "source": "series",
        "series": gp.slug,
        "places": 16,
        "invite": 20,
        "label": "GP 2026",
        "confirm_hours": 168,
    }
    assert qualification.build_from_form(event, data, by=director) == 16
    first = Entry.objects.get(event=event, order=1)
    # six best of eight: 1000 + 999 + ... + 995
    assert first.reason == "Rank 1 in GP 2026 (5985)" and first.score == 5985
    places.decline(Entry.objects.get(event=event, order=3))  # the 17th is invited
    for entry in Entry.objects.filter(event=event, status="offered"):
        places.confirm_place(entry)
    numbers = places.make_entrants(event, by=director)
    assert len(numbers) == 16
    entrant = event.entrants.get(number=1)
    assert entrant.flags == {"gp_total": 5985, "attending": True, "gp_position": 1}
    assert not any("gp_scores" in e.flags for e in event.entrants.all())
    assert "Player 02" not in set(event.entrants.values_list("name", flat=True))
    assert "Player 16" in set(event.entrants.values_list("name", flat=True))
    # the engine reads them: eligibility and seeds by the series' totals
    from rules.formats.wpf_playoffs import eligibility
    from tournaments.services.state import entrant_state

    found, problems = eligibility.candidates(
        [entrant_state(e) for e in event.entrants.order_by("number")], 6
    )
    assert problems == [] and len(found) == 16
    assert all(c.attending for c in found)


def test_typed_gp_scores_still_work_without_a_series(director):
    from tests.factories import wpf_playoffs_event

    event = wpf_playoffs_event(director)
    assert all("gp_scores" in e.flags or "gp_total" in e.flags for e in event.entrants.all())
    assert not Entry.objects.filter(event=event).exists()


def test_the_invitation_page_confirms_and_declines_by_its_link(client, director):
    event = _event(director)
    candidates, _ = qualification.parse_csv(CSV)
    qualification.build(
        event, candidates, places_count=1, label="GP", confirm_hours=24, by=director
    )
    entry = Entry.objects.get(name="P0")
    url = reverse("tournaments:entry", args=[event.slug, entry.token])
    page = client.get(url)
    assert b"Rank 1 in GP (100)" in page.content and b"Confirm my place" in page.content
    client.post(url, {"action": "decline"})
    assert _statuses(event)[:2] == [("P0", "declined"), ("P1", "offered")]
    refused = client.post(url, {"action": "confirm"})
    assert refused.status_code == 422


def test_the_director_builds_the_list_from_the_screen(client, director):
    from django.core.files.uploadedfile import SimpleUploadedFile

    event = _event(director)
    client.force_login(director)
    url = reverse("tournaments:manage_entries_qualify", args=[event.slug])
    bad = client.post(
        url, {"source": "csv", "places": 2, "invite": 1, "label": "GP", "confirm_hours": 24}
    )
    assert bad.status_code == 422
    body = bad.content.decode()
    assert "Ranked list: choose the CSV file." in body
    assert "Candidates listed: at least as many as the places." in body
    upload = SimpleUploadedFile("gp.csv", CSV.encode())
    done = client.post(
        url,
        {
            "source": "csv",
            "file": upload,
            "places": 2,
            "invite": 6,
            "label": "GP",
            "confirm_hours": 24,
        },
    )
    assert done.status_code == 302
    assert Entry.objects.filter(event=event, status="offered").count() == 2
    assert User.objects.count() == 1
