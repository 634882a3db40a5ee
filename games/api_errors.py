"""API errors as JSON that names the field and the reason: ``{"errors": [{"field": …, "reason": …}]}``."""

from __future__ import annotations

from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.services import DuplicateHandError, EntryError, StaleVersionError


def _flatten(detail, prefix: str = "") -> list[dict[str, str]]:
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            field = key if key != "non_field_errors" else ""
            out.extend(_flatten(value, f"{prefix}.{field}" if prefix and field else (field or prefix)))
        return out
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return [{"field": prefix, "reason": str(item)} for item in detail]
        out = []
        for index, item in enumerate(detail):
            out.extend(_flatten(item, f"{prefix}[{index}]"))
        return out
    return [{"field": prefix, "reason": str(detail)}]


def exception_handler(exc, context):
    if isinstance(exc, EntryError):
        status = 409 if isinstance(exc, DuplicateHandError | StaleVersionError) else 400
        return Response({"errors": [{"field": exc.field, "reason": exc.reason}]}, status=status)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, dict) and set(data) == {"detail"}:
        field = "body" if isinstance(exc, ParseError) else ""
        response.data = {"errors": [{"field": field, "reason": str(data["detail"])}]}
    else:
        response.data = {"errors": _flatten(data)}
    return response
