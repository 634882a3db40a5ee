"""Web push as a real push service takes it: a stub push service records each POST, the test decrypts the body
with the browser's keys (RFC 8291, aes128gcm) and checks the VAPID signature (RFC 8292), the Topic, the TTL and
the payload a service worker shows by its tag; a subscription the service says is gone is forgotten."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from draw.publishing import publish_round
from notify import vapid
from notify.models import Delivery, DeliveryState, Notification, PushSubscription
from tests.factories import make_user
from tests.notify.push_service import BrowserSubscription, PushServiceStub, check_vapid
from tests.notify.scenes import draft_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def push_service(settings):
    settings.DEBUG = True  # the stub is reached over plain HTTP (a browser's push service over HTTPS)
    stub = PushServiceStub().start()
    yield stub
    stub.stop()


def test_a_round_published_reaches_the_phone_encrypted_and_signed(push_service, client,
                                                                   django_capture_on_commit_callbacks):
    round_, match = draft_round()
    ann = get_user_model().objects.get(username="ann")
    phone = BrowserSubscription.new(push_service.origin, "ann-phone")
    client.force_login(ann)
    answer = client.post(reverse("push_subscribe"), json.dumps(phone.to_json()), content_type="application/json",
                         HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) Chrome/126 Mobile")
    assert answer.status_code == 200 and answer.json() == {"subscribed": True}
    (kept,) = PushSubscription.objects.filter(user=ann)
    assert kept.endpoint == phone.endpoint and "Android" in kept.device

    with django_capture_on_commit_callbacks(execute=True):
        publish_round(round_)

    (received,) = push_service.all()  # Bob and Dee have no phone
    assert received.path == "/push/ann-phone"
    notification = Notification.objects.get(user=ann)
    assert received.headers["content-encoding"] == "aes128gcm"
    assert received.headers["topic"] == notification.tag == f"n{notification.pk}"
    assert len(received.headers["topic"]) <= 32
    assert int(received.headers["ttl"]) == 2 * 24 * 3600 and received.headers["urgency"] == "normal"
    claims = check_vapid(received.headers["authorization"], audience=push_service.origin)
    assert claims["k"] == vapid.public_key() and claims["sub"] == "mailto:noreply@localhost"
    payload = phone.decrypt(received.body)
    assert payload == {"title": f"Round 3 of {round_.competition.name}",
                       "body": "Table 7 v Cid & Dee, Friday 14 March, 8 pm",
                       "url": f"http://localhost:8000/matches/{match.pk}/", "tag": notification.tag}
    (delivery,) = Delivery.objects.filter(notification=notification, channel="push")
    assert delivery.state == DeliveryState.SENT and delivery.tries == 1
    kept.refresh_from_db()
    assert kept.last_sent_at is not None


def test_the_vapid_key_is_made_once_and_kept_for_every_process(push_service, settings):
    settings.VAPID_PRIVATE_KEY = ""
    first = vapid.public_key()
    assert vapid.public_key() == first  # kept in the database: the next process reads the same one
    settings.VAPID_PRIVATE_KEY = vapid.new_private_key()
    assert vapid.public_key() != first  # the environment's key, when set


def test_a_subscription_the_push_service_says_is_gone_is_forgotten(push_service, django_capture_on_commit_callbacks):
    from notify import services
    from notify.models import NotificationKind

    push_service.status = 410
    user = make_user("ann")
    services.subscribe(user=user, subscription=BrowserSubscription.new(push_service.origin).to_json())
    with django_capture_on_commit_callbacks(execute=True):
        services.tell([services.Telling(user.pk, NotificationKind.REMINDER, "k", "Tonight", "Table 2", "/")])
    assert push_service.count() == 1
    assert not PushSubscription.objects.exists() and not Delivery.objects.exists()


def test_a_push_service_that_fails_is_tried_again_later(push_service, django_capture_on_commit_callbacks):
    from notify import services
    from notify.models import NotificationKind

    push_service.status = 503
    user = make_user("ann")
    services.subscribe(user=user, subscription=BrowserSubscription.new(push_service.origin).to_json())
    with django_capture_on_commit_callbacks(execute=True):
        services.tell([services.Telling(user.pk, NotificationKind.REMINDER, "k", "Tonight", "Table 2", "/")])
    (delivery,) = Delivery.objects.all()
    assert delivery.state == DeliveryState.WAITING and delivery.tries == 1 and "503" in delivery.last_error
    assert PushSubscription.objects.exists()


def test_a_phone_is_subscribed_only_with_real_keys_and_over_https(client, settings):
    settings.DEBUG = False
    client.force_login(make_user("ann"))
    good = BrowserSubscription.new("https://push.example.net").to_json()
    plain = BrowserSubscription.new("http://push.example.net").to_json()
    short = {**good, "keys": {**good["keys"], "auth": "c2hvcnQ"}}
    for subscription, field in ((plain, "endpoint"), (short, "keys.auth"), ({"endpoint": 3}, "endpoint")):
        answer = client.post(reverse("push_subscribe"), json.dumps(subscription), content_type="application/json")
        assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == field
    assert client.post(reverse("push_subscribe"), json.dumps(good), content_type="application/json").status_code == 200
    assert client.post(reverse("push_unsubscribe"), json.dumps({"endpoint": good["endpoint"]}),
                       content_type="application/json").json() == {"subscribed": False}
    assert not PushSubscription.objects.exists()
