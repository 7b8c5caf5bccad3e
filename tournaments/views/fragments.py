"""The large parts of public pages (a round's pairing tables, a snapshot's standings
tables), rendered once per version of what they show and kept in the cache: each later
build of the page (another address, a signed-in visitor, the next change elsewhere in the
event) puts the stored HTML in place instead of rendering a thousand rows again.

A fragment's key names everything it shows: the event and its edit time, the snapshot or
the round and the results version, whether results are hidden, the language and the time
zone, and the event's *names epoch*, which moves when an entrant or a team is saved (a
rename changes no version, yet shows in every row).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import TextField
from django.db.models.functions import MD5, Cast
from django.http import Http404
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from tournaments import selectors
from tournaments.endings import ending_notes
from tournaments.formats import ui_for
from tournaments.models import Event, Match, MatchParticipant, Round, StandingsSnapshot
from tournaments.views.pagecache import _cache_call, _local_get, _local_put, names_epoch


def entrant_url(slug: str) -> str:
    """The entrants' pages' address up to the number: reversed once per page."""
    return reverse("tournaments:entrant", args=[slug, 0])[: -len("0/")]


def round_url(slug: str) -> str:
    """The rounds' pages' address up to the number: reversed once per page."""
    return reverse("tournaments:round", args=[slug, 0])[: -len("0/")]


def fragment(kind: str, event: Any, parts: Iterable[Any], build: Callable[[], str]) -> SafeString:
    """The stored HTML for this key, or ``build()``'s, stored."""
    key = ":".join(
        [
            "fragment",
            kind,
            str(event.pk),
            str(int(event.updated_at.timestamp() * 1e6)),
            names_epoch(event.pk),
            *map(str, parts),
            get_language() or "",
            timezone.get_current_timezone_name(),
        ]
    )
    html: str | None = _local_get(key)
    if html is None:
        html = _cache_call("get", key)
    if html is None:
        html = str(build())
        _cache_call("set", key, html, timeout=settings.ARBITER_PAGE_CACHE_SECONDS)
    _local_put(key, html, len(html))
    return mark_safe(html)  # rendered by our own templates, escaped there


# -- the two fragments ---------------------------------------------------------------------


def round_matches(event: Event, rnd: Round) -> list[Match]:
    loaded = selectors.round_with_matches(event, rnd.number)
    return list(loaded.matches.all()) if loaded else []


def render_pairings(event: Event, rnd: Round | None, matches: list[Match], query: str) -> str:
    _prepare_rows(event, matches)
    pairings = {
        "round": rnd,
        "q": query,
        "sections": selectors.match_sections(matches, ui_for(event)),
        "has_tables": any(m.table is not None for m in matches),
    }
    context = {"event": event, "pairings": pairings, "entrant_url": entrant_url(event.slug)}
    return render_to_string("tournaments/_pairings_tables.html", context)


def pairings_tables(event: Event, rnd: Round, rounds: list[Round]) -> SafeString:
    """A round's pairing tables, unsearched: stored per results version, built from rows
    stored apart (render_stored_rows), so a result saved re-renders its own row, not the round."""
    hidden = ui_for(event).hides_results(event, rounds)
    return fragment(
        "pairings",
        event,
        [rnd.pk, rnd.status, event.results_version, hidden],
        lambda: render_stored_rows(event, rnd, hidden),
    )


@dataclass
class StoredRow:
    """A match as the round's table lists it: where it goes, and its row's HTML."""

    code: str
    table: int | None
    bracket: str
    group: str
    html: SafeString


