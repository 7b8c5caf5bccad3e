"""Engine answers as stored in JSON fields: a match's score, a plan's reasons.

A neutral module: rounds, results, eventfile and the format services all store scores,
and none of them needs another's writers for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tournaments.services.state import jsonable
from tournaments.words import stored

MARKED_ENDINGS = ("forfeit", "default", "resignation", "time_default")


def reasons_json(reasons: Any) -> list[dict[str, Any]]:
    return [stored(r) for r in reasons]


def score_json(score: Any, games: Iterable[Any] = ()) -> dict[str, Any]:
    """The engine's score as stored on the match, with each game that did not end on the
    board (``endings``: number, ending, the seat who forfeited, resigned or lost on time)."""
    endings = [
        [g.number, str(g.ending), g.details.get("defaulter")]
        for g in games
        if str(g.ending) in MARKED_ENDINGS
    ]
    return {
        "points": jsonable(score.points),
        "winner": score.winner,
        "complete": score.complete,
        "summary": score.summary,
        "game_scores": jsonable(score.game_scores),
        "reasons": reasons_json(score.reasons),
        "details": jsonable(score.details),
        **({"endings": endings} if endings else {}),
    }
