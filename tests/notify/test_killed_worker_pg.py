"""Nothing lost, nothing sent twice, with a real Celery worker killed (SIGKILL) mid-batch: 30 pushes to a push
service that answers slowly, and 30 mails through the outbox to an SMTP sink that does the same. A try cut off by
the kill is sent again once its lease has run out — as the same message (the push's Topic and tag, the mail's
Message-ID), which a push service and the phone replace, and a mail reader shows once.

Needs PostgreSQL and Redis (``DATABASE_URL``, ``REDIS_URL``): skipped without them, a failure under
``REQUIRE_SERVICES=1``. The leases (60 s for a push, ``accounts.mail.LEASE`` for a mail) are run out by moving
their end to now, as that much time would."""

from __future__ import annotations

from collections import Counter

import pytest
from django.utils import timezone

from accounts.models import MailState, OutgoingMail
from notify import services
from notify.delivery import message_id
from notify.models import Delivery, DeliveryState, Notification, NotificationKind
from notify.preferences import Choice
from tests.factories import make_user
from tests.notify.push_service import BrowserSubscription, PushServiceStub
from tests.notify.smtp_sink import SmtpSink
from tests.waiting import wait_until

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
PEOPLE = 30
SLOW = 0.15  # s the stubs take to answer each message


def tell_everyone(users, *, email: bool, push: bool) -> None:
    for user in users:
        services.save_settings(user=user, chosen={NotificationKind.REMINDER: Choice(email=email, push=push)})
    services.tell([services.Telling(user.pk, NotificationKind.REMINDER, "fixture:1@1900000000", "Reminder: Cup",
                                    f"Table {n} v the others, Friday 8 pm", f"/matches/{n}/")
                   for n, user in enumerate(users, start=1)])  # queued once this commits


def test_pushes_with_a_worker_killed_mid_batch_all_arrive_a_repeat_the_same_message(celery_worker_process, settings):
    settings.DEBUG = True  # the stub push service is plain HTTP
    stub = PushServiceStub(delay=SLOW).start()
    try:
        users = [make_user(f"player{n}") for n in range(PEOPLE)]
        phones = {}
        for user in users:
            phone = BrowserSubscription.new(stub.origin, f"user{user.pk}")
            services.subscribe(user=user, subscription=phone.to_json())
            phones[f"/push/user{user.pk}"] = phone
        tell_everyone(users, email=False, push=True)

        wait_until(lambda: stub.count() >= PEOPLE // 3, 90, "a third of the pushes at the push service")
        celery_worker_process.kill()  # mid-batch, most likely mid-send
        assert stub.count() < PEOPLE, "the worker was to be killed mid-batch"
        Delivery.objects.filter(state=DeliveryState.SENDING).update(next_try_at=timezone.now())  # its lease runs out
        celery_worker_process.start()  # sweeps as it starts, and takes the queue on
        wait_until(lambda: Delivery.objects.filter(state=DeliveryState.SENT).count() == PEOPLE, 120,
                   "every push sent")

        received = stub.all()
        topics = Counter(push.headers["topic"] for push in received)
        assert len(topics) == PEOPLE  # every notification reached the push service
        notifications = {n.tag: n for n in Notification.objects.all()}
        assert set(topics) == set(notifications)
        for push in received:  # a push sent again is the same message: same Topic, same tag, same text
            payload = phones[push.path].decrypt(push.body)
            notification = notifications[push.headers["topic"]]
            assert payload["tag"] == push.headers["topic"] and payload["body"] == notification.body
            assert f"/push/user{notification.user_id}" == push.path
        repeated = {topic for topic, count in topics.items() if count > 1}
        print(f"{len(received)} pushes received for {PEOPLE} notifications; sent again: {sorted(repeated)}")
        assert len(received) == PEOPLE + len(repeated) and all(topics[topic] == 2 for topic in repeated)
        deliveries = list(Delivery.objects.all())
        assert len(deliveries) == PEOPLE and all(d.state == DeliveryState.SENT and d.sent_at for d in deliveries)
        assert {d.notification.tag for d in deliveries if d.tries > 1} == repeated
    finally:
        stub.stop()


def test_mails_with_a_worker_killed_mid_batch_go_into_the_outbox_once_and_out_once_each(celery_worker_process):
    sink = SmtpSink(delay=SLOW).start()
    try:
        celery_worker_process.stop()
        celery_worker_process.start(EMAIL_URL=sink.url)  # the outbox delivers to the sink
        users = [make_user(f"player{n}") for n in range(PEOPLE)]
        for user in users:
            user.email = f"{user.username}@example.org"
            user.save(update_fields=["email"])
        tell_everyone(users, email=True, push=False)

        wait_until(lambda: len(sink.message_ids()) >= PEOPLE // 3, 90, "a third of the mails at the sink")
        celery_worker_process.kill()
        assert len(sink.message_ids()) < PEOPLE, "the worker was to be killed mid-batch"
        # the outbox's lease (accounts.mail.LEASE) on a mail cut off mid-send runs out
        OutgoingMail.objects.filter(state=MailState.WAITING).update(next_try_at=timezone.now())
        celery_worker_process.start(EMAIL_URL=sink.url)
        wait_until(lambda: OutgoingMail.objects.filter(state=MailState.SENT).count() == PEOPLE, 120,
                   "every mail sent")

        expected = {message_id(n) for n in Notification.objects.all()}
        assert len(expected) == PEOPLE
        assert Delivery.objects.filter(state=DeliveryState.SENT).count() == PEOPLE
        kept = Counter(mail.headers["Message-ID"] for mail in OutgoingMail.objects.all())
        assert set(kept) == expected and set(kept.values()) == {1}  # into the outbox exactly once each
        received = Counter(sink.message_ids())
        print(f"{len(sink.messages)} mails received for {PEOPLE}; again: {[m for m, c in received.items() if c > 1]}")
        assert set(received) == expected  # every one out
        assert len(sink.messages) == PEOPLE + sum(count - 1 for count in received.values())
        assert all(count <= 2 for count in received.values())  # a repeat only of the one cut off: the same Message-ID
    finally:
        sink.stop()
