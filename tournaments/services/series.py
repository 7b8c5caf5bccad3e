"""Writing series (issue 32): create one, add and order its stages (an Arbiter event, or
scores imported from a CSV), merge two spellings of one player. Each action is one
transaction; the series row is locked first, so two directors ordering stages at once
take turns. The read is tournaments/services/series_standings.py."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from rules import series as rules
from rules.contract import Problem
from tournaments.models import (
    Event,
    Series,
    SeriesDirector,
    SeriesMerge,
    SeriesScore,
    SeriesStage,
)
from tournaments.services import series_csv
from tournaments.services.errors import ServiceError

MAX_NAME = 120
MAX_POINTS = 1_000_000


def parse_points(text: str) -> list[str]:
    """ "25 18 15 12" or "25, 18, 15" as the points table (exact decimals as text)."""
    found: list[str] = []
    for part in text.replace(",", " ").replace(";", " ").split():
        try:
            value = Decimal(part)
        except InvalidOperation:
            value = Decimal("NaN")
        if (
            not value.is_finite()
            or not 0 <= value <= MAX_POINTS
            or value != value.quantize(Decimal("0.0001"))
        ):
            raise ServiceError(
                [
                    Problem(
                        "series.points_text",
                        "points",
                        _(
                            "The points table must be numbers from 0 to %(limit)s with at most "
                            "4 decimals; '%(part)s' is not one."
                        )
                        % {"part": part[:20], "limit": f"{MAX_POINTS:,}"},
                    )
                ]
            )
        found.append(format(value.normalize(), "f"))
    return found


def _check(series: Series, stages: Sequence[rules.Stage] = ()) -> None:
    problems = rules.check_rule(series.rule(), stages)
    if problems:
        raise ServiceError(problems)


def create_series(
    *,
    slug: str,
    name: str,
    by: Any,
    kind: str = Series.Kind.SEASON,
    value: str = Series.Value.SCORE,
    best: int | None = None,
    points: Sequence[Any] = (),
    ties: str = Series.Ties.SHARED,
    public: bool = False,
    description: str = "",
) -> Series:
    series = Series(
        slug=slug,
        name=name,
        kind=kind,
        value=value,
        best=best,
        points=[str(p) for p in points],
        ties=ties,
        public=public,
        description=description,
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )
    problems = list(rules.check_rule(series.rule(), []))
    if not slug:
        problems.append(
            Problem(
                "series.slug_empty",
                "slug",
                _("Give the series a web address: letters, digits and hyphens."),
            )
        )
    elif Series.objects.filter(slug=slug).exists():
        problems.append(
            Problem(
                "series.slug_taken",
                "slug",
                _("The web address '%(slug)s' is not available; choose another.") % {"slug": slug},
            )
        )
    if problems:
        raise ServiceError(problems)
    with transaction.atomic():
        series.save()
        if getattr(by, "is_authenticated", False):
            SeriesDirector.objects.create(series=series, user=by)
    return series


def update_rule(
    series: Series,
    *,
    value: str,
    best: int | None,
    points: Sequence[Any],
    ties: str,
    public: bool,
    name: str,
    description: str = "",
) -> Series:
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        locked.value, locked.best, locked.ties = value, best, ties
        locked.points = [str(p) for p in points]
        locked.public, locked.name, locked.description = public, name, description
        kinds = [
            rules.Stage(
                str(s.pk),
                s.name,
                rules.StageKind.PLACES if s.kind == "event" else rules.StageKind.SCORES,
            )
            for s in locked.stages.all()
        ]
        _check(locked, kinds)
        locked.save()
    return locked


def _next_order(series: Series) -> int:
    return (series.stages.aggregate(n=Max("order"))["n"] or 0) + 1


def _stage_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise ServiceError([Problem("series.stage_name", "name", _("Give the stage a name."))])
    if len(name) > MAX_NAME:
        raise ServiceError(
            [
                Problem(
                    "series.stage_name",
                    "name",
                    _("A stage's name has at most %(limit)s characters.") % {"limit": MAX_NAME},
                )
            ]
        )
    return name


def add_event_stage(series: Series, event: Event, *, by: Any, name: str = "") -> SeriesStage:
    """The event's final ranking becomes a stage (its places go through the points table)."""
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        if locked.stages.filter(event=event).exists():
            raise ServiceError(
                [
                    Problem(
                        "series.event_twice",
                        "event",
                        _("%(event)s is already a stage of this series.") % {"event": event.name},
                    )
                ]
            )
        if rules.check_rule(
            locked.rule(), [rules.Stage("new", event.name, rules.StageKind.PLACES)]
        ):
            raise ServiceError(
                [
                    Problem(
                        "series.points_missing",
                        "event",
                        _(
                            "An event's stage gives places, not scores: set the series' points "
                            "table before adding an event."
                        ),
                    )
                ]
            )
        return SeriesStage.objects.create(
            series=locked,
            order=_next_order(locked),
            name=_stage_name(name or event.name),
            kind=SeriesStage.Kind.EVENT,
            event=event,
        )


