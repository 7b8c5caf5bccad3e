"""The schema rendered as a page, on the server from the generated OpenAPI document: no
script and nothing from another site (the Content Security Policy and a closed network
forbid ninja's Swagger UI from a CDN)."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from tournaments.api.main import api


def _operations(schema: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for path, methods in schema.get("paths", {}).items():
        for method, operation in methods.items():
            found.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "id": operation.get("operationId", ""),
                    "summary": operation.get("summary", ""),
                    "parameters": [
                        {
                            "name": p["name"],
                            "where": p["in"],
                            "required": p.get("required", False),
                            "description": p.get("description")
                            or p.get("schema", {}).get("description", ""),
                            "type": p.get("schema", {}).get("type", ""),
                        }
                        for p in operation.get("parameters", [])
                    ],
                    "statuses": [
                        {"code": code, "description": answer.get("description", "")}
                        for code, answer in operation.get("responses", {}).items()
                    ],
                }
            )
    return found


@require_safe
def api_docs(request: HttpRequest) -> HttpResponse:
    schema = api.get_openapi_schema(path_prefix=reverse("api-v1:api-root"))
    context = {
        "schema": schema,
        "operations": _operations(schema),
        "schema_url": reverse("api-v1:openapi-json"),
        "shapes": json.dumps(schema.get("components", {}), indent=2)[:200_000],
    }
    return render(request, "tournaments/api_docs.html", context)
