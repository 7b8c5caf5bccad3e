"""Error bodies: JSON with a stable code and a sentence (DESIGN 17: codes out, words at
the edge), whatever went wrong: a missing or private event, a bad parameter, a limit."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _


class ApiError(Exception):
    """An answer other than 200: its status, code and message."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def error_response(status: int, code: str, message: str, **extra: Any) -> HttpResponse:
    return JsonResponse({"code": code, "message": message, **extra}, status=status)


def not_found_response() -> HttpResponse:
    # A private event and a missing one answer the very same body (accounts/permissions.py).
    return error_response(404, "not_found", _("Nothing here: no such public resource."))


def _where(location: Any) -> str:
    parts = [str(p) for p in location if p not in ("query", "path", "body")]
    return ".".join(parts) or "request"


def validation_response(request: HttpRequest, errors: list[dict[str, Any]]) -> HttpResponse:
    """ninja's validation errors as one sentence naming each parameter and its problem."""
    problems = [f"{_where(e.get('loc', ()))}: {e.get('msg', '')}" for e in errors]
    first = _where(errors[0].get("loc", ())) if errors else "request"
    return error_response(
        422,
        "invalid_parameter",
        _("Invalid parameter %(problems)s.") % {"problems": "; ".join(problems)},
        parameter=first,
    )
