"""Contention in the bracket formats, read from the engines' own standings.

- ``wpf_playoffs`` (the WPF ladder, a double elimination): a player with two or more losses is in
  the Placement Bracket and cannot reach the FINAL; with fewer, winning every match left reaches
  and wins it (the FINAL pairs the unbeaten player with the one-loss player). Exact.
- ``bot_contest`` (brackets, then a final round robin): the stage is "reach the final". A loss in
  the losers' bracket eliminates (the engine marks the row ``eliminated``); anyone still in a
  bracket can keep winning and so stay until stage two ends: alive; the finalists have clinched
  it. In the final round robin the points are open-ended (bonus plus game points), so every
  finalist stays alive until the final is complete. Exact for the brackets; the final is left
  alive (never wrongly settled).
"""

from __future__ import annotations

from rules import registry
from rules.contract import EventState, Standings

from .types import Contention, EntrantContention, Method, Status, verdict


def wpf_playoffs(state: EventState) -> Contention:
    standings = registry.get("wpf_playoffs").standings(state)
    rows = []
    for row in standings.tables[0].rows:
        losses = int(row.values.get("losses") or 0)
        if standings.final:
            win = (
                verdict("win", Status.CLINCHED, "champion", "won the FINAL")
                if row.rank == 1
                else verdict("win", Status.ELIMINATED, "final", f"finished {row.rank}")
            )
        elif losses >= 2:
            win = verdict(
                "win",
                Status.ELIMINATED,
                "two_losses",
                f"{losses} losses: in the Placement Bracket, out of reach of the FINAL",
                losses=losses,
            )
        else:
            win = verdict(
                "win",
                Status.ALIVE,
                "losses",
                f"{losses} loss{'es' if losses != 1 else ''}: "
                "winning every match left wins the FINAL",
                losses=losses,
            )
        rows.append(EntrantContention(row.entrant, win))
    return Contention(state.format, "", "", tuple(rows), Method.EXACT)


def bot_contest(state: EventState) -> Contention:
    standings = registry.get("bot_contest").standings(state)
    table = standings.table("overall") if _has(standings, "overall") else standings.tables[0]
    in_final = any(r.stage == "final" for r in state.rounds)
    rows = []
    for row in table.rows:
        if row.status == "eliminated":
            stage = verdict(
                "stage", Status.ELIMINATED, "bracket", "two losses in the double elimination"
            )
            win = verdict(
                "win", Status.ELIMINATED, "bracket", "two losses in the double elimination"
            )
        elif in_final and row.status == "qualified":
            stage = verdict("stage", Status.CLINCHED, "finalist", "plays the final")
            if standings.final:
                win = (
                    verdict("win", Status.CLINCHED, "champion", "won the final")
                    if row.rank == 1
                    else verdict("win", Status.ELIMINATED, "final", f"finished {row.rank}")
                )
            else:
                win = verdict("win", Status.ALIVE, "finalist", "plays the final")
        elif in_final:
            stage = verdict("stage", Status.ELIMINATED, "bracket", "not in the final")
            win = verdict("win", Status.ELIMINATED, "bracket", "not in the final")
        else:
            stage = verdict("stage", Status.ALIVE, "bracket", "still in a bracket")
            win = verdict("win", Status.ALIVE, "bracket", "still in a bracket")
        rows.append(EntrantContention(row.entrant, win, stage))
    return Contention(state.format, "final", "reach the final", tuple(rows), Method.EXACT)


def _has(standings: Standings, key: str) -> bool:
    return any(t.key == key for t in standings.tables)
