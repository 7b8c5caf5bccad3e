"""A series' standings: the one read every page, CSV, API and qualification goes through.

``standings(series)`` reads the series in a fixed number of queries (at most five, whatever the
number of stages, players or events), identifies each player across the stages
(rules/series.py ``identify``: same account, same WOF id, or the one person of a name,
with the director's merges), and asks rules/series.py for the totals. Each total comes
with its explanation, said in the active language.

The interface for qualification (docs/series.md, "Interface for qualification"):
``standings(series) -> list[SeriesStanding]``, best first; ``SeriesStanding.player.key``
is the person's identity across the series ("account:12", "wof:700", "name:ann lee"),
``rank`` is shared by equal totals unless the series breaks ties by countback.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Subquery

from rules import series as rules
from rules.contract import Reason
from tournaments.models import (
    Series,
    SeriesMerge,
    SeriesScore,
    SeriesStage,
    StandingsRow,
    StandingsSnapshot,
)
from tournaments.services.standings_rows import rows_of_many
from tournaments.words import sentence


@dataclass(frozen=True)
class SeriesPlayer:
    """One person across the series' stages."""

    key: str  # "account:<user id>", "wof:<WOF id>" or "name:<name, folded>"
    name: str
    wof_id: str = ""
    user_id: int | None = None
    entrant_ids: tuple[int, ...] = ()  # their entrants in the series' events
    ambiguous: bool = False  # a name-only row whose name several people carry

    @property
    def public_key(self) -> str:
        """The key pages and the API show: an account's id is not public, so an
        account's key is a keyed digest of it ("player-3f9a..."); the others as they are."""
        if not self.key.startswith("account:"):
            return self.key
        digest = hmac.new(
            settings.SECRET_KEY.encode(), self.key.encode(), hashlib.blake2b
        ).hexdigest()
        return "player-" + digest[:16]


@dataclass(frozen=True)
class StandingLine:
    """One stage in one player's total."""

    stage_id: int
    stage_name: str
    status: str  # "counted", "dropped" or "absent" (not played: counts as nothing)
    value: Fraction | None
    place: int | None
    score: Fraction | None
    text: str  # where the value came from, in words ("" when absent)


@dataclass(frozen=True)
class SeriesStanding:
    player: SeriesPlayer
    total: Fraction
    rank: int
    lines: tuple[StandingLine, ...]
    explanation: tuple[str, ...]  # the total in words: what counted, what was dropped, ties
    reasons: tuple[Reason, ...]  # the same as codes and parameters

    @property
    def total_text(self) -> str:
        return rules.show(self.total)


@dataclass(frozen=True)
class StageInfo:
    id: int
    name: str
    kind: str
    event_slug: str | None
    final: bool | None  # an event stage: whether its ranking is final (None: no ranking yet)
    players: int


@dataclass(frozen=True)
class SeriesTable:
    series: Series
    stages: tuple[StageInfo, ...]
    rows: tuple[SeriesStanding, ...]
    problems: tuple[str, ...]  # the rule cannot be applied (no points table ...)


def _ranking_table(snapshot: StandingsSnapshot) -> str:
    keys = [t.get("key") for t in snapshot.tables or [] if isinstance(t, dict)]
    return "overall" if "overall" in keys or not keys else str(keys[0])


def table(series: Series) -> SeriesTable:
    """The whole standings with the stages they came from (pages, CSV, API)."""
    latest = (
        StandingsSnapshot.objects.filter(event=OuterRef("event_id"), published=True)
        .order_by("-results_version")
        .values("pk")[:1]
    )
    stages = list(
        SeriesStage.objects.filter(series=series)
        .select_related("event")
        .annotate(snapshot_id=Subquery(latest))
        .order_by("order", "pk")
    )
    snapshot_ids = [s.snapshot_id for s in stages if s.snapshot_id]
    snapshots = {
        s.pk: s
        for s in StandingsSnapshot.objects.filter(pk__in=snapshot_ids).only(
            "pk", "tables", "final", "event_id", "rows_from"
        )
    }
    rows_by_snapshot: dict[int, list[StandingsRow]] = {}
    if snapshot_ids:
        for row in (
            rows_of_many(snapshots.values())
            .select_related("entrant")
            .only(
                "snapshot_id",
                "table_key",
                "rank",
                "entrant__id",
                "entrant__name",
                "entrant__user_id",
                "entrant__external_id",
            )
        ):
            snapshot = snapshots[row.snapshot_id]
            if row.table_key == _ranking_table(snapshot):
                rows_by_snapshot.setdefault(row.snapshot_id, []).append(row)
    scores_by_stage: dict[int, list[SeriesScore]] = {}
    for score in SeriesScore.objects.filter(stage__series=series).order_by("stage_id", "row"):
        scores_by_stage.setdefault(score.stage_id, []).append(score)
    merges = {m.name: m.same_as for m in SeriesMerge.objects.filter(series=series)}
    return _compute(series, stages, snapshots, rows_by_snapshot, scores_by_stage, merges)


