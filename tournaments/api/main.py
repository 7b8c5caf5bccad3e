"""The API's instance and its operations: thin (permission, read, shape), as the pages'
views. Every operation answers the statuses its ``response`` names, each documented."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from ninja import NinjaAPI
from ninja.errors import ValidationError
from ninja.params.functions import Path, Query
from pydantic import RootModel

from accounts.permissions import event_for_viewer
from tournaments.api import reads, schemas
from tournaments.api.caching import Prepared, prepare, respond, store
from tournaments.api.errors import not_found_response, validation_response

api = NinjaAPI(
    title="Arbiter public API",
    version="1",
    description=(
        "Read-only JSON for what the public pages show: events, entrants, rounds with "
        "pairings and results, standings with every tiebreak value and the reasons, the "
        "contention outlook, the recorded draws, and each format's own pages (brackets, "
        "the bot contest's gauntlet, final and boards, the WPF ladder). Guide: docs/api.md."
    ),
    urls_namespace="api-v1",
    openapi_url="/schema/",
    docs_url=None,  # the rendered page is ours (tournaments/api/docs.py): no CDN
)

# Parameter markers (ninja's Path and Query are typed for the annotation style, not defaults)
Slug: Any = Path(
    ...,
    pattern=r"^[-a-zA-Z0-9_]+$",
    max_length=80,
    description="The event's slug.",
    example="demo-round-robin",  # one of the demo events (manage.py load_demo)
)
PageNumber: Any = Query(1, ge=1, le=1_000_000, description="Which page, from 1.")
PerPage: Any = Query(
    reads.PER_PAGE, ge=1, le=reads.MAX_PER_PAGE, description="Items a page, at most 200."
)

RoundNumber: Any = Path(..., ge=1, le=1_000_000, description="The round's number, from 1.")


class _RoundList(RootModel[list[schemas.RoundSummary]]):
    """A bare list of rounds, built through the same shape as its schema."""


ERRORS: dict[int, Any] = {
    304: None,
    404: schemas.Error,
    422: schemas.Error,
    429: schemas.Error,
}


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Exception) -> HttpResponse:
    return not_found_response()


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    return validation_response(request, list(exc.errors))


@api.get(
    "/events/",
    response={200: schemas.EventPage, **ERRORS},
    url_name="events",
    summary="Public events, happening now first, then newest",
)
def events(request: HttpRequest, page: int = PageNumber, per_page: int = PerPage) -> HttpResponse:
    today = timezone.localdate()
    return respond(
        request,
        "events",
        schemas.EventPage,
        lambda: reads.events(request.user, today, page, per_page),
        params=(today, page, per_page),
    )


@api.get(
    "/events/{slug}/",
    response={200: schemas.Event, **ERRORS},
    url_name="event",
    summary="One event",
)
def event(request: HttpRequest, slug: str = Slug) -> HttpResponse:
    return respond(
        request,
        "event",
        schemas.Event,
        lambda: reads.event(event_for_viewer(request.user, slug)),
        slug=slug,
    )


@api.get(
    "/events/{slug}/entrants/",
    response={200: schemas.EntrantPage, **ERRORS},
    url_name="entrants",
    summary="An event's entrants, by number",
)
def entrants(
    request: HttpRequest, slug: str = Slug, page: int = PageNumber, per_page: int = PerPage
) -> HttpResponse:
    return respond(
        request,
        "entrants",
        schemas.EntrantPage,
        lambda: reads.entrants(event_for_viewer(request.user, slug), page, per_page),
        slug=slug,
        params=(page, per_page),
    )


@api.get(
    "/events/{slug}/rounds/",
    response={200: list[schemas.RoundSummary], **ERRORS},
    url_name="rounds",
    summary="An event's public rounds",
)
def rounds(request: HttpRequest, slug: str = Slug) -> HttpResponse:
    return respond(
        request,
        "rounds",
        _RoundList,
        lambda: reads.rounds(event_for_viewer(request.user, slug)),
        slug=slug,
    )


@api.get(
    "/events/{slug}/rounds/{number}/",
    response={200: schemas.Round, **ERRORS},
    url_name="round",
    summary="One public round with its pairings and results",
)
def one_round(
    request: HttpRequest,
    slug: str = Slug,
    number: int = RoundNumber,
) -> HttpResponse:
    return respond(
        request,
        "round",
        schemas.Round,
        lambda: reads.one_round(event_for_viewer(request.user, slug), number),
        slug=slug,
        params=(number,),
    )


def store_round(slug: str, number: int) -> bool:
    """Store now, in the active language, the anonymous answer to ``one_round`` (the
    release's task: hundreds ask for the new round within seconds of its publication)."""
    from django.contrib.auth.models import AnonymousUser

    return store(
        "round",
        schemas.Round,
        lambda: reads.one_round(event_for_viewer(AnonymousUser(), slug), number),
        slug=slug,
        params=(number,),
    )


def prepare_round(slug: str, number: int, at: str) -> Prepared | None:
    """Inside a round's release (``at``: the event's stamp version it commits), in the
    active language: the anonymous answer to ``one_round``, built and claimed, for
    caching.put at the commit."""
    from django.contrib.auth.models import AnonymousUser

    return prepare(
        "round",
        schemas.Round,
        lambda: reads.one_round(event_for_viewer(AnonymousUser(), slug), number),
        slug=slug,
        at=at,
        params=(number,),
    )


@api.get(
    "/events/{slug}/standings/",
    response={200: schemas.Standings, **ERRORS},
    url_name="standings",
    summary="The published standings, every tiebreak value and the reasons",
)
def standings(request: HttpRequest, slug: str = Slug) -> HttpResponse:
    return respond(
        request,
        "standings",
        schemas.Standings,
        lambda: reads.standings(event_for_viewer(request.user, slug)),
        slug=slug,
    )
