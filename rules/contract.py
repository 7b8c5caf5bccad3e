"""The engine contract: the plain values an engine receives and the decisions it returns.

Engines see an event only through these frozen records. They are built by
tournaments/services/state.py from the database (or by tests and the event-file import
from plain data), so an engine never learns where its state came from, and a whole event
can be replayed from its record.

Identifiers are strings: entrant ids are the service layer's choice (the database id as
text); match codes are the engine's (``"E3"``, ``"R1-T4"``, ``"A1"``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as _field
from fractions import Fraction
from typing import Any, Protocol, TypeAlias, runtime_checkable

from rules import words

# A score or tiebreak value. Fractions keep halves and normalised values exact inside an
# engine; the service layer stores them as floats or text, so an engine must not depend on
# getting a Fraction back.
Number: TypeAlias = int | float | Fraction
Value: TypeAlias = int | float | Fraction | str | None


class EntrantStatus(enum.StrEnum):
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"


class RoundStatus(enum.StrEnum):
    DRAFT = "draft"
    PUBLISHED = "published"
    COMPLETED = "completed"


class GameEnding(enum.StrEnum):
    """How a game ended. Formats read the ones their rules know and refuse the others."""

    NORMAL = "normal"
    RESIGNATION = "resignation"
    TIME_DEFAULT = "time_default"
    FORFEIT = "forfeit"
    DEFAULT = "default"
    BYE = "bye"


class DrawMethod(enum.StrEnum):
    SEEDED = "seeded"  # drawn by the application from the event's recorded seed
    EXTERNAL = "external"  # typed in by the director from an outside draw
    RECORD = "record"  # taken from an imported record (e.g. the published order of a lot)


# ---------------------------------------------------------------------------------------
# Messages: engines speak in codes and data. ``text`` is the English sentence, looked up
# by code in the words modules (rules/words.py) when the engine gives none; the web side
# says the same code and parameters in the reader's language (tournaments/words.py).
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Something wrong with input: a score, a setting, a pairing the director typed.

    ``field`` names the place: a setting key, ``"games[1].scores[0]"``, ``"entrants[3]"``.
    """

    code: str
    field: str
    text: str = ""
    params: Mapping[str, Any] = _field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", words.render(self.code, self.params))


@dataclass(frozen=True)
class Reason:
    """Why the engine decided something: a pairing, a bye, a colour, a rank, a group.

    ``rule`` names the sentence of the format's document it applies (``"woc II.3(d)"``).
    """

    code: str
    text: str = ""
    rule: str = ""
    params: Mapping[str, Any] = _field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", words.render(self.code, self.params))


