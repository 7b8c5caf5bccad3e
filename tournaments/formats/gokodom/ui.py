"""The web side of GokoDom: result codes and games in the results grid, the players' own
screens (report, confirm or dispute, message the director, Bye by Request), the director's
season screen and the public bracket."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from rules.contract import Problem
from tournaments.formats.base import FormatUI, NeedsYou
from tournaments.formats.gokodom.schedule import SWISS, stage
from tournaments.formats.registry import register

GAMES = 6
# A game's result from a select: seat 0 wins, seat 1 wins, or a draw (IV.A.3).
GAME_RESULTS: dict[str, list[float]] = {"0": [1, 0], "1": [0, 1], "draw": [0.5, 0.5]}
CODES = ("W", "L", "D", "WD", "DD", "LD")


class GokodomUI(FormatUI):
    """Swiss rows take one result code per player (saved by the format's own endpoint);
    elimination rows take up to six games, each won by a seat or drawn."""

    codes = CODES

    def public_links(self, event: Any) -> list[tuple[Any, str]]:
        return [(_("Bracket"), reverse("tournaments:gokodom_bracket", args=[event.slug]))]

    def player_links(self, event: Any) -> list[tuple[Any, str]]:
        return [(_("My match"), reverse("tournaments:gokodom_player", args=[event.slug]))]

    def director_links(self, event: Any) -> list[tuple[Any, str]]:
        return [(_("Season"), reverse("tournaments:gokodom_manage", args=[event.slug]))]

    def round_start(self, event: Any, rnd: Any) -> Any:
        from tournaments.formats.gokodom.schedule import starts_at

        return starts_at(event, rnd)

    def round_deadline(self, event: Any, rnd: Any) -> Any:
        from tournaments.formats.gokodom.schedule import deadline

        return deadline(event, rnd)

    def absence_note(self, event: Any) -> str:
        from django.utils import timezone

        from tournaments.formats.gokodom.services_absence import outcome
        from tournaments.services import checkin

        return str(outcome(event, checkin.next_round_number(event), timezone.now()))

    def set_presence(
        self, entrant: Any, *, present: bool, by: Any, source: str, number: int | None = None
    ) -> Any:
        from tournaments.formats.gokodom.services_absence import set_absence

        return set_absence(entrant, present=present, by=by, source=source, number=number)

    def needs_director(self, event: Any) -> list[NeedsYou]:
        """Disputed results of the published rounds: the deadline never settles them."""
        from tournaments.formats.gokodom.claims import claim_lines
        from tournaments.models import Match
        from tournaments.words import label

        disputed = (
            Match.objects.filter(
                round__event=event,
                round__status="published",
                details__report__status="disputed",
            )
            .select_related("round")
            .prefetch_related("participants__entrant")
            .order_by("round__number", "order")
        )
        items = []
        for match in disputed:
            if match.result and match.result.get("complete"):
                continue
            entry = match.details.get("report") or {}
            note = entry.get("note", "")
            names = {
                str(p.entrant.number): p.entrant.name for p in match.participants.all() if p.entrant
            }
            said = _("What is wrong, says %(name)s: “%(note)s”") % {
                "name": names.get(str(entry.get("disputed_by", "")), ""),
                "note": note,
            }
            lines = (*claim_lines(match), *((str(said),) if note else ()))
            text = _("%(round)s %(code)s: the players' accounts differ (disputed)") % {
                "round": label(match.round.label),
                "code": match.code,
            }
            # the match's own page: both accounts, the note and the decision
            settle = reverse("tournaments:gokodom_settle", args=[event.slug, match.pk])
            items.append(NeedsYou(text, settle, lines))
        return items

    def games_for(self, settings: Mapping[str, Any]) -> int:
        return GAMES

    def parse(
        self, data: Mapping[str, Any], seats: int, settings: Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], list[Problem]]:
        if any(str(key).startswith("code-") for key in data):
            # Result codes never go through the games path: saving them there would clear
            # the match's games without recording the codes.
            return [], [
                Problem("gokodom.codes", "codes", "Save result codes with their own button.")
            ]
        return parse_games(data)

    def rows(self, match: Any, settings: Mapping[str, Any]) -> list[dict[str, Any]]:
        participants = list(match.participants.all())
        if stage(match.round) == SWISS:
            # Codes the director recorded, else those the engine scored from the players'
            # report, so a correction starts from the result as it stands.
            scored = ((match.result or {}).get("details") or {}).get("results") or {}
            recorded = match.details.get("results") or scored
            codes = [
                {
                    "name": f"code-{p.entrant.number}",
                    "label": p.entrant.name,
                    "value": str(recorded.get(str(p.entrant.number), "")),
                }
                for p in participants
                if p.entrant_id
            ]
            return [_game_row(0, "", None, settings, codes=codes)]
        stored = {g.number: g for g in match.games.all()}
        rows = []
        for number in range(1, GAMES + 1):
            game = stored.get(number)
            rows.append(
                _game_row(
                    number,
                    game_value(game.scores) if game else "",
                    game.first_seat if game and number == 1 else None,
                    settings,
                )
            )
        return rows


def _game_row(
    number: int, value: str, first: int | None, settings: Mapping[str, Any], **extra: Any
) -> dict[str, Any]:
    return {
        "number": number,
        "value": value,
        "first": "" if first is None else str(first),
        "ask_first": number == 1 and settings.get("first_seat", "entered") == "entered",
        "scores": [],
        "ending": "normal",
        "details": [],
        **extra,
    }


def game_value(scores: list[Any]) -> str:
    if len(scores) != 2 or scores[0] is None or scores[1] is None:
        return ""
    if scores[0] == scores[1]:
        return "draw"
    return "0" if scores[0] > scores[1] else "1"


def parse_games(data: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Games from fields g<n>-r (0, 1 or draw) and g1-first (the seat first in game 1)."""
    games: list[dict[str, Any]] = []
    problems: list[Problem] = []
    first = str(data.get("g1-first", "")).strip()
    for number in range(1, GAMES + 1):
        value = str(data.get(f"g{number}-r", "")).strip()
        if not value:
            continue
        if value not in GAME_RESULTS:
            problems.append(
                Problem(
                    "gokodom.game_result",
                    f"g{number}-r",
                    f"Game {number}: choose who won, or a draw.",
                )
            )
            continue
        game: dict[str, Any] = {
            "number": number,
            "scores": list(GAME_RESULTS[value]),
            "ending": "normal",
            "details": {},
        }
        if number == 1 and first in ("0", "1"):
            game["first"] = int(first)
        games.append(game)
    return games, problems


UI = GokodomUI(
    games=GAMES,
    score_label=_("Game points"),
    inputs_template="tournaments/formats/gokodom/_result_inputs.html",
    player_entry=False,  # players report and confirm on their own screen
    players_check_in=True,  # a player tells the TO they cannot play (I.E)
)
register("gokodom", UI)


def _screens() -> list[tuple[str, str, str]]:
    player = "tournaments.formats.gokodom.views"
    manage = "tournaments.formats.gokodom.views_manage"
    settle = "tournaments.formats.gokodom.views_settle"

    match = "e/<slug:slug>/gokodom/matches/<int:match_id>/"
    director = "e/<slug:slug>/manage/gokodom/"
    return [
        ("e/<slug:slug>/gokodom/me/", f"{player}.my_match", "gokodom_player"),
        (match + "report", f"{player}.report", "gokodom_report"),
        (match + "confirm", f"{player}.confirm", "gokodom_confirm"),
        (match + "dispute", f"{player}.dispute", "gokodom_dispute"),
        (match + "message", f"{player}.message", "gokodom_message"),
        ("e/<slug:slug>/gokodom/bye", f"{player}.bye", "gokodom_bye"),
        ("e/<slug:slug>/gokodom/absence", f"{player}.absence", "gokodom_absence"),
        ("e/<slug:slug>/gokodom/bracket/", f"{player}.bracket", "gokodom_bracket"),
        (director, f"{manage}.season", "gokodom_manage"),
        (director + "schedule", f"{manage}.schedule_view", "gokodom_schedule"),
        (director + "rounds/<int:number>/times", f"{manage}.round_times", "gokodom_times"),
        (director + "rounds/<int:number>/close", f"{manage}.close", "gokodom_close"),
        (director + "eighth-place", f"{manage}.eighth_place", "gokodom_eighth"),
        (director + "matches/<int:match_id>/codes", f"{manage}.codes", "gokodom_codes"),
        (director + "matches/<int:match_id>/advances", f"{manage}.advances", "gokodom_advances"),
        (director + "matches/<int:match_id>/settle", f"{settle}.settle", "gokodom_settle"),
    ]


# (route, the view's dotted path, URL name): tournaments/urls_formats.py imports the views,
# so that this module, which services read, never imports one (no import cycle).
SCREENS = _screens()
