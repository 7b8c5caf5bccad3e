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


def _publish(
    operation: Callable[..., HttpResponse],
    path: str,
    name: str,
    shape: type[BaseModel],
    summary: str,
) -> None:
    """``operation`` as GET /api/v1/events/{slug}/``path``, named ``name`` (its URL name
    and operation id), answering ``shape`` or one of the documented errors."""
    operation.__name__ = name
    api.get(
        "/events/{slug}/" + path,
        response={200: shape, **ERRORS},
        url_name=name,
        summary=summary,
        operation_id=name,
    )(operation)


def _register_list(
    path: str, name: str, shape: type[BaseModel], read: Callable[..., Any], summary: str
) -> None:
    """A paginated answer about the event (``page``, ``per_page``), of any format."""

    def operation(
        request: HttpRequest, slug: str = AnySlug, page: int = PageNumber, per_page: int = PerPage
    ) -> HttpResponse:
        return _answer(request, name, slug, shape, read, page, per_page)

    _publish(operation, path, name, shape, summary)


_register_list(
    "outlook/",
    "outlook",
    shapes.Outlook,
    reads.outlook,
    "Who can still win or reach the next stage, and why (by entrant number)",
)
_register_list(
    "draws/",
    "draws",
    shapes.DrawPage,
    reads.draws,
    "The event's recorded draws: what each decided, its method and purpose",
)


# Each format's own pages: (path under the event, the answer's name in the cache, shape,
# read, the example event, summary). The page's address, under /api/v1/events/{slug}/.
PAGES: tuple[tuple[str, str, type[BaseModel], Callable[[Any], Any], str, str], ...] = (
    (
        "gokodom/bracket/",
        "gokodom-bracket",
        shapes.GokodomBracket,
        reads.gokodom_bracket,
        "demo-gokodom",
        "GokoDom: the top-8 elimination bracket and the playoff for 8th place",
    ),
    (
        "freestyle/bracket/",
        "freestyle-bracket",
        shapes.FreestyleBracket,
        reads.freestyle_bracket,
        "demo-freestyle",
        "Freestyle: the semi-finals, the final and the third place game",
    ),
    (
        "bot_contest/gauntlet/",
        "bot-gauntlet",
        shapes.Gauntlet,
        reads.gauntlet,
        "demo-bot-contest",
        "Bot contest: the seeding gauntlet, each entry against each reference",
    ),
    (
        "bot_contest/brackets/",
        "bot-brackets",
        shapes.BotBrackets,
        reads.bot_brackets,
        "demo-bot-contest",
        "Bot contest: the winners' and losers' brackets (double elimination)",
    ),
    (
        "bot_contest/final/",
        "bot-final",
        shapes.BotFinal,
        reads.bot_final,
        "demo-bot-contest",
        "Bot contest: the final round robin as a crosstable",
    ),
    (
        "bot_contest/boards/",
        "bot-boards",
        shapes.Boards,
        reads.boards,
        "demo-bot-contest",
        "Bot contest: the board of every published round",
    ),
    (
        "wpf_playoffs/ladder/",
        "wpf-ladder",
        shapes.Ladder,
        reads.ladder,
        "demo-wpf-playoffs",
        "WPF GP Playoffs: ranks after each round, the swaps, the matches by bracket",
    ),
)


def _register(
    path: str,
    name: str,
    shape: type[BaseModel],
    read: Callable[[Any], Any],
    example: str,
    summary: str,
) -> None:
    def operation(request: HttpRequest, slug: str = _slug(example)) -> HttpResponse:
        return _answer(request, name, slug, shape, read)

    _publish(operation, path, path.rstrip("/").replace("/", "_"), shape, summary)


for _page in PAGES:
    _register(*_page)
