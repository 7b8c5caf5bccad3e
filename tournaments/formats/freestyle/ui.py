"""The web side of the Freestyle group tournament (docs/formats/freestyle.md, "Web").

Result entry: one game per group match; in the semi-finals and the final round a tie is
replayed with A and B switched, so the form grows a row for the replay after every tie.
From Round 2 on the director records which role the higher seed chose (saved with the
result as the first game's ``higher_seed_chose``, which the engine reads), and optionally
the pieces A named and B's colours for each game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from rules.contract import Problem
from rules.formats.freestyle.tables import SEMI_FINALS
from tournaments.formats.base import DetailField, FormatUI
from tournaments.formats.registry import register

# A knockout match is replayed until someone wins; this bounds what a form may post.
MAX_GAMES = 20
PIECE_LENGTH = 20
CHOICES = ("A", "B")


class FreestyleLinks:
    """The format's own pages in the shared navigation, and where questions are answered."""

    def public_links(self, event: Any) -> list[tuple[Any, str]]:
        return [
            (_("Draws"), reverse("tournaments:freestyle_draws", args=[event.slug])),
            (_("Bracket"), reverse("tournaments:freestyle_bracket", args=[event.slug])),
        ]

    def director_links(self, event: Any) -> list[tuple[Any, str]]:
        return [
            (_("Digits"), reverse("tournaments:freestyle_manage_draws", args=[event.slug])),
            (_("Tiebreakers"), reverse("tournaments:freestyle_tiebreakers", args=[event.slug])),
        ]

    def decision_url(self, event: Any, decision: Any) -> str | None:
        if decision.code == "freestyle.tiebreaker_game":
            return reverse("tournaments:freestyle_tiebreakers", args=[event.slug])
        if decision.code == "draw.needed":
            return reverse("tournaments:freestyle_manage_draws", args=[event.slug])
        return None

    def withdraw_url(self, event: Any, entrant: Any) -> str | None:
        return reverse("tournaments:freestyle_withdraw", args=[event.slug, entrant.number])


class FreestyleUI(FreestyleLinks, FormatUI):
    def games_for(self, settings: Mapping[str, Any]) -> int:
        return MAX_GAMES  # the form parses every row posted; rows() shows the ones needed

    def parse(
        self, data: Mapping[str, Any], seats: int, settings: Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], list[Problem]]:
        games, problems = super().parse(data, seats, settings)
        for game in games:
            for key in ("first_blue_piece", "first_red_piece"):
                value = game["details"].get(key, "")
                if len(value) > PIECE_LENGTH:
                    problems.append(
                        Problem(
                            "form.piece",
                            f"g{game['number']}-{key}",
                            f"Game {game['number']}: a piece name has at most "
                            f"{PIECE_LENGTH} characters.",
                        )
                    )
        choice = str(data.get("choice", "")).strip().upper()
        if choice and choice not in CHOICES:
            problems.append(
                Problem("form.choice", "choice", "The higher seed chooses to be A or B.")
            )
        elif choice:
            if not games:
                problems.append(
                    Problem(
                        "form.choice_alone",
                        "choice",
                        "The choice of A or B is saved with the result: enter the game points.",
                    )
                )
            else:
                games[0]["details"]["higher_seed_chose"] = choice
        return games, problems

    def rows(self, match: Any, settings: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The game rows to show: one in a group round; in the last two rounds every game
        played and, after a tie, one more for the replay."""
        stored = list(match.games.all())
        wanted = max(len(stored), 1)
        if match.round.number >= SEMI_FINALS and stored:
            last = stored[-1].scores
            if len(last) == 2 and last[0] is not None and last[0] == last[1]:
                wanted = len(stored) + 1
        rows = super().rows(match, settings)[:wanted]
        participants = list(match.participants.all())
        choice = _choice(match, stored)
        for row in rows:
            row["a_seat"] = a_seat(match.round.number, participants, choice, row["number"])
            row["a_name"] = _name(participants[row["a_seat"]]) if row["a_seat"] is not None else ""
            row["replay"] = row["number"] > 1
            row["choice"] = choice
            for detail in row["details"]:
                detail["key"] = detail["name"].split("-", 1)[1]
        return rows


def _choice(match: Any, stored: list[Any]) -> str:
    if match.details.get("higher_seed_chose"):
        return str(match.details["higher_seed_chose"])
    if stored and stored[0].details.get("higher_seed_chose"):
        return str(stored[0].details["higher_seed_chose"])
    return ""


def _name(participant: Any) -> str:
    return participant.entrant.name if participant.entrant else ""


def a_seat(number: int, participants: list[Any], choice: str, game: int) -> int | None:
    """Who is A in game ``game``: Round 1 by the roles, later by the higher seed's choice;
    every replay switches A and B."""
    if len(participants) != 2:
        return None
    if number == 1:
        roles = [p.role for p in participants]
        first = roles.index("A") if "A" in roles else None
    else:
        first = 0 if choice == "A" else 1 if choice == "B" else None
    if first is None:
        return None
    return first if game % 2 == 1 else 1 - first


UI = FreestyleUI(
    games=1,
    score_label=_("Game points"),
    details=(
        DetailField("first_blue_piece", _("First blue piece (named by A)")),
        DetailField("first_red_piece", _("First red piece (named by A)")),
        DetailField(
            "b_colours",
            _("B plays"),
            choices=(("blue/red", _("blue/red")), ("yellow/green", _("yellow/green"))),
        ),
    ),
    inputs_template="tournaments/formats/freestyle/_result_inputs.html",
)
register("freestyle", UI)


def _screens() -> list[tuple[str, str, str]]:
    views = "tournaments.formats.freestyle.views"

    return [
        ("e/<slug:slug>/freestyle/draws/", f"{views}.public_draws", "freestyle_draws"),
        ("e/<slug:slug>/freestyle/bracket/", f"{views}.public_bracket", "freestyle_bracket"),
        (
            "e/<slug:slug>/manage/freestyle/draws/",
            f"{views}.manage_draws",
            "freestyle_manage_draws",
        ),
        (
            "e/<slug:slug>/manage/freestyle/tiebreakers/",
            f"{views}.manage_tiebreakers",
            "freestyle_tiebreakers",
        ),
        (
            "e/<slug:slug>/manage/freestyle/withdraw/<int:number>/",
            f"{views}.manage_withdraw",
            "freestyle_withdraw",
        ),
    ]


# (route, the view's dotted path, URL name): tournaments/urls_formats.py imports the views,
# so that this module, which services read, never imports one (no import cycle).
SCREENS = _screens()
