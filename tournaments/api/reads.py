"""What each answer holds, read through the pages' selectors and the format's rules of
what visitors may see (FormatUI.public_rounds, public_table, hides_results): an answer and
a page cannot disagree. Each read runs a fixed number of queries whatever the event's size.
"""

from __future__ import annotations

import math
from datetime import date
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.api.errors import ApiError
from tournaments.endings import ending_notes
from tournaments.formats import ui_for
from tournaments.models import Entrant, Event, Match, Round
from tournaments.words import decided_detail, sentence

PER_PAGE = 50
MAX_PER_PAGE = 200


def paginate(
    items: QuerySet[Any] | list[Any], page: int, per_page: int
) -> tuple[dict[str, Any], list[Any]]:
    """One page of ``items`` (a queryset: a count and a slice, two queries; or a list read
    already). A page past the end is refused by name; page 1 of nothing is an empty page."""
    count = len(items) if isinstance(items, list) else items.count()
    pages = max(1, math.ceil(count / per_page))
    if page > pages:
        raise ApiError(
            404,
            "page_out_of_range",
            _("page: %(page)s is past the last page, %(pages)s.") % {"page": page, "pages": pages},
            parameter="page",
        )
    start = (page - 1) * per_page
    meta = {"count": count, "page": page, "pages": pages, "per_page": per_page}
    return meta, list(items[start : start + per_page])


def _event_summary(event: Event) -> dict[str, Any]:
    return {
        "slug": event.slug,
        "name": event.name,
        "format": event.format,
        "status": event.status,
        "starts_on": event.starts_on,
        "ends_on": event.ends_on,
        "venue": event.venue,
        "time_zone": event.time_zone,
        "entrant_count": getattr(event, "entrant_count", 0),
        "url": reverse("api-v1:event", args=[event.slug]),
    }


def events(user: Any, today: date, page: int, per_page: int) -> dict[str, Any]:
    """The front page's events (selectors.front_page_events), newest first."""
    meta, found = paginate(selectors.front_page_events(user, today=today), page, per_page)
    return {**meta, "results": [_event_summary(e) for e in found]}


def event(event: Event) -> dict[str, Any]:
    rounds = selectors.public_rounds(event)
    hidden = ui_for(event).hides_results(event, rounds)
    return {
        **_event_summary(event),
        "entrant_count": event.entrants.count(),
        "results_hidden": hidden,
        "rounds": len(rounds),
        # while results are hidden, nothing derived from them is public (the version endpoint)
        "results_version": None if hidden else event.results_version,
        "standings_version": None if hidden else event.standings_version,
        "updated_from_venue_at": event.mirrored_at if event.mirror_state == "copy" else None,
    }


def _ref(entrant: Entrant | None) -> dict[str, Any] | None:
    return None if entrant is None else {"number": entrant.number, "name": entrant.name}


def entrants(event: Event, page: int, per_page: int) -> dict[str, Any]:
    found = event.entrants.select_related("team").order_by("number")
    meta, rows = paginate(found, page, per_page)
    results = [
        {
            **(_ref(e) or {}),
            "family_name": e.family_name,
            "given_name": e.given_name,
            "country": e.country,
            "rating": e.rating,
            "seed": e.seed,
            "team": e.team.name if e.team else None,
            "status": e.status,
        }
        for e in rows
    ]
    return {**meta, "results": results}


def _round_summary(event: Event, rnd: Round) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "label": rnd.label,
        "status": rnd.status,
        "starts_at": rnd.starts_at,
        "published_at": rnd.published_at,
        "completed_at": rnd.completed_at,
        "url": reverse("api-v1:round", args=[event.slug, rnd.number]),
    }


def rounds(event: Event) -> list[dict[str, Any]]:
    return [_round_summary(event, r) for r in selectors.public_rounds(event)]


RESULT_KEYS = ("points", "winner", "complete", "summary", "game_scores")


