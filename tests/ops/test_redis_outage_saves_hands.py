"""A hand sent while Redis is down (Redis as the task broker, the cache and the channel layer, on a private
redis-server that is stopped) is saved and answered 201, never 500 nor lost: the settle runs in the request's
process (league.dispatch), the cache misses, the live notices are dropped and caught up by the pages."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import override_settings
from rest_framework.test import APIClient

from config.celery import app
from games.models import Hand, Match
from league import dispatch
from tests.factories import make_scene, sweep
from tests.redis_server import private_redis  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_stopped(private_redis, monkeypatch, with_a_broker):  # noqa: F811
    layers = {"default": {"BACKEND": "config.channel_layers.PubSubChannelLayer",
                          "CONFIG": {"hosts": [private_redis.url()], "prefix": "ops-outage-test"}}}
    cache = {"default": {"BACKEND": "config.cache.OutageNotingRedisCache", "LOCATION": private_redis.url(1),
                         "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5,
                                     "SOCKET_TIMEOUT": 0.5}}}
    # the broker too: Celery keeps its connection and producer pools once made (an earlier test of this process may
    # have sent a task), so new ones are made for the stopped Redis and the old ones put back after
    monkeypatch.setattr(app.conf, "broker_url", private_redis.url(2))
    monkeypatch.setattr(app, "_pool", None)
    monkeypatch.setattr(app.amqp, "_producer_pool", None)
    private_redis.stop()
    with override_settings(CHANNEL_LAYERS=layers, CACHES=cache, REDIS_URL=private_redis.url()):
        yield private_redis
    caches["default"].close()


def test_a_hand_sent_with_redis_down_is_saved_and_settled_here(redis_stopped, django_capture_on_commit_callbacks):
    scene = make_scene("Redis Outage Club", organiser="org", scorekeeper="keeper")
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(scene["scorekeeper"])
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/matches/{scene['match'].pk}/hands/",
                            {"number": 1, "mode": Hand.CHALK, "entry": sweep(0)}, format="json")
    assert response.status_code == 201, response.content
    assert Hand.objects.filter(game__match=scene["match"]).count() == 1
    assert dispatch.broker.down, "the send met the stopped Redis"
    match = Match.objects.get(pk=scene["match"].pk)
    assert match.settled_version == match.version >= 1, "settled in the request's process"
