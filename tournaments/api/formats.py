"""The operations beyond events, rounds and standings: the contention outlook, the recorded
draws, and each format's own public pages (the GokoDom and Freestyle brackets, the bot
contest's gauntlet, brackets, final and boards, the WPF ladder). Registered on the same
instance as main.py's (imported by urls.py), answered the same way: permission
(event_for_viewer: a private event is a 404), the read, the shape, the page cache's
versions (a hit costs no query), ETag/304."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja.params.functions import Path
from pydantic import BaseModel

from accounts.permissions import event_for_viewer
from tournaments.api import format_reads as reads
from tournaments.api import format_schemas as shapes
from tournaments.api.caching import respond
from tournaments.api.main import ERRORS, PageNumber, PerPage, api


def _slug(example: str) -> Any:
    return Path(
        ...,
        pattern=r"^[-a-zA-Z0-9_]+$",
        max_length=80,
        description="The event's slug.",
        example=example,  # the format's demo event (manage.py load_demo)
    )


AnySlug: Any = _slug("demo-freestyle")
GokodomSlug: Any = _slug("demo-gokodom")
FreestyleSlug: Any = _slug("demo-freestyle")
BotSlug: Any = _slug("demo-bot-contest")
WpfSlug: Any = _slug("demo-wpf-playoffs")


def _answer(
    request: HttpRequest,
    name: str,
    slug: str,
    shape: type[BaseModel],
    read: Callable[..., Any],
    *params: Any,
) -> HttpResponse:
    return respond(
        request,
        name,
        shape,
        lambda: read(event_for_viewer(request.user, slug), *params),
        slug=slug,
        params=params,
    )


@api.get(
    "/events/{slug}/outlook/",
    response={200: shapes.Outlook, **ERRORS},
    url_name="outlook",
    summary="Who can still win or reach the next stage, and why (by entrant number)",
)
def outlook(
    request: HttpRequest, slug: str = AnySlug, page: int = PageNumber, per_page: int = PerPage
) -> HttpResponse:
    return _answer(request, "outlook", slug, shapes.Outlook, reads.outlook, page, per_page)


@api.get(
    "/events/{slug}/draws/",
    response={200: shapes.DrawPage, **ERRORS},
    url_name="draws",
    summary="The event's recorded draws: what each decided, its method and purpose",
)
def draws(
    request: HttpRequest, slug: str = AnySlug, page: int = PageNumber, per_page: int = PerPage
) -> HttpResponse:
    return _answer(request, "draws", slug, shapes.DrawPage, reads.draws, page, per_page)


@api.get(
    "/events/{slug}/gokodom/bracket/",
    response={200: shapes.GokodomBracket, **ERRORS},
    url_name="gokodom_bracket",
    summary="GokoDom: the top-8 elimination bracket and the playoff for 8th place",
)
def gokodom_bracket(request: HttpRequest, slug: str = GokodomSlug) -> HttpResponse:
    return _answer(request, "gokodom-bracket", slug, shapes.GokodomBracket, reads.gokodom_bracket)


@api.get(
    "/events/{slug}/freestyle/bracket/",
    response={200: shapes.FreestyleBracket, **ERRORS},
    url_name="freestyle_bracket",
    summary="Freestyle: the semi-finals, the final and the third place game",
)
def freestyle_bracket(request: HttpRequest, slug: str = FreestyleSlug) -> HttpResponse:
    return _answer(
        request, "freestyle-bracket", slug, shapes.FreestyleBracket, reads.freestyle_bracket
    )


@api.get(
    "/events/{slug}/bot_contest/gauntlet/",
    response={200: shapes.Gauntlet, **ERRORS},
    url_name="bot_contest_gauntlet",
    summary="Bot contest: the seeding gauntlet, each entry against each reference",
)
def bot_contest_gauntlet(request: HttpRequest, slug: str = BotSlug) -> HttpResponse:
    return _answer(request, "bot-gauntlet", slug, shapes.Gauntlet, reads.gauntlet)


@api.get(
    "/events/{slug}/bot_contest/brackets/",
    response={200: shapes.BotBrackets, **ERRORS},
    url_name="bot_contest_brackets",
    summary="Bot contest: the winners' and losers' brackets (double elimination)",
)
def bot_contest_brackets(request: HttpRequest, slug: str = BotSlug) -> HttpResponse:
    return _answer(request, "bot-brackets", slug, shapes.BotBrackets, reads.bot_brackets)


@api.get(
    "/events/{slug}/bot_contest/final/",
    response={200: shapes.BotFinal, **ERRORS},
    url_name="bot_contest_final",
    summary="Bot contest: the final round robin as a crosstable",
)
def bot_contest_final(request: HttpRequest, slug: str = BotSlug) -> HttpResponse:
    return _answer(request, "bot-final", slug, shapes.BotFinal, reads.bot_final)


@api.get(
    "/events/{slug}/bot_contest/boards/",
    response={200: shapes.Boards, **ERRORS},
    url_name="bot_contest_boards",
    summary="Bot contest: the board of every published round",
)
def bot_contest_boards(request: HttpRequest, slug: str = BotSlug) -> HttpResponse:
    return _answer(request, "bot-boards", slug, shapes.Boards, reads.boards)


@api.get(
    "/events/{slug}/wpf_playoffs/ladder/",
    response={200: shapes.Ladder, **ERRORS},
    url_name="wpf_playoffs_ladder",
    summary="WPF GP Playoffs: ranks after each round, the swaps, the matches by bracket",
)
def wpf_playoffs_ladder(request: HttpRequest, slug: str = WpfSlug) -> HttpResponse:
    return _answer(request, "wpf-ladder", slug, shapes.Ladder, reads.ladder)
