"""factory_boy factories and small builders for database tests."""

from __future__ import annotations

import random

import factory

from tournaments.models import Entrant, Event
from tournaments.services import events, results, rounds


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    slug = factory.Sequence(lambda n: f"event-{n}")
    name = factory.Sequence(lambda n: f"Event {n}")
    format = "round_robin"
    public = True


class EntrantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entrant

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.Faker("name")
    rating = factory.Sequence(lambda n: 2000 - n)


def round_robin_event(director, players=6, slug="rr", **settings) -> Event:
    event = events.create_event(
        slug=slug,
        name=f"RR {slug}",
        format="round_robin",
        by=director,
        public=True,
        settings=settings,
    )
    for i in range(players):
        events.add_entrant(event, name=f"Player {i + 1}", rating=2000 - i, by=director)
    return event


def play_round(event, director, scores=lambda match: [1, 0], complete=True):
    outcome = rounds.draft_next_round(event, by=director)
    rnd = rounds.publish_round(outcome.round, by=director)
    for match in rnd.matches.prefetch_related("participants"):
        if len(match.participants.all()) == 2:
            results.record(
                match, [{"scores": scores(match)}], expected_version=match.version, by=director
            )
    if complete:
        rnd = rounds.complete_round(rnd, by=director)
    return rnd


def freestyle_event(director, players=16, slug="fs", external_draws=False, **settings) -> Event:
    """A public Freestyle event with ``players`` entrants rated 2000, 1990, ..."""
    event = events.create_event(
        slug=slug,
        name=f"Freestyle {slug}",
        format="freestyle",
        by=director,
        public=True,
        settings=settings,
    )
    if external_draws:
        Event.objects.filter(pk=event.pk).update(external_draws=True)
        event.refresh_from_db()
    for i in range(players):
        events.add_entrant(event, name=f"Player {i + 1}", rating=2000 - 10 * i, by=director)
    return event


def gokodom_event(director, players=8, slug="goko", users=True, **settings) -> Event:
    """A GokoDom event: players alternately Red and Blue, each (with users=True) linked to
    a user 'p<number>' (password 'pw-player-1')."""
    from django.contrib.auth import get_user_model

    event = events.create_event(
        slug=slug,
        name=f"GokoDom {slug}",
        format="gokodom",
        by=director,
        public=True,
        settings=settings,
    )
    for i in range(players):
        entrant = events.add_entrant(
            event,
            name=f"Player {i + 1}",
            by=director,
            flags={"colour": "red" if i % 2 == 0 else "blue"},
        )
        if users:
            user = get_user_model().objects.create_user(
                f"{slug}-p{entrant.number}", password="pw-player-1"
            )
            entrant.user = user
            entrant.save(update_fields=["user"])
    return event


def bot_contest_event(director, entries=5, references=3, slug="bots", **settings) -> Event:
    """A bot contest (issue 9): ``entries`` programs E1.. and ``references`` reference
    programs flagged "reference", registered after them."""
    event = events.create_event(
        slug=slug,
        name=f"Bots {slug}",
        format="bot_contest",
        by=director,
        public=True,
        settings=settings,
    )
    for i in range(entries):
        events.add_entrant(event, name=f"Entry {i + 1}", by=director)
    for i in range(references):
        events.add_entrant(event, name=f"Reference {i + 1}", flags={"reference": True}, by=director)
    return event


def wpf_playoffs_event(director, players=16, slug="wpf", **settings) -> Event:
    """A public WPF GP playoff: ``players`` attending candidates, player i with GP total
    1000 - 10 * i (so seeds follow registration order)."""
    event = events.create_event(
        slug=slug,
        name=f"WPF {slug}",
        format="wpf_playoffs",
        by=director,
        public=True,
        settings=settings,
    )
    for i in range(players):
        events.add_entrant(
            event,
            name=f"Solver {i + 1}",
            by=director,
            flags={"gp_total": 1000 - 10 * i, "attending": True},
        )
    return event