def import_scores(
    series: Series,
    *,
    name: str,
    text: str,
    by: Any,
    stage: SeriesStage | None = None,
    now: datetime | None = None,
) -> SeriesStage:
    """A stage of imported scores from CSV text (``player, score [, WOF id]``), or the
    scores of ``stage`` replaced. Any bad line: nothing saved, every bad line named."""
    now = now or timezone.now()
    name = _stage_name(name)
    rows, problems = series_csv.parse(text)
    if problems:
        raise ServiceError(problems)
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        if stage is None:
            stage = SeriesStage.objects.create(
                series=locked,
                order=_next_order(locked),
                name=name,
                kind=SeriesStage.Kind.SCORES,
                imported_at=now,
            )
        else:
            stage = SeriesStage.objects.select_for_update().get(pk=stage.pk, series=locked)
            if stage.kind != SeriesStage.Kind.SCORES:
                raise ServiceError(
                    _("%(stage)s is an event, not imported scores.") % {"stage": stage.name}
                )
            stage.name, stage.imported_at = name, now
            stage.save(update_fields=["name", "imported_at"])
            stage.scores.all().delete()
        SeriesScore.objects.bulk_create(
            SeriesScore(stage=stage, row=r.row, name=r.name, wof_id=r.wof_id, score=r.score)
            for r in rows
        )
    return stage


def move_stage(series: Series, stage_id: int, *, by: Any, up: bool) -> None:
    """One place earlier (``up``) or later; the stages are numbered 1, 2, ... again."""
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        stages = list(locked.stages.select_for_update().order_by("order", "pk"))
        index = next((i for i, s in enumerate(stages) if s.pk == stage_id), None)
        if index is None:
            raise ServiceError(_("That stage is not in this series."))
        other = index - 1 if up else index + 1
        if 0 <= other < len(stages):
            stages[index], stages[other] = stages[other], stages[index]
        for number, stage in enumerate(stages, start=1):
            if stage.order != number:
                stage.order = number
                stage.save(update_fields=["order"])


def remove_stage(series: Series, stage_id: int, *, by: Any) -> None:
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        deleted, _count = locked.stages.filter(pk=stage_id).delete()
        if not deleted:
            raise ServiceError(_("That stage is not in this series."))


def merge_names(series: Series, *, name: str, same_as: str, by: Any) -> SeriesMerge:
    """The director's word that ``name`` (a row with only a name) is the player ``same_as``."""
    name, same_as = " ".join(name.split()), " ".join(same_as.split())
    if not name or not same_as or rules.normal_name(name) == rules.normal_name(same_as):
        raise ServiceError(
            [
                Problem(
                    "series.merge",
                    "name",
                    _("Give two different names: the spelling to merge and the player it is."),
                )
            ]
        )
    if len(name) > 150 or len(same_as) > 150:
        raise ServiceError(
            [Problem("series.merge", "name", _("A name has at most 150 characters."))]
        )
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        merge, _created = SeriesMerge.objects.update_or_create(
            series=locked,
            name=name,
            defaults={
                "same_as": same_as,
                "created_by": by if getattr(by, "is_authenticated", False) else None,
            },
        )
    return merge


def unmerge(series: Series, merge_id: int, *, by: Any) -> None:
    with transaction.atomic():
        Series.objects.select_for_update().get(pk=series.pk)
        SeriesMerge.objects.filter(series=series, pk=merge_id).delete()