def render_stored_rows(event: Event, rnd: Round, hidden: bool) -> str:
    """The round's tables from each match's stored row. A row is keyed by a digest of all it
    shows (the match's code, table, result, details, override; each seat's role, number and
    name) and of the page's language, zone and layout: a result, a correction, a rename or
    an override gives the row a new key, and only the rows with no stored HTML are loaded
    and rendered. A 1,000-entrant round after one result: one row, not 500."""
    matches = list(
        Match.objects.filter(round=rnd)
        .order_by("order", "code")
        .values_list(
            "pk", "code", "table", "bracket", "group__label", "overridden",
            MD5(Cast("result", TextField())), MD5(Cast("details", TextField())),
        )
    )  # fmt: skip
    seats: dict[int, list[tuple[Any, ...]]] = {}
    for match_id, *seat in (
        MatchParticipant.objects.filter(match__round=rnd)
        .order_by("match_id", "seat")
        .values_list("match_id", "seat", "role", "entrant__number", "entrant__name")
    ):
        seats.setdefault(match_id, []).append(tuple(seat))
    has_tables = any(m[2] is not None for m in matches)
    page = [event.pk, event.slug, get_language(), timezone.get_current_timezone_name()]
    page += [has_tables, hidden]
    keys = {
        match[0]: "fragment:pairing-row:" + _digest([*page, match, seats.get(match[0], [])])
        for match in matches
    }
    # one round trip for every row; not in the worker's small local store, which keeps the
    # pages and stamps every request reads and which 500 rows would flush
    found = _cache_call("get_many", list(keys.values())) or {}
    rows = {pk: found.get(key) for pk, key in keys.items()}
    missing = [pk for pk, html in rows.items() if html is None]
    if missing:
        built = _render_rows(event, rnd, missing, has_tables)
        rows.update(built)
        _cache_call(
            "set_many",
            {keys[pk]: html for pk, html in built.items()},
            timeout=settings.ARBITER_PAGE_CACHE_SECONDS,
        )
    listed = [
        StoredRow(code, table, bracket, group or "", mark_safe(rows[pk]))
        for pk, code, table, bracket, group, *_ in matches
    ]
    pairings = {
        "round": rnd,
        "q": "",
        "sections": selectors.match_sections(listed, ui_for(event)),
        "has_tables": has_tables,
    }
    context = {"event": event, "pairings": pairings, "entrant_url": entrant_url(event.slug)}
    return render_to_string("tournaments/_pairings_tables.html", context)


def _prepare_rows(event: Event, matches: Iterable[Match]) -> None:
    """Each match's seats and notes, worked out once here, not looked up row by row in the
    template."""
    ui = ui_for(event)
    for match in matches:
        # read by the template; type: ignore as they are not model fields
        match.seats = list(match.participants.all())  # type: ignore[attr-defined]
        match.notes = ending_notes(match) + ui.match_notes(match)  # type: ignore[attr-defined]


def _render_rows(event: Event, rnd: Round, pks: list[int], has_tables: bool) -> dict[int, str]:
    loaded = list(selectors.matches_with_seats(Match.objects.filter(pk__in=pks)))
    _prepare_rows(event, loaded)
    context = {
        "event": event,
        "pairings": {"round": rnd, "q": "", "has_tables": has_tables},
        "entrant_url": entrant_url(event.slug),
    }
    row = get_template("tournaments/_pairings_tables.html#pairing-row")
    built = {}
    for match in loaded:
        built[match.pk] = str(row.render({**context, "p": context["pairings"], "match": match}))
    return built


def _digest(parts: list[Any]) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


MORE = "<!--more-->"  # ends a top-of-standings fragment that has more rows than it shows


def standings_tables(
    event: Event,
    snapshot: StandingsSnapshot,
    rounds: list[Round],
    top: int | None = None,
    page: int = 1,
) -> tuple[SafeString, bool]:
    """The snapshot's standings tables as stored HTML (page ``page`` of them, or the top
    rows of the first), and whether there is more than that to see. Raises Http404 for a
    page the standings do not have."""
    hidden = ui_for(event).hides_results(event, rounds)

    def build() -> str:
        more = False
        if top is not None:
            tables, more = selectors.standings_top(event, snapshot, top)
        else:
            found = selectors.standings_page(event, snapshot, page)
            if found is None:
                raise Http404("No such page of the standings.")
            tables = found
        return render_standings(event, snapshot, tables, hidden) + (MORE if more else "")

    kind = "standings-top" if top else "standings"
    # the outlook is attached to the snapshot after it is published: another fragment
    parts = [snapshot.pk, snapshot.outlook_pending, top, hidden, page]
    html = fragment(kind, event, parts, build)
    return html, html.endswith(MORE)


