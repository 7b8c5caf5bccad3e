"""Contention in the bracket formats, read from the engines' own standings.

- ``wpf_playoffs`` (the WPF ladder, a double elimination): a player with two or more losses is in
  the Placement Bracket and cannot reach the FINAL; with fewer, winning every match left reaches
  and wins it (the FINAL pairs the unbeaten player with the one-loss player). Exact.
- ``bot_contest`` (brackets, then a final round robin): the stage is "reach the final", read
  from the engine's brackets table (the overall table once the final is over). Exact in every
  stage, from the sizes of the brackets alone (no enumeration), ties included:
  - out: two losses (a loss in the losers' bracket) or a withdrawal, as the engine marks them;
  - clinched, before the final is planned: (a) the brackets hold at most 2K + target entries
    (the final's size; target is the losers' bracket's "roughly K") with every match left
    counted as a tie: the losers' bracket plays only while the two brackets hold more, so no
    loss can put anyone out beyond a losers' match still to play; or (b) the winners' bracket
    holds at most 2K, again with its matches left tied, and the entry has no match left in it:
    that bracket plays no more ("only 2K entries left in the winners bracket. These will
    advance"); (a) and (b) also need two entries certain to be left, or the engine plans no
    final;
  - alive otherwise: winning every match left reaches the final, and a loss in a losers'
    match left, or (more than 2K + target entries left) a loss in the winners' bracket
    followed by one in the losers', with tied matches keeping a bracket playing where needed,
    puts the entry out. A tie is not replayed: both entries stay in their bracket, so ties
    slow the brackets down; an entry with no match left that every decisive result would
    send to the final is still alive when a tie can keep its bracket playing.
  The finalists have clinched once the final is planned, the others are out. In the final
  round robin the points are open-ended (bonus plus game points), so every finalist stays alive
  for the win until the final is complete, and during the brackets anyone not out is alive for
  it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import registry
from rules.contract import EventState, Standings, StandingsTable
from rules.words import message

from .explore import pending_by_score
from .types import Contention, EntrantContention, Method, Status, Verdict, english, verdict


def wpf_playoffs(state: EventState, standings: Standings | None = None) -> Contention:
    standings = standings or registry.get("wpf_playoffs").standings(state)
    rows = []
    for row in standings.tables[0].rows:
        losses = int(row.values.get("losses") or 0)
        if standings.final:
            win = (
                verdict("contention.win.clinched.champion.wpf")
                if row.rank == 1
                else verdict("contention.win.eliminated.final", rank=row.rank)
            )
        elif losses >= 2:
            win = verdict("contention.win.eliminated.two_losses", losses=losses)
        elif losses == 1:
            win = verdict("contention.win.alive.losses.one", losses=losses)
        else:
            win = verdict("contention.win.alive.losses", losses=losses)
        rows.append(EntrantContention(row.entrant, win))
    return Contention(state.format, "", "", tuple(rows), Method.EXACT)


def bot_contest(state: EventState, standings: Standings | None = None) -> Contention:
    standings = standings or registry.get("bot_contest").standings(state)
    # The overall ranking once the final is over; before, the brackets (whose rows say who
    # is in the final, in a bracket or out); before stage two, the gauntlet.
    key = next((k for k in ("overall", "brackets") if _has(standings, k)), standings.tables[0].key)
    table = standings.table(key)
    in_final = any(r.stage == "final" for r in state.rounds)
    brackets = None if in_final else _brackets(state, table)
    rows = []
    for row in table.rows:
        if row.status == "withdrawn":
            stage = verdict("contention.stage.eliminated.withdrawn")
            win = verdict("contention.win.eliminated.withdrawn")
        elif row.status == "eliminated":
            stage = verdict("contention.stage.eliminated.bracket")
            win = verdict("contention.win.eliminated.bracket")
        elif in_final and row.status == "qualified":
            stage = verdict("contention.stage.clinched.finalist")
            if standings.final:
                win = (
                    verdict("contention.win.clinched.champion")
                    if row.rank == 1
                    else verdict("contention.win.eliminated.final", rank=row.rank)
                )
            else:
                win = verdict("contention.win.alive.finalist")
        elif in_final:
            stage = verdict("contention.stage.eliminated.not_finalist")
            win = verdict("contention.win.eliminated.not_finalist")
        else:
            assert brackets is not None
            stage = _reach_final(brackets, row.entrant)
            # Winning every match left reaches the final, whose totals are open-ended.
            win = (
                verdict("contention.win.eliminated.withdrawn")
                if stage.status is Status.ELIMINATED
                else verdict("contention.win.alive.bracket")
            )
        rows.append(EntrantContention(row.entrant, win, stage))
    # Entries of the gauntlet left out of stage two (withdrawn before the seeding).
    seen = {row.entrant for row in rows}
    for row in standings.table("gauntlet").rows:
        if row.entrant not in seen:
            rows.append(
                EntrantContention(
                    row.entrant,
                    verdict("contention.win.eliminated.withdrawn"),
                    verdict("contention.stage.eliminated.withdrawn"),
                )
            )
    name = english(message("contention.target.final"))
    return Contention(state.format, "final", name, tuple(rows), Method.EXACT)


@dataclass(frozen=True)
class _Brackets:
    """Stage two as the rule reads it: the engine's brackets with every match still to play
    counted as a tie (both entries stay where they are, as the engine's ``replay`` does)."""

    winners: frozenset[str]
    losers: frozenset[str]
    pending: frozenset[str]  # entries with a bracket match still to play
    losers_pending: int  # losers' bracket matches still to play
    quota: int  # 2K: the winners' bracket plays while it has more entries
    places: int  # 2K plus the losers' bracket's target (K unless set): the final's size

    @property
    def left(self) -> int:
        return len(self.winners) + len(self.losers)


def _brackets(state: EventState, table: StandingsTable) -> _Brackets:
    from rules.formats.bot_contest import ENGINE
    from rules.formats.bot_contest.brackets import LOSERS, WINNERS
    from rules.formats.bot_contest.seeding import BRACKET_STAGE, competitors

    values = ENGINE.resolved(state)
    k = int(values["k"])
    target = k if values["losers_target"] is None else int(values["losers_target"])
    if table.key == "brackets":
        where = {r.entrant: str(r.values["bracket"]) for r in table.rows}
    else:  # stage one: every entry still in starts stage two in the winners' bracket
        where = dict.fromkeys(competitors(state, len(state.rounds) + 1), WINNERS)
    pending = pending_by_score(registry.get("bot_contest"))
    matches = [
        m for r in state.rounds if r.stage == BRACKET_STAGE for m in r.matches if pending(state, m)
    ]
    return _Brackets(
        winners=frozenset(e for e, b in where.items() if b == WINNERS),
        losers=frozenset(e for e, b in where.items() if b == LOSERS),
        pending=frozenset(e for m in matches for e in m.entrant_ids if e is not None),
        losers_pending=sum(1 for m in matches if m.bracket == LOSERS),
        quota=2 * k,
        places=2 * k + target,
    )


def _reach_final(brackets: _Brackets, entrant: str) -> Verdict:
    """Reach the final, before it is planned; exact (the module docstring says why).

    Ties: a tied match is not replayed; both entries stay in their bracket (Stage two, step 3:
    "If an entry wins or ties, it advances"), so a bracket shrinks by at most one entry per
    match, and by none when all its matches tie. The clinches hold in every outcome with any
    number of ties; the alives rest on outcomes that may need ties (a tie keeps the winners'
    bracket above 2K, or the losers' bracket above its target, for another round).
    """
    if entrant not in brackets.winners | brackets.losers:  # withdrawn before stage two
        return verdict("contention.stage.eliminated.withdrawn")
    if entrant in brackets.losers and entrant in brackets.pending:
        return verdict("contention.stage.alive.losers_match")
    left, places = brackets.left, brackets.places
    # Each match leaves at least one of its two entries, and a bracket never empties, so at
    # least two entries are left for the final (the engine plans none for a single entry).
    final = left - brackets.losers_pending >= 2
    if final and left <= places:
        # The losers' bracket plays only while it holds more than max(target, 2K + target -
        # winners), that is more than ``places`` entries in both brackets; no result adds one.
        return verdict("contention.stage.clinched.places", entries=left, places=places)
    winners = len(brackets.winners)
    done = winners <= brackets.quota
    if final and done and entrant in brackets.winners and entrant not in brackets.pending:
        # A bracket never gains entries from above; the winners' bracket, at 2K or fewer
        # even if every match left is tied, plays no more and all of it goes to the final.
        return verdict(
            "contention.stage.clinched.winners_done", winners=winners, quota=brackets.quota
        )
    if entrant in brackets.winners:
        return verdict("contention.stage.alive.winners", entries=left, places=places)
    return verdict("contention.stage.alive.losers", entries=left, places=places)


def _has(standings: Standings, key: str) -> bool:
    return any(t.key == key for t in standings.tables)
