"""The mail goes out through the outbox: kept with the action that caused it, delivered by a worker after the commit,
tried again while the mail server does not answer, given up (and logged) only after a day of tries."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail import send_mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils import timezone

from accounts import mail as outbox
from accounts.models import MailState, OutgoingMail

pytestmark = pytest.mark.django_db


class DownMailServer(BaseEmailBackend):
    """A mail server that does not answer."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


@pytest.fixture
def through_the_outbox(settings):
    settings.EMAIL_BACKEND = "accounts.mail.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return settings


def make_due(mail_id: int) -> None:
    OutgoingMail.objects.filter(pk=mail_id).update(next_try_at=timezone.now() - timedelta(seconds=1))


def test_a_mail_is_kept_with_its_action_and_delivered_once_the_action_commits(
        through_the_outbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        assert send_mail("Your link", "Follow it", None, ["rita@example.org"]) == 1
        assert OutgoingMail.objects.get().state == MailState.WAITING and not mail.outbox  # not before the commit
    assert len(callbacks) == 1
    (sent,) = mail.outbox
    assert sent.to == ["rita@example.org"] and sent.subject == "Your link"
    kept = OutgoingMail.objects.get()
    assert kept.state == MailState.SENT and kept.sent_at is not None and kept.tries == 1


def test_a_mail_of_an_action_rolled_back_is_never_sent(through_the_outbox, django_capture_on_commit_callbacks):
    with (django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(RuntimeError),
          transaction.atomic()):
        send_mail("Your link", "Follow it", None, ["rita@example.org"])
        raise RuntimeError("the action failed")
    assert not callbacks and not OutgoingMail.objects.exists() and not mail.outbox


def test_a_mail_server_that_does_not_answer_fails_nothing_and_the_mail_goes_out_when_it_answers(
        through_the_outbox, django_capture_on_commit_callbacks, caplog):
    through_the_outbox.EMAIL_DELIVERY_BACKEND = f"{__name__}.DownMailServer"
    with django_capture_on_commit_callbacks(execute=True):
        assert send_mail("Your link", "Follow it", None, ["rita@example.org"]) == 1  # the caller is not failed
    kept = OutgoingMail.objects.get()
    assert kept.state == MailState.WAITING and kept.tries == 1 and "SMTPServerDisconnected" in kept.last_error
    assert timedelta(seconds=25) < kept.next_try_at - timezone.now() <= timedelta(seconds=30)
    assert "trying again in 0:00:30" in caplog.text

    assert outbox.sweep_mail(older_than=0) == {"mails": 0}  # not due yet: left for its retry
    through_the_outbox.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    make_due(kept.pk)
    assert outbox.sweep_mail(older_than=0) == {"mails": 1}
    assert OutgoingMail.objects.get().state == MailState.SENT and len(mail.outbox) == 1


def test_after_a_day_of_failed_tries_a_mail_is_given_up_with_its_reason_logged(through_the_outbox, caplog):
    through_the_outbox.EMAIL_DELIVERY_BACKEND = f"{__name__}.DownMailServer"
    kept = OutgoingMail.objects.create(subject="Your link", body="Follow it", from_email="a@b.c", to=["r@e.org"])
    assert sum(outbox.RETRY_DELAYS, timedelta()) >= timedelta(days=1)
    states = []
    for _ in range(len(outbox.RETRY_DELAYS) + 1):
        make_due(kept.pk)
        states.append(outbox.deliver(kept.pk))
    assert states == [MailState.WAITING] * len(outbox.RETRY_DELAYS) + [MailState.GAVE_UP]
    kept.refresh_from_db()
    assert kept.state == MailState.GAVE_UP and "SMTPServerDisconnected" in kept.last_error
    assert "gave up sending mail" in caplog.text and "r@e.org" in caplog.text
    make_due(kept.pk)
    assert outbox.deliver(kept.pk) is None  # given up: not tried again


def test_a_mail_another_try_holds_is_not_sent_twice(through_the_outbox):
    kept = OutgoingMail.objects.create(subject="Your link", body="Follow it", from_email="a@b.c", to=["r@e.org"])
    assert outbox.claim(kept.pk) is not None
    assert outbox.deliver(kept.pk) is None and not mail.outbox  # leased to the first try
    OutgoingMail.objects.filter(pk=kept.pk).update(next_try_at=timezone.now() - outbox.LEASE)  # that try died
    assert outbox.deliver(kept.pk) == MailState.SENT and len(mail.outbox) == 1


def test_by_default_mails_are_written_to_a_folder(through_the_outbox, tmp_path):
    through_the_outbox.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    through_the_outbox.EMAIL_FILE_PATH = tmp_path
    kept = outbox.keep(mail.EmailMessage("Your link", "Follow https://x.example/a/", "a@b.c", ["r@e.org"]))
    assert outbox.deliver(kept.pk) == MailState.SENT
    (written,) = tmp_path.iterdir()
    assert "Follow https://x.example/a/" in written.read_text() and "To: r@e.org" in written.read_text()


def test_an_html_alternative_and_headers_are_kept(through_the_outbox):
    message = mail.EmailMultiAlternatives("Hi", "plain", "a@b.c", ["r@e.org"], headers={"X-Club": "Belmont"})
    message.attach_alternative("<p>rich</p>", "text/html")
    outbox.deliver(outbox.keep(message).pk)
    (sent,) = mail.outbox
    assert sent.alternatives[0][0] == "<p>rich</p>" and sent.extra_headers["X-Club"] == "Belmont"


def test_the_sweep_sends_a_mail_whose_task_was_lost(through_the_outbox):
    from config.sweep import sweep_task

    kept = OutgoingMail.objects.create(subject="Your link", body="Follow it", from_email="a@b.c", to=["r@e.org"])
    make_due(kept.pk)  # queued, and the worker that held it died
    assert sweep_task(older_than=0)["mails"] == 1
    assert OutgoingMail.objects.get().state == MailState.SENT and len(mail.outbox) == 1
