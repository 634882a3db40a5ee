"""Who is told what: a round published (table, opponents, time), a result entered or changed (once each), a
reminder before a fixture (again when it moves), something that needs the person (by push) — each by the channels
the person chose."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import OutgoingMail
from draw.publishing import publish_round
from games.models import Match
from games.results import record_match_totals
from league import entry_requests
from league.entry_request_models import EntryWindow
from notify import reminders, services
from notify.models import Channel, Delivery, DeliveryState, Notification, NotificationKind
from notify.preferences import Choice
from tests.factories import make_club, make_competition, make_player, make_user
from tests.notify.push_service import BrowserSubscription
from tests.notify.scenes import FRIDAY_8PM, draft_round

pytestmark = pytest.mark.django_db
Kind = NotificationKind


@pytest.fixture
def outbox(settings):
    """Mail kept in the outbox and delivered to Django's test outbox (``mail.outbox``)."""
    settings.EMAIL_BACKEND = "accounts.mail.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return settings


def told(kind: str = Kind.ROUND_PUBLISHED) -> dict[str, Notification]:
    return {n.user.username: n for n in Notification.objects.filter(kind=kind).select_related("user")}


def test_publishing_a_round_tells_each_player_with_an_account_their_table_opponents_and_time(
        outbox, django_capture_on_commit_callbacks):
    round_, match = draft_round()
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(round_)
    notifications = told()
    assert set(notifications) == {"ann", "bob", "dee"}  # Cid has no account
    ann, dee = notifications["ann"], notifications["dee"]
    assert ann.title == f"Round 3 of {round_.competition.name}"
    assert ann.body == "Table 7 v Cid & Dee, Friday 14 March, 8 pm"
    assert dee.body == "Table 7 v Ann & Bob, Friday 14 March, 8 pm"
    assert ann.url.endswith(f"/matches/{match.pk}/")
    # by e-mail (on by default for a round), into the outbox once, delivered with the notification's Message-ID
    assert {d.state for d in Delivery.objects.all()} == {DeliveryState.SENT}
    assert sorted(message.to[0] for message in mail.outbox) == ["ann@example.org", "bob@example.org",
                                                               "dee@example.org"]
    sent = next(message for message in mail.outbox if message.to == ["ann@example.org"])
    assert sent.subject == ann.title and "Table 7 v Cid & Dee" in sent.body and ann.url in sent.body
    assert sent.extra_headers["Message-ID"] == f"<n{ann.pk}.notification@localhost>"
    assert OutgoingMail.objects.count() == 3

    with django_capture_on_commit_callbacks(execute=True):  # announced again (a sweep beside its task): nobody twice
        from notify.announcements import announce

        announce(Kind.ROUND_PUBLISHED, round_.pk)
    assert Notification.objects.count() == 3 and OutgoingMail.objects.count() == 3


def test_a_round_of_a_competition_still_a_draft_tells_nobody(outbox, django_capture_on_commit_callbacks):
    round_, _ = draft_round(make_competition(published=False))
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(round_)
    assert not Notification.objects.exists()


def test_a_kind_or_a_channel_turned_off_is_not_sent(outbox, django_capture_on_commit_callbacks):
    round_, _ = draft_round()
    from django.contrib.auth import get_user_model

    users = {user.username: user for user in get_user_model().objects.all()}
    services.save_settings(user=users["ann"], chosen={Kind.ROUND_PUBLISHED: Choice(email=False, push=False)})
    services.save_settings(user=users["bob"], chosen={Kind.ROUND_PUBLISHED: Choice(email=False, push=True)})
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(round_)
    # Ann wants none of it; Bob only on his phones, and has none: neither is told; Dee by e-mail
    assert set(told()) == {"dee"}
    assert [message.to for message in mail.outbox] == [["dee@example.org"]]


def test_a_result_is_told_once_and_a_changed_result_again_never_to_whoever_entered_it(
        outbox, django_capture_on_commit_callbacks):
    competition = make_competition(match_format="best_of", match_games=3)
    round_, match = draft_round(competition)
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(round_)
    from django.contrib.auth import get_user_model

    users = {user.username: user for user in get_user_model().objects.all()}
    for user in users.values():  # results are not mailed by default: asked for here
        services.save_settings(user=user, chosen={Kind.RESULT: Choice(email=True, push=True)})

    def totals(games_a: int, games_b: int, user=None) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            record_match_totals(Match.objects.get(pk=match.pk), games_a=games_a, games_b=games_b, user=user,
                                author_label="" if user else "the organiser")

    totals(2, 1, user=users["ann"])  # Ann entered it: she knows (kept as told, sent nowhere)
    results = told(Kind.RESULT)
    assert set(results) == {"ann", "bob", "dee"}
    assert [m.to for m in mail.outbox if "result" in m.subject] == [["bob@example.org"], ["dee@example.org"]]
    assert results["bob"].title == f"{competition.name}: your result"
    assert results["bob"].body == "You won: Ann & Bob 2–1 Cid & Dee (games)."
    assert results["dee"].body == "You lost: Ann & Bob 2–1 Cid & Dee (games)."

    assert not Notification.objects.get(kind=Kind.RESULT, user__username="ann").deliveries.exists()  # known

    totals(2, 1)  # the same result again, by the organiser: nobody is told twice
    assert Notification.objects.filter(kind=Kind.RESULT).count() == 3 and len(told(Kind.RESULT)) == 3

    totals(1, 2)  # changed: told again, and said to be a change
    changed = Notification.objects.filter(kind=Kind.RESULT, user__username="bob").order_by("id")
    assert [n.body for n in changed] == ["You won: Ann & Bob 2–1 Cid & Dee (games).",
                                         "You lost: Ann & Bob 1–2 Cid & Dee (games)."]
    assert changed.last().title == f"{competition.name}: your result changed"
    ann = Notification.objects.filter(kind=Kind.RESULT, user__username="ann").order_by("id").last()
    assert ann.title == f"{competition.name}: your result changed" and ann.deliveries.count() == 1


