"""Contention in the World Othello Championship (format ``woc``).

- Qualifying rounds (Swiss or round robin): the stage is "reach the semi-finals" (the top four of
  the provisional list after the playoffs, II.3.2-3), by rules/contention/swiss.py: exact in the
  last round, the points bound before (which holds for any pairing). Only points are firm: entrants
  equal on points across 4th and 5th place meet in a playoff (II.3.2), so such a tie is open. Anyone
  who can still reach the semi-finals can still win. With ``final_stages`` off the list decides the
  winner: the goal is first place, equal points going to BQ, which is open.
- Playoffs, semi-finals and finals: a single elimination from the four semi-finalists: anyone
  not beaten can still win, anyone beaten cannot; exact.

Assumption: every game still to play is played (no forfeits); see docs/contention.md.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules import registry
from rules.contention import swiss
from rules.contention.bounds import fraction
from rules.contention.explore import pending_by_score
from rules.contention.types import (
    Contention,
    EntrantContention,
    Method,
    Reuse,
    Status,
    Verdict,
    english,
    verdict,
)
from rules.contract import EventState, GameState, MatchState, Standings
from rules.formats.woc import ENGINE, history, system
from rules.words import message

STAGE = "semi_finals"
TARGET = message("contention.target.semi_finals")
FIRST = message("contention.target.first")
RESULTS = ((33, 31), (32, 32), (31, 33))  # a win for Black, a draw, a win for White


def menu(state: EventState, match: MatchState) -> list[MatchState]:
    return [
        MatchState(
            match.code,
            match.round_number,
            match.participants,
            (GameState(1, scores),),
            match.bracket,
            match.group,
            match.table,
            match.details,
        )
        for scores in RESULTS
    ]


def qualifying_stage(
    state: EventState, *, goal: str, places: int, target: dict[str, Any]
) -> swiss.Stage:
    settings = ENGINE.resolved(state)
    total = system.plan(state, settings).rounds
    played = sum(1 for r in state.rounds if history.qualifying(r.stage))
    return swiss.Stage(
        engine=registry.get("woc"),
        table="overall",
        points="points",
        places=places,
        per_round=max(Fraction(1), fraction(settings["bye_points"])),
        unit=message("contention.unit.points"),
        firm=("points",),
        menu=menu,
        pending=pending_by_score(registry.get("woc")),
        rounds_left=max(0, total - played),
        goal=goal,
        target=target,
    )


def contention(
    state: EventState, standings: Standings | None = None, *, reuse: Reuse | None = None
) -> Contention:
    """``reuse``: the qualifying bound carries over what a result cannot move
    (swiss.outlook); the final stages are read in one pass, with nothing to carry."""
    settings = ENGINE.resolved(state)
    previous = reuse.previous if reuse is not None else None
    work = previous.work if previous is not None else None
    changed = reuse.changed if reuse is not None else None
    if not settings["final_stages"]:
        win, method, work = swiss.outlook(
            state,
            qualifying_stage(state, goal="win", places=1, target=FIRST),
            standings,
            work=work,
            changed=changed,
        )
        rows = swiss.entrant_rows(win, previous, None)
        return Contention(state.format, "", "", rows, method, work=work)
    prog = ENGINE.progress(state) if _qualifying_over(state) else None
    semis = prog.semi_finalists if prog is not None else None
    if semis is None:
        stage, method, work = swiss.outlook(
            state,
            qualifying_stage(state, goal="stage", places=4, target=TARGET),
            standings,
            work=work,
            changed=changed,
        )
        rows = swiss.entrant_rows(stage, previous, _win_from_stage)
        return Contention(state.format, STAGE, english(TARGET), rows, method, work=work)
    assert prog is not None
    beaten = {r[1] for r in prog.semi_results() if r}
    final = prog.final_pair()
    champion = None
    if final is not None:
        result = prog.result(prog.find("final", *final))
        if result is not None:
            champion = result[0]
            beaten.add(result[1])
    final_rows: list[EntrantContention] = []
    for row in (standings or ENGINE.standings(state)).table("overall").rows:
        entrant = row.entrant
        if entrant not in semis:
            to_stage = verdict("contention.stage.eliminated.list")
            to_win = verdict("contention.win.eliminated.list")
        else:
            to_stage = verdict("contention.stage.clinched.semi_finalist")
            if entrant == champion:
                to_win = verdict("contention.win.clinched.champion")
            elif entrant in beaten:
                to_win = verdict("contention.win.eliminated.beaten.final_stages")
            else:
                to_win = verdict("contention.win.alive.unbeaten.final_stages")
        final_rows.append(EntrantContention(entrant, to_win, to_stage))
    return Contention(state.format, STAGE, english(TARGET), tuple(final_rows), Method.SETTLED)


def _qualifying_over(state: EventState) -> bool:
    return any(not history.qualifying(r.stage) for r in state.rounds) or (
        ENGINE._qualifying_complete(state, ENGINE.resolved(state))
    )


def _win_from_stage(stage: Verdict) -> Verdict:
    if stage.status is Status.ELIMINATED:
        return verdict("contention.win.eliminated.stage", stage.method, target=TARGET)
    return verdict("contention.win.alive.semi_finals", stage.method)
