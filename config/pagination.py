"""The API's lists, a page at a time: ``?limit=`` (1 to ``MAX_LIMIT``, default ``DEFAULT_LIMIT``) rows from
``?offset=`` (0 to ``MAX_OFFSET``). A value that is not such a whole number is a 400 naming the parameter —
DRF's own class quietly falls back to the default for a bad value and passes a huge one to the database."""

from __future__ import annotations

import re

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

DEFAULT_LIMIT = 100
MAX_LIMIT = 500
MAX_OFFSET = 2**31 - 1
_DIGITS = re.compile(r"[0-9]{1,12}")


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    default_limit = DEFAULT_LIMIT
    max_limit = MAX_LIMIT
    limit_query_description = f"Rows a page: 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT})."
    offset_query_description = f"The first row of the page, from 0 (at most {MAX_OFFSET})."

    def get_limit(self, request) -> int:
        return self._whole(request, self.limit_query_param, 1, self.max_limit, self.default_limit)

    def get_offset(self, request) -> int:
        return self._whole(request, self.offset_query_param, 0, MAX_OFFSET, 0)

    @staticmethod
    def _whole(request, name: str, low: int, high: int, default: int) -> int:
        if name not in request.query_params:
            return default
        text = request.query_params[name].strip()
        value = int(text) if _DIGITS.fullmatch(text) else None
        if value is None or not low <= value <= high:
            raise ValidationError({name: f"must be a whole number from {low} to {high}, got {text[:30]!r}"})
        return value

    def get_schema_operation_parameters(self, view) -> list[dict]:
        bounds = {self.limit_query_param: {"minimum": 1, "maximum": self.max_limit},
                  self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET}}
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"].update(bounds[parameter["name"]])
        return parameters
