"""Navigation between the pages: the site header's Players link, the competition page's links (public ones for
everyone, the organiser's only for the club's organisers; the bracket only for a knockout, team matches only
for a team competition), the club page's organiser links, the setup pages' Rounds link, the fixtures' marks
and player links; and the organiser's round page: the message after "Pair" says how the pairing went when the
task has already run, and the swap form's two boxes never start on the same place."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from draw import run
from draw.models import Round
from draw.publishing import publish_round
from draw.request import request_pairing
from draw.run import fail_pairing
from games import services
from games.models import Match
from league.models import Competition, Entry
from tests.factories import make_club, make_match, make_organiser, make_partnership, make_user

pytestmark = pytest.mark.django_db


# ----------------------------------------------------------------------------- helpers
@pytest.fixture
def world():
    club = make_club("Belmont Sports Club")
    return {"club": club, "organiser": make_organiser(club, make_user("olive")), "stranger": make_user("sam")}


def competition_of(club, *, system: str = Competition.SWISS, entrants: int = 4, **fields) -> Competition:
    serial = Competition.objects.count() + 1
    competition = Competition.objects.create(club=club, name=f"Cup {serial}", slug=f"cup-{serial}", system=system,
                                             published=True, **fields)
    for seed in range(1, entrants + 1):
        Entry.objects.create(competition=competition, partnership=make_partnership(club=club, name=f"Pair {seed}"),
                             seed=seed)
    return competition


def args(competition: Competition, *more) -> list:
    return [competition.club.slug, competition.slug, *more]


def page(client, url: str, user=None) -> str:
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def href(url: str) -> str:
    return f'href="{url}"'


PUBLIC_LINKS = ("competition_standings", "competition_rounds", "competition_standings_csv", "competition_results_csv")
ORGANISER_LINKS = ("competition_edit", "competition_entries")


def competition_url(competition: Competition) -> str:
    return reverse("competition", args=args(competition))


def messages_of(html: str) -> str:
    found = re.search(r'<ul class="messages".*?</ul>', html, re.S)
    return found.group() if found else ""


# ----------------------------------------------------------------------------- the header
def test_every_page_has_the_players_link_in_the_header(client, world):
    competition = competition_of(world["club"])
    for url in (reverse("home"), reverse("club", args=[world["club"].slug]), competition_url(competition),
                reverse("players")):
        html = page(client, url)
        header = html[html.index('<header class="site">'):html.index("</header>")]
        assert href(reverse("players")) in header, url
    assert 'aria-current="page">Players</a>' in page(client, reverse("players"))


# ----------------------------------------------------------------------------- the competition page
@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_the_public_sees_the_public_links_only(client, world, who):
    competition = competition_of(world["club"])
    html = page(client, competition_url(competition), world["stranger"] if who == "stranger" else None)
    for name in PUBLIC_LINKS:
        assert href(reverse(name, args=args(competition))) in html, name
    for name in ORGANISER_LINKS:
        assert reverse(name, args=args(competition)) not in html, name
    assert reverse("round_manage", args=args(competition, 1)) not in html
    assert 'id="organiser-nav"' not in html
    assert reverse("competition_bracket", args=args(competition)) not in html  # a Swiss has no bracket
    assert "/team-matches/" not in html


def test_the_organiser_sees_setup_entries_and_the_next_round(client, world, django_capture_on_commit_callbacks):
    competition = competition_of(world["club"], planned_rounds=3)
    html = page(client, competition_url(competition), world["organiser"])
    for name in PUBLIC_LINKS + ORGANISER_LINKS:
        assert href(reverse(name, args=args(competition))) in html, name
    nav = html[html.index('id="organiser-nav"'):]
    nav = nav[:nav.index("</nav>")]
    assert href(reverse("round_manage", args=args(competition, 1))) in nav and "Pair round 1" in nav
    assert "New team match" not in nav  # pairs, not teams

    with django_capture_on_commit_callbacks(execute=True):
        round_one = request_pairing(competition, 1)
    html = page(client, competition_url(competition), world["organiser"])
    assert href(reverse("round_manage", args=args(competition, 1))) in html and "Manage Round 1 (draft)" in html
    assert '<h3>Round 1 <span class="badge draft">draft</span>' in html  # its (draft) fixtures say so

    publish_round(Round.objects.get(pk=round_one.pk))
    html = page(client, competition_url(competition), world["organiser"])
    assert href(reverse("round_manage", args=args(competition, 2))) in html and "Pair round 2" in html


def test_a_competition_with_fixtures_set_by_hand_has_no_round_to_pair(client, world):
    competition = competition_of(world["club"], system=Competition.MANUAL)
    html = page(client, competition_url(competition), world["organiser"])
    assert href(reverse("competition_edit", args=args(competition))) in html
    assert "/manage/" not in html.split('id="organiser-nav"')[1].split("</nav>")[0]


@pytest.mark.parametrize("system, bracket", [(Competition.KNOCKOUT, True), (Competition.GROUPS_KNOCKOUT, True),
                                             (Competition.SWISS, False), (Competition.ROUND_ROBIN, False)])
def test_the_bracket_link_is_only_for_a_knockout(client, world, system, bracket):
    competition = competition_of(world["club"], system=system)
    url = reverse("competition_bracket", args=args(competition))
    assert (href(url) in page(client, competition_url(competition))) is bracket
    assert client.get(url).status_code == (200 if bracket else 404)  # the link never leads to a 404


def test_team_matches_links_are_only_for_a_team_competition(client, world):
    teams = competition_of(world["club"], entrants=0, entrant_kind=Competition.TEAMS)
    pairs = competition_of(world["club"])
    listing, new = reverse("team_matches", args=args(teams)), reverse("team_match_new", args=args(teams))
    html = page(client, competition_url(teams))
    assert href(listing) in html and new not in html  # the public: the list, not the organiser's form
    html = page(client, competition_url(teams), world["organiser"])
    assert href(listing) in html and href(new) in html
    html = page(client, competition_url(pairs), world["organiser"])
    assert "/team-matches/" not in html and "New team match" not in html


def test_fixtures_mark_coarse_results_and_forfeits_and_link_the_players(client, world):
    competition = competition_of(world["club"], entrants=0)
    totals = make_match(competition, side_a=make_partnership(club=world["club"], name="Lions"),
                        side_b=make_partnership(club=world["club"], name="Tigers"))
    services.record_match_totals(totals, games_a=1, games_b=0, author_label="test")
    forfeit = make_match(competition)
    services.record_forfeit(forfeit, outcome=Match.FORFEIT_A, author_label="test")
    plain = make_match(competition)

    html = page(client, competition_url(competition))
    fixtures = html[html.index('id="fixtures"'):]
    assert fixtures.count("mark-match") == 1 and "match totals only" in fixtures
    assert fixtures.count("mark-forfeit") == 1
    for match in (totals, forfeit, plain):
        for partnership in (match.side_a, match.side_b):
            for player in (partnership.player_one, partnership.player_two):
                assert f'{href(reverse("player", args=[player.pk]))}>{player.name}</a>' in fixtures


# ----------------------------------------------------------------------------- the club page, the setup pages
def test_the_club_page_gives_organisers_new_competition_and_import(client, world):
    club = world["club"]
    competition_of(club)
    urls = (reverse("competition_create", args=[club.slug]), reverse("club_import", args=[club.slug]))
    for user in (None, world["stranger"]):
        html = page(client, reverse("club", args=[club.slug]), user)
        assert not any(url in html for url in urls)
    html = page(client, reverse("club", args=[club.slug]), world["organiser"])
    assert all(href(url) in html for url in urls)
    for url in urls:
        assert client.get(url).status_code == 200


def test_the_setup_pages_link_the_rounds(client, world):
    competition = competition_of(world["club"])
    rounds_url = reverse("competition_rounds", args=args(competition))
    for name in ("competition_edit", "competition_entries"):
        html = page(client, reverse(name, args=args(competition)), world["organiser"])
        assert href(rounds_url) in html, name


def test_the_home_page_links_the_players(client, world):
    html = page(client, reverse("home"))
    assert href(reverse("players")) in html.split("</header>")[1]


# ----------------------------------------------------------------------------- the organiser's round page
@pytest.mark.django_db(transaction=True)
def test_after_pair_the_message_says_the_draft_is_ready_when_the_task_has_run(client):
    """No test transaction around the request: the pairing task runs (eagerly) as the request commits, so the
    draft is there by the time the page comes back — the message must not say it is on its way."""
    club = make_club()
    organiser = make_organiser(club, make_user("olive"))
    competition = competition_of(club, planned_rounds=3)
    client.force_login(organiser)
    html = client.post(reverse("round_pair", args=args(competition, 1)), follow=True)
    html = html.content.decode()
    assert Round.objects.get(competition=competition, number=1).pairing_state == Round.DONE
    shown = messages_of(html)
    assert "Round 1 is paired: review the draft below, then publish it." in shown
    assert "appears here when it is ready" not in html
    assert "Draft pairings" in html


@pytest.mark.django_db(transaction=True)
def test_after_pair_a_failed_pairing_is_an_error_message(client, monkeypatch):
    club = make_club()
    organiser = make_organiser(club, make_user("olive"))
    competition = competition_of(club, planned_rounds=3)

    def fail(round_id: int, version: int) -> dict:
        fail_pairing(round_id, version, "Pairing failed: nobody left to pair")
        return {"state": Round.FAILED}

    monkeypatch.setattr(run, "run_pairing", fail)
    client.force_login(organiser)
    html = client.post(reverse("round_pair", args=args(competition, 1)), follow=True)
    shown = messages_of(html.content.decode())
    assert 'class="message error"' in shown and "Pairing failed: nobody left to pair" in shown
    assert "appears here when it is ready" not in shown


def test_after_pair_a_queued_pairing_says_the_draft_is_on_its_way(client, world):
    """The task has not run yet (a worker would run it): the message says so, and the page says it runs."""
    competition = competition_of(world["club"], planned_rounds=3)
    client.force_login(world["organiser"])
    html = client.post(reverse("round_pair", args=args(competition, 1)), follow=True)
    html = html.content.decode()  # the test's transaction holds the task back: the round is still queued
    assert Round.objects.get(competition=competition, number=1).pairing_state == Round.QUEUED
    assert "Pairing Round 1: the draft appears here when it is ready." in messages_of(html)
    assert "The pairing is running" in html


def selected(html: str, name: str) -> tuple[str, list[str]]:
    """The selected option's value of the select box ``name``, and every option's value."""
    box = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    options = re.findall(r'<option value="([^"]*)"([^>]*)>', box)
    chosen = [value for value, attrs in options if "selected" in attrs] or [options[0][0]]
    return chosen[0], [value for value, _ in options]


@pytest.fixture
def draft(client, world, django_capture_on_commit_callbacks):
    competition = competition_of(world["club"], planned_rounds=3)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = request_pairing(competition, 1)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE
    client.force_login(world["organiser"])
    return competition, round_


def test_the_swap_boxes_never_start_on_the_same_place(client, draft):
    competition, _ = draft
    html = client.get(reverse("round_manage", args=args(competition, 1))).content.decode()
    form = html[html.index('id="swap-form"'):]
    form = form[:form.index("</form>")]
    first, first_options = selected(form, "first")
    second, second_options = selected(form, "second")
    assert first and first in first_options
    assert second == "" and second_options[0] == ""  # "choose…"
    assert 'value="" selected>choose…</option>' in form
    assert first != second and set(second_options) - {""} == set(first_options)


def test_a_swap_of_a_place_with_itself_or_with_nothing_is_refused(client, draft):
    competition, round_ = draft
    url = reverse("round_manage", args=args(competition, 1))
    before = sorted(Match.objects.filter(round=round_).values_list("pk", "side_a_id", "side_b_id"))
    html = client.get(url).content.decode()
    first, _ = selected(html[html.index('id="swap-form"'):], "first")

    swap = reverse("round_swap", args=args(competition, 1))
    response = client.post(swap, {"first": first, "second": first}, follow=True)
    assert "Choose two different places to swap." in messages_of(response.content.decode())
    response = client.post(swap, {"first": first, "second": ""}, follow=True)
    assert "Choose the place to swap it with." in messages_of(response.content.decode())
    assert sorted(Match.objects.filter(round=round_).values_list("pk", "side_a_id", "side_b_id")) == before


def test_the_side_boxes_start_on_choose_and_an_empty_side_is_refused_by_name(client, draft):
    competition, round_ = draft
    url = reverse("round_manage", args=args(competition, 1))
    form = client.get(url).content.decode()
    form = form[form.index('id="edit-form"'):]
    assert selected(form, "side_a")[0] == "" and selected(form, "side_b")[0] == ""
    match = Match.objects.filter(round=round_).first()
    response = client.post(reverse("round_edit_match", args=args(competition, 1)),
                           {"match": match.pk, "side_a": "", "side_b": match.side_a_id}, follow=True)
    assert "Choose side A." in messages_of(response.content.decode())
    assert Match.objects.get(pk=match.pk).side_b_id == match.side_b_id  # unchanged
