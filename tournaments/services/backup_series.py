"""Series in the backup (issue 32): ``series.json`` beside the event files.

A series spans events, so no event's files can carry it: the backup writes every series
once, with its stages (an event stage names its event by slug; an imported stage carries
its score rows), its merges, its directors, the events it qualifies players for and its
own audit log, from the same database snapshot as the event files. A restore of the whole
backup puts them back after the events; a restore of some events only leaves the series
as they are here (backup.restore_events says so).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tournaments.models import (
    Event,
    Series,
    SeriesAuditEntry,
    SeriesDirector,
    SeriesMerge,
    SeriesScore,
    SeriesStage,
)
from tournaments.services.backup_owned import _at, _iso, _when

SERIES_VERSION = 1
SERIES_FIELDS = ("slug", "name", "kind", "description", "value", "best", "points", "ties")
USER_FIELDS = ("created_by", "user", "actor")


def export_series() -> tuple[dict[str, Any], set[str]]:
    """Every series as plain data, and the usernames it names."""
    from django.contrib.auth import get_user_model

    names = dict(get_user_model().objects.values_list("pk", "username"))
    users: set[str] = set()

    def who(user_id: int | None) -> str | None:
        if user_id is None:
            return None
        users.add(names[user_id])
        return names[user_id]

    found = []
    for series in Series.objects.order_by("slug").prefetch_related(
        "feeds", "stages__event", "stages__scores", "merges", "audit_entries"
    ):
        found.append(
            {
                **{f: getattr(series, f) for f in SERIES_FIELDS},
                "public": series.public,
                "created_by": who(series.created_by_id),
                "created_at": _iso(series.created_at),
                "updated_at": _iso(series.updated_at),
                "feeds": sorted(e.slug for e in series.feeds.all()),
                "directors": [
                    {"user": who(d.user_id), "added_at": _iso(d.added_at)}
                    for d in SeriesDirector.objects.filter(series=series).order_by("pk")
                ],
                "stages": [
                    {
                        "order": s.order,
                        "name": s.name,
                        "kind": s.kind,
                        "event": s.event.slug if s.event else None,
                        "imported_at": _iso(s.imported_at),
                        "scores": [
                            [r.row, r.name, r.wof_id, str(r.score)]
                            for r in sorted(s.scores.all(), key=lambda r: r.row)
                        ],
                    }
                    for s in sorted(series.stages.all(), key=lambda s: (s.order, s.pk))
                ],
                "merges": [
                    {
                        "name": m.name,
                        "same_as": m.same_as,
                        "created_by": who(m.created_by_id),
                        "created_at": _iso(m.created_at),
                    }
                    for m in sorted(series.merges.all(), key=lambda m: m.name)
                ],
                # oldest first, so that rows of the same moment keep their order
                "audit": [
                    {
                        "action": a.action,
                        "actor": who(a.actor_id),
                        "at": _iso(a.at),
                        "subject": a.subject,
                        "before": a.before,
                        "after": a.after,
                        "reason": a.reason,
                    }
                    for a in sorted(series.audit_entries.all(), key=lambda a: (a.at, a.pk))
                ],
            }
        )
    return {"arbiter_series": SERIES_VERSION, "series": found}, users


def named(doc: Mapping[str, Any]) -> set[str]:
    """The usernames the series document names."""
    out: set[str] = set()
    for series in doc["series"]:
        rows = [series, *series["directors"], *series["merges"], *series["audit"]]
        out |= {row[f] for row in rows for f in USER_FIELDS if row.get(f)}
    return out


def check(doc: Any, events: Iterable[str], accounts: set[str]) -> list[str]:
    """Problems that would stop ``apply``; [] when it can go ahead. ``events``: the slugs
    there will be after the events are restored; ``accounts``: the backup's usernames, in
    lower case."""
    if not isinstance(doc, dict) or doc.get("arbiter_series") != SERIES_VERSION:
        return [f"not a series file of version {SERIES_VERSION}."]
    if not isinstance(doc.get("series"), list):
        return ["series: not rows."]
    slugs = set(events)
    problems = []
    for i, series in enumerate(doc["series"]):
        place = f"series[{i}] ({series.get('slug')})"
        for stage in series.get("stages", []):
            if stage.get("event") is not None and stage["event"] not in slugs:
                problems.append(
                    f"{place}: stage '{stage.get('name')}' names event "
                    f"'{stage['event']}', which is neither in the backup nor here."
                )
        problems += [
            f"{place}: it qualifies players for event '{slug}', which is neither in the "
            "backup nor here."
            for slug in series.get("feeds", [])
            if slug not in slugs
        ]
        if any(name is not None and str(name).lower() not in accounts for name in _names(series)):
            problems.append(f"{place}: it names an account that is not in the backup.")
    return problems


def _names(series: Mapping[str, Any]) -> list[Any]:
    rows = [series, *series.get("directors", []), *series.get("merges", [])]
    rows += series.get("audit", [])
    return [row.get(f) for row in rows for f in USER_FIELDS]


def apply(doc: Mapping[str, Any], users: Mapping[str, Any]) -> list[Series]:
    """Every series of the document made again (a series of the same slug here is replaced:
    the caller deleted it or was told to)."""

    def user(name: str | None) -> Any:
        return users[name.lower()] if name else None

    rows = doc["series"]
    events = dict(
        Event.objects.filter(
            slug__in={
                slug
                for s in rows
                for slug in [*s["feeds"], *(t["event"] for t in s["stages"] if t["event"])]
            }
        ).values_list("slug", "pk")
    )
    made = []
    for data in rows:
        Series.objects.filter(slug=data["slug"]).delete()
        series = Series.objects.create(
            **{f: data[f] for f in SERIES_FIELDS},
            public=data["public"],
            created_by=user(data["created_by"]),
        )
        # update(): auto_now and auto_now_add must not stamp the restore's time
        Series.objects.filter(pk=series.pk).update(
            created_at=_at(data["created_at"], "series.created_at"),
            updated_at=_at(data["updated_at"], "series.updated_at"),
        )
        series.feeds.set([events[slug] for slug in data["feeds"]])
        for row in data["directors"]:
            director = SeriesDirector.objects.create(series=series, user=user(row["user"]))
            SeriesDirector.objects.filter(pk=director.pk).update(
                added_at=_at(row["added_at"], "series.directors.added_at")
            )
        for row in data["stages"]:
            stage = SeriesStage.objects.create(
                series=series,
                order=row["order"],
                name=row["name"],
                kind=row["kind"],
                event_id=events[row["event"]] if row["event"] else None,
                imported_at=_when(row["imported_at"], "series.stages.imported_at"),
            )
            SeriesScore.objects.bulk_create(
                (
                    SeriesScore(stage=stage, row=r, name=name, wof_id=wof_id, score=score)
                    for r, name, wof_id, score in row["scores"]
                ),
                batch_size=1000,
            )
        for row in data["merges"]:
            merge = SeriesMerge.objects.create(
                series=series,
                name=row["name"],
                same_as=row["same_as"],
                created_by=user(row["created_by"]),
            )
            SeriesMerge.objects.filter(pk=merge.pk).update(
                created_at=_at(row["created_at"], "series.merges.created_at")
            )
        SeriesAuditEntry.objects.bulk_create(
            SeriesAuditEntry(
                series=series,
                action=a["action"],
                actor=user(a["actor"]),
                at=_at(a["at"], "series.audit.at"),
                subject=a["subject"],
                before=a["before"],
                after=a["after"],
                reason=a["reason"],
            )
            for a in data["audit"]
        )
        made.append(series)
    return made