class EngineError(Exception):
    """Raised by an engine when the state it was given breaks the format's rules."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = tuple(problems)
        super().__init__("; ".join(p.text for p in self.problems))


# ---------------------------------------------------------------------------------------
# State in
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EntrantState:
    id: str
    name: str
    rating: int | None = None
    seed: int | None = None
    country: str = ""
    gender: str = ""
    team: str = ""
    # Format flags and data: {"group_a": True}, {"colour": "red"}, {"reference": True},
    # {"gp_scores": [..]}. Each engine documents the keys it reads.
    flags: Mapping[str, Any] = _field(default_factory=dict)
    status: EntrantStatus = EntrantStatus.ACTIVE
    # The last round the entrant took part in before withdrawing (0: before round 1).
    withdrawn_after_round: int | None = None

    @property
    def active(self) -> bool:
        return self.status is EntrantStatus.ACTIVE

    def active_in_round(self, number: int) -> bool:
        """Whether the entrant is still in the event for round ``number``."""
        return self.withdrawn_after_round is None or number <= self.withdrawn_after_round


@dataclass(frozen=True)
class Participant:
    """One side of a match. ``entrant`` is None for a virtual player (a bye, a filler)."""

    entrant: str | None
    role: str = ""  # "A"/"B", "black"/"white", "X"/"O", "red"/"blue" - the format's words
    details: Mapping[str, Any] = _field(default_factory=dict)


@dataclass(frozen=True)
class GameState:
    number: int
    # One score per participant, in the match's seat order (discs, game points, seconds...).
    scores: tuple[Number | None, ...]
    # Seat index of the participant who moved first, where the format records it.
    first: int | None = None
    ending: GameEnding = GameEnding.NORMAL
    # Format data: penalties, submissions, the defaulter's seat, colours chosen...
    details: Mapping[str, Any] = _field(default_factory=dict)


@dataclass(frozen=True)
class MatchState:
    code: str
    round_number: int
    participants: tuple[Participant, ...]
    games: tuple[GameState, ...] = ()
    bracket: str = ""
    group: str = ""
    table: int | None = None
    # Format data recorded on the match: a choice of side, a tiebreaker flag, an override.
    details: Mapping[str, Any] = _field(default_factory=dict)

    @property
    def is_bye(self) -> bool:
        return len(self.participants) == 1

    @property
    def entrant_ids(self) -> tuple[str | None, ...]:
        return tuple(p.entrant for p in self.participants)

    def seat_of(self, entrant: str) -> int:
        for index, participant in enumerate(self.participants):
            if participant.entrant == entrant:
                return index
        raise KeyError(entrant)


@dataclass(frozen=True)
class GroupState:
    key: str
    label: str
    entrants: tuple[str, ...]  # in group seed order (1 first)


@dataclass(frozen=True)
class RoundState:
    number: int
    label: str
    status: RoundStatus
    matches: tuple[MatchState, ...] = ()
    stage: str = ""
    groups: tuple[GroupState, ...] = ()
    details: Mapping[str, Any] = _field(default_factory=dict)


@dataclass(frozen=True)
class DrawRecord:
    """A random draw as stored: what was drawn for which purpose, how, and the outcome."""

    key: str  # unique within the event: "round-1/initial-order"
    value: Any  # JSON-compatible: an int, a list of entrant ids, a string
    method: DrawMethod = DrawMethod.SEEDED
    purpose: str = ""
    details: Mapping[str, Any] = _field(default_factory=dict)


@dataclass(frozen=True)
class EventState:
    format: str
    settings: Mapping[str, Any]
    entrants: tuple[EntrantState, ...]
    rounds: tuple[RoundState, ...] = ()
    draws: tuple[DrawRecord, ...] = ()
    # Entrants checked in as absent for the round about to be drafted (rules/absence.py):
    # next_round leaves them out of that round as the format's rules say and records them
    # in the round's details; nothing else reads it.
    absent: tuple[str, ...] = ()

    def entrant(self, entrant_id: str) -> EntrantState:
        for entrant in self.entrants:
            if entrant.id == entrant_id:
                return entrant
        raise KeyError(entrant_id)

    @property
    def entrants_by_id(self) -> dict[str, EntrantState]:
        return {e.id: e for e in self.entrants}

    def draw(self, key: str) -> DrawRecord | None:
        for record in self.draws:
            if record.key == key:
                return record
        return None

    @property
    def last_round(self) -> RoundState | None:
        return self.rounds[-1] if self.rounds else None


# ---------------------------------------------------------------------------------------
# Decisions out
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedMatch:
    code: str
    participants: tuple[Participant, ...]
    table: int | None = None
    bracket: str = ""
    group: str = ""
    reasons: tuple[Reason, ...] = ()
    details: Mapping[str, Any] = _field(default_factory=dict)

    @property
    def is_bye(self) -> bool:
        return len(self.participants) == 1


@dataclass(frozen=True)
class RoundPlan:
    """The next round as the engine proposes it; the director reviews, then publishes."""

    number: int
    label: str
    matches: tuple[PlannedMatch, ...]
    stage: str = ""
    groups: tuple[GroupState, ...] = ()
    reasons: tuple[Reason, ...] = ()  # round-level: the system chosen, draws used
    draws: tuple[DrawRecord, ...] = ()  # draws made while planning, to be stored
    details: Mapping[str, Any] = _field(default_factory=dict)


@dataclass(frozen=True)
class Finished:
    """The event is over: nothing more to pair."""

    reason: Reason


@dataclass(frozen=True)
class NeedsDecision:
    """The engine cannot go on without the director: a tied match the rules leave open, an
    outside draw to type in, a tiebreaker game to record. ``options`` lists what may be
    chosen, where the choice is a closed one."""

    code: str
    text: str = ""
    key: str = ""  # where the answer is stored: a draw key or a match code
    options: tuple[str, ...] = ()
    params: Mapping[str, Any] = _field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", words.render(self.code, self.params))


NextRound: TypeAlias = RoundPlan | Finished | NeedsDecision


@dataclass(frozen=True)
class MatchScore:
    """A match validated and scored from its games.

    ``points`` are the match points of each participant in seat order (what the standings
    add up). ``winner`` is a seat index or None (a tie, or not decided yet). A match with
    problems scores nothing: ``valid`` is False.
    """

    points: tuple[Number, ...]
    winner: int | None = None
    complete: bool = True
    summary: str = ""  # "33-31", "2-1", "W/O"
    problems: tuple[Problem, ...] = ()
    reasons: tuple[Reason, ...] = ()
    # Per-game scores after the format's adjustments (empties to the winner, defaults).
    game_scores: tuple[tuple[Number | None, ...], ...] = ()
    details: Mapping[str, Any] = _field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Column:
    """A standings column: ``points`` first, then each tiebreak in the order applied."""

    key: str
    label: str
    help: str = ""


@dataclass(frozen=True)
class Decided:
    """Why ``ahead`` ranks above ``behind``: the step that split them, with its values."""

    ahead: str
    behind: str
    step: str  # a column key, or "draw", "head_to_head", "tiebreaker_game"
    detail: str  # "BQ 412 against 398"
    # What a detail built from a pattern was built from ({"label", "ahead", "behind"} for
    # rules/tiebreaks.DETAIL), for the web side to say it in another language.
    params: Mapping[str, Any] = _field(default_factory=dict)


@dataclass(frozen=True)
class StandingRow:
    entrant: str
    rank: int
    values: Mapping[str, Value]  # column key -> value, every column of the table
    status: str = ""  # "", "withdrawn", "eliminated", "qualified"
    details: Mapping[str, Any] = _field(default_factory=dict)  # e.g. BQ parts


@dataclass(frozen=True)
class StandingsTable:
    key: str  # "overall", "group-B", "round-2/group-T", "team", "women"
    title: str
    columns: tuple[Column, ...]
    rows: tuple[StandingRow, ...]
    decided: tuple[Decided, ...] = ()
    notes: tuple[Reason, ...] = ()


@dataclass(frozen=True)
class Standings:
    tables: tuple[StandingsTable, ...]
    # Questions the standings cannot settle alone (a tiebreaker game to play, a lot to draw).
    pending: tuple[NeedsDecision, ...] = ()
    final: bool = False  # the event is over and ``tables[0]`` is its final ranking

    def table(self, key: str) -> StandingsTable:
        for table in self.tables:
            if table.key == key:
                return table
        raise KeyError(key)


# ---------------------------------------------------------------------------------------
# The engine interface
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    """One event setting an engine reads: its default and what it means."""

    key: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True)
class SwapPlan:
    """An engine's answer to a director's hand swap of two entrants in a draft round (the
    optional ``plan_swap`` of an engine): refused with the reason, or allowed, with the
    draft round's details that carry the swap into the rounds that follow."""

    refused: Problem | None = None
    details: Mapping[str, Any] | None = None  # the draft round's details after the swap
    note: str = ""  # what the swap does to later rounds, for the director