def test_a_fixture_is_reminded_once_and_again_when_it_moves(outbox, django_capture_on_commit_callbacks):
    round_, match = draft_round()
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(round_)
    now = FRIDAY_8PM - timedelta(hours=3)
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders.remind(now) == 3
    assert told(Kind.REMINDER)["ann"].body == "Table 7 v Cid & Dee, Friday 14 March, 8 pm"
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders.remind(now + timedelta(minutes=5)) == 0  # beat again, the sweep: nobody twice
    assert reminders.remind(FRIDAY_8PM - timedelta(hours=30)) == 0  # not yet within the 24 hours

    Match.objects.filter(pk=match.pk).update(scheduled_at=FRIDAY_8PM + timedelta(minutes=30))  # moved
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders.remind(now) == 3
    assert Notification.objects.filter(kind=Kind.REMINDER, user__username="ann").first().body == (
        "Table 7 v Cid & Dee, Friday 14 March, 8:30 pm")

    Match.objects.filter(pk=match.pk).update(status=Match.COMPLETE, scheduled_at=FRIDAY_8PM + timedelta(hours=1))
    assert reminders.remind(now) == 0  # played already: no reminder


def test_a_partner_named_in_an_entry_request_is_told_on_their_phone(settings, django_capture_on_commit_callbacks):
    settings.DEBUG = True  # a stub push service over plain HTTP (a browser's is HTTPS)
    club = make_club()
    competition = make_competition(club=club)
    EntryWindow.objects.create(competition=competition, is_open=True)
    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    make_player("Ann", club=club, user=ann)
    bob_record = make_player("Bob", club=club, user=bob)
    phone = services.subscribe(user=bob, subscription=BrowserSubscription.new("http://127.0.0.1:9").to_json())
    with mock.patch("notify.push.send_push") as pushed, django_capture_on_commit_callbacks(execute=True):
        entry_requests.ask(competition=competition, user=ann, partner=bob_record)
    (needs_you,) = Notification.objects.filter(kind=Kind.NEEDS_YOU)
    assert needs_you.user == bob and needs_you.title == "Ann asks you to partner them"
    assert needs_you.url.endswith(f"/{competition.slug}/enter/")
    (delivery,) = needs_you.deliveries.all()
    assert (delivery.channel, delivery.subscription, delivery.state) == (Channel.PUSH, phone, DeliveryState.SENT)
    assert pushed.call_args.args == (phone, needs_you)
    # the e-mail is the request's own (league), not a second one
    assert [m.subject for m in mail.outbox] == [f"Ann asks you to partner them in {competition.name}"]
    assert not Delivery.objects.filter(channel=Channel.EMAIL).exists()


def test_a_delivery_already_sent_or_taken_by_another_try_is_not_sent_again(outbox, django_capture_on_commit_callbacks):
    from notify import delivery as deliveries

    user = make_user("ann")
    user.email = "ann@example.org"
    user.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        (notification,) = services.tell([services.Telling(user.pk, Kind.REMINDER, "k", "Title", "Body", "/x/")])
    (delivery,) = notification.deliveries.all()
    assert delivery.state == DeliveryState.SENT and OutgoingMail.objects.count() == 1
    assert deliveries.deliver(delivery.pk) is None and deliveries.sweep_deliveries(0) == 0
    assert OutgoingMail.objects.count() == 1 and len(mail.outbox) == 1
    with django_capture_on_commit_callbacks(execute=True):  # the same thing told again: nothing new
        assert services.tell([services.Telling(user.pk, Kind.REMINDER, "k", "Title", "Body", "/x/")]) == []
    assert Notification.objects.count() == 1 and OutgoingMail.objects.count() == 1


def test_a_push_try_whose_worker_died_is_taken_again_once_its_lease_runs_out(settings):
    from notify import delivery as deliveries

    settings.DEBUG = True
    user = make_user("ann")
    services.subscribe(user=user, subscription=BrowserSubscription.new("http://127.0.0.1:9").to_json())
    (notification,) = services.tell([services.Telling(user.pk, Kind.REMINDER, "k", "Title", "Body", "/x/")])
    (delivery,) = notification.deliveries.all()
    assert deliveries.claim_push(delivery.pk) is not None  # a try takes it… and its worker dies
    assert deliveries.claim_push(delivery.pk) is None and deliveries.sweep_deliveries(0) == 0  # held meanwhile
    Delivery.objects.filter(pk=delivery.pk).update(next_try_at=timezone.now() - timedelta(seconds=1))  # lease out
    with mock.patch("notify.push.send_push") as pushed:
        assert deliveries.sweep_deliveries(0) == 1
    assert pushed.call_count == 1
    delivery.refresh_from_db()
    assert (delivery.state, delivery.tries) == (DeliveryState.SENT, 2)
