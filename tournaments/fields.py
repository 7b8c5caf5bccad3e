"""Model fields of our own."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from django.db import models
from psycopg.types.json import Json


class JSONTextField(models.JSONField):
    """A JSONField stored as PostgreSQL's ``json`` (the text as written), not ``jsonb``.

    For a large document that is written whole and read whole, never searched inside: a
    10,000-entrant snapshot's tables are 1.2 MB of JSON, and the server's parse of them into
    jsonb was two thirds of storing them, on every saved result (docs/performance.md,
    "tables as json"). Other databases store it as Django's JSONField does."""

    def db_type(self, connection: Any) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if connection.vendor == "postgresql" and not hasattr(value, "as_sql"):
            if value is None:
                return None
            return Json(value, dumps=partial(json.dumps, cls=self.encoder))
        return super().get_db_prep_value(value, connection, prepared)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        # psycopg parses json itself (Django sets it to hand over jsonb as text only)
        if value is None or not isinstance(value, str):
            return value
        return super().from_db_value(value, expression, connection)
