"""Games after the Swiss in a record that does not label them (a WOF rating file's
"added results"): propose which game is which from the woc rules, and build the final-stage
rounds from labels the director confirmed.

A label is (kind, match code, game number) or the kind ``"other"`` (a side event, a women's
final the record cannot identify without genders). Seat 0 of a built match is the player
placed higher in the provisional list, which is also the higher in the IFRL and the WFRL.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.contract import (
    EventState,
    Finished,
    GameState,
    MatchState,
    NeedsDecision,
    Participant,
    RoundPlan,
    RoundState,
    RoundStatus,
)
from rules.draws import DrawSource
from rules.formats.woc.finals import BEST_OF, KIND_STAGE, match_details, score_final_match
from rules.formats.woc.stages import STAGE_LABELS

# black id, white id, black discs, white discs (as a WOF file lists a game), and optionally
# the game's details (a result the record decides: ``decided``)
Added = tuple[Any, ...]
STAGE_ORDER = ("playoff", "semi_final", "final", "other")


@dataclass(frozen=True)
class Label:
    kind: str
    match: str = ""
    game: int = 1


@dataclass(frozen=True)
class Proposal:
    labels: tuple[Label, ...]
    state: EventState  # the event with the labelled games as rounds
    note: str  # why the proposal stopped, or ""


def _with_rounds(state: EventState, rounds: Sequence[RoundState]) -> EventState:
    return EventState(state.format, state.settings, state.entrants, (*state.rounds, *rounds))


def propose(state: EventState, added: Sequence[Added], engine: Any) -> Proposal:
    """Follow the engine's final stages: each planned match takes, in file order, the games
    between its two players (one game, or up to three until a best of three is decided)."""
    if not added:
        return Proposal((), state, "")
    place = _order(state)  # the provisional list: who takes seat 0 of a final match
    labels: list[Label | None] = [None] * len(added)
    current = state
    note = ""
    for _ in range(5):
        outcome = engine.next_round(current, DrawSource("record", current.draws))
        if isinstance(outcome, Finished):
            break
        if isinstance(outcome, NeedsDecision) or not isinstance(outcome, RoundPlan):
            note = outcome.text
            break
        for planned in outcome.matches:
            pair = {p.entrant for p in planned.participants}
            wanted = int(planned.details.get("best_of", 1))
            taken = 0
            for index, game in enumerate(added):
                if labels[index] is not None or {game[0], game[1]} != pair:
                    continue
                taken += 1
                labels[index] = Label(str(planned.details["kind"]), planned.code, taken)
                built = _match(state, added, labels, planned.code, place)
                if taken >= wanted or (built is not None and score_final_match(built).complete):
                    break
        current = _with_rounds(state, final_rounds(state, added, labels, place))
        if not any(lb and lb.match in {m.code for m in outcome.matches} for lb in labels):
            note = f"No recorded game matches the planned {outcome.label.lower()}."
            break
    done = tuple(lb or Label("other", f"X{i + 1}") for i, lb in enumerate(labels))
    done, refused = _valid(state, added, done, place)
    if refused and not note:
        note = refused
    return Proposal(done, _with_rounds(state, final_rounds(state, added, done, place)), note)


def _valid(
    state: EventState,
    added: Sequence[Added],
    labels: tuple[Label, ...],
    place: Mapping[str, int],
) -> tuple[tuple[Label, ...], str]:
    """Games whose proposed match the rules would refuse (a best of three whose colours are
    not reversed, in an old record) are proposed as other games instead, and said."""
    bad: set[str] = set()
    for rnd in final_rounds(state, added, labels, place):
        for match in rnd.matches:
            if not score_final_match(match).valid:
                bad.add(match.code)
    if not bad:
        return labels, ""
    kept = tuple(
        Label("other", f"X{i + 1}") if lb.match in bad else lb for i, lb in enumerate(labels)
    )
    return kept, (
        f"The games of {', '.join(sorted(bad))} do not make a valid match under the rules "
        "(e.g. colours not reversed): they are proposed as other games."
    )


def _order(state: EventState) -> dict[str, int]:
    from rules.formats.woc import ENGINE

    rows = ENGINE.standings(state).table("overall").rows
    return {row.entrant: index for index, row in enumerate(rows)}


def _match(
    state: EventState,
    added: Sequence[Added],
    labels: Sequence[Label | None],
    code: str,
    place: Mapping[str, int],
) -> MatchState | None:
    for rnd in final_rounds(state, added, labels, place):
        for match in rnd.matches:
            if match.code == code:
                return match
    return None


def final_rounds(
    state: EventState,
    added: Sequence[Added],
    labels: Sequence[Label | None],
    place: Mapping[str, int] | None = None,
) -> list[RoundState]:
    """Rounds (playoff, semi_final, final, other) holding the labelled games; ``place``: the
    provisional list's order (computed from ``state`` when not given)."""
    if place is None:
        place = _order(state) if added else {}
    matches: dict[str, dict[str, Any]] = {}
    for index, (game, label) in enumerate(zip(added, labels, strict=True)):
        if label is None:
            continue
        code = label.match or f"X-{game[0]}-{game[1]}"
        entry = matches.setdefault(code, {"kind": label.kind, "pair": None, "games": []})
        black, white, bd, wd, *more = game
        if entry["pair"] is None:
            entry["pair"] = tuple(sorted((black, white), key=lambda e: place.get(e, 10**9)))
        # the game's place in the record: an export writes the added games in that order
        details = {**(more[0] if more else {}), "record_index": index}
        entry["games"].append((label.game, black, white, bd, wd, details))
    rounds: list[RoundState] = []
    number = len(state.rounds)
    for stage in STAGE_ORDER:
        chosen = [(c, m) for c, m in matches.items() if KIND_STAGE.get(m["kind"]) == stage]
        if not chosen:
            continue
        number += 1
        built = []
        for table, (code, m) in enumerate(chosen, start=1):
            a, b = m["pair"]
            games = tuple(
                GameState(
                    n,
                    (bd, wd) if black == a else (wd, bd),
                    first=0 if black == a else 1,
                    details=details,
                )
                for n, black, _, bd, wd, details in sorted(m["games"], key=lambda g: g[0])
            )
            ranks = (place.get(a, 0) + 1, place.get(b, 0) + 1)
            built.append(
                MatchState(
                    code,
                    number,
                    (Participant(a), Participant(b)),
                    games,
                    bracket=m["kind"],
                    table=table,
                    details=match_details(m["kind"], ranks),
                )
            )
        rounds.append(
            RoundState(
                number,
                STAGE_LABELS.get(stage, "Other games"),
                RoundStatus.COMPLETED,
                tuple(built),
                stage=stage,
            )
        )
    return rounds


def best_of(kind: str) -> int:
    return BEST_OF.get(kind, 1)
