"""The OpenAPI schema served at ``/api/schema/``, built once per process.

The schema is public (drf-spectacular's ``SERVE_PUBLIC``): the same for every visitor of a deploy, in each version
and language asked for. Building it walks every view and serializer (about a second of CPU), which an anonymous
visitor could otherwise ask for again and again; each response still renders it in the format negotiated.
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response


class SchemaView(SpectacularAPIView):
    _built: dict[tuple[Any, str | None], dict] = {}

    def _get_schema_response(self, request) -> Response:
        version = self.api_version or request.version or self._get_version_parameter(request)
        key = (version, translation.get_language())
        if key not in self._built:
            self._built[key] = super()._get_schema_response(request).data
        return Response(data=copy.deepcopy(self._built[key]), headers={
            "Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'})
