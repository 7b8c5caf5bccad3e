"""The result history replayed: every match's results rebuilt from its ResultChange rows.

Each result change (results.record, GokoDom's result codes, Freestyle's rescoring, the
event-file import) writes a row holding what the match looked like before and after it.
Folding a match's rows in version order gives its games, the details a result wrote, and
its version, independently of what is stored on the match; the engine then scores the
replayed matches and ranks the replayed event. This module reads only (a selector): the
stateful tests check after every action that the replay and the stored record agree, and
``check_event --history`` runs the same check on a real event.

A row's ``after`` names only what it wrote: ``games`` (the whole list), ``result``, and
``details`` (the keys written; a key present in ``before["details"]`` and missing from
``after["details"]`` was removed). Details no row wrote (the pairing's, a pending GokoDom
report, a message to the director) come from the stored match: they are not results.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.contract import EventState, MatchState, RoundStatus, Standings
from tournaments.models import Event, ResultChange
from tournaments.services.results import parse_games
from tournaments.services.state import jsonable, load_event_state


@dataclass(frozen=True)
class ReplayedMatch:
    """One match as its result history leaves it."""

    match_id: int
    version: int  # the last version written (0: no row)
    games: list[dict[str, Any]] | None  # None: no row wrote games
    details: dict[str, Any]  # the detail keys rows wrote, with the last value written
    removed: frozenset[str]  # detail keys a row removed and none wrote again
    result: dict[str, Any] | None  # the last result a row wrote (None: none, or cleared)
    problems: tuple[str, ...] = ()  # gaps, a row that does not start where the last ended


@dataclass(frozen=True)
class HistoryCheck:
    """The replay beside the stored record: ``problems`` is empty when they agree."""

    matches: int  # matches of published rounds
    rows: int  # result-history rows replayed
    problems: tuple[str, ...] = field(default_factory=tuple)
    standings: Standings | None = None  # the engine's ranking of the stored state

    @property
    def agrees(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.agrees:
            return (
                f"The result history ({self.rows} changes) replays to the stored results of "
                f"all {self.matches} matches and the same standings."
            )
        count = len(self.problems)
        plural = "s" if count != 1 else ""
        return f"{count} difference{plural} between the result history and the stored record."


def _games(value: Any) -> list[dict[str, Any]]:
    """Games as comparable plain data (the shape of results.games_json)."""
    return [
        {
            "number": int(g.get("number", index + 1)),
            "scores": jsonable(list(g.get("scores", []))),
            "first": g.get("first"),
            "ending": g.get("ending") or "normal",
            "details": jsonable(dict(g.get("details") or {})),
        }
        for index, g in enumerate(value or [])
    ]


def _core(result: Mapping[str, Any] | None) -> tuple[Any, Any, bool] | None:
    """What a stored result says about the match: points, winner, complete (the words and
    the reasons may be reworded without the result changing)."""
    if result is None:
        return None
    return (jsonable(result.get("points")), result.get("winner"), bool(result.get("complete")))


def _fold(match_id: int, rows: Iterable[Mapping[str, Any]]) -> ReplayedMatch:
    games: list[dict[str, Any]] | None = None
    result: dict[str, Any] | None = None
    details: dict[str, Any] = {}
    removed: set[str] = set()
    problems: list[str] = []
    version = 0
    last_row: Mapping[str, Any] | None = None
    for row in rows:
        number = row["version"]
        if number != version + 1:
            problems.append(f"version {number} follows version {version} in its history")
        before = row["before"] or {}
        after = row["after"] or {}
        if last_row is not None:
            problems.extend(f"version {number}: {p}" for p in _seams(last_row, before))
        elif "games" in before and _games(before["games"]):
            problems.append(f"version {number}: the first change starts from games never written")
        if "games" in after:
            games = _games(after["games"])
        if "result" in after:
            result = after["result"]
        if "details" in after:
            written = dict(after["details"] or {})
            for key in set(before.get("details") or {}) - set(written):
                details.pop(key, None)
                removed.add(key)
            for key, value in written.items():
                details[key] = value
                removed.discard(key)
        version = number
        last_row = row
    return ReplayedMatch(
        match_id, version, games, details, frozenset(removed), result, tuple(problems)
    )


def _seams(last_row: Mapping[str, Any], before: Mapping[str, Any]) -> list[str]:
    """Where a row's ``before`` is not what the previous row left: something wrote the
    match between two result changes without a row of its own."""
    last = last_row.get("after") or {}
    problems = []
    if "games" in last and "games" in before and _games(last["games"]) != _games(before["games"]):
        problems.append("its games before are not the games the previous change wrote")
    if "result" in last and "result" in before and _core(last["result"]) != _core(before["result"]):
        problems.append("its result before is not the result the previous change wrote")
    # Only the detail keys the previous change changed: a whole-details writer (GokoDom)
    # carries the others along, and a pending report or a message is no result change.
    written = _changed_details(last_row)
    for key, value in (before.get("details") or {}).items():
        if key in written and jsonable(written[key]) != jsonable(value):
            problems.append(f"its detail '{key}' before is not what the previous change wrote")
    return problems


def _changed_details(row: Mapping[str, Any]) -> dict[str, Any]:
    """The detail keys a row's change wrote with a new value."""
    before = (row.get("before") or {}).get("details") or {}
    after = (row.get("after") or {}).get("details") or {}
    return {k: v for k, v in after.items() if k not in before or jsonable(before[k]) != jsonable(v)}