def standings(series: Series) -> list[SeriesStanding]:
    """The series' standings, best first (the interface qualification reads)."""
    return list(table(series).rows)


def _compute(
    series: Series,
    stages: Sequence[SeriesStage],
    snapshots: dict[int, StandingsSnapshot],
    rows_by_snapshot: dict[int, list[StandingsRow]],
    scores_by_stage: dict[int, list[SeriesScore]],
    merges: dict[str, str],
) -> SeriesTable:
    entries: list[rules.Entry] = []
    for stage in stages:
        for row in rows_by_snapshot.get(getattr(stage, "snapshot_id", None) or 0, []):
            entrant = row.entrant
            entries.append(
                rules.Entry(
                    f"e{entrant.pk}",
                    entrant.name,
                    account=str(entrant.user_id or ""),
                    wof_id=entrant.external_id,
                )
            )
        for score in scores_by_stage.get(stage.pk, []):
            entries.append(rules.Entry(f"s{score.pk}", score.name, wof_id=score.wof_id))
    people = rules.identify(entries, merges)
    person_of = {ref: person for person in people for ref in person.refs}
    rule_stages: list[rules.Stage] = []
    infos: list[StageInfo] = []
    for stage in stages:
        results: dict[str, rules.StageResult] = {}
        snapshot_id = getattr(stage, "snapshot_id", None)
        if stage.kind == SeriesStage.Kind.EVENT:
            for row in rows_by_snapshot.get(snapshot_id or 0, []):
                key = person_of[f"e{row.entrant.pk}"].key
                best = results.get(key)
                if best is None or (best.place or 0) > row.rank:
                    results[key] = rules.StageResult(key, place=row.rank)
            kind = rules.StageKind.PLACES
        else:
            for score in scores_by_stage.get(stage.pk, []):
                key = person_of[f"s{score.pk}"].key
                value = Fraction(score.score)
                held = results.get(key)
                if held is None or (held.score or 0) < value:
                    results[key] = rules.StageResult(key, score=value)
            kind = rules.StageKind.SCORES
        rule_stages.append(rules.Stage(str(stage.pk), stage.name, kind, tuple(results.values())))
        snapshot = snapshots.get(snapshot_id) if snapshot_id else None
        infos.append(
            StageInfo(
                stage.pk,
                stage.name,
                stage.kind,
                stage.event.slug if stage.event else None,
                snapshot.final if snapshot else None,
                len(results),
            )
        )
    rule = series.rule()
    problems = rules.check_rule(rule, rule_stages)
    if problems:
        return SeriesTable(series, tuple(infos), (), tuple(sentence(p) for p in problems))
    names = {p.key: p.name for p in people}
    totals = rules.standings(rule_stages, rule, names)
    by_key = {p.key: p for p in people}
    rows = tuple(_standing(total, by_key[total.player]) for total in totals)
    return SeriesTable(series, tuple(infos), rows, ())


def _standing(total: rules.Total, person: rules.Person) -> SeriesStanding:
    player = SeriesPlayer(
        key=person.key,
        name=person.name,
        wof_id=person.wof_id,
        user_id=int(person.account) if person.account else None,
        entrant_ids=tuple(sorted(int(ref[1:]) for ref in person.refs if ref.startswith("e"))),
        ambiguous=person.ambiguous,
    )
    lines = tuple(
        StandingLine(
            int(line.stage),
            line.stage_name,
            line.status.value,
            line.value,
            line.place,
            line.score,
            sentence(line.reason) if line.reason else "",
        )
        for line in total.lines
    )
    return SeriesStanding(
        player,
        total.total,
        total.rank,
        lines,
        tuple(sentence(r) for r in total.reasons),
        total.reasons,
    )


def as_data(row: SeriesStanding) -> dict[str, Any]:
    """A standing as plain data (the API and the CSV)."""
    return {
        "rank": row.rank,
        "player": {
            "key": row.player.public_key,
            "name": row.player.name,
            "wof_id": row.player.wof_id,
        },
        "total": rules.show(row.total),
        "stages": [
            {
                "stage": line.stage_id,
                "name": line.stage_name,
                "status": line.status,
                "value": rules.show(line.value) if line.value is not None else None,
                "place": line.place,
                "score": rules.show(line.score) if line.score is not None else None,
                "explanation": line.text,
            }
            for line in row.lines
        ],
        "explanation": list(row.explanation),
    }
