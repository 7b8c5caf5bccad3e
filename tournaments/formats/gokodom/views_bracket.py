"""The GokoDom elimination bracket as columns of match boxes (III.B), read in a fixed
number of queries: rounds, matches, participants with entrants, games."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from tournaments import selectors
from tournaments.formats.gokodom.schedule import KNOCKOUT, PLAYOFF, deadline, stage
from tournaments.models import Event, Match, Round

# Where each match sits: the quarter-finals in bracket order (1-8, 4-5, 2-7, 3-6), so that
# each semi-final lies between the two quarter-finals feeding it.
COLUMNS = (
    ("Quarter-finals", ("QF1", "QF2", "QF3", "QF4")),
    ("Semi-finals", ("SF1", "SF2")),
    ("Final", ("F",)),
)
SEEDS = {"QF1": (1, 8), "QF2": (4, 5), "QF3": (2, 7), "QF4": (3, 6)}


def bracket_context(event: Event) -> dict[str, Any]:
    rounds = list(
        event.rounds.exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=selectors.with_seats_and_games(Match.objects.order_by("order")),
            )
        )
    )
    found: dict[str, tuple[Round, Match]] = {}
    playoff = None
    seeds: list[str] = []
    for rnd in rounds:
        if stage(rnd) == KNOCKOUT:
            seeds = seeds or [str(s) for s in rnd.details.get("seeds", [])]
            for match in rnd.matches.all():
                found[match.code] = (rnd, match)
        elif stage(rnd) == PLAYOFF:
            for match in rnd.matches.all():
                playoff = _box(event, rnd, match, {})
    seed_of = {number: index + 1 for index, number in enumerate(seeds)}
    columns = []
    for label, codes in COLUMNS:
        boxes = []
        for code in codes:
            if code in found:
                rnd, match = found[code]
                boxes.append(_box(event, rnd, match, seed_of))
            else:
                boxes.append({"code": code, "empty": True, "seeds": SEEDS.get(code, ())})
        columns.append({"label": label, "boxes": boxes})
    champion = None
    final = found.get("F")
    if final is not None:
        box = _box(event, *final, seed_of)
        champion = next((p for p in box["players"] if p["winner"]), None)
    return {
        "event": event,
        "rounds": rounds,
        "columns": columns,
        "playoff": playoff,
        "champion": champion,
        "started": bool(found),
    }


def _box(event: Event, rnd: Round, match: Match, seed_of: dict[str, int]) -> dict[str, Any]:
    result = match.result or {}
    winner = result.get("winner")
    advances = (result.get("details") or {}).get("advances")
    games = list(match.games.all())
    players = []
    for participant in match.participants.all():
        entrant = participant.entrant
        number = str(entrant.number) if entrant else ""
        games_won = [g.scores[participant.seat] for g in games if participant.seat < len(g.scores)]
        players.append(
            {
                "entrant": entrant,
                "seed": seed_of.get(number),
                "colour": participant.role,
                "points": _points(result, participant.seat),
                "games": games_won,
                "winner": bool(
                    result.get("complete")
                    and (winner == participant.seat or (advances and advances == number))
                ),
            }
        )
    return {
        "code": match.code,
        "empty": False,
        "round": rnd,
        "players": players,
        "summary": result.get("summary", ""),
        "complete": bool(result.get("complete")),
        "walkover": len(players) == 1,
        "deadline": deadline(event, rnd),
        "decided_by_director": any(
            r.get("code") == "gokodom.director_decision" for r in result.get("reasons", [])
        ),
    }


def _points(result: dict[str, Any], seat: int) -> Any:
    points = result.get("points") or []
    if seat >= len(points):
        return ""
    value = points[seat]
    return int(value) if isinstance(value, float) and value.is_integer() else value
