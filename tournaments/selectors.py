"""Reads for pages: each runs a fixed number of queries whatever the event's size."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from tournaments.models import (
    Event,
    Match,
    MatchParticipant,
    Round,
    StandingsRow,
    StandingsSnapshot,
)


def visible_events(user) -> QuerySet[Event]:
    events = Event.objects.annotate(entrant_count=Count("entrants", distinct=True))
    if getattr(user, "is_staff", False):
        return events
    if getattr(user, "is_authenticated", False):
        return events.filter(Q(public=True) | Q(directors=user)).distinct()
    return events.filter(public=True)


def public_rounds(event: Event) -> list[Round]:
    return list(event.rounds.exclude(status=Round.Status.DRAFT).order_by("number"))


def round_with_matches(event: Event, number: int, *, include_drafts: bool = False) -> Round | None:
    rounds = event.rounds.filter(number=number)
    if not include_drafts:
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return rounds.prefetch_related(
        Prefetch(
            "matches",
            queryset=Match.objects.order_by("order", "code")
            .select_related("group")
            .prefetch_related(
                Prefetch(
                    "participants",
                    queryset=MatchParticipant.objects.order_by("seat").select_related("entrant"),
                )
            ),
        )
    ).first()


def published_standings(event: Event) -> tuple[StandingsSnapshot | None, list[dict]]:
    """The newest published snapshot and its tables, each with its rows."""
    snapshot = (
        StandingsSnapshot.objects.filter(event=event, published=True)
        .order_by("-results_version")
        .first()
    )
    if snapshot is None:
        return None, []
    rows = (
        StandingsRow.objects.filter(snapshot=snapshot)
        .select_related("entrant")
        .order_by("table_key", "position")
    )
    by_table: dict[str, list[StandingsRow]] = {}
    for row in rows:
        by_table.setdefault(row.table_key, []).append(row)
    tables = []
    for table in snapshot.tables:
        names = {str(r.entrant.number): r.entrant.name for r in by_table.get(table["key"], [])}
        columns = table["columns"]
        tables.append(
            {
                **table,
                "rows": [
                    {
                        "row": row,
                        "cells": [row.values.get(c["key"]) for c in columns],
                    }
                    for row in by_table.get(table["key"], [])
                ],
                "decided_text": [
                    {
                        "ahead": names.get(d["ahead"], d["ahead"]),
                        "behind": names.get(d["behind"], d["behind"]),
                        "detail": d["detail"],
                    }
                    for d in table["decided"]
                ],
            }
        )
    return snapshot, tables
