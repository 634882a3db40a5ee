"""The API's shape for rounds and byes (a club's own fixture list). Only the form is checked here;
``draw.fixtures`` decides the rest and names the field of what it refuses."""

from __future__ import annotations

from rest_framework import serializers

from draw.fixtures import MAX_ROUND
from draw.models import Bye, Round
from draw.pairing.flags import PairingFlag


class RoundSerializer(serializers.ModelSerializer):
    title = serializers.CharField(source="__str__", read_only=True, help_text="Its name, or Round <number>")

    class Meta:
        model = Round
        fields = ["id", "competition", "number", "name", "title", "starts_on", "status", "published_at", "stage"]
        read_only_fields = fields


class RoundCreateSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=MAX_ROUND, required=False, allow_null=True,
                                      help_text="Left out: the number after the last round")
    name = serializers.CharField(max_length=Round._meta.get_field("name").max_length, required=False,
                                 allow_blank=True)
    starts_on = serializers.DateField(required=False, allow_null=True)
    status = serializers.ChoiceField(choices=Round.STATUSES, default=Round.PUBLISHED,
                                     help_text="published (the default: public once entered) or draft (only the "
                                               "club's organisers see it until it is published)")


class RoundUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=Round._meta.get_field("name").max_length, required=False,
                                 allow_blank=True)
    starts_on = serializers.DateField(required=False, allow_null=True)


class ByeSerializer(serializers.ModelSerializer):
    entrant_name = serializers.CharField(source="entry.display_name", read_only=True)
    flags = serializers.ListField(child=serializers.ChoiceField(choices=PairingFlag.choices()), read_only=True,
                                 help_text="Why the entrant sits the round out")

    class Meta:
        model = Bye
        fields = ["id", "round", "entry", "entrant_name", "flags"]
        read_only_fields = fields


class ByeCreateSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The id of the entry that sits the "
                                                                                "round out")