def _match(match: Match, hidden: bool, ui: Any) -> dict[str, Any]:
    result = match.result if match.result and not hidden else None
    return {
        "code": match.code,
        "table": match.table,
        "bracket": match.bracket,
        # the bracket's heading on the round page (WOC: "Semi-finals (III.2)")
        "bracket_title": sentence(ui.bracket_title(match.bracket)) if match.bracket else "",
        "group": match.group.label if match.group else None,
        "seats": [
            {"seat": p.seat, "role": p.role, "entrant": _ref(p.entrant)}
            for p in match.participants.all()
        ],
        # the engine's score; its reasons and details are the director's record
        "result": {k: result.get(k) for k in RESULT_KEYS} if result else None,
        "overridden": match.overridden,
        # the notes under the result on the round page (fragments._prepare_rows): how it
        # ended, and the format's own (WOC: places, colours, the better-ranked's choice)
        "notes": [] if hidden else [str(n) for n in ending_notes(match) + ui.match_notes(match)],
        "games": []
        if hidden
        else [
            {"number": g.number, "scores": g.scores, "first_seat": g.first_seat, "ending": g.ending}
            for g in match.games.all()
        ],
    }


def one_round(event: Event, number: int) -> dict[str, Any]:
    """A public round with its pairings and results; a round visitors may not see (a draft,
    a hidden online round) is missing."""
    public = selectors.public_rounds(event)
    rnd = next((r for r in public if r.number == number), None)
    if rnd is None:
        raise ApiError(404, "not_found", _("Nothing here: no such public resource."))
    ui = ui_for(event)
    hidden = ui.hides_results(event, public)
    matches = selectors.with_seats_and_games(Match.objects.filter(round=rnd)).order_by(
        "order", "code"
    )
    return {
        **_round_summary(event, rnd),
        "results_hidden": hidden,
        "matches": [_match(m, hidden, ui) for m in matches],
    }


def _breakdown(found: Any) -> dict[str, Any] | None:
    """A table's parts as the standings page shows them (FormatUI.table_breakdown)."""
    if found is None:
        return None
    return {
        "title": sentence(found.title),
        "caption": str(found.caption),
        "columns": [{"label": str(label), "help": str(help)} for label, help in found.columns],
        "rows": [
            {"entrant": _ref(entrant), "cells": [str(c) for c in cells]}
            for entrant, cells in found.rows
        ],
    }


def standings(event: Event) -> dict[str, Any]:
    """The newest published standings, every public table with every tiebreak value and
    the reasons for each split tie (selectors.published_standings)."""
    rounds = selectors.public_rounds(event)
    ui = ui_for(event)
    hidden = ui.hides_results(event, rounds)
    snapshot, tables = selectors.published_standings(event)
    if snapshot is None:
        return {
            "published": False,
            "results_hidden": hidden,
            "after_round": None,
            "final": False,
            "computed_at": None,
            "tables": [],
        }
    out = []
    for table in tables:
        refs = {str(r["row"].entrant.number): _ref(r["row"].entrant) for r in table["rows"]}
        out.append(
            {
                "key": table["key"],
                "title": str(table.get("title", "")),
                "columns": [
                    {"key": c["key"], "label": str(c["label"]), "help": str(c.get("help", ""))}
                    for c in table["columns"]
                ],
                "rows": [
                    {
                        "position": r["row"].position,
                        "rank": r["row"].rank,
                        "entrant": _ref(r["row"].entrant),
                        "points": r["row"].points,
                        "status": r["row"].status,
                        "values": r["row"].values,
                        # how the tiebreak value is built (WOC: the Brightwell Quotient)
                        "explanation": ui.row_explanation(r["row"]),
                    }
                    for r in table["rows"]
                ],
                "decided": [
                    {
                        "ahead": refs.get(str(d["ahead"])),
                        "behind": refs.get(str(d["behind"])),
                        "step": str(d.get("step", "")),
                        "step_label": text["step"],
                        "detail": decided_detail(d),
                    }
                    for d, text in zip(table.get("decided", []), table["decided_text"], strict=True)
                ],
                "notes": list(table.get("notes", [])),
                "breakdown": _breakdown(table.get("breakdown")),
            }
        )
    return {
        "published": True,
        "results_hidden": hidden,
        # as the standings page: when and after which round stay hidden with the results
        "after_round": None if hidden else snapshot.after_round,
        "final": snapshot.final,
        "computed_at": None if hidden else snapshot.computed_at,
        "tables": out,
    }
