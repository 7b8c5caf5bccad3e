"""The web side of the bot_contest format (issue 9).

Results: two games per match, each with the entry that moved first (X), the points each
entry scored, and, when the event takes results from the referee or a game did not end
normally, the referee's result. Bulk entry (a CSV) and the referee program's JSON endpoint
live in tournaments/formats/bot_contest/views.py; the public gauntlet table, brackets,
final crosstable and boards in tournaments/formats/bot_contest/views_public.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from rules.contract import Problem
from tournaments.formats.base import DetailField, FormatUI
from tournaments.formats.registry import register

KEY = "bot_contest"


@dataclass(frozen=True)
class BotContestUI(FormatUI):
    """The results grid: per game, who played X (moved first) and the points of each."""

    games: int = 2
    score_label: Any = _("Points")  # noqa: RUF009 - a lazy string
    endings: tuple[str, ...] = ("normal", "forfeit", "default", "time_default")
    details: tuple[DetailField, ...] = (
        DetailField("result", _("Referee's result"), (("X", "X"), ("O", "O"), ("tie", "tie"))),
    )
    inputs_template: str = "tournaments/formats/bot_contest/_result_inputs.html"
    # programs play unattended: none is ever absent (bot_contest.md, Absence)
    check_in: bool = False

    def parse(
        self, data: Mapping[str, Any], seats: int, settings: Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], list[Problem]]:
        games, problems = super().parse(data, seats, settings)
        for game in games:
            number = game["number"]
            raw = str(data.get(f"g{number}-first", "")).strip()
            if raw in ("0", "1"):
                game["first"] = int(raw)
            elif raw == "":
                game["first"] = (number - 1) % 2  # seat 0 moves first in game 1
            else:
                problems.append(
                    Problem("form.first", f"g{number}-first", f"Game {number}: who played X?")
                )
        return games, problems

    def rows(self, match: Any, settings: Mapping[str, Any]) -> list[dict[str, Any]]:
        rows = super().rows(match, settings)
        stored = {g.number: g for g in match.games.all()}
        for row in rows:
            game = stored.get(row["number"])
            first = game.first_seat if game and game.first_seat is not None else None
            row["first"] = str((row["number"] - 1) % 2 if first is None else first)
        return rows

    def public_links(self, event: Any) -> list[tuple[Any, str]]:
        return [
            (_("Brackets"), reverse("tournaments:bot_contest_brackets", args=[event.slug])),
            (_("Gauntlet"), reverse("tournaments:bot_contest_gauntlet", args=[event.slug])),
            (_("Final"), reverse("tournaments:bot_contest_final", args=[event.slug])),
            (_("Boards"), reverse("tournaments:bot_contest_boards", args=[event.slug])),
        ]

    def director_links(self, event: Any) -> list[tuple[Any, str]]:
        return [(_("Contest"), reverse("tournaments:bot_contest_manage", args=[event.slug]))]

    def decision_url(self, event: Any, decision: Any) -> str | None:
        """Where the director answers a question the engine asks when drafting a round."""
        if decision.code == "bot_contest.board_needed":
            return reverse("tournaments:bot_contest_board", args=[event.slug])
        if decision.code == "bot_contest.final_tie":
            return reverse("tournaments:bot_contest_final_tie", args=[event.slug])
        return None


register(KEY, BotContestUI())


def _screens() -> list[tuple[str, str, str]]:
    manage = "tournaments.formats.bot_contest.views"
    public = "tournaments.formats.bot_contest.views_public"

    base = "e/<slug:slug>/manage/bot_contest/"
    return [
        (base, f"{manage}.hub", "bot_contest_manage"),
        (f"{base}games/", f"{manage}.games_import", "bot_contest_import"),
        (f"{base}referee/", f"{manage}.referee", "bot_contest_referee"),
        (f"{base}board/", f"{manage}.board", "bot_contest_board"),
        (f"{base}final/", f"{manage}.final_tie", "bot_contest_final_tie"),
        ("e/<slug:slug>/bot_contest/api/games", f"{manage}.api_game", "bot_contest_api_game"),
        ("e/<slug:slug>/bot_contest/", f"{public}.boards", "bot_contest_boards"),
        ("e/<slug:slug>/bot_contest/gauntlet/", f"{public}.gauntlet", "bot_contest_gauntlet"),
        ("e/<slug:slug>/bot_contest/brackets/", f"{public}.brackets", "bot_contest_brackets"),
        ("e/<slug:slug>/bot_contest/final/", f"{public}.final", "bot_contest_final"),
    ]


# (route, the view's dotted path, URL name): tournaments/urls_formats.py imports the views,
# so that this module, which services read, never imports one (no import cycle).
SCREENS = _screens()
