"""Contention in Freestyle (format ``freestyle``): group rounds 1-3, then semi-finals and final.

- A group round in progress: the stage is the next round (top 4 of each Round 1 group, top 2
  after). Each group is a round robin; the points bound of bounds.py runs group by group on wins
  (a won game 1, a tie 1/2), with each entrant's own games left in the group. Equal wins go to
  tiebreaks the bound counts against the entrant, so it is sound. A complete group takes the
  engine's own ``qualified`` / ``eliminated``.
- Anyone who can still reach the next stage can still win; the semi-finals and final are a
  single elimination: beaten is out, the final's winner has clinched.
"""

from __future__ import annotations

from rules.contract import EventState
from rules.formats.freestyle import ENGINE

from .bounds import Reach, fraction, top_bound
from .types import Contention, EntrantContention, Method, Status, Verdict, verdict

NEXT = {1: ("round_2", "reach Round 2", 4), 2: ("round_3", "reach Round 3", 2)}
NEXT[3] = ("semi_finals", "reach the semi-finals", 2)


def contention(state: EventState) -> Contention:
    standings = ENGINE.standings(state)
    names = {e.id: e.name for e in state.entrants}
    current = max((r.number for r in state.rounds), default=0)
    if current >= 4 or current == 0:
        return _knockout(state, names)
    key, target, places = NEXT[current]
    rows: list[EntrantContention] = []
    seen: set[str] = set()
    for table in standings.tables:
        if not table.key.startswith(f"round-{current}/"):
            continue
        size = len(table.rows)
        reaches = []
        statuses = {}
        for row in table.rows:
            played = int(row.values.get("played") or 0)
            wins = fraction(row.values.get("wins"))
            reaches.append(Reach(row.entrant, names[row.entrant], wins, wins + (size - 1 - played)))
            statuses[row.entrant] = row.status
        left = "in the group's games left"
        bound = top_bound(reaches, places, goal="stage", unit="wins", left=left)
        for row in table.rows:
            stage: Verdict
            if statuses[row.entrant] == "qualified":
                stage = verdict("stage", Status.CLINCHED, "group", f"qualified from {table.title}")
            elif statuses[row.entrant] in ("eliminated", "withdrawn"):
                stage = verdict("stage", Status.ELIMINATED, "group", f"out of {table.title}")
            else:
                stage = bound[row.entrant]
            win = (
                verdict("win", Status.ELIMINATED, "stage", f"cannot {target}")
                if stage.status is Status.ELIMINATED
                else verdict("win", Status.ALIVE, "stage", f"can still {target}")
            )
            rows.append(EntrantContention(row.entrant, win, stage))
            seen.add(row.entrant)
    for entrant in state.entrants:
        if entrant.id not in seen:
            out = verdict("win", Status.ELIMINATED, "earlier", "out in an earlier round")
            rows.append(EntrantContention(entrant.id, out, out))
    return Contention(state.format, key, target, tuple(rows), Method.BOUND)


def _knockout(state: EventState, names: dict[str, str]) -> Contention:
    standings = ENGINE.standings(state)
    alive: set[str] = set()
    beaten: set[str] = set()
    for rnd in state.rounds:
        if rnd.number < 4:
            continue
        for match in rnd.matches:
            ids = [e for e in match.entrant_ids if e]
            if match.code == "3P":
                beaten.update(ids)
                continue
            alive.update(ids)
            score = ENGINE.score_match(state, match)
            if score.valid and score.complete and score.winner is not None:
                beaten.add(ids[1 - score.winner])
    final = {r.entrant: r for r in standings.table("final").rows} if standings.final else {}
    rows = []
    for entrant in state.entrants:
        if final.get(entrant.id) is not None and final[entrant.id].rank == 1:
            win = verdict("win", Status.CLINCHED, "champion", "won the final")
        elif entrant.id in alive and entrant.id not in beaten and not final:
            win = verdict("win", Status.ALIVE, "unbeaten", "not beaten in the knockout")
        elif not state.rounds:
            win = verdict("win", Status.ALIVE, "not_started", "the event has not started")
        else:
            win = verdict("win", Status.ELIMINATED, "beaten", "out of the knockout")
        rows.append(EntrantContention(entrant.id, win))
    return Contention(state.format, "", "", tuple(rows), Method.EXACT)
