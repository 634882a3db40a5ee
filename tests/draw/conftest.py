"""What the knockout tests of competitions played online share: a club with its organiser, and ``run`` — a call
with what it left for after the commit (the settle, the pairing task, the listeners: tables opened, players told)
run as a real commit would run them. A module's own fixture of the same name takes precedence."""

from __future__ import annotations

import pytest

from tests.factories import make_club, make_user


@pytest.fixture
def organiser():
    return make_user("olive")


@pytest.fixture
def club(organiser):
    return make_club("Belmont Sports Club", organisers=[organiser])


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    """``run(function, *args, **kwargs)``: the call, then what it left for after the commit."""

    def do(function, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(*args, **kwargs)

    return do
