"""A Redis outage seen from requests: the hands are saved, and the log says so once — one warning when Redis
goes, one line when it is back — not a traceback per hand (live notices, the channel layer, the cache)."""

from __future__ import annotations

import logging

import pytest
from django.core.cache import caches
from django.test import override_settings

from games.models import Hand
from games.services import enter_hand
from league import outages
from tests.factories import make_scene, sweep
from tests.redis_server import private_redis  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_outages(monkeypatch):
    """Each test starts with every service taken for reachable (the state is per process)."""
    for name in ("channel_layer", "cache"):
        old = getattr(outages, name)
        monkeypatch.setattr(outages, name, outages.Outage(old.service, while_down=old.while_down))


@pytest.fixture
def on_private_redis(private_redis, fresh_outages):  # noqa: F811
    layers = {"default": {"BACKEND": "config.channel_layers.PubSubChannelLayer",
                          "CONFIG": {"hosts": [private_redis.url()], "prefix": "outage-test"}}}
    cache = {"default": {"BACKEND": "config.cache.OutageNotingRedisCache", "LOCATION": private_redis.url(1),
                         "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5,
                                     "SOCKET_TIMEOUT": 0.5}}}
    with override_settings(CHANNEL_LAYERS=layers, CACHES=cache):
        yield private_redis
    caches["default"].close()


def outage_lines(caplog, service: str) -> tuple[list[str], list[str]]:
    messages = [record.getMessage() for record in caplog.records if service in record.getMessage()]
    return ([m for m in messages if "cannot be reached" in m], [m for m in messages if "reachable again" in m])


def test_hands_saved_while_redis_is_down_log_one_warning_and_one_line_when_it_is_back(
        on_private_redis, caplog, django_capture_on_commit_callbacks):
    scene = make_scene("Outage Club", organiser="org", scorekeeper="keeper")
    save = lambda number: enter_hand(match=scene["match"], number=number, mode="chalk",  # noqa: E731
                                     entry=sweep(number % 2), user=scene["scorekeeper"])
    with django_capture_on_commit_callbacks(execute=True):
        save(1)  # Redis up: the notice goes, nothing logged
    assert not outage_lines(caplog, "channel layer")[0]

    on_private_redis.stop()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        for number in range(2, 6):
            with django_capture_on_commit_callbacks(execute=True):
                save(number)
    down, back = outage_lines(caplog, "channel layer")
    assert len(down) == 1 and "live notice" in down[0] and not back
    assert not [record for record in caplog.records if record.exc_info], "no traceback for an outage"
    assert Hand.objects.filter(game__match=scene["match"]).count() == 5, "every hand is kept"

    on_private_redis.start()
    caplog.clear()
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
        save(6)
        save(7)
    down, back = outage_lines(caplog, "channel layer")
    assert not down and len(back) == 1


def test_the_cache_down_logs_one_warning_and_one_line_when_it_is_back(on_private_redis, caplog):
    cache = caches["default"]
    cache.set("kept", 1)
    on_private_redis.stop()
    with caplog.at_level(logging.WARNING):
        for _ in range(5):
            assert cache.get("kept") is None  # a miss, not an error
            cache.set("kept", 2)
    down, back = outage_lines(caplog, "cache")
    assert len(down) == 1 and not back
    assert not [record for record in caplog.records if record.exc_info]

    on_private_redis.start()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        cache.set("kept", 3)
        assert cache.get("kept") == 3
    down, back = outage_lines(caplog, "cache")
    assert not down and len(back) == 1
