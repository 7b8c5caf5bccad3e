"""Every table's rows, comparable across two databases: the restore drill's yardstick.

A surrogate id differs after a restore, so no row is compared by it: each row is written
as its columns with the automatic primary key left out and every foreign key replaced by
the natural key of the row it points to (the model's first unconditional unique
constraint or unique field: an event's slug, an entrant's event and number, a match's
round and code ...). Rows of a table are compared as sorted lists, so two databases that
hold the same data compare equal whatever ids and insertion order they had.

    DATABASE_URL=... python -m bench.table_rows OUT.json         (write every table's rows)
    python -m bench.table_rows --compare BEFORE.json AFTER.json [MORE.json ...]

The second form prints one line per table: its rows in each file and, for each later file,
"same" or the rows it added and lost against the first (bench/backup_drill.sh). Reads only.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder


def _natural_fields(model: Any) -> list[str] | None:
    """The fields that identify a row of ``model`` without its surrogate id, or None."""
    from django.db import models

    meta = model._meta
    for constraint in meta.constraints:
        unique = isinstance(constraint, models.UniqueConstraint)
        if unique and constraint.condition is None and constraint.fields:
            return list(constraint.fields)
    if meta.unique_together:
        return list(meta.unique_together[0])
    for field in meta.concrete_fields:
        if field.unique and not field.primary_key:
            return [field.name]
    if not isinstance(meta.pk, models.AutoField):  # a key that means something (a session)
        return [meta.pk.name]
    return None


class Tables:
    """Reads every table once and answers each row's natural form."""

    def __init__(self, models: Iterable[Any]):
        self.models = {m._meta.label: m for m in models}
        self._raw: dict[str, dict[Any, dict[str, Any]]] = {}
        self._keys: dict[str, dict[Any, Any]] = {}

    def raw(self, model: Any) -> dict[Any, dict[str, Any]]:
        label = model._meta.label
        if label not in self._raw:
            attnames = [f.attname for f in model._meta.concrete_fields]
            self._raw[label] = {
                row[model._meta.pk.attname]: row
                for row in model._default_manager.order_by().values(*attnames)
            }
        return self._raw[label]

    def key(self, model: Any, pk: Any) -> Any:
        """The natural key of one row (its pk where the model has none)."""
        if pk is None:
            return None
        label = model._meta.label
        cache = self._keys.setdefault(label, {})
        if pk not in cache:
            fields = _natural_fields(model)
            row = self.raw(model).get(pk)
            if fields is None or row is None:
                cache[pk] = ["id", pk]
            else:
                cache[pk] = [self._value(model._meta.get_field(name), row) for name in fields]
        return cache[pk]

    def _value(self, field: Any, row: dict[str, Any]) -> Any:
        value = row[field.attname]
        if field.is_relation and (field.many_to_one or field.one_to_one):
            return self.key(field.related_model, value)
        return value

    def rows(self, model: Any) -> list[str]:
        """Every row as canonical JSON, sorted."""
        from django.db import models

        fields = [
            f
            for f in model._meta.concrete_fields
            if not (f.primary_key and isinstance(f, models.AutoField))
        ]
        out = []
        for row in self.raw(model).values():
            data = {f.name: self._value(f, row) for f in fields}
            out.append(json.dumps(data, sort_keys=True, cls=DjangoJSONEncoder, ensure_ascii=False))
        return sorted(out)


def every_table(skip: Iterable[str] = ()) -> dict[str, list[str]]:
    """{"app.Model": sorted rows} for every model, auto-created many-to-many tables too."""
    from django.apps import apps

    models = apps.get_models(include_auto_created=True)
    tables = Tables(models)
    return {
        m._meta.label: tables.rows(m)
        for m in sorted(models, key=lambda m: m._meta.label)
        if m._meta.label not in set(skip)
    }


def compare(files: list[Path]) -> list[str]:
    """One line per table: its rows in each file, then for each later file "same" or the
    rows it added and lost against the first (a changed row counts once each way)."""
    from collections import Counter

    loaded = [json.loads(p.read_text(encoding="utf-8")) for p in files]
    first = loaded[0]
    labels = sorted(set().union(*loaded))
    rows = [
        ["table", *[p.stem for p in files], *[f"{p.stem} vs {files[0].stem}" for p in files[1:]]]
    ]
    for label in labels:
        counts = [str(len(d.get(label, []))) for d in loaded]
        verdicts = []
        for d in loaded[1:]:
            old, new = Counter(first.get(label, [])), Counter(d.get(label, []))
            added, lost = sum((new - old).values()), sum((old - new).values())
            verdicts.append("same" if not (added or lost) else f"+{added} -{lost}")
        rows.append([label, *counts, *verdicts])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def main(argv: list[str]) -> None:
    if argv[:1] == ["--compare"]:
        print("\n".join(compare([Path(a) for a in argv[1:]])))
        return
    import django

    django.setup()
    Path(argv[0]).write_text(json.dumps(every_table(), indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    main(sys.argv[1:])
