"""Contention in Freestyle (format ``freestyle``): group rounds 1-3, then semi-finals and final.

- A group round in progress: the stage is the next round (top 4 of each Round 1 group, top 2
  after). Each group is a round robin. Exact where a group has few games left (3 results a game,
  at most GROUP_LIMIT outcomes): every result of every game left in the group (a win either way,
  a tie) is played through the engine's own game record, and the group is ordered by the steps
  that depend only on results, "Number of wins" then "Head-to-head matchups", again within each
  tie ("the process is iterative"). Players those steps cannot split form a block: its order
  rests on game-point margins (steps 3-4), on steps that follow them, or on a tiebreaker game,
  so a block across the cut is open in that outcome. Otherwise, the points bound of
  rules/contention/bounds.py on wins (a won game 1, a tie 1/2), with each entrant's own games
  left in the group; equal wins go to tiebreaks the bound counts against the entrant, so it is
  sound. An entrant who leaves after this round (row ``withdrawn``) takes no place: "everyone
  who finished below him ... moves up one place". A complete group takes the engine's own
  ``qualified`` / ``eliminated``; a tie across the cut still waiting for its tiebreaker game
  (row ``tiebreaker``) is alive until the game is recorded.
- Anyone who can still reach the next stage can still win; the semi-finals and final are a
  single elimination: beaten is out (unless the semi-final's winner withdraws after it: the
  loser "moves up one place" to the final), the final's winner has clinched (even while the
  third place game is still to play).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules import registry
from rules.contention.bounds import Reach, fraction, top_bound
from rules.contention.exact import exact_verdicts
from rules.contention.explore import Outcome, Walk, affordable, pending_by_score
from rules.contention.types import (
    Contention,
    EntrantContention,
    Finish,
    Method,
    Reuse,
    Status,
    Verdict,
    english,
    verdict,
)
from rules.contract import (
    Engine,
    EventState,
    GameState,
    MatchState,
    Standings,
    StandingsTable,
)
from rules.formats.freestyle import ENGINE
from rules.formats.freestyle.results import Context, RoundRecord
from rules.formats.freestyle.tables import FINALS, SEMI_FINALS
from rules.words import message

# Most outcomes enumerated for one group (3 results a game: 5 games left).
GROUP_LIMIT = 243
RESULTS = ((1, 0), (0, 0), (0, 1))  # a win for the first seat, a tie, a win for the second
AS_ENGINE: Engine = registry.get("freestyle")
PENDING = pending_by_score(AS_ENGINE)

# After each group round: the next stage's key, its target (a message of
# rules/contention/words.py), places.
NEXT = {
    1: ("round_2", message("contention.target.round_2"), 4),
    2: ("round_3", message("contention.target.round_3"), 2),
    3: ("semi_finals", message("contention.target.semi_finals"), 2),
}


def contention(
    state: EventState, standings: Standings | None = None, *, reuse: Reuse | None = None
) -> Contention:
    """``reuse``: a group whose table and games of the round are as they were keeps its
    rows (its verdicts rest on those alone: the walk plays the group's own games), when
    every changed result is of the current round; the others are worked out again."""
    standings = standings or ENGINE.standings(state)
    names = {e.id: e.name for e in state.entrants}
    current = max((r.number for r in state.rounds), default=0)
    if current >= 4 or current == 0:
        return _knockout(state, names)
    key, target, places = NEXT[current]
    before: dict[str, Group] = {}
    if (
        reuse is not None
        and isinstance(reuse.previous.work, dict)
        and all(number == current for number, _ in reuse.changed)
    ):
        before = reuse.previous.work
    rows: list[EntrantContention] = []
    seen: set[str] = set()
    method = Method.EXACT
    groups: dict[str, Group] = {}
    for table in standings.tables:
        if not table.key.startswith(f"round-{current}/"):
            continue
        group = table.key.split("/group-", 1)[1]
        games = tuple(
            m for r in state.rounds if r.number == current for m in r.matches if m.group == group
        )
        found = before.get(table.key)
        if found is None or found.table != table or found.games != games:
            found = _group(state, current, group, table, games, names, target, places)
        groups[table.key] = found
        if found.bound:
            method = Method.BOUND
        rows.extend(found.rows)
        seen.update(row.entrant for row in found.rows)
    for entrant in state.entrants:
        if entrant.id not in seen:
            rows.append(
                EntrantContention(
                    entrant.id,
                    verdict("contention.win.eliminated.earlier"),
                    verdict("contention.stage.eliminated.earlier"),
                )
            )
    return Contention(state.format, key, english(target), tuple(rows), method, work=groups)


@dataclass(frozen=True)
class Group:
    """One group's rows and what they rest on."""

    table: StandingsTable
    games: tuple[MatchState, ...]  # the group's matches of the round
    rows: tuple[EntrantContention, ...]
    bound: bool  # too many games left to walk: the points bound answered


def _group(
    state: EventState,
    current: int,
    group: str,
    table: StandingsTable,
    games: tuple[MatchState, ...],
    names: dict[str, str],
    target: dict[str, Any],
    places: int,
) -> Group:
    size = len(table.rows)
    reaches = []
    statuses = {}
    for row in table.rows:
        played = int(row.values.get("played") or 0)
        wins = fraction(row.values.get("wins"))
        high = wins + (size - 1 - played)
        # Leaving after this round: takes no place, those below move up.
        can_place = row.status != "withdrawn"
        reaches.append(Reach(row.entrant, names[row.entrant], wins, high, can_place))
        statuses[row.entrant] = row.status
    left = message("contention.left.group")
    bound = _exact(state, current, group, [r.entrant for r in table.rows], places, names, target)
    used_bound = False
    if not bound:
        if bound is None:
            used_bound = True
        unit = message("contention.unit.wins")
        bound = top_bound(reaches, places, goal="stage", unit=unit, left=left)
    rows = []
    for row in table.rows:
        stage: Verdict
        if statuses[row.entrant] == "tiebreaker":
            stage = verdict("contention.stage.alive.tiebreaker", rank=row.rank, table=table.title)
        elif statuses[row.entrant] == "qualified":
            stage = verdict("contention.stage.clinched.group", table=table.title)
        elif statuses[row.entrant] in ("eliminated", "withdrawn"):
            stage = verdict("contention.stage.eliminated.group", table=table.title)
        else:
            stage = bound[row.entrant]
        win = (
            verdict("contention.win.eliminated.stage", target=target)
            if stage.status is Status.ELIMINATED
            else verdict("contention.win.alive.stage", target=target)
        )
        rows.append(EntrantContention(row.entrant, win, stage))
    return Group(table, games, tuple(rows), used_bound)


def _exact(
    state: EventState,
    number: int,
    group: str,
    players: Sequence[str],
    places: int,
    names: dict[str, str],
    target: dict[str, Any],
) -> dict[str, Verdict] | None:
    """The stage verdicts of one group by enumerating its games left; empty when it has none
    left (the engine's own statuses answer), None when too many."""
    left = [
        m
        for r in state.rounds
        if r.number == number
        for m in r.matches
        if m.group == group and PENDING(state, m)
    ]
    if not left:
        return {}
    if not affordable(3 ** len(left), len(players), GROUP_LIMIT):
        return None
    ctx = Context(state)
    leaving = {e for e in players if not ctx.in_round(e, number + 1)}

    def pending(s: EventState, match: MatchState) -> bool:
        return match.round_number == number and match.group == group and PENDING(s, match)

    def evaluate(done: EventState) -> Outcome:
        stage = group_finishes(Context(done).record(number), players, leaving, places)
        return {e: (Finish.OUT, f) for e, f in stage.items()}

    walk = Walk(AS_ENGINE, _menu, evaluate, pending, stop=lambda s: True, limit=GROUP_LIMIT)
    # The group's own games rank it: the walk carries no other match of the round.
    alone = replace(
        state,
        rounds=tuple(
            replace(r, matches=tuple(m for m in r.matches if m.group == group))
            if r.number == number
            else r
            for r in state.rounds
        ),
    )
    outcomes = walk.outcomes(alone)
    if outcomes is None:
        return None
    return exact_verdicts(outcomes, list(players), names, index=1, goal="stage", target=target)


def _menu(state: EventState, match: MatchState) -> list[MatchState]:
    return [replace(match, games=(GameState(1, scores),)) for scores in RESULTS]


def result_blocks(record: RoundRecord, players: Sequence[str]) -> list[list[str]]:
    """The group in order of the ranking steps that depend only on results: wins, then wins
    among the tied, again within each split (the engine restarts the steps on each tie).
    Each block holds players these steps cannot split, best block first."""

    def split(tier: list[str]) -> list[list[str]]:
        if len(tier) < 2:
            return [tier]
        for among in (None, tier):
            values = {e: record.wins(e, among) for e in tier}
            if len(set(values.values())) > 1:
                levels = sorted(set(values.values()), reverse=True)
                return [
                    block
                    for level in levels
                    for block in split([e for e in tier if values[e] == level])
                ]
        return [tier]

    return split(list(players))


def group_finishes(
    record: RoundRecord, players: Sequence[str], leaving: set[str], places: int
) -> dict[str, Finish]:
    """IN / OUT / OPEN for the next round: the first ``places`` of those going on. A player
    leaving after the round takes no place ("everyone who finished below him ... moves up")."""
    result: dict[str, Finish] = {}
    placed = 0
    for block in result_blocks(record, players):
        staying = [e for e in block if e not in leaving]
        for entrant in block:
            result[entrant] = Finish.OUT
        if not staying:
            continue
        first, last = placed, placed + len(staying)
        finish = Finish.IN if last <= places else Finish.OUT if first >= places else Finish.OPEN
        for entrant in staying:
            result[entrant] = finish
        placed = last
    return result


def _knockout(state: EventState, names: dict[str, str]) -> Contention:
    standings = ENGINE.standings(state)
    ctx = Context(state)
    champion: str | None = None
    how = "contention.win.clinched.champion"
    contenders: set[str] = set()  # can still win: in the final, or certain to play it
    moved: set[str] = set()  # semi-final losers who move up to the final
    final_match = _match(state, FINALS, "F")
    if final_match is not None:
        done, winner = _decided(state, final_match)
        if done:
            champion = winner
        else:
            contenders.update(e for e in final_match.entrant_ids if e)
    else:
        for match in (m for r in state.rounds if r.number == SEMI_FINALS for m in r.matches):
            going = [e for e in match.entrant_ids if e and ctx.in_round(e, FINALS)]
            done, winner = _decided(state, match)
            if not done:
                contenders.update(going)  # whoever wins it, those going on stay in
            elif winner is not None and winner in going:
                contenders.add(winner)
            else:
                # The winner withdrew after the semi-finals: "everyone who finished below him
                # in the previous round moves up one place".
                contenders.update(going)
                moved.update(going)
        if len(contenders) == 1:
            # The only one left to play the final: it has no opponent, and he goes through.
            champion = contenders.pop()
            how = "contention.win.clinched.no_opponent"
            moved.clear()
    final = {r.entrant: r for r in standings.table("final").rows} if standings.final else {}
    rows = []
    for entrant in state.entrants:
        won = final.get(entrant.id) is not None and final[entrant.id].rank == 1
        if won:
            win = verdict("contention.win.clinched.champion")
        elif entrant.id == champion and not final:
            win = verdict(how)
        elif entrant.id in moved and not final:
            win = verdict("contention.win.alive.moved_up")
        elif entrant.id in contenders and not final:
            win = verdict("contention.win.alive.unbeaten")
        elif not state.rounds:
            win = verdict("contention.win.alive.not_started")
        else:
            win = verdict("contention.win.eliminated.beaten")
        rows.append(EntrantContention(entrant.id, win))
    return Contention(state.format, "", "", tuple(rows), Method.EXACT)


def _match(state: EventState, number: int, code: str) -> MatchState | None:
    for rnd in state.rounds:
        if rnd.number == number:
            return next((m for m in rnd.matches if m.code == code), None)
    return None


def _decided(state: EventState, match: MatchState) -> tuple[bool, str | None]:
    """Whether a knockout match is over and who won it (a walkover or a player without an
    opponent goes through; nobody when both withdrew)."""
    score = ENGINE.score_match(state, match)
    if not (score.valid and score.complete):
        return False, None
    if score.winner is None:
        return bool(score.details.get("void")), None
    return True, match.participants[score.winner].entrant