def wpf_submissions(winner_seat: int) -> list[dict]:
    """One game whose submissions make ``winner_seat`` win, online or live: it solves in
    1:40, the other does not solve."""
    solved = [{"time": 100, "correct": True}]
    per_seat = [solved, []] if winner_seat == 0 else [[], solved]
    return [{"number": 1, "scores": [None, None], "details": {"submissions": per_seat}}]


def wpf_play(event, director, rounds_to_play: int, winner=lambda match: 0):
    """Draft, publish, fill and close the next ``rounds_to_play`` rounds; ``winner(match)``
    is the winning seat (default: the better rank, so nobody swaps)."""
    rnd = None
    for _ in range(rounds_to_play):
        outcome = rounds.draft_next_round(event, by=director)
        rnd = rounds.publish_round(outcome.round, by=director)
        for match in rnd.matches.prefetch_related("participants"):
            if match.result and match.result.get("complete"):
                continue
            results.record(
                match,
                wpf_submissions(winner(match)),
                expected_version=match.version,
                by=director,
            )
        rnd = rounds.complete_round(rnd, by=director)
    return rnd


def bulk_event(
    slug: str, entrants: int, rounds: int = 3, groups: int = 0, public: bool = True
) -> Event:
    """A big published event built with bulk_create in a few dozen queries, not through
    thousands of service calls: entrants, ``rounds`` rounds of two-player matches with
    table numbers and results, and a published standings snapshot (an overall table, and
    ``groups`` small group tables when asked) with tie reasons and a pending question."""
    from django.utils import timezone

    from tournaments.models import (
        Match,
        MatchParticipant,
        Round,
        StandingsRow,
        StandingsSnapshot,
    )

    now = timezone.now()
    event = Event.objects.create(
        slug=slug,
        name=f"Big {slug}",
        format="round_robin",
        public=public,
        status=Event.Status.RUNNING,
        results_version=rounds,
        standings_version=rounds,
    )
    people = Entrant.objects.bulk_create(
        Entrant(event=event, number=n, name=f"Entrant {n:04d}", rating=2400 - n)
        for n in range(1, entrants + 1)
    )
    round_rows = Round.objects.bulk_create(
        Round(
            event=event,
            number=r,
            label=f"Round {r}",
            status=Round.Status.COMPLETED if r < rounds else Round.Status.PUBLISHED,
            published_at=now,
        )
        for r in range(1, rounds + 1)
    )
    matches = Match.objects.bulk_create(
        Match(
            round=rnd,
            code=str(t),
            table=t,
            order=t,
            result={"points": [1, 0], "winner": 0, "complete": True, "summary": "1-0"},
        )
        for rnd in round_rows
        for t in range(1, entrants // 2 + 1)
    )
    per_round = entrants // 2
    participants = []
    for index, match in enumerate(matches):
        r = index // per_round
        t = index % per_round
        # a different opponent each round: entrant t meets entrant (t + r + 1) mod n
        first = people[t]
        second = people[(per_round + t + r) % entrants]
        if second.pk == first.pk:
            second = people[(t + 1) % entrants]
        participants += [
            MatchParticipant(match=match, seat=0, entrant=first, role="white"),
            MatchParticipant(match=match, seat=1, entrant=second, role="black"),
        ]
    MatchParticipant.objects.bulk_create(participants)
    columns = [
        {"key": "points", "label": "Pts", "help": "Points"},
        {"key": "sb", "label": "SB", "help": "Sonneborn-Berger"},
    ]
    tables = [
        {
            "key": "overall",
            "title": "Standings",
            "columns": columns,
            "decided": [{"ahead": "1", "behind": "2", "step": "sb", "detail": "5.5 against 4"}],
            "notes": [],
        }
    ]
    size = entrants // groups if groups else 0
    for g in range(groups):
        tables.append(
            {
                "key": f"group-{chr(65 + g)}",
                "title": f"Group {chr(65 + g)}",
                "columns": columns,
                "decided": [],
                "notes": [{"code": "group", "text": "The top two go on.", "rule": "3.1"}],
            }
        )
    snapshot = StandingsSnapshot.objects.create(
        event=event,
        results_version=rounds,
        after_round=rounds,
        computed_at=now,
        published=True,
        tables=tables,
        pending=[
            {
                "code": "tiebreaker_game",
                "text": "Entrants 3 and 4 play a tiebreaker game for third place.",
                "key": "T1",
                "options": [],
            }
        ],
    )
    rows = [
        StandingsRow(
            snapshot=snapshot,
            table_key="overall",
            position=i,
            entrant=person,
            rank=i,
            points=float(rounds - i % (rounds + 1)),
            values={"points": rounds - i % (rounds + 1), "sb": i % 7},
        )
        for i, person in enumerate(people, start=1)
    ]
    for g in range(groups):
        members = people[g * size : (g + 1) * size]
        rows += [
            StandingsRow(
                snapshot=snapshot,
                table_key=f"group-{chr(65 + g)}",
                position=i,
                entrant=person,
                rank=i,
                values={"points": size - i, "sb": i},
            )
            for i, person in enumerate(members, start=1)
        ]
    StandingsRow.objects.bulk_create(rows)
    return event


def wpf_imported_event(director, rounds_played: int, winners=None, slug="wpf", **settings):
    """A WPF playoff with its first ``rounds_played`` rounds played by the pure engine and
    imported through the event file (much faster than typing 45 results); ``winners``
    maps a match code to the winning seat (others: the better rank wins)."""
    from rules.contract import EntrantState, EventState, RoundPlan
    from rules.draws import DrawSource
    from rules.formats.wpf_playoffs.engine import ENGINE
    from rules.formats.wpf_playoffs.simulate import play_round
    from tournaments import simulation
    from tournaments.services.eventfile import import_event

    players = tuple(
        EntrantState(
            id=str(i), name=f"Solver {i}", flags={"gp_total": 1010 - 10 * i, "attending": True}
        )
        for i in range(1, 17)
    )
    state = EventState("wpf_playoffs", dict(settings), players)
    draws = DrawSource("wpf-tests")
    for _ in range(rounds_played):
        plan = ENGINE.next_round(state, draws)
        assert isinstance(plan, RoundPlan)
        fixed = {m.code: (winners or {}).get(m.code, 0) for m in plan.matches}
        played = play_round(plan, random.Random(0), fixed)
        state = EventState(
            state.format,
            state.settings,
            state.entrants,
            (*state.rounds, played),
            (*state.draws, *draws.new),
        )
        draws = DrawSource(draws.seed, state.draws)
    data = simulation.to_event_file(state, slug=slug, name=f"WPF {slug}")
    event = import_event(data, by=director)
    Event.objects.filter(pk=event.pk).update(public=True)
    event.directors.add(director)
    return Event.objects.get(pk=event.pk)


def confirm_preview(client, url: str, data: dict, *, expect: int = 302):
    """Post a form that answers with a correction preview, then confirm the preview it showed
    (the digest and results version read off the page, as the director's browser sends them)."""
    import re

    shown = client.post(url, data)
    body = shown.content.decode()
    assert shown.status_code == 200, body[:2000]
    digest = re.search(r'name="confirm" value="([0-9a-f]{64})"', body)
    version = re.search(r'name="results_version" value="(-?\d+)"', body)
    assert digest and version, "the page shows no preview to confirm"
    done = client.post(
        url,
        {
            "reason": "typo on the sheet",  # a correction needs its reason
            **data,
            "confirm": digest.group(1),
            "results_version": version.group(1),
        },
    )
    assert done.status_code == expect, done.content.decode()[:2000]
    return done
