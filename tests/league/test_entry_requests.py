"""Entries asked for by the entrants: a player asks with a partner who confirms (or declines); a complete entry is
entered while there is room, asked of the organiser when they approve each, or put on the waiting list, which moves
up when an entrant withdraws; the deadline and the cap hold; every step keeps who took it and when."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from league import entries, entry_requests
from league.models import Competition, Entry, EntryRequest, EntryRequestState, EntryRequestStep
from league.setup_errors import SetupError
from tests.factories import make_club, make_competition, make_organiser, make_partnership, make_player, make_user

pytestmark = pytest.mark.django_db
State = EntryRequestState


@pytest.fixture
def club():
    club = make_club("Couva Kings")
    make_organiser(club, make_user("olive"))
    return club


@pytest.fixture
def cup(club):
    return make_competition(club=club)


def player(club, name):
    user = make_user(name.lower())
    user.email = f"{name.lower()}@example.com"
    user.save()
    return make_player(name, club=club, user=user)


def opened(competition, **options):
    return entry_requests.open_entries(competition=competition, by=competition.club.roles.first().user, **options)


def asked_and_confirmed(competition, one, two):
    request = entry_requests.ask(competition=competition, user=one.user, partner=two)
    return entry_requests.confirm(request=request, user=two.user)


def test_a_player_asks_with_a_partner_who_confirms_and_the_pair_is_entered(club, cup):
    opened(cup)
    ann, bob = player(club, "Ann"), player(club, "Bob")
    request = entry_requests.ask(competition=cup, user=ann.user, partner=bob)
    assert request.state == State.PARTNER_TO_CONFIRM and not cup.entries.exists()
    (to_bob,) = mail.outbox
    assert to_bob.to == ["bob@example.com"] and "Ann asks you to partner" in to_bob.subject
    assert f"/clubs/{club.slug}/{cup.slug}/enter/" in to_bob.body

    request = entry_requests.confirm(request=request, user=bob.user)
    assert request.state == State.APPROVED
    entry = cup.entries.get()
    assert {entry.partnership.player_one, entry.partnership.player_two} == {ann, bob} and request.entry == entry
    steps = [(event.step, event.by.username) for event in request.events.all()]
    assert steps == [(EntryRequestStep.ASKED, "ann"), (EntryRequestStep.CONFIRMED, "bob"),
                     (EntryRequestStep.ENTERED, "bob")]


def test_a_partner_who_declines_leaves_nothing_entered_and_the_asker_may_ask_again(club, cup):
    opened(cup)
    ann, bob, cy = player(club, "Ann"), player(club, "Bob"), player(club, "Cy")
    request = entry_requests.ask(competition=cup, user=ann.user, partner=bob)
    assert entry_requests.decline(request=request, user=bob.user).state == State.DECLINED
    assert not cup.entries.exists() and "declined" in mail.outbox[-1].subject
    again = entry_requests.ask(competition=cup, user=ann.user, partner=cy)
    assert again.state == State.PARTNER_TO_CONFIRM


def test_only_the_partner_named_answers_and_only_once(club, cup):
    opened(cup)
    ann, bob = player(club, "Ann"), player(club, "Bob")
    request = entry_requests.ask(competition=cup, user=ann.user, partner=bob)
    with pytest.raises(SetupError, match="only the partner named"):
        entry_requests.confirm(request=request, user=ann.user)
    entry_requests.confirm(request=request, user=bob.user)
    with pytest.raises(SetupError, match="already answered"):
        entry_requests.decline(request=request, user=bob.user)


def test_an_entry_after_the_deadline_is_refused_and_so_is_a_late_confirmation(club, cup):
    window = opened(cup, closes_at=timezone.now() + timedelta(hours=1))
    ann, bob, cy, di = (player(club, name) for name in ("Ann", "Bob", "Cy", "Di"))
    request = entry_requests.ask(competition=cup, user=ann.user, partner=bob)
    window.closes_at = timezone.now() - timedelta(minutes=1)
    window.save()
    with pytest.raises(SetupError, match="closed on") as refused:
        entry_requests.ask(competition=cup, user=cy.user, partner=di)
    assert refused.value.field == "competition"
    with pytest.raises(SetupError, match="closed on"):
        entry_requests.confirm(request=request, user=bob.user)


def test_a_competition_not_open_for_entries_takes_none(club, cup):
    ann, bob = player(club, "Ann"), player(club, "Bob")
    with pytest.raises(SetupError, match="not taking entries"):
        entry_requests.ask(competition=cup, user=ann.user, partner=bob)
    opened(cup, is_open=False)
    with pytest.raises(SetupError, match="not taking entries"):
        entry_requests.ask(competition=cup, user=ann.user, partner=bob)


def test_over_the_cap_a_pair_goes_on_the_waiting_list_and_moves_up_when_another_withdraws(club, cup):
    opened(cup, cap=2)
    a, b, c, d, e, f = (player(club, name) for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"))
    first = asked_and_confirmed(cup, a, b)
    asked_and_confirmed(cup, c, d)
    third = asked_and_confirmed(cup, e, f)
    assert third.state == State.WAITING_LIST and cup.entries.filter(withdrawn=False).count() == 2
    assert "waiting list" in mail.outbox[-1].subject

    entry_requests.withdraw(request=first, user=b.user)  # either player of a pair may withdraw it
    third.refresh_from_db()
    assert third.state == State.APPROVED and third.entry.partnership.player_one == e
    assert not Entry.objects.filter(pk=first.entry_id).exists()  # never paired: taken off, not withdrawn
    assert third.events.last().step == EntryRequestStep.MOVED_UP and third.events.last().by is None
    assert mail.outbox[-1].subject == f"Entered: {cup.name}" and mail.outbox[-1].to == ["flo@example.com"]


def test_the_waiting_list_moves_up_when_the_organiser_withdraws_an_entry_on_the_entries_page(club, cup):
    opened(cup, cap=2)
    a, b, c, d, e, f = (player(club, name) for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"))
    first = asked_and_confirmed(cup, a, b)
    asked_and_confirmed(cup, c, d)
    third = asked_and_confirmed(cup, e, f)
    entries.remove_entry(entry=first.entry)
    first.refresh_from_db()
    third.refresh_from_db()
    assert first.state == State.WITHDRAWN and third.state == State.APPROVED


def test_raising_the_cap_lets_the_waiting_list_in(club, cup):
    opened(cup, cap=2)
    a, b, c, d, e, f = (player(club, name) for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"))
    asked_and_confirmed(cup, a, b)
    asked_and_confirmed(cup, c, d)
    third = asked_and_confirmed(cup, e, f)
    opened(cup, cap=3)
    third.refresh_from_db()
    assert third.state == State.APPROVED


def test_the_cap_cannot_go_below_those_entered(club, cup):
    opened(cup)
    a, b, c, d, e, f = (player(club, name) for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"))
    for one, two in ((a, b), (c, d), (e, f)):
        asked_and_confirmed(cup, one, two)
    with pytest.raises(SetupError, match="3 are already entered") as refused:
        opened(cup, cap=2)
    assert refused.value.field == "cap"


def test_with_approval_an_entry_waits_for_the_organiser_who_approves_or_refuses(club, cup):
    opened(cup, needs_approval=True)
    olive = club.roles.first().user
    a, b, c, d = (player(club, name) for name in ("Ann", "Bob", "Cy", "Di"))
    first = asked_and_confirmed(cup, a, b)
    second = asked_and_confirmed(cup, c, d)
    assert first.state == second.state == State.ASKED and not cup.entries.exists()
    assert entry_requests.approve(request=first, by=olive).state == State.APPROVED
    assert entry_requests.refuse(request=second, by=olive).state == State.REFUSED
    assert cup.entries.count() == 1 and "refused" in mail.outbox[-1].subject
    with pytest.raises(SetupError, match="nothing to approve"):
        entry_requests.approve(request=second, by=olive)


def test_a_player_asks_once_and_a_partner_already_held_cannot_be_named(club, cup):
    opened(cup)
    a, b, c = (player(club, name) for name in ("Ann", "Bob", "Cy"))
    entry_requests.ask(competition=cup, user=a.user, partner=b)
    with pytest.raises(SetupError, match="already entered") as twice:
        entry_requests.ask(competition=cup, user=a.user, partner=c)
    assert twice.value.field == "player"
    with pytest.raises(SetupError, match="Bob has already entered") as held:
        entry_requests.ask(competition=cup, user=c.user, partner=b)
    assert held.value.field == "partner"
    assert b not in entry_requests.partners_for(cup, c)


def test_a_player_in_a_pair_the_organiser_entered_cannot_ask_again(club, cup):
    opened(cup)
    pair = make_partnership(club=club)
    pair.player_one.user = make_user("pam")
    pair.player_one.save()
    other = player(club, "Bob")
    cup.entries.create(partnership=pair)
    with pytest.raises(SetupError, match="already entered"):
        entry_requests.ask(competition=cup, user=pair.player_one.user, partner=other)


def test_only_the_clubs_players_with_an_account_enter_and_name_partners(club, cup):
    opened(cup)
    ann = player(club, "Ann")
    stranger = make_user("stranger")
    with pytest.raises(SetupError, match="not one of Couva Kings's players") as refused:
        entry_requests.ask(competition=cup, user=stranger, partner=ann)
    assert refused.value.field == "player"
    no_account = make_player("Nobody", club=club)
    elsewhere = player(make_club("Other"), "Faraway")
    for partner in (no_account, elsewhere):
        with pytest.raises(SetupError, match="with an account") as refused:
            entry_requests.ask(competition=cup, user=ann.user, partner=partner)
        assert refused.value.field == "partner"
    with pytest.raises(SetupError, match="choose your partner"):
        entry_requests.ask(competition=cup, user=ann.user, partner=None)
    assert list(entry_requests.partners_for(cup, ann)) == []


def test_an_individual_event_enters_the_player_alone(club):
    singles = make_competition(club=club)
    singles.entrant_kind = Competition.INDIVIDUAL
    singles.save()
    opened(singles)
    ann = player(club, "Ann")
    request = entry_requests.ask(competition=singles, user=ann.user)
    assert request.state == State.APPROVED and singles.entries.get().player == ann


def team_cup(club, tables=2):
    cup = make_competition(club=club)
    Competition.objects.filter(pk=cup.pk).update(entrant_kind=Competition.TEAMS, team_tables=tables)
    cup.refresh_from_db()
    return cup


def test_a_captain_enters_a_team_with_its_pairs_and_the_team_is_made(club):
    cup = team_cup(club)
    opened(cup)
    captain = player(club, "Cap")
    pairs = [make_partnership(club=club, name=name) for name in ("Aces", "Kings")]
    request = entry_requests.ask(competition=cup, user=captain.user, team_name="Couva Blues", pairs=pairs)
    assert request.state == State.APPROVED and request.names == "Couva Blues"
    team = cup.entries.get().team
    assert team.name == "Couva Blues" and set(team.partnerships.all()) == set(pairs)
    entry_requests.withdraw(request=request, user=captain.user)
    assert not cup.teams.exists() and not cup.entries.exists()  # never paired: the team goes, its name is free


def test_a_captains_entry_is_refused_without_enough_free_pairs_or_with_a_name_taken(club):
    cup = team_cup(club, tables=2)
    opened(cup)
    one, two = player(club, "Cap"), player(club, "Other")
    aces, kings, queens = (make_partnership(club=club, name=name) for name in ("Aces", "Kings", "Queens"))
    with pytest.raises(SetupError, match="plays at 2 tables") as few:
        entry_requests.ask(competition=cup, user=one.user, team_name="Blues", pairs=[aces])
    assert few.value.field == "pairs"
    with pytest.raises(SetupError, match="give your team a name") as unnamed:
        entry_requests.ask(competition=cup, user=one.user, team_name=" ", pairs=[aces, kings])
    assert unnamed.value.field == "team_name"
    entry_requests.ask(competition=cup, user=one.user, team_name="Blues", pairs=[aces, kings])
    with pytest.raises(SetupError, match="already has a team called 'blues'"):
        entry_requests.ask(competition=cup, user=two.user, team_name="blues", pairs=[queens, aces])
    with pytest.raises(SetupError, match="Aces is not a free pair") as held:
        entry_requests.ask(competition=cup, user=two.user, team_name="Reds", pairs=[queens, aces])
    assert held.value.field == "pairs"
    assert aces not in entry_requests.pairs_for(cup)


def test_the_waiting_list_stays_once_the_first_round_is_paired(club, cup):
    opened(cup, cap=2)
    a, b, c, d, e, f = (player(club, name) for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"))
    first = asked_and_confirmed(cup, a, b)
    asked_and_confirmed(cup, c, d)
    third = asked_and_confirmed(cup, e, f)
    cup.rounds.create(number=1)
    entry_requests.withdraw(request=first, user=a.user)
    third.refresh_from_db()
    assert third.state == State.WAITING_LIST  # the organiser enters a latecomer by hand


# ----------------------------------------------------------------------------- the pages
def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_entering_page_asks_and_shows_each_step_to_the_entrant_and_the_organiser(club, cup):
    opened(cup, cap=4)
    ann, bob = player(club, "Ann"), player(club, "Bob")
    page = logged_in(ann.user).get(f"/clubs/{club.slug}/{cup.slug}/enter/").content.decode()
    assert "Taking entries" in page and "0 of 4 places taken" in page and "Bob</option>" in page
    response = logged_in(ann.user).post(f"/clubs/{club.slug}/{cup.slug}/enter/ask/", {"partner": bob.pk})
    assert response.status_code == 302
    request = EntryRequest.objects.get()
    bobs = logged_in(bob.user).get(f"/clubs/{club.slug}/{cup.slug}/enter/").content.decode()
    assert "partner to confirm" in bobs and "Confirm: I partner Ann" in bobs
    logged_in(bob.user).post(f"/clubs/{club.slug}/{cup.slug}/enter/{request.pk}/confirm/")
    olive = logged_in(club.roles.first().user)
    organiser_page = olive.get(f"/clubs/{club.slug}/{cup.slug}/entry-requests/").content.decode()
    assert "Ann &amp; Bob" in organiser_page and "bob: confirmed as partner" in organiser_page
    assert "Enter</a>" in olive.get(f"/clubs/{club.slug}/{cup.slug}/").content.decode()
    assert "taking entries: enter" in Client().get(f"/clubs/{club.slug}/").content.decode()
    withdrawn = olive.post(f"/clubs/{club.slug}/{cup.slug}/entry-requests/{request.pk}/withdraw/", follow=True)
    assert "Ann &amp; Bob: withdrawn." in withdrawn.content.decode() and not cup.entries.exists()


def test_asking_without_a_partner_shows_the_message_next_to_the_field(club, cup):
    opened(cup)
    ann = player(club, "Ann")
    response = logged_in(ann.user).post(f"/clubs/{club.slug}/{cup.slug}/enter/ask/", {"partner": ""})
    assert response.status_code == 400
    assert 'id="f-partner"' in response.content.decode() and "choose your partner" in response.content.decode()


def test_a_visitor_is_sent_to_log_in_and_another_player_cannot_answer_for_the_partner(club, cup):
    opened(cup)
    ann, bob, cy = player(club, "Ann"), player(club, "Bob"), player(club, "Cy")
    page = Client().get(f"/clubs/{club.slug}/{cup.slug}/enter/").content.decode()
    assert "Log in to enter" in page
    response = Client().post(f"/clubs/{club.slug}/{cup.slug}/enter/ask/", {"partner": bob.pk})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    request = entry_requests.ask(competition=cup, user=ann.user, partner=bob)
    answer = logged_in(cy.user).post(f"/clubs/{club.slug}/{cup.slug}/enter/{request.pk}/confirm/", follow=True)
    assert "only the partner named" in answer.content.decode()
    request.refresh_from_db()
    assert request.state == State.PARTNER_TO_CONFIRM


def test_the_organiser_sets_the_window_with_errors_next_to_the_fields(club, cup):
    olive = logged_in(club.roles.first().user)
    url = f"/clubs/{club.slug}/{cup.slug}/entry-requests/"
    bad = olive.post(url, {"is_open": "on", "cap": "1", "closes_at": "tomorrow"})
    assert bad.status_code == 400
    text = bad.content.decode()
    assert 'id="f-cap"' in text and "greater than or equal to 2" in text and "Enter a valid date/time" in text
    good = olive.post(url, {"is_open": "on", "cap": "8", "closes_at": "2030-01-31T20:00", "needs_approval": "on"})
    assert good.status_code == 302
    window = entry_requests.window_of(cup)
    assert window.cap == 8 and window.needs_approval and timezone.localtime(window.closes_at).hour == 20
    assert logged_in(make_user("nobody")).get(url).status_code == 403


def test_the_entering_page_of_a_team_competition_asks_the_captain_for_the_team_and_its_pairs(club):
    cup = team_cup(club)
    opened(cup)
    captain = player(club, "Cap")
    aces, kings = (make_partnership(club=club, name=name) for name in ("Aces", "Kings"))
    client = logged_in(captain.user)
    page = client.get(f"/clubs/{club.slug}/{cup.slug}/enter/").content.decode()
    assert "Your team&#x27;s name" in page and 'name="pairs"' in page and "the team's captain" in page
    refused = client.post(f"/clubs/{club.slug}/{cup.slug}/enter/ask/", {"team_name": "Blues", "pairs": [aces.pk]})
    assert refused.status_code == 400 and 'id="f-pairs"' in refused.content.decode()
    client.post(f"/clubs/{club.slug}/{cup.slug}/enter/ask/", {"team_name": "Blues", "pairs": [aces.pk, kings.pk]})
    assert cup.teams.get().name == "Blues"