def replay(event: Event) -> dict[int, ReplayedMatch]:
    """Every match of the event that has a result history, as that history leaves it (one
    query)."""
    rows = (
        ResultChange.objects.filter(match__round__event=event)
        .order_by("match_id", "version")
        .values("match_id", "version", "before", "after")
    )
    grouped: dict[int, list[Mapping[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(row["match_id"], []).append(row)
    return {match_id: _fold(match_id, found) for match_id, found in grouped.items()}


def replayed_state(
    event: Event,
    replayed: Mapping[int, ReplayedMatch] | None = None,
    stored: EventState | None = None,
) -> EventState:
    """The event's state with every match's games and result details taken from its
    history instead of from the match (a match without history: no games)."""
    replayed = replay(event) if replayed is None else replayed
    stored = load_event_state(event) if stored is None else stored
    ids = _match_ids(event)
    rounds = []
    for rnd in stored.rounds:
        matches = []
        for match in rnd.matches:
            found = replayed.get(ids.get((rnd.number, match.code), -1))
            matches.append(_replayed_match(match, found))
        rounds.append(replace(rnd, matches=tuple(matches)))
    return replace(stored, rounds=tuple(rounds))


def _replayed_match(match: MatchState, found: ReplayedMatch | None) -> MatchState:
    if found is None:
        return replace(match, games=())
    kept = {k: v for k, v in match.details.items() if k not in found.removed}
    details = {**kept, **found.details}
    games = parse_games(found.games or [])
    return replace(match, games=games, details=details)


def _match_ids(event: Event) -> dict[tuple[int, str], int]:
    from tournaments.models import Match

    return {
        (number, code): pk
        for pk, number, code in Match.objects.filter(round__event=event).values_list(
            "pk", "round__number", "code"
        )
    }


def check(event: Event, stored_state: EventState | None = None) -> HistoryCheck:
    """Replay the event's result history and compare it with the stored record: each
    match's version, games and result, and the standings the engine ranks from each
    (``stored_state``: the event's state, when the caller has loaded it already)."""
    from tournaments.models import Match

    replayed = replay(event)
    stored_state = load_event_state(event) if stored_state is None else stored_state
    state = replayed_state(event, replayed, stored_state)
    engine = event.engine
    problems: list[str] = []
    stored_matches = {
        m.pk: m
        for m in Match.objects.filter(round__event=event)
        .select_related("round")
        .prefetch_related("games")
    }
    by_key = {(m.round.number, m.code): m for m in stored_matches.values()}
    for match_id, found in replayed.items():
        if match_id not in stored_matches:
            continue
        match = stored_matches[match_id]
        where = f"{match.round.label} {match.code}"
        problems.extend(f"{where}: {p}" for p in found.problems)
        if found.version != match.version:
            problems.append(
                f"{where}: the history ends at version {found.version}, the match is at "
                f"version {match.version}"
            )
    for rnd_stored, rnd_replayed in zip(stored_state.rounds, state.rounds, strict=True):
        if rnd_stored.status is RoundStatus.DRAFT:
            continue
        for kept, again in zip(rnd_stored.matches, rnd_replayed.matches, strict=True):
            match = by_key[(rnd_stored.number, kept.code)]
            problems.extend(
                f"{rnd_stored.label} {kept.code}: {p}"
                for p in _match_problems(engine, state, match, kept, again)
            )
    ranked = engine.standings(stored_state)
    if _rows(engine.standings(state)) != _rows(ranked):
        problems.append("the standings ranked from the history differ from the stored record's")
    rows = sum(found.version for found in replayed.values())
    matches = sum(len(r.matches) for r in stored_state.rounds if r.status is not RoundStatus.DRAFT)
    return HistoryCheck(matches, rows, tuple(problems), ranked)


def _plain_games(match: MatchState) -> list[dict[str, Any]]:
    return _games(
        {
            "number": g.number,
            "scores": list(g.scores),
            "first": g.first,
            "ending": str(g.ending),
            "details": dict(g.details),
        }
        for g in match.games
    )


def _match_problems(
    engine: Any, state: EventState, match: Any, kept: MatchState, again: MatchState
) -> list[str]:
    """One published match: its stored games against its history's, and its stored result
    against the engine's score of the replayed match."""
    problems = []
    replayed_games = _plain_games(again)
    if _plain_games(kept) != replayed_games:
        problems.append(
            "the stored games are not the games its history wrote"
            if replayed_games or match.version
            else "games are stored that no result change wrote"
        )
    stored = _core(match.result)
    score = engine.score_match(state, again)
    if stored is None:
        if score.valid and score.complete and not again.is_bye:
            problems.append("its history gives a result, but none is stored")
        return problems
    if not score.valid:
        problems.append("its history gives games the engine refuses")
    elif _core({"points": score.points, "winner": score.winner, "complete": score.complete}) != (
        stored
    ):
        problems.append(
            f"its history scores {score.summary or 'no result'}, the stored result is "
            f"{match.result.get('summary') or 'no result'}"
        )
    return problems


def _rows(standings: Standings) -> list[tuple[str, list[tuple[Any, Any, Any]]]]:
    return [
        (table.key, [(row.entrant, row.rank, jsonable(dict(row.values))) for row in table.rows])
        for table in standings.tables
    ]


__all__ = ["HistoryCheck", "ReplayedMatch", "check", "replay", "replayed_state"]
