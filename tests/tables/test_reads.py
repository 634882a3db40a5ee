"""tables.reads: the action path's reads equal the ORM's (every column of the table and of each seat and its user,
JSON and dates converted as the ORM converts them), on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import transaction

from tables import reads, seating
from tables.models import Table
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def columns(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


@pytest.fixture
def table():
    creator = make_user("reads-creator")
    table = seating.create_table(creator, seat=0, bots={1: "random", 3: "heuristic"})
    table.score, table.games_won = [3, 11], [1, 0]
    table.save()
    return Table.objects.get(pk=table.pk)


def test_the_locked_table_is_the_orms_row(table):
    with transaction.atomic():
        read = reads.locked_table(table.pk)
        orm = Table.objects.select_for_update().get(pk=table.pk)
    assert columns(read) == columns(orm)
    assert read.score == [3, 11] and isinstance(read.ruleset, dict) and read.created_at.tzinfo is not None
    assert not read._state.adding and read._state.db == "default"
    with transaction.atomic():
        assert reads.locked_table(table.pk + 1000) is None


def test_the_seats_are_the_orms_rows_with_their_users(table):
    read = reads.seats_with_users(table)
    orm = {seat.index: seat for seat in table.seats.select_related("user")}
    assert sorted(read) == sorted(orm) == [0, 1, 2, 3]
    for index, seat in orm.items():
        assert columns(read[index]) == columns(seat)
        assert (columns(read[index].user) if read[index].user else None) == \
            (columns(seat.user) if seat.user else None)
        assert read[index].table is table
    assert read[0].user.username == "reads-creator" and read[1].user is None and read[1].bot == "random"
