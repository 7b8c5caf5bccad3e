"""The demo series for `make run` (docs/series.md): a Puzzle Grand Prix of eight online
rounds (imported scores, the six best count) that feeds the WPF playoffs demo (which builds
its line of players from it: tournaments/formats/wpf_playoffs/demo.py), and the
GokoDom league's Seasons II and III (points by place). Idempotent: a series already there
is left as it is."""

from __future__ import annotations

import random
from typing import Any

from tournaments.demo import slug as demo_slug
from tournaments.models import Event, EventDirector, Series
from tournaments.services import series, standings

GP_SLUG = "demo-puzzle-gp"
GOKODOM_SLUG = "demo-gokodom-league"
SEASON_II_SLUG = "demo-gokodom-season-2"
GP_ROUNDS = 8
GP_PLAYERS = 34  # the top 30 are invited to the playoffs; 16 places
# invented names (the demo's players are nobody real)
GP_NAMES = [
    "Ada Lindqvist",
    "Bruno Okafor",
    "Chiara Benedetti",
    "Dmitri Volkov",
    "Elif Yilmaz",
    "Farah Haddad",
    "Gustav Moreau",
    "Hana Sato",
    "Ines Carvalho",
    "Jonas Weber",
    "Kaito Mori",
    "Lena Novak",
    "Marek Dvorak",
    "Nadia Rahman",
    "Oskar Berg",
    "Priya Raman",
    "Quentin Faure",
    "Rosa Jimenez",
    "Stefan Ilic",
    "Tamsin Hale",
    "Uma Kapoor",
    "Viktor Szabo",
    "Wen Li",
    "Ximena Ruiz",
    "Yusuf Demir",
    "Zofia Kowalska",
    "Arjun Mehta",
    "Bea Schulz",
    "Colm Byrne",
    "Dalia Mansour",
    "Emil Lund",
    "Freya Olsen",
    "Goran Petrovic",
    "Hugo Lambert",
]
# a common league table: 1st 25 points, 2nd 18 ... 10th 1, then nothing
SEASON_POINTS = ["25", "18", "15", "12", "10", "8", "6", "4", "2", "1"]


def build(*, director: Any) -> list[Series]:
    made = []
    if not Series.objects.filter(slug=GP_SLUG).exists():
        made.append(grand_prix(director))
    if not Series.objects.filter(slug=GOKODOM_SLUG).exists():
        made.append(_gokodom(director))
    return made


def grand_prix(director: Any) -> Series:
    """The Puzzle GP: eight online rounds of 30 players (seeded random scores, some rounds
    missed), six best count. The WPF playoffs demo builds its line from it
    (tournaments/formats/wpf_playoffs/demo.py); an existing one is returned as it is."""
    found = Series.objects.filter(slug=GP_SLUG).first()
    if found is not None:
        return found
    rng = random.Random(GP_SLUG)
    scores: list[tuple[str, list[int | None]]] = []
    for index in range(1, GP_PLAYERS + 1):
        missed = set(rng.sample(range(GP_ROUNDS), rng.choice((0, 0, 0, 1, 1, 2, 3))))
        scores.append(
            (
                GP_NAMES[index - 1] if index <= len(GP_NAMES) else f"Player {index}",
                [None if r in missed else rng.randint(200, 1000) for r in range(GP_ROUNDS)],
            )
        )
    gp = series.create_series(
        slug=GP_SLUG,
        name="Demo Puzzle Grand Prix",
        by=director,
        kind=Series.Kind.GRAND_PRIX,
        value=Series.Value.SCORE,
        best=6,
        public=True,
        description=(
            "Eight online rounds scored elsewhere; each player's six best count. "
            "The top 30 are invited to the WPF playoffs demo, in the order of the table."
        ),
    )
    for number in range(GP_ROUNDS):
        lines = [
            f"{name},{values[number]}" for name, values in scores if values[number] is not None
        ]
        series.import_scores(gp, name=f"GP round {number + 1}", text="\n".join(lines), by=director)
    return gp


def _gokodom(director: Any) -> Series:
    """Season III is the GokoDom demo (under way); Season II is a whole simulated league,
    finished, most of whose players came back."""
    from tournaments import simulation
    from tournaments.services.eventfile import import_event

    season_two = Event.objects.filter(slug=SEASON_II_SLUG).first()
    if season_two is None:
        state = simulation.simulate("gokodom", 20, 2)
        event_file = simulation.to_event_file(
            state, slug=SEASON_II_SLUG, name="Demo GokoDom Season II"
        )
        season_two = import_event(event_file, by=director)
        standings.refresh(season_two.pk, Event.objects.get(pk=season_two.pk).results_version)
        EventDirector.objects.get_or_create(event=season_two, user=director)
    league = series.create_series(
        slug=GOKODOM_SLUG,
        name="Demo GokoDom seasons",
        by=director,
        kind=Series.Kind.SEASON,
        value=Series.Value.PLACE_POINTS,
        points=SEASON_POINTS,
        public=True,
        description="Seasons II and III: each season's final ranking gives points by place.",
    )
    series.add_event_stage(league, season_two, by=director, name="Season II")
    season_three = Event.objects.filter(slug=demo_slug("gokodom")).first()
    if season_three is not None:
        series.add_event_stage(league, season_three, by=director, name="Season III")
    return league
