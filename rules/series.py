"""Series totals: a season, a circuit or a Grand Prix made of ordered stages.

A stage is either an event's final ranking (each player has a place, ties shared) or a
list of imported scores (each player has a score). A ``SeriesRule`` turns each stage into
a value per player and the values into a total:

- ``value``: SCORE uses an imported stage's score as it is (the WPF Grand Prix: "The
  score of their six best rounds ... is added together"); an event stage has no score
  comparable across events, so it always goes through the points table. PLACE_POINTS
  turns every stage into points by place: the points table gives place 1, 2, ... their
  points, a place past the table's end gets 0.
- Players tied on a place share it, and they share the points of the places they cover:
  two players tied 2nd cover places 2 and 3 and each gets the average of those two
  places' points. Nobody gains or loses by a tie, and the stage hands out the same points
  in all.
- ``best``: None sums every stage; N counts the N best values of each player ("the six
  best of eight"). When two values are equal the earlier stage counts and the later one is
  dropped (the total is the same either way; the explanation has to name one).
- A stage a player did not play counts as nothing: it is not a zero that could be
  "counted" among the best N (the WPF text adds "their six best rounds": a player who
  played five rounds has five). With only values of 0 or more the total is the same as a
  zero would give; it differs when a stage may score below zero, and then "nothing" is
  right, since a round not played cannot make the total worse.
- ``ties``: SHARED gives equal totals the same rank (1, 2, 2, 4), shown in name order; the
  WPF text says nothing about equal eligibility scores, so sharing is its default and the
  invitation side decides a cut that falls inside a tie. COUNTBACK orders equal totals by
  their counted values, best first, compared one by one, then by their dropped values;
  players still equal share the rank.

Every total carries its explanation as codes and parameters (``Reason``), as an event's
standings do; rules/series_words.py holds the sentences.

Players are identified across stages by ``identify``: the same account, or the same WOF
id, is the same person; an entry with neither joins the one person of the same name (a
director's merge says two spellings are the same name).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules import words
from rules.contract import Number, Problem, Reason

# limits (convention 16): a series this long is a mistake, not a season
MAX_STAGES = 200
MAX_POINTS_PLACES = 1000


class Value(enum.StrEnum):
    SCORE = "score"
    PLACE_POINTS = "place_points"


class Ties(enum.StrEnum):
    SHARED = "shared"
    COUNTBACK = "countback"


class StageKind(enum.StrEnum):
    PLACES = "places"  # an event's final ranking
    SCORES = "scores"  # imported scores


class LineStatus(enum.StrEnum):
    COUNTED = "counted"
    DROPPED = "dropped"
    ABSENT = "absent"


@dataclass(frozen=True)
class SeriesRule:
    value: Value = Value.SCORE
    best: int | None = None
    points: tuple[Fraction, ...] = ()
    ties: Ties = Ties.SHARED


@dataclass(frozen=True)
class StageResult:
    player: str
    score: Fraction | None = None  # a SCORES stage
    place: int | None = None  # a PLACES stage: the rank, shared by tied players


@dataclass(frozen=True)
class Stage:
    key: str
    name: str
    kind: StageKind
    results: tuple[StageResult, ...] = ()


@dataclass(frozen=True)
class Line:
    """One stage in one player's total."""

    stage: str
    stage_name: str
    status: LineStatus
    value: Fraction | None = None
    place: int | None = None
    score: Fraction | None = None
    tied: int = 1  # players sharing the place
    reason: Reason | None = None


@dataclass(frozen=True)
class Total:
    player: str
    name: str
    total: Fraction
    rank: int
    lines: tuple[Line, ...]
    reasons: tuple[Reason, ...]

    @property
    def counted(self) -> tuple[Line, ...]:
        return tuple(line for line in self.lines if line.status is LineStatus.COUNTED)


