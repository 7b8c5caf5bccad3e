"""Model fields of our own."""

from __future__ import annotations

import json
from typing import Any

from django.db import models


class JSONTextField(models.JSONField):
    """A JSONField stored as PostgreSQL's ``text``: the JSON as written, neither parsed
    into jsonb nor checked as json by the server.

    For a large document that we write whole and read whole, never searched inside: a
    10,000-entrant snapshot's tables are 1.2 MB of JSON, sent on every saved result. The
    server's parse into jsonb was two thirds of storing them, and its check of the json
    type still about 9 ms of the rest (docs/performance.md, "tables as json", "tables as
    text"). Every writer is this field or the standings store, both json.dumps. Other
    databases store it as Django's JSONField does."""

    def db_type(self, connection: Any) -> str | None:
        if connection.vendor == "postgresql":
            return "text"
        return super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if connection.vendor == "postgresql" and not hasattr(value, "as_sql"):
            if value is None:
                return None
            return json.dumps(value, cls=self.encoder)
        return super().get_db_prep_value(value, connection, prepared)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None or not isinstance(value, str):
            return value
        return super().from_db_value(value, expression, connection)
