"""The API's standings: ``/api/competitions/<id>/standings/``, an action of the competitions' API
(``league.api.CompetitionViewSet``, which gives ``get_object``), joined to it in ``config.api_urls``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import prefetch_related_objects
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from league.serializers import ErrorsSerializer
from standings import selectors
from standings.serializers import StandingRowSerializer

if TYPE_CHECKING:
    # the actions go into league.api.CompetitionViewSet
    from rest_framework.generics import GenericAPIView as ActionsBase
else:
    ActionsBase = object


class CompetitionStandingsActions(ActionsBase):
    @extend_schema(responses={200: StandingRowSerializer(many=True), 404: ErrorsSerializer})
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request, pk=None) -> Response:
        """The competition's standings, as the standings task last wrote them."""
        rows = list(selectors.standings(self.get_object()))
        prefetch_related_objects([row for row in rows if row.partnership_id is None], "team", "player")
        return Response(StandingRowSerializer(rows, many=True).data)
