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
from tournaments.services import audit, series_csv
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
        audit.log_series(
            series, "series.created", actor=by, at=timezone.now(), subject=name, after=_rule(series)
        )
    return series


def _rule(series: Series) -> dict[str, Any]:
    """What the rule form changes, as the audit row keeps it (before and after)."""
    return {
        "name": series.name,
        "value": series.value,
        "best": series.best,
        "points": list(series.points or []),
        "ties": series.ties,
        "public": series.public,
        "description": series.description,
    }


def update_rule(
    series: Series,
    *,
    by: Any,
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
        before = _rule(locked)
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
        after = _rule(locked)
        if after != before:
            changed = [key for key in after if after[key] != before[key]]
            audit.log_series(
                locked,
                "series.rule_changed",
                actor=by,
                at=timezone.now(),
                subject=", ".join(changed),
                before={key: before[key] for key in changed},
                after={key: after[key] for key in changed},
            )
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
        stage = SeriesStage.objects.create(
            series=locked,
            order=_next_order(locked),
            name=_stage_name(name or event.name),
            kind=SeriesStage.Kind.EVENT,
            event=event,
        )
        audit.log_series(
            locked,
            "series.stage_added",
            actor=by,
            at=timezone.now(),
            subject=stage.name,
            after={"stage": stage.pk, "order": stage.order, "event": event.slug},
        )
        return stage


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
        before = None
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
            before = {"name": stage.name, "rows": stage.scores.count()}
            stage.name, stage.imported_at = name, now
            stage.save(update_fields=["name", "imported_at"])
            stage.scores.all().delete()
        SeriesScore.objects.bulk_create(
            SeriesScore(stage=stage, row=r.row, name=r.name, wof_id=r.wof_id, score=r.score)
            for r in rows
        )
        # the file's rows are kept (SeriesScore, with their line numbers): the row names
        # the stage and how many players it brought
        audit.log_series(
            locked,
            "series.scores_imported" if before is None else "series.scores_replaced",
            actor=by,
            at=now,
            subject=stage.name,
            before=before,
            after={"stage": stage.pk, "name": stage.name, "rows": len(rows)},
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
        before = [s.name for s in stages]
        moved = stages[index]
        other = index - 1 if up else index + 1
        if 0 <= other < len(stages):
            stages[index], stages[other] = stages[other], stages[index]
        for number, stage in enumerate(stages, start=1):
            if stage.order != number:
                stage.order = number
                stage.save(update_fields=["order"])
        after = [s.name for s in stages]
        if after != before:
            audit.log_series(
                locked,
                "series.stage_moved",
                actor=by,
                at=timezone.now(),
                subject=moved.name,
                before={"order": before},
                after={"order": after},
            )


def remove_stage(series: Series, stage_id: int, *, by: Any) -> None:
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        stage = locked.stages.filter(pk=stage_id).select_related("event").first()
        if stage is None:
            raise ServiceError(_("That stage is not in this series."))
        before = {"stage": stage.pk, "order": stage.order, "kind": stage.kind}
        if stage.event is not None:
            before["event"] = stage.event.slug
        else:
            before["rows"] = stage.scores.count()
        stage.delete()
        audit.log_series(
            locked,
            "series.stage_removed",
            actor=by,
            at=timezone.now(),
            subject=stage.name,
            before=before,
        )


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
        old = SeriesMerge.objects.filter(series=locked, name=name).first()
        merge, _created = SeriesMerge.objects.update_or_create(
            series=locked,
            name=name,
            defaults={
                "same_as": same_as,
                "created_by": by if getattr(by, "is_authenticated", False) else None,
            },
        )
        audit.log_series(
            locked,
            "series.names_merged",
            actor=by,
            at=timezone.now(),
            subject=f"{name} = {same_as}",
            before={"name": old.name, "same_as": old.same_as} if old else None,
            after={"name": name, "same_as": same_as},
        )
    return merge


def unmerge(series: Series, merge_id: int, *, by: Any) -> None:
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        merge = SeriesMerge.objects.filter(series=locked, pk=merge_id).first()
        if merge is None:
            return  # undone already (two clicks): nothing changed, nothing to log
        merge.delete()
        audit.log_series(
            locked,
            "series.names_unmerged",
            actor=by,
            at=timezone.now(),
            subject=f"{merge.name} = {merge.same_as}",
            before={"name": merge.name, "same_as": merge.same_as},
        )


def add_feed(series: Series, event: Event, *, by: Any) -> None:
    """The series qualifies players for ``event`` (its qualification builds the event's
    line from this series: the GP feeds the WPF playoffs)."""
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        if locked.feeds.filter(pk=event.pk).exists():
            return
        locked.feeds.add(event)
        audit.log_series(
            locked,
            "series.feed_added",
            actor=by,
            at=timezone.now(),
            subject=event.name,
            after={"event": event.slug},
        )


def remove_feed(series: Series, event_id: int, *, by: Any) -> None:
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        event = locked.feeds.filter(pk=event_id).first()
        if event is None:
            raise ServiceError(_("This series does not qualify players for that event."))
        locked.feeds.remove(event)
        audit.log_series(
            locked,
            "series.feed_removed",
            actor=by,
            at=timezone.now(),
            subject=event.name,
            before={"event": event.slug},
        )
