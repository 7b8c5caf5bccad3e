"""What the outlook, the draws and each format's own pages hold, as JSON: read through the
very readers those pages use (selectors, tournaments/formats/<key>/pages.py, reads.py,
views_bracket.py) and only turned into plain values here, so an answer and its page cannot
disagree. A format's page asked about an event of another format is missing (404), as the
page is. Each read runs a fixed number of queries whatever the event's size.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.api.errors import ApiError
from tournaments.api.reads import paginate
from tournaments.formats import ui_for
from tournaments.models import Entrant, Event, RandomDraw, StandingsRow
from tournaments.services.standings_rows import rows_of
from tournaments.words import sentence


def _missing() -> ApiError:
    return ApiError(404, "not_found", _("Nothing here: no such public resource."))


def _of_format(event: Event, key: str) -> Event:
    if event.format != key:
        raise _missing()
    return event


def _ref(entrant: Any) -> dict[str, Any] | None:
    if entrant is None:
        return None
    return {"number": entrant.number, "name": entrant.name}


def _said(message: Any) -> str:
    return sentence(message) if message else ""


# -- the contention outlook ----------------------------------------------------------------


def _verdict(stored: dict[str, Any] | None) -> dict[str, Any] | None:
    if not stored:
        return None
    return {
        "status": stored.get("status", ""),
        "method": stored.get("method", ""),
        "reason": _said(stored),
    }


def outlook(event: Event, page: int, per_page: int) -> dict[str, Any]:
    """Who can still win, or reach the next stage, and why: each entrant's verdicts as the
    standings page marks them and their own page says them (the newest published snapshot,
    first public table the entrant is in, as selectors.entrant_standings orders them).
    While the format hides its results nothing of it is public: no verdict, no note."""
    rounds = selectors.public_rounds(event)
    hidden = ui_for(event).hides_results(event, rounds)
    snapshot = selectors.latest_snapshot(event)
    about = snapshot.contention if snapshot is not None and not hidden else {}
    entrants = Entrant.objects.filter(event=event).order_by("number")
    if snapshot is None or hidden or not about:
        entrants = entrants.none()
    meta, found = paginate(entrants, page, per_page)
    results = []
    if found and snapshot is not None:
        titles = {t["key"]: t["title"] for t in selectors.public_tables(event, snapshot)}
        first: dict[int, StandingsRow] = {}
        for row in (
            rows_of(snapshot)
            .filter(entrant__in=[e.pk for e in found], table_key__in=list(titles))
            .order_by("table_key")
        ):
            if row.contention and row.entrant_id not in first:
                first[row.entrant_id] = row
        for entrant in found:
            placed = first.get(entrant.pk)
            if placed is None:
                continue
            results.append(
                {
                    "entrant": _ref(entrant),
                    "table": _said(titles.get(placed.table_key, placed.table_key)),
                    "rank": placed.rank,
                    "win": _verdict(placed.contention.get("win")),
                    "stage": _verdict(placed.contention.get("stage")),
                }
            )
    return {
        **meta,
        "published": snapshot is not None,
        "results_hidden": hidden,
        "after_round": None if hidden or snapshot is None else snapshot.after_round,
        "stage_key": about.get("stage_key", ""),
        "stage_name": about.get("stage_name", ""),
        "method": about.get("method", ""),
        "notes": [_said(n) for n in about.get("notes", [])],
        "results": results,
    }


# -- the draws --------------------------------------------------------------------------------


def draws(event: Event, page: int, per_page: int) -> dict[str, Any]:
    """Every draw of the event as the public draws page lists them (Freestyle's
    pages.draw_sections, which names what each draw chose and files any other format's
    under "Other draws"): by section, in the order drawn. A draw for a round visitors may
    not see (a draft, a hidden WPF online round) is left out."""
    from tournaments.formats.freestyle.pages import draw_sections

    public = {r.pk for r in selectors.public_rounds(event)}
    rows = [
        (section, row)
        for section in draw_sections(event)
        for row in section.rows
        if row.draw.round_id is None or row.draw.round_id in public
    ]
    meta, found = paginate(rows, page, per_page)
    methods = dict(RandomDraw.Method.choices)
    return {
        **meta,
        "results": [
            {
                "key": row.draw.key,
                "section": section.key,
                "section_title": _said(section.title),
                "title": _said(row.title),
                "outcome": str(row.outcome),
                "purpose": _said(row.draw.purpose),
                "method": row.draw.method,
                "method_label": str(methods.get(row.draw.method, row.draw.method)),
                "value": row.draw.value,
                "round": row.draw.round.number if row.draw.round else None,
                "drawn_at": row.draw.drawn_at,
                "groups": [
                    {
                        "key": g["key"],
                        "slots": [{"code": s["code"], "name": s["name"]} for s in g["slots"]],
                        "players": list(g["players"]),
                    }
                    for g in row.groups
                ],
                "reasons": [str(r) for r in row.reasons],
            }
            for section, row in found
        ],
    }


# -- GokoDom -----------------------------------------------------------------------------------


def _gokodom_box(box: dict[str, Any]) -> dict[str, Any]:
    if box.get("empty"):
        return {
            "code": box["code"],
            "empty": True,
            "seeds": list(box.get("seeds", ())),
            "round": None,
            "players": [],
            "summary": "",
            "complete": False,
            "walkover": False,
            "deadline": None,
            "decided_by_director": False,
        }
    return {
        "code": box["code"],
        "empty": False,
        "seeds": [],
        "round": box["round"].number,
        "players": [
            {
                "entrant": _ref(p["entrant"]),
                "seed": p["seed"],
                "colour": p["colour"],
                "points": p["points"],
                "games": p["games"],
                "winner": p["winner"],
            }
            for p in box["players"]
        ],
        "summary": _said(box["summary"]),
        "complete": box["complete"],
        "walkover": box["walkover"],
        "deadline": box["deadline"],
        "decided_by_director": box["decided_by_director"],
    }


def gokodom_bracket(event: Event) -> dict[str, Any]:
    """The top-8 knockout as the bracket page draws it (views_bracket.bracket_context)."""
    from tournaments.formats.gokodom.views_bracket import bracket_context

    found = bracket_context(_of_format(event, "gokodom"))
    champion = found["champion"]
    return {
        "started": found["started"],
        "columns": [
            {"label": _said(c["label"]), "boxes": [_gokodom_box(b) for b in c["boxes"]]}
            for c in found["columns"]
        ],
        "playoff": _gokodom_box(found["playoff"]) if found["playoff"] else None,
        "champion": _ref(champion["entrant"]) if champion else None,
    }


# -- Freestyle ---------------------------------------------------------------------------------


def freestyle_bracket(event: Event) -> dict[str, Any]:
    """The semi-finals, the final and the third place game (pages.bracket): a slot not yet
    filled is named by where its player comes from."""
    from tournaments.formats.freestyle.pages import bracket

    found = bracket(_of_format(event, "freestyle"))
    return {
        "boxes": [
            {
                "code": box["code"],
                "played": box["match"] is not None,
                "players": [
                    {
                        "entrant": {"number": p["number"], "name": p["name"]}
                        if p.get("number") is not None
                        else None,
                        "slot": str(p["slot"]),
                        "seed": p.get("seed"),
                        "games": p["games"],
                    }
                    for p in box["players"]
                ],
                "winner": box["winner"],
                "walkover": box["walkover"],
                "summary": _said(box["summary"]),
            }
            for box in found["boxes"].values()
        ],
        "podium": [{"place": place, "name": name} for place, name in found["podium"]],
        "champion": found["champion"],
    }


# -- the bot contest -----------------------------------------------------------------------------


def _bot_contest(event: Event) -> Any:
    from tournaments.formats.bot_contest import pages

    _of_format(event, "bot_contest")
    return pages


def gauntlet(event: Event) -> dict[str, Any]:
    """The seeding gauntlet (pages.gauntlet): each entry against each reference, the
    totals and, once the brackets are drawn, the seeds."""
    found = _bot_contest(event).gauntlet(event)
    return {
        "seeded": found["seeded"],
        "references": [_ref(r) for r in found["references"]],
        "rows": [
            {
                "place": row.place,
                "tied": row.tied,
                "seed": row.seed,
                "entrant": _ref(row.entrant),
                "total": row.total,
                "game_points": row.game_points,
                "games": row.games,
                "cells": row.by_reference,
            }
            for row in found["rows"]
        ],
    }


def _bracket_round(drawn: Any) -> dict[str, Any]:
    return {
        "round": drawn.round.number,
        "label": _said(drawn.round.label),
        "matches": [
            {
                "code": box.match.code,
                "bye": box.bye,
                "tied": box.tied,
                "played": box.played,
                "summary": _said(box.summary),
                "slots": [
                    {
                        "entrant": _ref(s.entrant),
                        "seed": s.seed,
                        "wins": s.wins,
                        "won": s.won,
                        "fate": s.fate,
                    }
                    for s in box.slots
                ],
            }
            for box in drawn.matches
        ],
        "waiting": [_ref(e) for e in drawn.waiting],
    }


def bot_brackets(event: Event) -> dict[str, Any]:
    """The winners' and losers' brackets round by round (pages.brackets)."""
    found = _bot_contest(event).brackets(event)
    return {
        "seeds": [_ref(e) for e in found["seeds"]],
        "winners": [_bracket_round(r) for r in found["winners"]],
        "losers": [_bracket_round(r) for r in found["losers"]],
        "eliminated": [{"round": r.number, "entrant": _ref(e)} for r, e in found["eliminated"]],
        "finalists": [_ref(e) for e in found["finalists"]],
        "final_round": found["final_round"].number if found["final_round"] else None,
    }


def bot_final(event: Event) -> dict[str, Any]:
    """The final round robin as a crosstable (pages.final), with the director's decision
    when the final ended in a tie for first."""
    found = _bot_contest(event).final(event)
    decision = found["decision"]
    return {
        "round": found["round"].number if found["round"] else None,
        "complete": found["complete"],
        "columns": [_ref(e) for e in found["columns"]],
        "rows": [
            {
                "place": row["place"],
                "entrant": _ref(row["entrant"]),
                "total": row["total"],
                "game_points": row["game_points"],
                "cells": row["cells"],
            }
            for row in found["rows"]
        ],
        "tied_first": [_ref(e) for e in found["tied_first"]],
        "decision": {
            "value": decision.value,
            "method": decision.method,
            "purpose": _said(decision.purpose),
        }
        if decision
        else None,
        "winner": _ref(found["winner"]),
    }


def boards(event: Event) -> dict[str, Any]:
    """The board of every published round (pages.boards)."""
    return {
        "boards": [
            {
                "round": b["round"].number,
                "label": _said(b["round"].label),
                "board": str(b["board"]),
                "source": str(b["source"]),
            }
            for b in _bot_contest(event).boards(event)
        ]
    }


# -- WPF GP Playoffs ---------------------------------------------------------------------------


def _number(value: Any) -> int | None:
    return None if value in (None, "") else int(value)


def ladder(event: Event) -> dict[str, Any]:
    """The public ladder (reads.ladder, the visitors' view): ranks after each round, the
    swaps, each match by bracket. Before the reveal only the seeds: ``visible`` is false."""
    from tournaments.formats.wpf_playoffs.reads import ladder as read_ladder

    found = read_ladder(_of_format(event, "wpf_playoffs"), full=False)
    return {
        "visible": found["visible"],
        "final": bool(found.get("final", False)),
        "seeds": [
            {
                "seed": s["seed"],
                "number": _number(s["number"]),
                "name": s["name"],
                "virtual": bool(s["virtual"]),
            }
            for s in found["seeds"]
        ],
        "columns": [
            {"number": c["number"], "label": _said(c["label"])} for c in found.get("columns", [])
        ],
        "rows": [
            {
                "rank": row["rank"],
                "seed": row["seed"],
                "number": _number(row["number"]),
                "name": row["name"],
                "virtual": bool(row["virtual"]),
                "status": row["status"],
                "losses": row["losses"],
                "bracket": str(row["bracket"]),
                "final": row["final"],
                "reason": _said(row["reason"]),
                "cells": row["cells"],
            }
            for row in found["rows"]
        ],
        "rounds": [
            {
                "number": r["number"],
                "label": _said(r["label"]),
                "puzzle": r["puzzle"],
                "sections": [
                    {
                        "title": _said(s["title"]),
                        "matches": [{**m, "summary": _said(m["summary"])} for m in s["matches"]],
                    }
                    for s in r["sections"]
                ],
            }
            for r in found["rounds"]
        ],
    }
