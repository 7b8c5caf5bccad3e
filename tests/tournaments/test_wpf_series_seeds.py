"""A WPF playoffs event qualified from a series reads its seeds and eligibility from the
series (issue 32: "The WPF playoffs' seeds and eligibility come from the series, not from
typed flags"; tournaments/formats/wpf_playoffs/series_link.py). WPF GP Playoff Rules,
"Eligibility": "The score of their six best rounds in the corresponding (Sudoku or Puzzle)
GP competition is added together to get the eligibility score"; "Express an intention to be
present"; equal scores: the GP position, then a recorded draw."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.formats.wpf_playoffs import series_link
from tournaments.formats.wpf_playoffs import services as format_wpf_playoffs
from tournaments.models import AuditEntry, Entry, Registration
from tournaments.services import events, places, qualification, rounds, series
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db

# eight rounds, six best: Ann 6 x 100 = 600, Bob and Cat tie on 540 (Cat's two worst
# rounds dropped), Dan 300, Eve 200 (she declines)
ROUNDS = [
    "Ann,100\nBob,90\nCat,90\nDan,50\nEve,40",
    "Ann,100\nBob,90\nCat,90\nDan,50\nEve,40",
    "Ann,100\nBob,90\nCat,90\nDan,50\nEve,40",
    "Ann,100\nBob,90\nCat,90\nDan,50\nEve,40",
    "Ann,100\nBob,90\nCat,90\nDan,50\nEve,40",
    "Ann,100\nBob,90\nCat,90\nDan,50",
    "Ann,100\nCat,10",
    "Ann,100\nCat,5",
]


def linked_event(director, places_count=4, invite=5):
    gp = series.create_series(slug="gp", name="GP", by=director, best=6, public=True)
    for number, text in enumerate(ROUNDS, start=1):
        series.import_scores(gp, name=f"Round {number}", text=text, by=director)
    event = events.create_event(
        slug="wpf-gp", name="WPF from GP", format="wpf_playoffs", by=director, public=True
    )
    qualification.build(
        event,
        qualification.from_series(gp)[:invite],
        places_count=places_count,
        label="GP",
        confirm_hours=24,
        source=Registration.Source.SERIES,
        series_key=gp.slug,
        by=director,
    )
    return gp, event


def confirm_all(event):
    for entry in Entry.objects.filter(event=event, status=Entry.Status.OFFERED):
        places.confirm_place(entry)


def test_entrants_made_from_the_series_line_carry_its_totals_and_ranks(director):
    gp, event = linked_event(director)
    confirm_all(event)
    places.make_entrants(event, by=director)
    flags = {e.name: e.flags for e in event.entrants.all()}
    assert flags == {
        "Ann": {"gp_total": 600, "gp_position": 1, "attending": True},
        # equal totals share the series rank: the rule's draw orders them, not their names
        "Bob": {"gp_total": 540, "gp_position": 2, "attending": True},
        "Cat": {"gp_total": 540, "gp_position": 2, "attending": True},
        "Dan": {"gp_total": 300, "gp_position": 4, "attending": True},
    }
    assert series_link.linked_series(event) == gp
    # the line's order gave Cat place 3; the series' rank, shared with Bob, replaced it
    made = AuditEntry.objects.get(event=event, action="entries.made_entrants")
    cat = str(event.entrants.get(name="Cat").number)
    assert made.after["seeds_from_series"] == {
        cat: [
            {"gp_total": 540, "gp_position": 3, "attending": True},
            {"gp_total": 540, "gp_position": 2, "attending": True},
        ]
    }


def test_a_decline_passes_the_place_on_and_the_seeds_follow_the_series(director):
    _gp, event = linked_event(director, places_count=4, invite=5)
    dan = Entry.objects.get(event=event, name="Dan")
    places.decline(dan)
    confirm_all(event)
    places.make_entrants(event, by=director)
    names = set(event.entrants.values_list("name", flat=True))
    assert names == {"Ann", "Bob", "Cat", "Eve"}
    eve = event.entrants.get(name="Eve")
    assert eve.flags == {"gp_total": 200, "gp_position": 5, "attending": True}
    assert eve.entry.reason == "Rank 5 in GP (200)"


def test_a_rescored_round_is_taken_again_until_round_a_fixes_the_seeds(director, client):
    gp, event = linked_event(director)
    confirm_all(event)
    places.make_entrants(event, by=director)
    round_eight = gp.stages.get(name="Round 8")
    series.import_scores(
        gp, name="Round 8", text="Ann,100\nDan,400", by=director, stage=round_eight
    )
    # Dan's six best are now 400 and five 50s: 650, first; everyone else one place down
    assert format_wpf_playoffs.seeds_from_series(event, by=director) == 4
    assert event.entrants.get(name="Dan").flags == {
        "gp_total": 650,
        "gp_position": 1,
        "attending": True,
    }
    row = AuditEntry.objects.get(event=event, action="wpf.seeds_from_series")
    assert row.after["4"] == {"gp_total": 650, "gp_position": 1, "attending": True}
    # typed values cannot replace the series' ones
    entry = format_wpf_playoffs.EligibilityEntry(4, None, 1, True, None)
    with pytest.raises(ServiceError, match="Dan: the eligibility score"):
        format_wpf_playoffs.save_eligibility(event, [entry], by=director)
    # the screen shows them read-only with their reasons, and takes them again on request
    client.force_login(director)
    url = reverse("tournaments:wpf_playoffs_eligibility", args=[event.slug])
    page = client.get(url).content.decode()
    assert "Qualified from GP" in page and "Rank 4 in GP (300)" in page and "650" in page
    assert 'name="e4-total"' not in page  # no typed field for a series' candidate
    response = client.post(url, {"action": "from_series"})
    assert response.status_code == 302
    rounds.draft_next_round(event, by=director)
    with pytest.raises(ServiceError, match="Round A is drafted"):
        format_wpf_playoffs.seeds_from_series(event, by=director)


def test_an_event_without_a_series_keeps_its_typed_flags(director):
    from tests.factories import wpf_playoffs_event

    event = wpf_playoffs_event(director, players=4)
    assert series_link.linked_series(event) is None and series_link.seeds(event) == {}
    entry = format_wpf_playoffs.EligibilityEntry(1, [5, 6], None, True, 2)
    assert format_wpf_playoffs.save_eligibility(event, [entry], by=director) == 1
    assert event.entrants.get(number=1).flags == {
        "gp_scores": [5, 6],
        "gp_position": 2,
        "attending": True,
    }
    with pytest.raises(ServiceError, match="not qualified from a series"):
        format_wpf_playoffs.seeds_from_series(event, by=director)