@runtime_checkable
class DrawSourceProtocol(Protocol):
    def integer(self, key: str, low: int, high: int, *, purpose: str = "") -> int: ...
    def shuffle(self, key: str, items: Sequence[str], *, purpose: str = "") -> list[str]: ...


@runtime_checkable
class Engine(Protocol):
    """What every format implements. Engines are stateless: every call gets the full state."""

    key: str
    name: str
    settings: tuple[Setting, ...]

    def validate_settings(self, settings: Mapping[str, Any]) -> list[Problem]:
        """Problems with the director's settings (a missing key takes its default)."""
        ...

    def next_round(self, state: EventState, draws: DrawSourceProtocol) -> NextRound:
        """The next round to draft, or that the event is over, or what the director must
        decide first. Called only when every published round is complete."""
        ...

    def score_match(self, state: EventState, match: MatchState) -> MatchScore:
        """Validate a match's games against the rules and score it."""
        ...

    def standings(self, state: EventState) -> Standings:
        """Standings with every tiebreak value and the reason each tie was broken."""
        ...

    def standings_work(self, state: EventState) -> tuple[Standings, object | None]:
        """``standings(state)`` and the engine's reusable work for ``standings_after`` (None:
        the format has no incremental path). rules/engine_base.py has the default."""
        ...

    def standings_after(
        self, work: object, state: EventState, changed: frozenset[tuple[int, str]]
    ) -> tuple[Standings, object] | None:
        """The standings of ``state``, which differs from the state ``work`` was made for
        only by the results of the matches ``changed`` ((round number, match code) each):
        equal to ``standings(state)``, with the new work; or None (recompute the whole).
        ``work`` is consumed. rules/engine_base.py has the default (None)."""
        ...
