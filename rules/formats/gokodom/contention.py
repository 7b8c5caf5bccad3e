"""Contention in GokoDom (format ``gokodom``): the Swiss qualifier for the top eight (III.A), then
a single elimination.

- Swiss: the stage is "reach the quarter-finals (top 8)", by rules/contention/swiss.py (exact in the
  last Swiss round, the points bound before). Match points, defaults and Solkoff depend on results
  only and are firm; cumulative game points and the lot order are open (a coin flip or a playoff
  settles a tie across 8th and 9th, III.A). Anyone who can still reach the top eight can still win.
- The 8th-place playoff and the elimination rounds: a single elimination, so anyone not yet beaten
  can still win (by winning every match left) and anyone beaten cannot: exact.

Assumption (docs/contention.md): everyone still in plays out their matches; a default that
removes a player (LD, II.B.6) reopens contention when the standings are next computed.
"""

from __future__ import annotations

from fractions import Fraction

from rules import registry
from rules.contention import swiss
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
from rules.formats.gokodom import ENGINE
from rules.formats.gokodom.knockout import QUALIFIERS
from rules.formats.gokodom.record import KNOCKOUT, PLAYOFF, SWISS
from rules.formats.gokodom.results import SEAT_PATTERN
from rules.words import message

STAGE = "top_8"
TARGET = message("contention.target.top_8")
FIRM = ("match_points", "defaults", "solkoff")


def _games(first_wins: list[Fraction]) -> tuple[GameState, ...]:
    games = []
    for index, share in enumerate(first_wins):
        seat = 0 if SEAT_PATTERN[index] == "A" else 1
        games.append(GameState(index + 1, (share, 1 - share), first=seat))
    return tuple(games)


# A 3-0 win either way and a 3-3 draw (IV.A): the three match results W, D, L.
RESULTS = (
    [Fraction(1)] * 3,
    [Fraction(1), Fraction(0)] * 3,
    [Fraction(0)] * 3,
)


def menu(state: EventState, match: MatchState) -> list[MatchState]:
    return [
        MatchState(
            match.code,
            match.round_number,
            match.participants,
            _games(result),
            match.bracket,
            match.group,
            match.table,
            {k: v for k, v in match.details.items() if k not in ("unplayed", "messages")},
        )
        for result in RESULTS
    ]


def _pending(state: EventState, match: MatchState) -> bool:
    if match.is_bye or match.details.get("unplayed"):
        return False
    return pending_by_score(registry.get("gokodom"))(state, match)


def swiss_stage(state: EventState, goal: str = "stage") -> swiss.Stage:
    settings = ENGINE.resolved(state)
    played = sum(1 for r in state.rounds if r.stage == SWISS)
    total = int(settings["swiss_rounds"]) or _auto(state)
    return swiss.Stage(
        engine=registry.get("gokodom"),
        table="swiss",
        points="match_points",
        places=QUALIFIERS,
        per_round=Fraction(2),
        unit=message("contention.unit.match_points"),
        firm=FIRM,
        menu=menu,
        pending=_pending,
        rounds_left=max(0, total - played),
        goal=goal,
        target=TARGET,
        can_place=lambda entrant, status: status not in ("removed", "withdrawn"),
    )


def _auto(state: EventState) -> int:
    from rules.formats.gokodom.engine import _swiss_count

    return _swiss_count(state, ENGINE.resolved(state))


def contention(
    state: EventState, standings: Standings | None = None, *, reuse: Reuse | None = None
) -> Contention:
    """``reuse``: the Swiss bound carries over what a result cannot move (swiss.outlook);
    the knockout is read from the standings in one pass, with nothing to carry."""
    if any(r.stage in (KNOCKOUT, PLAYOFF) for r in state.rounds):
        names = {e.id: e.name for e in state.entrants}
        return _knockout(state, names, standings)
    previous = reuse.previous if reuse is not None else None
    stage, method, work = swiss.outlook(
        state,
        swiss_stage(state),
        standings,
        work=previous.work if previous is not None else None,
        changed=reuse.changed if reuse is not None else None,
    )
    rows = swiss.entrant_rows(stage, previous, _win_from_stage)
    return Contention(state.format, STAGE, english(TARGET), rows, method, work=work)


def _win_from_stage(stage: Verdict) -> Verdict:
    if stage.status is Status.ELIMINATED:
        return verdict("contention.win.eliminated.quarter_finals", stage.method)
    return verdict("contention.win.alive.quarter_finals", stage.method)


def _knockout(
    state: EventState, names: dict[str, str], standings: Standings | None = None
) -> Contention:
    standings = standings or ENGINE.standings(state)
    knockout = (
        {r.entrant: r for r in standings.table("knockout").rows}
        if any(t.key == "knockout" for t in standings.tables)
        else {}
    )
    in_knockout = any(r.stage == KNOCKOUT for r in state.rounds)
    playoff = {
        e for r in state.rounds if r.stage == PLAYOFF for m in r.matches for e in m.entrant_ids if e
    }
    rows = []
    for entrant in (r.entrant for r in standings.table("swiss").rows):
        row = knockout.get(entrant)
        if row is not None and row.status == "champion":
            win = verdict("contention.win.clinched.champion")
        elif row is not None and row.status == "eliminated":
            win = verdict("contention.win.eliminated.knocked_out")
        elif row is not None or (not in_knockout and entrant in playoff):
            win = verdict("contention.win.alive.unbeaten.elimination")
        else:
            win = verdict("contention.win.eliminated.not_qualified")
        if row is not None:
            stage = verdict("contention.stage.clinched.seeded")
        elif not in_knockout and entrant in playoff:
            stage = verdict("contention.stage.alive.playoff")
        elif not in_knockout:
            qualified = _swiss_status(standings, entrant) == "qualified"
            stage = (
                verdict("contention.stage.clinched.qualified")
                if qualified
                else verdict("contention.stage.eliminated.swiss_rank")
            )
        else:
            stage = verdict("contention.stage.eliminated.swiss_rank")
        rows.append(EntrantContention(entrant, win, stage))
    return Contention(state.format, STAGE, english(TARGET), tuple(rows), Method.SETTLED)


def _swiss_status(standings: object, entrant: str) -> str:
    from rules.contract import Standings

    assert isinstance(standings, Standings)
    for row in standings.table("swiss").rows:
        if row.entrant == entrant:
            return row.status
    return ""
