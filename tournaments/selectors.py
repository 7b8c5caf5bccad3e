"""Reads for pages: each runs a fixed number of queries whatever the event's size."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    Count,
    Exists,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Value,
    When,
)

from tournaments.endings import ending_marks, ending_notes
from tournaments.formats import ui_for
from tournaments.match_reads import with_seats_and_games as with_seats_and_games
from tournaments.models import (
    AuditEntry,
    Entrant,
    Event,
    Match,
    MatchParticipant,
    Round,
    StandingsRow,
    StandingsSnapshot,
)
from tournaments.services.standings_rows import rows_of
from tournaments.words import decided_detail

# A table this small sits beside its neighbours on a wide screen (group tables); a bigger
# one gets the full width.
COMPACT_ROWS = 16
COMPACT_COLUMNS = 6


def visible_events(user: Any) -> QuerySet[Event]:
    """The events this user may see, each with its entrant count and whether the user
    directs it (``directing``: the list links to its director's screens)."""
    events = Event.objects.annotate(entrant_count=Count("entrants", distinct=True))
    if getattr(user, "is_staff", False):
        return events.annotate(directing=Value(True))
    if getattr(user, "is_authenticated", False):
        events = events.annotate(
            directing=Exists(
                Event.directors.through.objects.filter(user=user, event=OuterRef("pk"))
            )
        )
        # Subqueries, not joins: joining entrants again (and DISTINCT) beside the count
        # multiplied the rows by the entrants squared; a signed-in director waited minutes
        # for the list of three 1,000-entrant events (bench/load.py).
        directed = Event.directors.through.objects.filter(user=user).values("event_id")
        entered = Entrant.objects.filter(user=user).values("event_id")
        return events.filter(Q(public=True) | Q(pk__in=directed) | Q(pk__in=entered))
    return events.filter(public=True)


FRONT_PAGE_SEARCH_LENGTH = 100


def front_page_events(user: Any, *, search: str = "", today: date) -> QuerySet[Event]:
    """The events of the front page: those this user may see, the ones happening now first
    (running, or today within their dates), then the newest. An event with neither entrants
    nor rounds is listed to its directors only, so accounts cannot fill the public page
    with empty events (issue 29 finding 5). ``search`` looks in the name, venue and slug."""
    events = visible_events(user).annotate(
        has_entrants=Exists(Entrant.objects.filter(event=OuterRef("pk"))),
        has_rounds=Exists(Round.objects.filter(event=OuterRef("pk"))),
        happening_now=Case(
            When(
                Q(status=Event.Status.RUNNING)
                | Q(starts_on__lte=today, ends_on__gte=today)
                | Q(starts_on=today, ends_on__isnull=True),
                then=Value(True),
            ),
            default=Value(False),
            output_field=BooleanField(),
        ),
    )
    listed = Q(has_entrants=True) | Q(has_rounds=True)
    if getattr(user, "is_authenticated", False):
        listed |= Q(directing=True)
    events = events.filter(listed)
    search = search.strip()[:FRONT_PAGE_SEARCH_LENGTH]
    if search:
        events = events.filter(
            Q(name__icontains=search) | Q(venue__icontains=search) | Q(slug__icontains=search)
        )
    return events.order_by("-happening_now", "-starts_on", "name", "pk")


def public_rounds(event: Event) -> list[Round]:
    """The rounds visitors may see: published ones, narrowed by the format when it hides
    some for a while (FormatUI.public_rounds). One query."""
    published = list(event.rounds.exclude(status=Round.Status.DRAFT).order_by("number"))
    return ui_for(event).public_rounds(event, published)


def withdrawn_pairing(event: Event, number: int) -> AuditEntry | None:
    """The director's withdrawal of round ``number``'s published pairing (paired again after
    a correction), while the new one is not public yet. One query."""
    return (
        AuditEntry.objects.filter(
            event=event, action="round.redrawn", before__number=number, before__status="published"
        )
        .order_by("-at", "-id")
        .first()
    )


def match_with_seats_and_games(
    event: Event, match_id: int, *, published: bool = False
) -> Match | None:
    """One match of ``event`` (of a published round only, with ``published``), read as
    with_seats_and_games reads it; None when there is no such match."""
    matches = Match.objects.filter(pk=match_id, round__event=event)
    if published:
        matches = matches.exclude(round__status=Round.Status.DRAFT)
    return with_seats_and_games(matches).first()


def _matches_prefetch(queryset: QuerySet[Match]) -> QuerySet[Match]:
    return queryset.select_related("group").prefetch_related(
        Prefetch(
            "participants",
            queryset=MatchParticipant.objects.order_by("seat").select_related("entrant"),
        )
    )


def matches_with_seats(queryset: QuerySet[Match]) -> QuerySet[Match]:
    """Matches with their group and their seats' entrants, as the pairing tables show them."""
    return _matches_prefetch(queryset)


def round_with_matches(event: Event, number: int, *, include_drafts: bool = False) -> Round | None:
    rounds = event.rounds.filter(number=number)
    if not include_drafts:
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return rounds.prefetch_related(
        Prefetch("matches", queryset=_matches_prefetch(Match.objects.order_by("order", "code")))
    ).first()


@dataclass
class MatchSection:
    """Matches shown under one heading: a group, a bracket, or the whole round."""

    title: str
    matches: list[Any] = field(default_factory=list)  # Match, or a stored row


def find_matches(matches: list[Match], query: str) -> list[Match]:
    """ "Find my name": matches with an entrant whose name contains the words typed, or whose
    registration or table number is the number typed. Works on prefetched rows, no query."""
    query = query.strip().casefold()
    if not query:
        return matches
    found = []
    for match in matches:
        people = [p.entrant for p in match.participants.all() if p.entrant is not None]
        # the entrants whose name or number matched, for the page to highlight
        hits = {e.pk for e in people if query in e.name.casefold() or str(e.number) == query}
        match.hits = hits  # type: ignore[attr-defined]  # read by the page's template
        if hits or (query.isdigit() and str(match.table) == query):
            found.append(match)
    # exact matches first: "Ann" finds Ann before Joanna, number 12 before 112
    exact = {m.pk for m in found if any(_exact(e, query) for e in _people(m))}
    return sorted(found, key=lambda m: m.pk not in exact)


def _people(match: Match) -> list[Any]:
    return [p.entrant for p in match.participants.all() if p.entrant is not None]


def _exact(entrant: Any, query: str) -> bool:
    """The whole name, one whole word of it, or the number: what was typed, exactly."""
    name = entrant.name.casefold()
    return query in (name, str(entrant.number)) or query in name.replace(",", " ").split()


def match_sections(matches: Sequence[Any], ui: Any = None) -> list[MatchSection]:
    """Split a round's matches by group or bracket, in their order; one untitled section
    when the format has neither. The format names its brackets (FormatUI.bracket_title)."""
    sections: dict[str, MatchSection] = {}
    for match in matches:
        bracket = ui.bracket_title(match.bracket) if ui and match.bracket else match.bracket
        group = match.group  # a Group, or its label (a stored row: fragments.StoredRow)
        title = (group if isinstance(group, str) else group.label) if group else bracket
        sections.setdefault(title, MatchSection(title)).matches.append(match)
    return list(sections.values())


def published_standings(
    event: Event, snapshot: StandingsSnapshot | None = None
) -> tuple[StandingsSnapshot | None, list[dict[str, Any]]]:
    """The newest published snapshot (or the one given) and its tables, each with its rows."""
    snapshot = snapshot or latest_snapshot(event)
    if snapshot is None:
        return None, []
    rows = rows_of(snapshot).select_related("entrant").order_by("table_key", "position")
    by_table: dict[str, list[StandingsRow]] = {}
    for row in rows:
        by_table.setdefault(row.table_key, []).append(row)
    shown = public_tables(event, snapshot)
    ui = ui_for(event)
    return snapshot, [_table(table, by_table.get(table["key"], []), ui) for table in shown]


def public_tables(event: Event, snapshot: StandingsSnapshot) -> list[dict[str, Any]]:
    """The snapshot's tables visitors may see (FormatUI.public_table)."""
    ui = ui_for(event)
    return [table for table in snapshot.tables if ui.public_table(event, table["key"])]


def _table(
    table: dict[str, Any],
    rows: list[StandingsRow],
    ui: Any,
    names_from: list[StandingsRow] | None = None,
) -> dict[str, Any]:
    """A table to show with ``rows``. ``names_from``: when the rows are a part of the
    table (a page, a search), the rows whose names are known; only the ties broken
    between those are listed."""
    names = {str(r.entrant.number): r.entrant.name for r in (names_from or rows)}
    decided = table.get("decided", [])
    if names_from is not None:
        listed = {str(r.entrant.number) for r in rows}
        decided = [
            d for d in decided
            if (d["ahead"] in listed or d["behind"] in listed)
            and d["ahead"] in names and d["behind"] in names
        ]  # fmt: skip
    columns = table["columns"]
    labels = {c["key"]: c["label"] for c in columns}
    helps = {c["key"]: c.get("help", "") for c in columns}
    return {
        **table,
        "compact": len(rows) <= COMPACT_ROWS and len(columns) <= COMPACT_COLUMNS,
        "rows": [
            {"row": row, "cells": [row.values.get(c["key"]) for c in columns]} for row in rows
        ],
        "decided_text": [
            {
                "ahead": names.get(d["ahead"], d["ahead"]),
                "behind": names.get(d["behind"], d["behind"]),
                "step": _step_label(d, labels, helps),
                "detail": decided_detail(d),
            }
            for d in decided
        ],
        "notes": table.get("notes", []),
        "breakdown": ui.table_breakdown(table, rows),
    }


def _step_label(decided: dict[str, Any], labels: dict[str, str], helps: dict[str, str]) -> str:
    """The column that split a tie, by its label ("BQ"), or the step's own name; nothing
    when the engine's detail already starts with that name."""
    step = decided.get("step", "")
    label: str = labels.get(step, step.replace("_", " "))
    detail = decided.get("detail", "")
    if any(name and detail.startswith(name) for name in (label, helps.get(step, ""))):
        return ""
    return label


def top_of(tables: list[dict[str, Any]], rows: int) -> list[dict[str, Any]]:
    return [{**table, "rows": table["rows"][:rows]} for table in tables]


# A public standings table longer than this is shown a page at a time (a 10,000-entrant
# Swiss table was a 10 MB page, rebuilt after every result); "find my name" finds a row on
# any page, and a signed-in player sees their own row above the table.
STANDINGS_PAGE_ROWS = 100
FOUND_ROWS = 50  # the most rows a search of the standings lists


def standings_page_of(position: int) -> int:
    """The page of a paginated table that holds the row at ``position`` (1-based)."""
    return (position - 1) // STANDINGS_PAGE_ROWS + 1


def standings_page(
    event: Event, snapshot: StandingsSnapshot, page: int
) -> list[dict[str, Any]] | None:
    """Page ``page`` of the snapshot's public tables, or None when there is no such page.
    A table longer than STANDINGS_PAGE_ROWS shows that page's rows and carries its
    ``paging``; the shorter tables are shown whole, on page 1. Two queries, whatever the
    size of the event."""
    shown = public_tables(event, snapshot)
    counts = dict(rows_of(snapshot).values_list("table_key").annotate(rows=Count("pk")).order_by())
    size = STANDINGS_PAGE_ROWS
    pages = max([1] + [-(-counts.get(t["key"], 0) // size) for t in shown])
    if not 1 <= page <= pages:
        return None
    first, last = (page - 1) * size + 1, page * size
    long = [t["key"] for t in shown if counts.get(t["key"], 0) > size]
    short = [t["key"] for t in shown if counts.get(t["key"], 0) <= size] if page == 1 else []
    # one row past the page: the name of the one a tie at the page's foot was broken with
    rows = (
        rows_of(snapshot)
        .filter(
            Q(table_key__in=short)
            | Q(table_key__in=long, position__gte=first, position__lte=last + 1)
        )
        .select_related("entrant")
        .order_by("table_key", "position")
    )
    by_table: dict[str, list[StandingsRow]] = {}
    for row in rows:
        by_table.setdefault(row.table_key, []).append(row)
    ui = ui_for(event)
    tables = []
    for table in shown:
        if table["key"] not in long and table["key"] not in short:
            continue
        listed = by_table.get(table["key"], [])
        if table["key"] not in long:
            tables.append(_table(table, listed, ui))
            continue
        total = counts[table["key"]]
        on_page = [r for r in listed if r.position <= last]
        built = _table(table, on_page, ui, names_from=listed)
        built["paging"] = {
            "page": page,
            "pages": -(-total // size),
            "first": first,
            "last": min(last, total),
            "total": total,
            "near": [n for n in range(page - 2, page + 3) if 1 <= n <= -(-total // size)],
        }
        tables.append(built)
    return tables


def standings_top(
    event: Event, snapshot: StandingsSnapshot, top: int
) -> tuple[list[dict[str, Any]], bool]:
    """The first ``top`` rows of the snapshot's first public table, and whether the
    standings have more to see. One query."""
    shown = public_tables(event, snapshot)
    if not shown:
        return [], False
    rows = list(
        rows_of(snapshot)
        .filter(table_key=shown[0]["key"], position__lte=top + 1)
        .select_related("entrant")
        .order_by("position")
    )
    more = len(shown) > 1 or len(rows) > top
    return [_table(shown[0], rows[:top], ui_for(event), names_from=rows)], more


def find_standings(event: Event, snapshot: StandingsSnapshot, query: str) -> list[dict[str, Any]]:
    """ "Find my name" in the standings: the rows of the public tables whose entrant's name
    contains what was typed, or whose number it is (at most FOUND_ROWS), each table with
    the rows found and each row with the page it is on. One query."""
    query = query.strip()
    shown = public_tables(event, snapshot)
    match = Q(entrant__name__icontains=query)
    if query.isdigit():
        match |= Q(entrant__number=int(query))
    rows = (
        rows_of(snapshot)
        .filter(table_key__in=[t["key"] for t in shown])
        .filter(match)
        .select_related("entrant")
        .order_by("table_key", "position")[:FOUND_ROWS]
    )
    return _rows_by_table(event, shown, list(rows))


def own_standings(
    event: Event, snapshot: StandingsSnapshot, entrant: Entrant
) -> list[dict[str, Any]]:
    """The entrant's row in each public table, each with the page it is on. One query."""
    shown = public_tables(event, snapshot)
    rows = (
        rows_of(snapshot)
        .filter(entrant=entrant, table_key__in=[t["key"] for t in shown])
        .select_related("entrant")
    )
    return _rows_by_table(event, shown, list(rows))


def _rows_by_table(
    event: Event, shown: list[dict[str, Any]], rows: list[StandingsRow]
) -> list[dict[str, Any]]:
    by_table: dict[str, list[StandingsRow]] = {}
    for row in rows:
        row.page = standings_page_of(row.position)  # type: ignore[attr-defined]
        by_table.setdefault(row.table_key, []).append(row)
    ui = ui_for(event)
    return [
        {**_table(t, by_table[t["key"]], ui, names_from=by_table[t["key"]]), "found": True}
        for t in shown
        if t["key"] in by_table
    ]


def standings_sections(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive compact tables (groups) share a grid; others stand alone."""
    sections: list[dict[str, Any]] = []
    for table in tables:
        # "round-2/group-T": each round's groups make their own grid
        family = table["key"].split("/")[0] if "/" in table["key"] else ""
        same_family = sections and sections[-1]["family"] == family
        if table["compact"] and sections and sections[-1]["grid"] and same_family:
            sections[-1]["tables"].append(table)
        else:
            sections.append({"grid": table["compact"], "tables": [table], "family": family})
    for section in sections:
        section["grid"] = section["grid"] and len(section["tables"]) > 1
    return sections


def entrant_page(
    event: Event, number: int, rounds: list[Round], entrant: Entrant | None = None
) -> tuple[Entrant, list[dict[str, Any]]] | None:
    """An entrant and their matches in the given (public) rounds, oldest first, each seen
    from their seat: opponents, role, points and outcome. Three queries."""
    if entrant is None:  # (or read already, with its team)
        entrant = event.entrants.select_related("team").filter(number=number).first()
    if entrant is None:
        return None
    matches = _matches_prefetch(
        Match.objects.filter(
            round__in=[r.pk for r in rounds], participants__entrant=entrant
        ).order_by("round__number", "order", "code")
    )
    by_pk = {r.pk: r for r in rounds}
    items = []
    for match in matches:
        seats = list(match.participants.all())
        mine = next(p for p in seats if p.entrant_id == entrant.pk)
        item = seat_item(match, mine, seats, by_pk[match.round_id])
        item["notes"] = match_notes(event, match)
        items.append(item)
    return entrant, items


def match_notes(event: Event, match: Match) -> list[str]:
    """The public notes on a match in the active language: forfeits and resignations, then
    the format's own (colours, choices). Reads the prefetched participants."""
    return ending_notes(match) + ui_for(event).match_notes(match)


def seat_item(
    match: Match, mine: MatchParticipant, seats: list[MatchParticipant], round_: Any
) -> dict[str, Any]:
    """A match as its entrant's page shows it, seen from the seat ``mine`` (one of
    ``seats``, the match's prefetched participants): opponents, points, outcome, score.
    (tournaments/entrant_book.py builds every entrant's with it at once.)"""
    return {
        "match": match,
        "round": round_,
        "seat": mine,
        "table": match.table,
        "opponents": [p for p in seats if p is not mine],
        **seen_from(match.result, mine.seat, len(seats)),
    }


def seen_from(result: dict[str, Any] | None, seat: int, seats: int) -> dict[str, Any]:
    """A result as the entrant in ``seat`` of a match of ``seats`` reads it: their points,
    the outcome ("win", "loss", "draw", "bye" or "") and the score, their own first."""
    return {
        "points": _points(result, seat),
        "outcome": _outcome(result, seat, seats),
        "score": _from_side(result, seat, seats),
    }


def projector_rows(matches: list[Match]) -> list[dict[str, Any]]:
    """A round as directors project it ("find your table"): each entrant once, in the
    alphabetical order of their names, with their match (or matches: a gauntlet round
    has several): table or code, seat role, opponents and, once it is in, the result
    from their side. Reads prefetched matches (round_with_matches), no query."""
    by_entrant: dict[int, dict[str, Any]] = {}
    for match in matches:
        seats = list(match.participants.all())
        for mine in seats:
            if mine.entrant is None:
                continue
            row = by_entrant.setdefault(
                mine.entrant.number, {"entrant": mine.entrant, "matches": []}
            )
            row["matches"].append(
                {
                    "match": match,
                    "role": mine.role,
                    "opponents": [p for p in seats if p is not mine],
                    "outcome": _outcome(match.result, mine.seat, len(seats)),
                    "score": _from_side(match.result, mine.seat, len(seats)),
                    "marks": ending_marks(match),
                }
            )
    return sorted(
        by_entrant.values(),
        key=lambda row: (_name_order(row["entrant"].name), row["entrant"].number),
    )


def _name_order(name: str) -> list[Any]:
    """A name's place in an alphabetical list, numbers by value ("Entry 9" before "Entry
    10"): text and numbers alternate, text first, so two keys always compare."""
    parts = re.split(r"(\d+)", name)  # the digits are at the odd places
    return [int(part) if i % 2 else part.casefold() for i, part in enumerate(parts)]


# A two-seat summary in seat order: scores ("64-0", "1½-½") or result codes ("WD-LD")
SCORE = re.compile(r"^\s*([^\s\-\u2013]+)\s*[-\u2013]\s*([^\s\-\u2013]+)\s*$")


def _from_side(result: dict[str, Any] | None, seat: int, seats: int) -> str:
    """The score as the entrant reads it, their own first ("64-0" for the seat that won
    64-0 in second seat, "LD-WD" for GokoDom's loss by default): a two-seat result written
    "a-b" in seat order is turned round for the second seat; any other summary stays as the
    format wrote it."""
    summary = str((result or {}).get("summary", ""))
    found = SCORE.match(summary)
    if seats != 2 or seat != 1 or not found:
        return summary
    return f"{found.group(2)}-{found.group(1)}"


def _points(result: dict[str, Any] | None, seat: int) -> Any:
    if not result:
        return None
    points = result.get("points") or []
    return points[seat] if seat < len(points) else None


def _outcome(result: dict[str, Any] | None, seat: int, seats: int) -> str:
    """ "win", "loss", "draw", "bye" or "" (no result yet, or not decided)."""
    if not result:
        return ""
    if seats == 1:
        return "bye"
    winner = result.get("winner")
    if winner is None:
        # a draw is a finished match with equal points; a match scored by points with no
        # winner (a bot-contest gauntlet game) is neither won nor drawn
        points = result.get("points") or []
        level = len(set(map(str, points))) <= 1
        return "draw" if result.get("complete", True) and level else ""
    return "win" if winner == seat else "loss"


def entrant_standings(
    event: Event, snapshot: StandingsSnapshot | None, entrant: Entrant
) -> list[dict[str, Any]]:
    """The entrant's rank in each public table of the published snapshot, with how its
    tiebreak value is built ("why", in the active language). One query."""
    if snapshot is None:
        return []
    titles = {t["key"]: t["title"] for t in public_tables(event, snapshot)}
    rows = rows_of(snapshot).filter(entrant=entrant).order_by("table_key")
    ui = ui_for(event)
    return [
        {"title": titles[row.table_key], "row": row, "why": ui.row_explanation(row)}
        for row in rows
        if row.table_key in titles
    ]


def latest_snapshot(event: Event) -> StandingsSnapshot | None:
    return (
        StandingsSnapshot.objects.filter(event=event, published=True)
        .order_by("-results_version")
        .first()
    )
