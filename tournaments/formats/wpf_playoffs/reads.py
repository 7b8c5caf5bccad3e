"""Reads for the WPF GP Playoffs' pages: the ladder, the puzzle picks, eligibility.

Each runs a fixed number of queries whatever the record holds. What visitors may see is
decided here in one place (``revealed``): online rounds, their results and the ranks they
make stay hidden until the director reveals them at the start of the live stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.formats.wpf_playoffs.replay import REVEAL_SETTING
from rules.formats.wpf_playoffs.schedule import BRACKET_LABELS, MATCHES, SESSIONS, Bracket, Stage
from tournaments.models import Entrant, Event, Match, Round
from tournaments.services.state import load_event_state

SHORT_LABELS = tuple(
    s.letter if s.stage is Stage.ONLINE else f"H{s.heat}" if s.letter == "H" else f"{s.letter}*"
    for s in SESSIONS
)


def revealed(event: Event, rounds: Sequence[Round] | None = None) -> bool:
    """The engine's rule (rules/formats/wpf_playoffs/replay.py ``revealed``): the director
    revealed the online results, or a live heat is published. ``rounds``: the event's
    non-draft rounds when the caller has them (no query then)."""
    if event.settings.get(REVEAL_SETTING, False):
        return True
    if rounds is None:
        rounds = list(event.rounds.exclude(status=Round.Status.DRAFT))
    return any(
        r.status != Round.Status.DRAFT and r.details.get("stage") == Stage.LIVE.value
        for r in rounds
    )


def public_rounds(event: Event, rounds: Sequence[Round]) -> list[Round]:
    if revealed(event, rounds):
        return list(rounds)
    return [r for r in rounds if r.details.get("stage") != Stage.ONLINE.value]


def _names(event: Event) -> dict[str, str]:
    return {
        str(n): name
        for n, name in Entrant.objects.filter(event=event).values_list("number", "name")
    }


def ladder(event: Event, *, full: bool) -> dict[str, Any]:
    """Every player's rank after each round, and each round's matches by bracket.

    ``full`` is the director's view; otherwise what visitors may see: before the reveal
    only the seeds."""
    state = load_event_state(event)
    names = _names(event)
    seeds = [
        None if s is None else str(s)
        for s in (state.rounds[0].details.get("seeds", []) if state.rounds else [])
    ]
    visible = full or revealed(event)
    seed_rows = [
        {"seed": i, "name": names.get(e, "") if e else "", "virtual": e is None, "number": e}
        for i, e in enumerate(seeds, start=1)
    ]
    result: dict[str, Any] = {"seeds": seed_rows, "visible": visible, "rows": [], "rounds": []}
    if not seeds or not visible:
        return result
    standings = event.engine.standings(state)
    overall = next(t for t in standings.tables if t.key == "overall")
    played = [r for r in state.rounds if r.status.value != "draft"]
    numbers = [r.number for r in played]
    result["columns"] = [{"number": n, "label": SHORT_LABELS[n - 1]} for n in numbers]
    for row in overall.rows:
        seed = row.details["seed"]
        history = row.details["history"]
        cells = []
        rank = seed
        for number in numbers:
            mine = [h for h in history if h["round"] == number]
            if mine:
                rank = mine[-1]["rank_after"]
            cells.append(
                {
                    "rank": rank,
                    "played": bool(mine),
                    "swapped": bool(mine and mine[-1]["swapped"]),
                    "won": bool(mine and mine[-1]["won"]),
                }
            )
        result["rows"].append(
            {
                "rank": row.rank,
                "seed": seed,
                "name": names.get(row.entrant, "") if not row.details["virtual"] else "",
                "number": None if row.details["virtual"] else row.entrant,
                "virtual": row.details["virtual"],
                "status": row.status,
                "losses": row.details["losses"],
                "bracket": BRACKET_LABELS[Bracket(row.details["bracket"])],
                "final": row.details["rank_final"],
                "reason": row.details.get("reason_message") or row.details["reason"],
                "cells": cells,
            }
        )
    result["rounds"] = _round_matches(event, played, names)
    result["final"] = standings.final
    return result


def _round_matches(
    event: Event, played: Sequence[Any], names: dict[str, str]
) -> list[dict[str, Any]]:
    stored = {
        (number, code): result
        for number, code, result in Match.objects.filter(round__event=event).values_list(
            "round__number", "code", "result"
        )
    }
    rounds = []
    for rnd in played:
        sections: dict[str, dict[str, Any]] = {}
        for match in rnd.matches:
            spec = MATCHES.get(match.code)
            bracket = BRACKET_LABELS[spec.bracket] if spec else match.bracket
            result = stored.get((rnd.number, match.code)) or {}
            winner = result.get("winner")
            players = []
            for seat, p in enumerate(match.participants):
                players.append(
                    {
                        "name": names.get(p.entrant, "") if p.entrant else "",
                        "virtual": p.entrant is None,
                        "rank": p.details.get("rank"),
                        "seed": p.details.get("seed"),
                        "won": winner == seat,
                    }
                )
            swapped = winner is not None and players[winner]["rank"] != min(
                q["rank"] for q in players
            )
            sections.setdefault(bracket, {"title": bracket, "matches": []})["matches"].append(
                {
                    "code": match.code,
                    "players": players,
                    "summary": result.get("summary", ""),
                    "decided": winner is not None,
                    "swapped": swapped,
                }
            )
        rounds.append(
            {
                "number": rnd.number,
                "label": rnd.label,
                "puzzle": rnd.details.get("puzzle"),
                "sections": list(sections.values()),
            }
        )
    return rounds


def puzzle_picks(event: Event) -> list[dict[str, Any]]:
    """For each drafted round: its puzzle and how it was picked (the pick order)."""
    names = _names(event)
    rounds = list(event.rounds.order_by("number"))
    seeds = [
        None if s is None else str(s)
        for s in (rounds[0].details.get("seeds", []) if rounds else [])
    ]
    picks = []
    for rnd in rounds:
        details = rnd.details
        order = []
        for reason in rnd.reasons:
            if reason.get("code") == "wpf.pick_priority":
                for seed in reason.get("params", {}).get("order", []):
                    entrant = seeds[seed - 1] if 0 < seed <= len(seeds) else None
                    order.append({"seed": seed, "name": names.get(entrant, "") if entrant else ""})
        picker = details.get("puzzle_picker")
        chooser = details.get("puzzle_chooser")
        picks.append(
            {
                "round": rnd,
                "letter": details.get("letter"),
                "stage": details.get("stage"),
                "puzzle": details.get("puzzle"),
                "picker": names.get(str(picker), "") if picker else "",
                "reversed": details.get("puzzle_reversed", False),
                "chooser": names.get(str(chooser), "") if chooser else "",
                "options": details.get("puzzle_options"),
                "order": order,
                "reasons": [r for r in rnd.reasons if str(r.get("code", "")).startswith("wpf.")],
            }
        )
    return picks
