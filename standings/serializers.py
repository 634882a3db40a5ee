"""The API's shape for the standings."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from standings.columns import exact_number
from standings.models import StandingRow


@extend_schema_field({"type": "number", "nullable": True})
class ExactNumberField(serializers.Field):
    """A standings figure, exact: 34, 34.5, or null for chalks a club did not keep (read only)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value):
        return exact_number(value)


class StandingRowSerializer(serializers.ModelSerializer):
    """One line of the standings: a partnership's, a team's or a player's; ``metrics`` holds every metric of
    ``standings.metrics.METRICS`` by key, and ``coarse`` marks results entered as game or match totals."""

    entrant_name = serializers.SerializerMethodField()
    partnership_name = serializers.CharField(source="partnership.display_name", read_only=True, allow_null=True)
    match_points = ExactNumberField()
    bullseyes_for = ExactNumberField()
    bullseyes_against = ExactNumberField()
    bullseye_difference = ExactNumberField()
    chalks_for = ExactNumberField()
    chalks_against = ExactNumberField()
    chalk_difference = ExactNumberField()
    hang_jacks_for = ExactNumberField()
    hang_jacks_against = ExactNumberField()

    class Meta:
        model = StandingRow
        fields = ["rank", "group", "division", "partnership", "partnership_name", "team", "player", "entrant_name",
                  "played", "won", "drawn", "lost", "match_points", "byes", "bullseyes_for", "bullseyes_against",
                  "bullseye_difference", "chalks_for", "chalks_against", "chalk_difference", "hang_jacks_for",
                  "hang_jacks_against", "withdrawn", "coarse", "metrics", "updated_at"]

    def get_entrant_name(self, row: StandingRow) -> str:
        entrant = row.entrant
        return "" if entrant is None else getattr(entrant, "display_name", None) or str(entrant)