def render_standings(
    event: Event, snapshot: StandingsSnapshot, tables: list[dict[str, Any]], hidden: bool
) -> str:
    """Standings tables (selectors' form) as HTML: a page, a search's rows, a reader's own."""
    _format_cells(tables)
    return render_to_string(
        "tournaments/_standings_tables.html",
        {
            "sections": selectors.standings_sections(tables),
            "snapshot": snapshot,
            "results_hidden": hidden,
            "entrant_url": entrant_url(event.slug),
            "standings_url": reverse("tournaments:standings", args=[event.slug]),
        },
    )


def _format_cells(tables: list[dict[str, Any]]) -> None:
    """Each cell as the text the template showed ({{ v|default_if_none:"" }}, localised),
    worked out here: localising thousands of numbers one by one in the template was a
    third of the table's time."""
    separator = formats.get_format("DECIMAL_SEPARATOR")
    plain = not settings.USE_THOUSAND_SEPARATOR

    def text(value: Any) -> Any:
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, int | float) or not plain:
            return value
        shown = str(value)
        if "e" in shown or "n" in shown:  # 1e-07, inf, nan: as Django says them
            return formats.localize(value)
        return shown.replace(".", separator)

    for table in tables:
        for row in table["rows"]:
            row["cells"] = [text(v) for v in row["cells"]]


# -- the languages an event is read in ------------------------------------------------------
#
# The standings task prerendered every fragment in each of the site's languages: after a
# release, French tables and pairings nobody read (0.35 s of the one worker, on the cores
# the release's crowd was using: docs/performance.md, "rel203"). A page built in a
# language notes it for its event (at most once a minute per worker), and the task
# prerenders in the languages noted within the hour, else in the site's own.

READ_SECONDS = 3600  # how long a language stays noted without a page built in it
NOTE_EVERY = 60.0  # seconds between a worker's notes of one event and language
_noted: dict[tuple[int, str], float] = {}


def note_language(event: Event) -> None:
    """A public page of ``event`` is being built in the active language."""
    language = get_language() or settings.LANGUAGE_CODE
    now = time.monotonic()
    if now - _noted.get((event.pk, language), -NOTE_EVERY) < NOTE_EVERY:
        return
    _noted[(event.pk, language)] = now
    if len(_noted) > 1000:  # (a worker serving many events over weeks)
        _noted.clear()
    _cache_call("set", f"readin:{event.pk}:{language}", 1, timeout=READ_SECONDS)


def languages_read(event_id: int) -> list[str]:
    """The site's languages the event's public pages were built in lately, or the site's
    own language when none was (or the cache cannot say)."""
    keys = {f"readin:{event_id}:{code}": code for code, _name in settings.LANGUAGES}
    found = _cache_call("get_many", list(keys)) or {}
    return [keys[key] for key in keys if key in found] or [settings.LANGUAGE_CODE]


def prerender(event_id: int, *, pairings: bool = True) -> None:
    """Store the public fragments of an event's newest standings and current round, in
    each language its pages are read in (``languages_read``): called by the standings task
    once a snapshot is stored, so the first visitor after it does not render a thousand
    rows. A language first read after it renders them once."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    from accounts.permissions import activate_zone

    rounds = selectors.public_rounds(event)
    snapshot = selectors.latest_snapshot(event)
    for language in languages_read(event.pk):
        with translation.override(language):
            activate_zone(event)
            try:
                if snapshot is not None:
                    standings_tables(event, snapshot, rounds)
                    standings_tables(event, snapshot, rounds, top=HOME_ROWS)
                if rounds and pairings:
                    pairings_tables(event, rounds[-1], rounds)
            finally:
                timezone.deactivate()


HOME_ROWS = 10  # the standings rows on an event's home page