def fraction(value: Number | str) -> Fraction:
    """A number as an exact fraction; a float by its shortest decimal (12.1 is 121/10)."""
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def show(value: Fraction) -> str:
    """A value as a reader sees it: 12, 12.5, 8.33 (two decimals at most)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text


def check_rule(rule: SeriesRule, stages: Sequence[Stage]) -> list[Problem]:
    """What is wrong with a rule for these stages, field by field."""
    problems: list[Problem] = []
    if rule.best is not None and rule.best < 1:
        problems.append(Problem("series.best", "best", params={"best": rule.best}))
    if len(rule.points) > MAX_POINTS_PLACES:
        problems.append(
            Problem("series.points_long", "points", params={"limit": MAX_POINTS_PLACES})
        )
    if any(p < 0 for p in rule.points):
        problems.append(Problem("series.points_negative", "points"))
    if any(a < b for a, b in zip(rule.points, rule.points[1:], strict=False)):
        problems.append(Problem("series.points_order", "points"))
    if len(stages) > MAX_STAGES:
        problems.append(Problem("series.stages_many", "stages", params={"limit": MAX_STAGES}))
    needs_table = rule.value is Value.PLACE_POINTS or any(
        s.kind is StageKind.PLACES for s in stages
    )
    if needs_table and not rule.points:
        problems.append(Problem("series.points_missing", "points"))
    return problems


def place_points(points: Sequence[Fraction], place: int, tied: int) -> Fraction:
    """The points of ``place`` shared by ``tied`` players: the average of the points of
    places ``place`` .. ``place + tied - 1`` (a place past the table's end is worth 0)."""
    covered = [
        points[p - 1] if p - 1 < len(points) else Fraction(0) for p in range(place, place + tied)
    ]
    return sum(covered, Fraction(0)) / tied


def ranks(values: Mapping[str, Fraction]) -> dict[str, int]:
    """Competition ranks, higher value first: 1, 2, 2, 4."""
    ordered = sorted(values.values(), reverse=True)
    first: dict[Fraction, int] = {}
    for index, value in enumerate(ordered):
        first.setdefault(value, index + 1)
    return {player: first[value] for player, value in values.items()}


def _stage_lines(stage: Stage, rule: SeriesRule) -> dict[str, Line]:
    """Each player's value in one stage, with the sentence that says where it came from."""
    lines: dict[str, Line] = {}
    if stage.kind is StageKind.SCORES and rule.value is Value.SCORE:
        for result in stage.results:
            if result.score is None:
                continue
            reason = Reason(
                "series.line.score",
                rule="score",
                params={"stage": stage.name, "score": show(result.score)},
            )
            lines[result.player] = Line(
                stage.key,
                stage.name,
                LineStatus.COUNTED,
                value=result.score,
                score=result.score,
                reason=reason,
            )
        return lines
    # points by place: an event's places as they are, imported scores ranked first
    if stage.kind is StageKind.SCORES:
        scores = {r.player: r.score for r in stage.results if r.score is not None}
        places = ranks(scores)
    else:
        places = {r.player: r.place for r in stage.results if r.place is not None}
        scores = {}
    sharing: dict[int, int] = {}
    for place in places.values():
        sharing[place] = sharing.get(place, 0) + 1
    for player, place in places.items():
        tied = sharing[place]
        value = place_points(rule.points, place, tied)
        params: dict[str, Any] = {"stage": stage.name, "place": place, "points": show(value)}
        if player in scores:
            params["score"] = show(scores[player])
        if tied > 1:
            params.update(tied=tied, last=place + tied - 1)
            code = "series.line.place_shared"
        else:
            code = "series.line.place"
        if player in scores:
            code += "_scored"
        lines[player] = Line(
            stage.key,
            stage.name,
            LineStatus.COUNTED,
            value=value,
            place=place,
            score=scores.get(player),
            tied=tied,
            reason=Reason(code, rule="points", params=params),
        )
    return lines


def _names(stages: Sequence[Stage], keys: Iterable[str]) -> str:
    return ", ".join(s.name for s in stages if s.key in set(keys))


def _player_total(
    player: str,
    stages: Sequence[Stage],
    by_stage: Mapping[str, Mapping[str, Line]],
    rule: SeriesRule,
) -> tuple[Fraction, list[Line], list[Reason]]:
    played = [by_stage[s.key][player] for s in stages if player in by_stage[s.key]]
    absent = [s for s in stages if player not in by_stage[s.key]]
    order = {s.key: index for index, s in enumerate(stages)}
    # best first; of two equal values the earlier stage counts
    ranked = sorted(played, key=lambda line: (-(line.value or 0), order[line.stage]))
    keep = len(ranked) if rule.best is None else rule.best
    counted = {line.stage for line in ranked[:keep]}
    lines: list[Line] = []
    for stage in stages:
        line = by_stage[stage.key].get(player)
        if line is None:
            lines.append(Line(stage.key, stage.name, LineStatus.ABSENT))
        elif line.stage not in counted:
            lines.append(
                Line(
                    line.stage,
                    line.stage_name,
                    LineStatus.DROPPED,
                    line.value,
                    line.place,
                    line.score,
                    line.tied,
                    line.reason,
                )
            )
        else:
            lines.append(line)
    total = sum((line.value or Fraction(0) for line in ranked[:keep]), Fraction(0))
    reasons: list[Reason] = []
    dropped = [line.stage for line in ranked[keep:]]
    if rule.best is None:
        reasons.append(
            Reason(
                "series.total.sum",
                rule="sum",
                params={"played": len(played), "total": show(total)},
            )
        )
    elif len(played) <= rule.best:
        reasons.append(
            Reason(
                "series.total.fewer",
                rule="best",
                params={"played": len(played), "best": rule.best, "total": show(total)},
            )
        )
    else:
        reasons.append(
            Reason(
                "series.total.best",
                rule="best",
                params={
                    "best": rule.best,
                    "played": len(played),
                    "total": show(total),
                    "dropped": _names(stages, dropped),
                },
            )
        )
    if absent:
        reasons.append(
            Reason(
                "series.total.absent",
                rule="absent",
                params={"stages": ", ".join(s.name for s in absent), "count": len(absent)},
            )
        )
    return total, lines, reasons


def _countback_key(lines: Sequence[Line]) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    counted = sorted(
        (line.value or Fraction(0) for line in lines if line.status is LineStatus.COUNTED),
        reverse=True,
    )
    dropped = sorted(
        (line.value or Fraction(0) for line in lines if line.status is LineStatus.DROPPED),
        reverse=True,
    )
    return tuple(counted), tuple(dropped)


def _first_difference(
    a: Sequence[Fraction], b: Sequence[Fraction]
) -> tuple[int, Fraction, Fraction] | None:
    """Where two descending lists first differ; a missing value counts as below any."""
    for index in range(max(len(a), len(b))):
        left = a[index] if index < len(a) else None
        right = b[index] if index < len(b) else None
        if left != right:
            return (
                index,
                left if left is not None else Fraction(-1),
                right if right is not None else Fraction(-1),
            )
    return None


def standings(
    stages: Sequence[Stage], rule: SeriesRule, names: Mapping[str, str] | None = None
) -> tuple[Total, ...]:
    """Every player who played a stage, best total first, each total explained.

    ``names`` gives each player's display name (the order inside a shared rank); a player
    without one is shown by their key."""
    names = names or {}
    by_stage = {stage.key: _stage_lines(stage, rule) for stage in stages}
    players = sorted({p for lines in by_stage.values() for p in lines})
    computed: dict[str, tuple[Fraction, list[Line], list[Reason]]] = {
        p: _player_total(p, stages, by_stage, rule) for p in players
    }

    def name(p: str) -> str:
        return names.get(p, p)

    def sort_key(p: str) -> tuple[Any, ...]:
        total, lines, _ = computed[p]
        if rule.ties is Ties.COUNTBACK:
            counted, dropped = _countback_key(lines)
            return (
                -total,
                tuple(-v for v in counted),
                tuple(-v for v in dropped),
                name(p).casefold(),
                p,
            )
        return (-total, name(p).casefold(), p)

    order = sorted(players, key=sort_key)
    results: list[Total] = []
    rank = 0
    for index, player in enumerate(order):
        total, lines, reasons = computed[player]
        previous = order[index - 1] if index else None
        same = previous is not None and computed[previous][0] == total
        if rule.ties is Ties.COUNTBACK and same and previous is not None:
            same = _countback_key(computed[previous][1]) == _countback_key(lines)
        if not same:
            rank = index + 1
        extra: list[Reason] = []
        level = [p for p in order if p != player and computed[p][0] == total]
        if level:
            if rule.ties is Ties.SHARED:
                extra.append(
                    Reason(
                        "series.tie.shared",
                        rule="ties",
                        params={"total": show(total), "others": ", ".join(name(p) for p in level)},
                    )
                )
            else:
                extra.extend(_countback_reasons(player, level, computed, name))
        results.append(
            Total(player, name(player), total, rank, tuple(lines), tuple(reasons + extra))
        )
    return tuple(results)


def _countback_reasons(
    player: str,
    level: Sequence[str],
    computed: Mapping[str, tuple[Fraction, list[Line], list[Reason]]],
    name: Any,
) -> list[Reason]:
    mine = _countback_key(computed[player][1])
    said: list[Reason] = []
    still: list[str] = []
    for other in level:
        theirs = _countback_key(computed[other][1])
        found = _first_difference(mine[0], theirs[0])
        part = "series.part.counted"
        if found is None:
            found = _first_difference(mine[1], theirs[1])
            part = "series.part.dropped"
        if found is None:
            still.append(other)
            continue
        index, a, b = found
        code = "series.tie.countback_ahead" if a > b else "series.tie.countback_behind"
        said.append(
            Reason(
                code,
                rule="ties",
                params={
                    "other": name(other),
                    "nth": index + 1,
                    "part": words.message(part),
                    "mine": show(a) if a >= 0 else "-",
                    "theirs": show(b) if b >= 0 else "-",
                },
            )
        )
    if still:
        said.append(
            Reason(
                "series.tie.countback_shared",
                rule="ties",
                params={"others": ", ".join(name(p) for p in still)},
            )
        )
    return said


# -- players across stages -------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One appearance of a person: an entrant of an event or a row of imported scores."""

    ref: str
    name: str
    account: str = ""
    wof_id: str = ""


@dataclass(frozen=True)
class Person:
    key: str  # "account:12", "wof:7091", "name:ann lee"
    name: str
    refs: tuple[str, ...]
    wof_id: str = ""
    account: str = ""
    ambiguous: bool = False  # a name-only entry whose name several people carry


def normal_name(name: str) -> str:
    return " ".join(name.split()).casefold()


def identify(
    entries: Sequence[Entry], merges: Mapping[str, str] | None = None
) -> tuple[Person, ...]:
    """Group entries into people: the same account, or the same WOF id, is one person;
    an entry with neither joins the one person carrying its name, or the other entries
    with neither of that name. ``merges`` maps a name (normalised) to the name it is the
    same as: a director's "Jon Smith is John Smith"."""
    merges = {normal_name(k): normal_name(v) for k, v in (merges or {}).items()}

    def merged(name: str) -> str:
        seen: set[str] = set()
        name = normal_name(name)
        while name in merges and name not in seen:
            seen.add(name)
            name = merges[name]
        return name

    parent = list(range(len(entries)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        a, b = find(i), find(j)
        if a != b:
            parent[max(a, b)] = min(a, b)

    first_by: dict[tuple[str, str], int] = {}
    for index, entry in enumerate(entries):
        for kind, value in (("account", entry.account), ("wof", entry.wof_id.strip())):
            if value:
                other = first_by.setdefault((kind, value), index)
                join(index, other)
    keyed_names: dict[str, set[int]] = {}
    for index, entry in enumerate(entries):
        if entry.account or entry.wof_id.strip():
            keyed_names.setdefault(merged(entry.name), set()).add(find(index))
    name_only: dict[str, int] = {}
    ambiguous: set[int] = set()
    for index, entry in enumerate(entries):
        if entry.account or entry.wof_id.strip():
            continue
        name = merged(entry.name)
        owners = {find(i) for i in keyed_names.get(name, set())}
        if len(owners) == 1:
            join(index, next(iter(owners)))
            continue
        other = name_only.setdefault(name, index)
        join(index, other)
        if len(owners) > 1:
            ambiguous.add(index)
    groups: dict[int, list[int]] = {}
    for index in range(len(entries)):
        groups.setdefault(find(index), []).append(index)
    people: list[Person] = []
    for members in groups.values():
        accounts = sorted({entries[i].account for i in members if entries[i].account})
        wofs = sorted({entries[i].wof_id.strip() for i in members if entries[i].wof_id.strip()})
        keyed = [i for i in members if entries[i].account or entries[i].wof_id.strip()]
        shown = entries[(keyed or members)[0]].name
        if accounts:
            key = f"account:{accounts[0]}"
        elif wofs:
            key = f"wof:{wofs[0]}"
        else:
            key = f"name:{merged(shown)}"
        people.append(
            Person(
                key,
                shown,
                tuple(entries[i].ref for i in members),
                wof_id=wofs[0] if wofs else "",
                account=accounts[0] if accounts else "",
                ambiguous=any(i in ambiguous for i in members),
            )
        )
    return tuple(sorted(people, key=lambda p: p.key))
