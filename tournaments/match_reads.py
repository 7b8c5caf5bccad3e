"""How a match is read with its seats and games: a leaf module (models only), so the row
locks (services/locking.py) can read a match as the results screens do without importing
the selectors, which import the formats (tests/test_import_graph.py)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from tournaments.models import Game, Match, MatchParticipant


def with_seats_and_games(matches: QuerySet[Match] | None = None) -> QuerySet[Match]:
    """``matches`` (all by default) with their round and group, their seats in seat order
    with each seat's entrant, and their games in order: three queries however many matches.
    The shape every results screen and result service reads a match in."""
    matches = Match.objects.all() if matches is None else matches
    return matches.select_related("round", "group").prefetch_related(
        Prefetch(
            "participants",
            queryset=MatchParticipant.objects.order_by("seat").select_related("entrant"),
        ),
        Prefetch("games", queryset=Game.objects.order_by("number")),
    )


__all__ = ["with_seats_and_games"]
