"""FormatUI: what the generic result form needs to know about a format."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from rules.contract import Problem


@dataclass(frozen=True)
class DetailField:
    """A per-game detail typed with the scores (stored in Game.details[name])."""

    name: str
    label: StrOrPromise
    choices: tuple[tuple[str, StrOrPromise], ...] = ()  # empty: free text
    seat_choice: bool = False  # the choices are the match's seats (0, 1, ...)


@dataclass(frozen=True)
class FormatUI:
    games: int = 1  # game rows the form shows
    score_label: Any = _("Score")  # noqa: RUF009 - a lazy string, evaluated per request
    endings: tuple[str, ...] = ("normal",)
    details: tuple[DetailField, ...] = field(default_factory=tuple)
    # The inputs of one match's result row on the director's results screen; it gets
    # ``row`` (match, participants, games with their stored or typed values, errors) and
    # ``ui``. A format with other inputs (submissions, result codes) gives its own.
    inputs_template: str = "tournaments/manage/_result_inputs.html"
    # Under double entry a player may enter their own match's result (the director's
    # entry is the second); False for a format with its own player reports (GokoDom).
    player_entry: bool = True

    def games_for(self, settings: Mapping[str, Any]) -> int:
        return self.games

    def games_for_match(self, match: Any, settings: Mapping[str, Any]) -> int:
        """Game rows shown for this match (a best of three shows three)."""
        return self.games_for(settings)

    def max_games(self, settings: Mapping[str, Any]) -> int:
        """Game rows read from a form; at least as many as any match shows."""
        return self.games_for(settings)

    def decision_url(self, event: Any, decision: Any) -> str | None:
        """Where the director answers a question the engine asked (a NeedsDecision) when
        drafting a round: the format's own screen, or None for the generic handling."""
        return None

    def withdraw_url(self, event: Any, entrant: Any) -> str | None:
        """A format's own withdrawal screen (it records the round its way), or None for
        the generic button."""
        return None

    def first_label(self, match: Any) -> Any:
        """When a match's seats do not fix who moved first (colours change from game to
        game), the label of a per-game choice of that seat, stored in Game.first_seat."""
        return None

    def match_fields(self, match: Any) -> tuple[DetailField, ...]:
        """Match-level choices typed with the result (stored in Match.details)."""
        return ()

    def parse_match_details(
        self, data: Mapping[str, Any], match: Any
    ) -> tuple[dict[str, Any], list[Problem]]:
        """Values of ``match_fields`` from a POST (fields m-<name>); empty ones are left out."""
        details: dict[str, Any] = {}
        problems: list[Problem] = []
        for detail in self.match_fields(match):
            value = str(data.get(f"m-{detail.name}", "")).strip()
            if value == "":
                continue
            allowed = {str(v) for v, _ in detail.choices}
            if detail.choices and value not in allowed:
                problems.append(
                    Problem("form.choice", f"m-{detail.name}", f"{detail.label}: choose one.")
                )
                continue
            details[detail.name] = value
        return details, problems

    def match_rows(self, match: Any) -> list[dict[str, Any]]:
        return [
            {
                "name": f"m-{d.name}",
                "label": d.label,
                "value": str(match.details.get(d.name, "")),
                "choices": d.choices,
            }
            for d in self.match_fields(match)
        ]

    def parse(
        self, data: Mapping[str, Any], seats: int, settings: Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], list[Problem]]:
        """Games from a POST: fields g<game>-s<seat>, g<game>-ending, g<game>-<detail>.

        A game row left wholly empty is not a game; a row with one score missing is an
        error naming the field. A row that ends otherwise than normally (a forfeit, a
        resignation) with no scores is a game without scores: the format's rules score it,
        or refuse it on the row.
        """
        games: list[dict[str, Any]] = []
        problems: list[Problem] = []
        # a row of one game needs no "Game 1:" (issue 28): the form shows game 2 when the
        # match has several
        numbered = any(key.startswith("g2-") for key in data)
        for number in range(1, self.max_games(settings) + 1):
            raw = [str(data.get(f"g{number}-s{seat}", "")).strip() for seat in range(seats)]
            ended = str(data.get(f"g{number}-ending", "normal") or "normal")
            if not any(raw) and ended == "normal":
                continue
            scores: list[float | int | None] = []
            for seat, text in enumerate(raw):
                name = f"g{number}-s{seat}"
                if text == "" and not any(raw):
                    scores.append(None)  # the ending's rule gives the score
                    continue
                if text == "":
                    said = (
                        gettext("Game %(number)s: enter both scores.") % {"number": number}
                        if numbered
                        else gettext("Enter both scores.")
                    )
                    problems.append(Problem("form.score_missing", name, said))
                    scores.append(None)
                    continue
                try:
                    value = float(text.replace(",", "."))
                except ValueError:
                    said = (
                        gettext("Game %(number)s: '%(text)s' is not a number.")
                        % {"number": number, "text": text}
                        if numbered
                        else gettext("'%(text)s' is not a number.") % {"text": text}
                    )
                    problems.append(Problem("form.score_number", name, said))
                    scores.append(None)
                    continue
                scores.append(int(value) if value.is_integer() else value)
            ending = str(data.get(f"g{number}-ending", "normal") or "normal")
            if ending not in self.endings:
                said = (
                    gettext("Game %(number)s: choose how it ended.") % {"number": number}
                    if numbered
                    else gettext("Choose how it ended.")
                )
                problems.append(Problem("form.ending", f"g{number}-ending", said))
            details = {}
            for detail in self.details:
                typed = str(data.get(f"g{number}-{detail.name}", "")).strip()
                if typed == "":
                    continue
                if detail.seat_choice:
                    details[detail.name] = int(typed) if typed.isdigit() else typed
                else:
                    details[detail.name] = typed
            first_text = str(data.get(f"g{number}-first", "")).strip()
            first = int(first_text) if first_text.isdigit() else None
            games.append(
                {
                    "number": number,
                    "scores": scores,
                    "first": first,
                    "ending": ending,
                    "details": details,
                }
            )
        return games, problems

    def rows(self, match: Any, settings: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The form's game rows with the values stored for the match."""
        stored = {g.number: g for g in match.games.all()}
        seats = len(match.participants.all())
        given = _given_scores(match, stored)
        rows = []
        for number in range(1, max(self.games_for_match(match, settings), len(stored)) + 1):
            game = stored.get(number)
            shown = given.get(number) or (list(game.scores) if game else [])
            rows.append(
                {
                    "number": number,
                    "scores": [
                        {
                            "name": f"g{number}-s{seat}",
                            "value": _show(shown[seat]) if seat < len(shown) else "",
                        }
                        for seat in range(seats)
                    ],
                    "ending": game.ending if game else "normal",
                    "first_label": self.first_label(match),
                    "first": "" if not game or game.first_seat is None else str(game.first_seat),
                    "details": [
                        {
                            "name": f"g{number}-{d.name}",
                            "label": d.label,
                            "value": str(game.details.get(d.name, "")) if game else "",
                            "choices": d.choices,
                            "seat_choice": d.seat_choice,
                        }
                        for d in self.details
                    ],
                }
            )
        return rows

    def ending_choices(self) -> Sequence[tuple[str, Any]]:
        from tournaments.models import Game

        labels = dict(Game.Ending.choices)
        return [(value, labels.get(value, value)) for value in self.endings]

    # -- what the public pages may show (a format with hidden results narrows it) --------

    def public_rounds(self, event: Any, rounds: Sequence[Any]) -> list[Any]:
        """The published rounds visitors may see (pairings, results, entrant pages, the
        version endpoint's round count). ``rounds`` are the event's non-draft rounds in
        order; no query may depend on their number."""
        return list(rounds)

    def public_table(self, event: Any, key: str) -> bool:
        """Whether visitors may see the standings table ``key`` of a snapshot."""
        return True

    def hides_results(self, event: Any, rounds: Sequence[Any]) -> bool:
        """Whether results are hidden from visitors for now (``rounds``: the public ones):
        then nothing derived from them may reach a public page (the outlook, when the
        standings were computed and after which round, what the pages poll)."""
        return False

    def public_links(self, event: Any) -> list[tuple[Any, str]]:
        """(label, url) of the format's own public pages, for the event's navigation."""
        return []

    def player_links(self, event: Any) -> list[tuple[Any, str]]:
        """(label, url) of the pages a player of the event acts on (their own match), shown
        only to a signed-in player of the event."""
        return []

    def needs_director(self, event: Any) -> list[NeedsYou]:
        """What waits for the director (a disputed result, a question only they answer),
        listed and counted on the dashboard."""
        return []

    def director_links(self, event: Any) -> list[tuple[Any, str]]:
        """(label, url) of the format's own director screens, for the director's navigation."""
        return []

    def round_start(self, event: Any, rnd: Any) -> Any:
        """When the round starts (a datetime, or None): the calendars say it. A format that
        computes its round times gives its own."""
        return rnd.starts_at

    def round_deadline(self, event: Any, rnd: Any) -> Any:
        """When the round's games must be played by (a datetime, or None): the pairing mail
        says it. A format that computes its deadlines gives its own."""
        return rnd.deadline

    # -- how a value on a public page was built (read from data already loaded) ---------

    def table_breakdown(self, table: Mapping[str, Any], rows: Sequence[Any]) -> Breakdown | None:
        """A second view of a standings table that shows how a tiebreak value is built
        from its parts (the WOC Brightwell Quotient), or None. ``rows`` are the table's
        StandingsRow objects with their entrants; no query may be made."""
        return None

    def row_explanation(self, row: Any) -> str:
        """One sentence that shows how a standings row's tiebreak value is built, for the
        entrant's page; empty when there is nothing to explain."""
        return ""

    def bracket_title(self, bracket: str) -> str:
        """The heading of a bracket's matches on the round page."""
        return bracket

    def match_notes(self, match: Any) -> list[str]:
        """Short public notes on a match (who played Black, the colour or draw win a
        player chose), from the match, its stored result and its prefetched participants."""
        return []

    # -- check-in before a round is drafted (issue 21) -----------------------------------

    # Whether directors mark who plays the next round, and whether a player may say they
    # cannot (formats where players act for themselves). A format whose entrants cannot be
    # absent (programs) turns it off.
    check_in: bool = True
    players_check_in: bool = False

    def absence_note(self, event: Any) -> str:
        """What an entrant checked in as absent gets in the next round, in one sentence
        (docs/formats/<key>.md, Absence)."""
        return str(
            _(
                "An absent entrant is left out of the round as the format's rules say; the "
                "draft shows the reason."
            )
        )

    def set_presence(
        self, entrant: Any, *, present: bool, by: Any, source: str, number: int | None = None
    ) -> Any:
        """Record a check-in for the next round (``number``, when given, must be it); a
        format may do more (GokoDom turns an absence told in time into a Bye by Request)."""
        from tournaments.services import checkin

        return checkin.set_presence(entrant, present=present, by=by, source=source, number=number)


@dataclass(frozen=True)
class NeedsYou:
    """One thing on the dashboard's "needs you" list: what, where to act, the details."""

    text: str
    url: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Breakdown:
    """A table of parts: ``rows`` are (entrant, cells) in the standings order."""

    title: str
    caption: str
    columns: tuple[tuple[str, str], ...]  # (label, help)
    rows: tuple[tuple[Any, tuple[Any, ...]], ...]


def _show(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _given_scores(match: Any, stored: Mapping[int, Any]) -> dict[int, list[Any]]:
    """The scores the format gave the games typed without any (a forfeit: WOC's 64-0), by
    game number: the desk shows them in the row rather than empty boxes, which read as a
    match still to enter and drew the cursor (issue 28, item 2)."""
    given = (match.result or {}).get("game_scores") or []
    games = sorted(stored.values(), key=lambda g: g.number)
    if len(given) != len(games):  # not one score per stored game: nothing to place
        return {}
    return {
        game.number: list(scores)
        for game, scores in zip(games, given, strict=True)
        if game.ending != "normal"
        and all(value is None for value in game.scores)
        and isinstance(scores, list | tuple)
        and len(scores) == len(game.scores)
        and all(isinstance(value, int | float) for value in scores)
    }
