"""Round and Bye moved from league to draw, StandingRow, RatingsRebuild, PlayerRating and RatingPoint to standings,
by migrations that change only Django's record of the models: the tables keep their names and their rows, forward
and back, and the content types (with the permissions on them) follow the models.

Runs on PostgreSQL (a ``services`` test): migrating SQLite's shared in-memory test database back and forth under the
other connections of a run leaves its tables locked for the tests after it."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from draw.models import Bye, Round
from games.models import Match
from standings.models import PlayerRating, RatingPoint, RatingsRebuild, StandingRow
from tests.migrating import at_older_schemas, migrate, older_schema

BEFORE = [("league", "0016_stage_and_section_choices"), ("games", "0013_choices_and_known_values"),
          ("draw", None), ("standings", None)]
AFTER = [("league", "0017_rounds_and_standings_to_their_apps")]
PLAYED_AT = datetime(2026, 5, 2, 20, 30, tzinfo=UTC)


def migrate_to_the_latest():
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def app_label_of(content_type: ContentType) -> str:
    return ContentType.objects.filter(pk=content_type.pk).values_list("app_label", flat=True).get()


def write_rows_of_the_older_schema(old) -> dict[str, int]:
    """A competition's round with a match and a bye, its standings line, and a player's rating and history, all
    written through league's models as they were before the move."""
    club = old.get_model("league", "Club").objects.create(name="Oval", slug="oval")
    competition = old.get_model("league", "Competition").objects.create(club=club, name="Cup", slug="cup")
    player_model = old.get_model("league", "Player")
    ann, bob, cal = (player_model.objects.create(name=name) for name in ("Ann", "Bob", "Cal"))
    partnership_model = old.get_model("league", "Partnership")
    lions = partnership_model.objects.create(player_one=ann, player_two=bob, name="Lions")
    tigers = partnership_model.objects.create(player_one=cal, name="Tigers")
    entry = old.get_model("league", "Entry").objects.create(competition=competition, partnership=lions)
    round_ = old.get_model("league", "Round").objects.create(competition=competition, number=3, name="Quarters",
                                                             status="draft", pairing_state="done")
    bye = old.get_model("league", "Bye").objects.create(round=round_, entry=entry, flags=["bye"], bracket_position=2)
    match = old.get_model("games", "Match").objects.create(competition=competition, round=round_, side_a=lions,
                                                           side_b=tigers, side_a_name="Lions", side_b_name="Tigers",
                                                           entry_token="moved-models-token")
    row = old.get_model("league", "StandingRow").objects.create(competition=competition, partnership=lions, rank=1,
                                                                played=4, won=3, match_points=Decimal("6.5"),
                                                                metrics={"wins": 3})
    old.get_model("league", "RatingsRebuild").objects.create(id=1, requested_at=PLAYED_AT)
    rating = old.get_model("league", "PlayerRating").objects.create(player=ann, mu=27.5, sigma=7.1, ordinal=6.2,
                                                                    matches=4)
    point = old.get_model("league", "RatingPoint").objects.create(player=ann, sequence=1, match_id=match.pk,
                                                                  label="Lions v Tigers", played_at=PLAYED_AT,
                                                                  mu=26.0, sigma=7.5, ordinal=3.5)
    return {"round": round_.pk, "bye": bye.pk, "match": match.pk, "row": row.pk, "rating": rating.pk,
            "point": point.pk, "entry": entry.pk, "ann": ann.pk}


def assert_rows_read_through(apps, app_of, ids: dict[str, int]) -> None:
    """The rows written before the move, read through the models of ``apps`` (``app_of``: each model's app)."""
    round_ = apps.get_model(app_of["Round"], "Round").objects.get(pk=ids["round"])
    assert (round_.number, round_.name, round_.status, round_.pairing_state) == (3, "Quarters", "draft", "done")
    bye = apps.get_model(app_of["Bye"], "Bye").objects.get(pk=ids["bye"])
    assert (bye.round_id, bye.entry_id, bye.flags, bye.bracket_position) == (ids["round"], ids["entry"], ["bye"], 2)
    assert apps.get_model("games", "Match").objects.get(pk=ids["match"]).round_id == ids["round"]
    row = apps.get_model(app_of["StandingRow"], "StandingRow").objects.get(pk=ids["row"])
    assert (row.rank, row.played, row.won, row.match_points, row.metrics) == (1, 4, 3, Decimal("6.5"), {"wins": 3})
    assert apps.get_model(app_of["RatingsRebuild"], "RatingsRebuild").objects.get(pk=1).requested_at == PLAYED_AT
    rating = apps.get_model(app_of["PlayerRating"], "PlayerRating").objects.get(pk=ids["rating"])
    assert (rating.player_id, rating.mu, rating.sigma, rating.ordinal, rating.matches) == (ids["ann"], 27.5, 7.1,
                                                                                           6.2, 4)
    point = apps.get_model(app_of["RatingPoint"], "RatingPoint").objects.get(pk=ids["point"])
    assert (point.match_id, point.label, point.played_at, point.ordinal) == (ids["match"], "Lions v Tigers",
                                                                              PLAYED_AT, 3.5)


IN_LEAGUE = dict.fromkeys(["Round", "Bye", "StandingRow", "RatingsRebuild", "PlayerRating", "RatingPoint"], "league")
IN_THEIR_APPS = {"Round": "draw", "Bye": "draw", "StandingRow": "standings", "RatingsRebuild": "standings",
                 "PlayerRating": "standings", "RatingPoint": "standings"}


@pytest.mark.services
@older_schema
def test_the_moved_models_keep_their_tables_and_rows_forward_and_back():
    round_type = ContentType.objects.get_for_model(Round)
    with at_older_schemas():
        old = migrate(BEFORE)
        assert app_label_of(round_type) == "league"
        ids = write_rows_of_the_older_schema(old)

        new = migrate(AFTER)
        assert_rows_read_through(new, IN_THEIR_APPS, ids)
        assert app_label_of(round_type) == "draw"

        old = migrate(BEFORE)
        assert_rows_read_through(old, IN_LEAGUE, ids)
        migrate_to_the_latest()  # and on to today's schema, through every migration after
    ContentType.objects.clear_cache()
    assert ContentType.objects.get_for_model(Round).pk == round_type.pk

    # and through the models of today, with a new row numbered after the old ones (the id sequence kept)
    round_ = Round.objects.get(pk=ids["round"])
    assert round_.competition.rounds.get() == round_ and Match.objects.get(pk=ids["match"]).round == round_
    assert Bye.objects.get(pk=ids["bye"]).round == round_
    assert StandingRow.objects.get(pk=ids["row"]).match_points == Decimal("6.5")
    assert RatingsRebuild.objects.get(pk=RatingsRebuild.SINGLETON).requested_at == PLAYED_AT
    assert PlayerRating.objects.get(pk=ids["rating"]).player.rating_points.get() == RatingPoint.objects.get()
    assert Round.objects.create(competition=round_.competition, number=4).pk > round_.pk
