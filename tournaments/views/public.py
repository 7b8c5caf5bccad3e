"""Public pages: no sign-in needed for public events. Thin: permission, selector, render.

Each page has one main partial (``{% partialdef %}``) that an HTMX request gets alone: the
"find my name" filter and the live refresh swap it in place. The refresh is cheap: a small
poller asks the version endpoint every ``ARBITER_POLL_SECONDS`` whether anything public
changed (204 when not) and the page fetches its partial only when it did.
"""

from __future__ import annotations

import threading
import zoneinfo
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from accounts.permissions import (
    activate_zone,
    entrant_of,
    event_for_viewer,
    is_director,
    is_player_of,
)
from tournaments import selectors
from tournaments.formats import ui_for
from tournaments.models import Event, Registration, Round
from tournaments.services.live import version_token
from tournaments.views import entrant_book, fragments
from tournaments.views.pagecache import (
    PLACEHOLDER,
    building_for_cache,
    cached_public_page,
    event_stamp,
)

POLL_SECONDS = 20
HOME_ROWS = fragments.HOME_ROWS


def _template(request: HttpRequest, page: str, partial: str) -> str:
    """HTMX requests get the named partial of the page's own template."""
    return f"{page}#{partial}" if getattr(request, "htmx", False) else page


def _zone(event: Event) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(event.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _page(
    request: HttpRequest, event: Event, page: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    if "rounds" not in context:  # (not setdefault: its default would be read every time)
        context["rounds"] = selectors.public_rounds(event)
    rounds = context["rounds"]
    hidden = ui_for(event).hides_results(event, rounds)
    context.update(
        event=event,
        results_hidden=hidden,
        in_progress=next((r for r in reversed(rounds) if r.status == Round.Status.PUBLISHED), None),
        version_token=version_token(event, len(rounds), hidden),
        poll_seconds=getattr(settings, "ARBITER_POLL_SECONDS", POLL_SECONDS),
    )
    fragments.note_language(event)  # (the standings task prerenders in the languages read)
    if building_for_cache(request):  # each visitor's own token goes in when it is served
        context["csrf_token"] = PLACEHOLDER
        context["shared_page"] = True  # no htmx token in the body: nothing here posts by htmx
    # Dates and times on the page read in the event's own time zone.
    with timezone.override(_zone(event)):
        if context.pop("shared_nav", False) and building_for_cache(request):
            context["nav_html"] = _shared_nav(request, context)
        response = render(request, _template(request, page, partial), context)
    patch_vary_headers(response, ["HX-Request"])
    return response


# The event's navigation and live poller as a signed-out visitor's entrant page shows them,
# by the event's version: the same for every entrant, rendered once per worker rather than
# on each of the hundreds of entrant pages asked for after a round's release.
_navs: OrderedDict[tuple[Any, ...], SafeString] = OrderedDict()
_navs_lock = threading.Lock()
KEPT_NAVS = 8


def _shared_nav(request: HttpRequest, context: dict[str, Any]) -> SafeString:
    event = context["event"]
    stamp = event_stamp(event.slug)
    key = (
        None if stamp is None else stamp["version"],
        get_language(),
        context["version_token"],
        tuple(r.pk for r in context["rounds"]),
    )
    with _navs_lock:
        found = _navs.get(key)
    if found is not None and key[0] is not None:
        return found
    # (the entrant page's own includes, and the newline between them)
    # (rendered by the templates, which escaped what they put in)
    html = mark_safe(
        render_to_string("tournaments/_event_nav.html", context, request)
        + "\n"
        + render_to_string("tournaments/_live.html", context, request)
    )
    if key[0] is not None:
        with _navs_lock:
            _navs[key] = html
            while len(_navs) > KEPT_NAVS:
                _navs.popitem(last=False)
    return html


_read: dict[str, tuple[str, Event, list[Round]]] = {}


def _event_and_rounds(request: HttpRequest, slug: str) -> tuple[Event, list[Round]]:
    """The event (as its visitor may see it) and its public rounds. A signed-out visitor's
    entrant page, built to be shared, reads them once per version of the event in each
    worker: the page is stored under that version, and so were they read (their two
    queries were a third of each of the hundreds of entrant pages built after a round's
    release). A page only reads them."""
    stamp = event_stamp(slug) if building_for_cache(request) else None
    if stamp is not None:
        with _navs_lock:
            found = _read.get(slug)
        if found is not None and found[0] == stamp["version"]:
            activate_zone(found[1])  # (as event_for_viewer does)
            return found[1], list(found[2])
    event = event_for_viewer(request.user, slug)
    rounds = selectors.public_rounds(event)
    if stamp is not None:
        with _navs_lock:
            _read[slug] = (stamp["version"], event, list(rounds))
            while len(_read) > KEPT_NAVS:
                _read.pop(next(iter(_read)))
    return event, rounds


FRONT_PAGE_SIZE = 30


@require_safe
def event_list(request: HttpRequest) -> HttpResponse:
    search = request.GET.get("q", "")[: selectors.FRONT_PAGE_SEARCH_LENGTH]
    events = selectors.front_page_events(request.user, search=search, today=timezone.localdate())
    page = Paginator(events, FRONT_PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        # happening_now: annotated by the selector
        "now": [event for event in page if getattr(event, "happening_now", False)],
        "events": [event for event in page if not getattr(event, "happening_now", False)],
        "q": search.strip(),
    }
    return render(request, "tournaments/event_list.html", context)


def _pairings_context(
    request: HttpRequest, event: Event, rnd: Round | None, rounds: list[Round]
) -> dict[str, Any]:
    """A round's pairings. Unsearched, its tables are the round's stored fragment (its
    matches are read only when the fragment is built); a search renders the matches
    found."""
    query = request.GET.get("q", "").strip()[:100]
    context: dict[str, Any] = {"round": rnd, "q": query}
    if rnd is not None and query:
        found = selectors.find_matches(fragments.round_matches(event, rnd), query)
        context["found_count"] = len(found)
        context["tables_html"] = fragments.render_pairings(event, rnd, found, query)
    elif rnd is not None:
        context["tables_html"] = fragments.pairings_tables(event, rnd, rounds)
    else:
        context["tables_html"] = fragments.render_pairings(event, None, [], "")
    return context


@require_safe
@cached_public_page  # rebuilt once per change of the event
def event_home(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    rounds = selectors.public_rounds(event)
    current = rounds[-1] if rounds else None
    snapshot = selectors.latest_snapshot(event)
    context: dict[str, Any] = {
        "rounds": rounds,
        "snapshot": snapshot,
        "pending": snapshot.pending if snapshot else [],
        "is_director": is_director(request.user, event),
        "pairings": _pairings_context(request, event, current, rounds),
        # the entry form's link while entries are open (its settings move the page stamp)
        "entries_open": Registration.objects.filter(event=event, open=True).first(),
    }
    if snapshot:
        # the top of the first table; the standings page has every table, a page at a time
        context["tables_html"], context["more_tables"] = fragments.standings_tables(
            event, snapshot, rounds, top=HOME_ROWS
        )
    return _page(request, event, "tournaments/event.html", "overview", context)


@require_safe
@cached_public_page  # rebuilt once per change of the event
def round_pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_viewer(request.user, slug)
    rounds = selectors.public_rounds(event)
    rnd = next((r for r in rounds if r.number == number), None)
    if rnd is None:
        # A pairing the director withdrew to pair again: say so, and the poller brings the new
        # one in once it is published.
        withdrawn = selectors.withdrawn_pairing(event, number)
        if withdrawn is None:
            raise Http404("No such round.")
        context = {"rounds": rounds, "withdrawn": withdrawn}
        return _page(request, event, "tournaments/round_withdrawn.html", "pairings", context)
    context = {
        "rounds": rounds,
        "round": rnd,
        "pairings": _pairings_context(request, event, rnd, rounds),
    }
    return _page(request, event, "tournaments/round.html", "pairings", context)


def _page_number(request: HttpRequest) -> int:
    """The ``page`` asked for (1 when none); a page that cannot exist is a 404."""
    asked = request.GET.get("page", "1")
    if not asked.isdigit() or not 1 <= int(asked) <= 100_000:
        raise Http404("No such page.")
    return int(asked)


@require_safe
@cached_public_page  # rebuilt once per change of the event (and page, and search)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The published standings: a long table a page at a time (the top first), "find my
    name" across every page, and a signed-in player's own row above the table."""
    event = event_for_viewer(request.user, slug)
    page = _page_number(request)
    query = request.GET.get("q", "").strip()[:100]
    rounds = selectors.public_rounds(event)
    snapshot = selectors.latest_snapshot(event)
    context: dict[str, Any] = {
        "rounds": rounds,
        "snapshot": snapshot,
        "pending": snapshot.pending if snapshot else [],
        "q": query,
        "page_number": page,
    }
    if snapshot:
        hidden = ui_for(event).hides_results(event, rounds)
        if query:
            found = selectors.find_standings(event, snapshot, query)
            context["found_count"] = sum(len(t["rows"]) for t in found)
            context["found_most"] = selectors.FOUND_ROWS
            context["tables_html"] = fragments.render_standings(event, snapshot, found, hidden)
        else:
            context["tables_html"], _ = fragments.standings_tables(
                event, snapshot, rounds, page=page
            )
        mine = entrant_of(request.user, event)  # no query for an anonymous visitor
        if mine is not None and not query:
            own = selectors.own_standings(event, snapshot, mine)
            if own:
                context["own_html"] = fragments.render_standings(event, snapshot, own, hidden)
    return _page(request, event, "tournaments/standings.html", "standings", context)


@require_safe
@cached_public_page  # rebuilt once per change of the event
def entrant(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event, rounds = _event_and_rounds(request, slug)
    # every entrant's rows read at once per version of a public event (a round's release:
    # hundreds of these pages asked within seconds), else this entrant's alone
    found = entrant_book.entrant_rows(event, rounds, number, request.user)
    if found is None:
        raise Http404("No such entrant.")
    person, items, placings = found
    _link(event, items)
    context = {
        "rounds": rounds,
        "entrant": person,
        "items": items,
        "has_tables": any(item["table"] is not None for item in items),
        "placings": placings,
        "shared_nav": True,  # (the same for every signed-out visitor: _page)
    }
    # the player's own e-mail switches and result entry (a signed-in page: never cached)
    context["own"] = own = is_player_of(request.user, person)
    if own and event.double_entry and ui_for(event).player_entry:
        context["to_enter"] = [
            item
            for item in items
            if item["round"].status == Round.Status.PUBLISHED
            and item["opponents"]
            and not (item["match"].result or {}).get("complete")
        ]
    return _page(request, event, "tournaments/entrant.html", "entrant-matches", context)


def _link(event: Event, items: list[dict[str, Any]]) -> None:
    """Each item's round address and its opponents' (name, address), or None for a bye:
    from two addresses reversed once, rather than by a dozen ``{% url %}`` tags (a tenth of
    an entrant page's build, and hundreds are built after a round's release)."""
    round_url, entrant_url = fragments.round_url(event.slug), fragments.entrant_url(event.slug)
    for item in items:
        item["round_url"] = f"{round_url}{item['round'].number}/"
        linked: list[tuple[str, str] | None] = []
        for seat in item["opponents"]:
            # (a seat of the book is a dict; one read alone, a MatchParticipant)
            person = seat.get("entrant") if isinstance(seat, dict) else seat.entrant
            if person is None:
                linked.append(None)
            elif isinstance(person, dict):
                linked.append((person["name"], f"{entrant_url}{person['number']}/"))
            else:
                linked.append((person.name, f"{entrant_url}{person.number}/"))
        item["opponent_links"] = linked


@require_safe
def version(request: HttpRequest, slug: str) -> HttpResponse:
    """What public pages poll: cheap, and changes whenever something public changes.

    An HTMX poller sends the token it knows: the answer is an empty 204 while nothing
    changed; otherwise a fresh poller and an ``arbiter-changed`` event that makes the page
    fetch its main partial again.
    """
    event = event_for_viewer(request.user, slug)
    rounds = selectors.public_rounds(event)
    hidden = ui_for(event).hides_results(event, rounds)
    count = len(rounds)
    token = version_token(event, count, hidden)
    if getattr(request, "htmx", False):
        if request.GET.get("known") == token:
            response = HttpResponse(status=204)
        else:
            response = render(
                request,
                "tournaments/_live.html",
                {
                    "event": event,
                    "version_token": token,
                    "poll_seconds": getattr(settings, "ARBITER_POLL_SECONDS", POLL_SECONDS),
                },
            )
            response["HX-Trigger"] = "arbiter-changed"
    else:
        versions = {
            "results_version": event.results_version,
            "standings_version": event.standings_version,
            "outlook_version": event.outlook_version,
        }
        response = JsonResponse({**({} if hidden else versions), "rounds": count, "token": token})
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """For load balancers and compose: 200 when the database answers, else 503 (never a
    server error page, which would need the database and the static manifest)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return JsonResponse({"status": "database unavailable"}, status=503)
    return JsonResponse({"status": "ok"})
