"""Setting competitions up: the organiser's pages (a competition and its options, the tiebreak chooser,
entries, late entries, withdrawals, seeds, groups, teams), the services behind them (``league.entries``),
who may use them, the API's fields and entries, and the standings table the chosen tiebreaks shape."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from rest_framework.test import APIClient

from draw.models import Round
from league import entries as setup
from league.models import Competition, Entry, Team
from league.partnerships import create_partnership
from league.seeding import set_groups, set_seeds
from league.setup_errors import SetupError
from league.teams import create_team, edit_team
from standings.columns import ranking_sentence, standings_context, standings_table
from standings.models import StandingRow
from tests.factories import (
    make_club,
    make_competition,
    make_match,
    make_organiser,
    make_partnership,
    make_player,
    make_user,
)

pytestmark = pytest.mark.django_db

BOSTON = ["bullseyes_for", "bullseyes_against", "hang_jacks_for", "hang_jacks_against"]
BOSTON_SENTENCE = ("Ranked by bullseyes for, then fewest bullseyes against, then hang jacks for, "
                   "then fewest hang jacks against")


# ----------------------------------------------------------------------------- helpers
@pytest.fixture
def world():
    club = make_club("Belmont Sports Club")
    organiser = make_organiser(club, make_user("olive"))
    other_organiser = make_organiser(make_club("Arima Social Club"), make_user("oscar"))
    scorekeeper = make_user("sam")
    competition = make_competition(club=club, entrants=4)
    make_match(competition, side_a=competition.entries.all()[0].partnership,
               side_b=competition.entries.all()[1].partnership, scorekeepers=[scorekeeper])
    draft = make_competition(club=club, published=False)
    return {"club": club, "competition": competition, "draft": draft, "organiser": organiser,
            "other_organiser": other_organiser, "scorekeeper": scorekeeper}


def form_data(**overrides) -> dict:
    """Everything the competition form posts, with the model's defaults; ``tiebreaks`` is a list."""
    data = {
        "name": "Friday Swiss", "slug": "", "season": "2025", "players": "4", "entrant_kind": "pairs",
        "system": "round_robin", "planned_rounds": "", "group_count": "0", "advance_per_group": "2",
        "match_format": "single", "match_games": "1", "result_level": "hand", "points_win": "2",
        "points_draw": "1", "points_loss": "0", "bye_policy": "fixed", "team_tables": "3", "team_mode": "race",
        "team_target": "22", "team_games_per_table": "3",
    }
    tiebreaks = overrides.pop("tiebreaks", ["wins", "bullseye_difference", "chalk_difference"])
    data.update({key: str(value) for key, value in overrides.items() if value is not None})
    for key in [key for key, value in overrides.items() if value is None]:
        data.pop(key, None)
    for number, key in enumerate(tiebreaks, start=1):
        data[f"tiebreaks_{number}"] = key
    return data


def text(response) -> str:
    return response.content.decode()


def field_block(page: str, name: str) -> str:
    """The HTML of one field of a setup form, from its wrapper to the next field."""
    start = page.index(f'id="f-{name}"')
    following = page.find('id="f-', start + 1)
    return page[start:following if following != -1 else len(page)]


def entries_url(competition: Competition) -> str:
    return reverse("competition_entries", args=[competition.club.slug, competition.slug])


def entry_url(button: str, entry: Entry) -> str:
    """The URL a row's button of the entries page posts to (withdraw, reinstate, remove)."""
    competition = entry.competition
    return reverse(f"competition_entry_{button}", args=[competition.club.slug, competition.slug, entry.pk])


def edit_url(competition: Competition) -> str:
    return reverse("competition_edit", args=[competition.club.slug, competition.slug])


def paired_round(competition: Competition, number: int, *, status: str = Round.PUBLISHED) -> Round:
    """A round with one match between two new entrants (published unless said otherwise)."""
    round_ = Round.objects.create(competition=competition, number=number, status=status)
    match = make_match(competition)
    match.round = round_
    match.save(update_fields=["round"])
    return round_


# ----------------------------------------------------------------------------- creating a competition
def test_an_organiser_creates_a_swiss_event_through_the_page(client, world):
    club = world["club"]
    client.force_login(world["organiser"])
    url = reverse("competition_create", args=[club.slug])
    page = text(client.get(url))
    assert 'name="tiebreaks_1"' in page and 'name="planned_rounds"' in page and 'name="bye_bullseyes_for"' in page
    response = client.post(url, form_data(
        system="swiss", planned_rounds=5, avoid_same_club="on", match_format="best_of", match_games=3,
        result_level="game", bye_bullseyes_for=2, bye_chalks_for=28, rule_target=10, rule_undertrump_ban="on",
        tiebreaks=["match_points", "buchholz", "bullseye_difference"]))
    competition = Competition.objects.get(club=club, name="Friday Swiss")
    assert response.status_code == 302 and response["Location"] == entries_url(competition)
    assert (competition.slug, competition.season, competition.system, competition.planned_rounds) == (
        "friday-swiss", "2025", "swiss", 5)
    assert competition.avoid_same_club and not competition.published
    assert (competition.match_format, competition.match_games, competition.result_level) == ("best_of", 3, "game")
    assert competition.tiebreaks == ["match_points", "buchholz", "bullseye_difference"]
    assert competition.bye_score == {"bullseyes_for": 2, "chalks_for": 28}
    assert competition.ruleset == {"target": 10, "undertrump_ban": True}
    assert "was created as a draft" in text(client.get(response["Location"]))


def test_a_boston_round_robin_ranks_by_bullseyes_and_hang_jacks(client, world):
    client.force_login(world["organiser"])
    response = client.post(reverse("competition_create", args=[world["club"].slug]),
                           form_data(name="Boston League", tiebreaks=BOSTON))
    assert response.status_code == 302
    boston = Competition.objects.get(name="Boston League")
    assert boston.tiebreaks == BOSTON and boston.system == "round_robin"
    page = text(client.get(edit_url(boston)))
    chooser = page[page.index('id="f-tiebreaks"'):page.index("</fieldset>", page.index('id="f-tiebreaks"'))]
    for number, key in enumerate(BOSTON, start=1):  # the chooser shows the order back
        select = chooser[chooser.index(f'name="tiebreaks_{number}"'):]
        select = select[:select.index("</select>")]
        assert f'value="{key}" selected' in select
    assert ranking_sentence(boston.tiebreaks).startswith(BOSTON_SENTENCE)


@pytest.mark.parametrize(("tiebreaks", "reason"), [
    (["wins", "wins"], "&#x27;wins&#x27; is listed twice"),
    ([], "choose at least one metric to rank by"),
    (["bogus"], "unknown metric &#x27;bogus&#x27;"),
])
def test_a_bad_tiebreak_order_is_shown_next_to_the_chooser(client, world, tiebreaks, reason):
    client.force_login(world["organiser"])
    response = client.post(reverse("competition_create", args=[world["club"].slug]),
                           form_data(name="Bad order", tiebreaks=tiebreaks))
    assert response.status_code == 422
    page = text(response)
    chooser = page[page.index('id="f-tiebreaks"'):page.index("</fieldset>", page.index('id="f-tiebreaks"'))]
    assert 'class="field-errors"' in chooser and reason in chooser
    assert not Competition.objects.filter(name="Bad order").exists()


def test_an_organiser_sets_a_competition_to_be_played_online(client, world):
    club = world["club"]
    client.force_login(world["organiser"])
    url = reverse("competition_create", args=[club.slug])
    page = text(client.get(url))
    assert "<legend>Played online</legend>" in page and 'name="online_no_show"' in page
    client.post(url, form_data(name="Online Swiss", system="swiss", planned_rounds=3))  # the options left out
    plain = Competition.objects.get(club=club, name="Online Swiss")
    assert (plain.play_online, plain.online_grace_minutes, plain.online_no_show, plain.online_bot_rated,
            plain.online_next_round) == (False, 10, "forfeit", False, "review")
    response = client.post(edit_url(plain), form_data(
        name="Online Swiss", system="swiss", planned_rounds=3, play_online="on", online_grace_minutes=0,
        online_no_show="bot", online_bot_rated="on", online_next_round="publish"))
    assert response.status_code == 302
    plain.refresh_from_db()
    assert (plain.play_online, plain.online_grace_minutes, plain.online_no_show, plain.online_bot_rated,
            plain.online_next_round) == (True, 0, "bot", True, "publish")


@pytest.mark.parametrize(("overrides", "field", "reason"), [
    ({"system": "swiss"}, "planned_rounds", "a Swiss event declares its number of rounds"),
    ({"match_format": "best_of", "match_games": 4}, "match_games", "a best-of match needs an odd number of games"),
    ({"rule_target": 0}, "rule_target", "greater than or equal to 1"),
    ({"rule_game_tie": "bogus"}, "rule_game_tie", "Select a valid choice"),
    ({"third_place_match": "on"}, "third_place_match", "only a knockout has a third-place match"),
    ({"system": "groups_knockout", "group_count": 1}, "group_count", "at least 2 groups"),
    ({"points_loss": 3}, "points_loss", "a loss cannot earn more points than a draw"),
    ({"entrant_kind": "individual", "players": 2}, "entrant_kind", "All Twos has no partners to rotate"),
    ({"entrant_kind": "teams", "team_tables": 0}, "team_tables", "at least one table"),
    ({"bye_chalks_for": -1}, "bye_chalks_for", "greater than or equal to 0"),
    ({"online_grace_minutes": 121}, "online_grace_minutes", "at most 120"),
    ({"online_no_show": "sulk"}, "online_no_show", "Select a valid choice"),
])
def test_each_bad_option_is_shown_next_to_its_field(client, world, overrides, field, reason):
    client.force_login(world["organiser"])
    response = client.post(reverse("competition_create", args=[world["club"].slug]),
                           form_data(name="Bad options", **overrides))
    assert response.status_code == 422
    block = field_block(text(response), field)
    assert 'class="field-errors"' in block and reason in block, block
    assert not Competition.objects.filter(name="Bad options").exists()


def test_a_taken_slug_is_refused_and_an_edit_keeps_its_own(client, world):
    client.force_login(world["organiser"])
    taken = world["competition"].slug
    response = client.post(reverse("competition_create", args=[world["club"].slug]), form_data(slug=taken))
    assert response.status_code == 422 and "already has a competition" in field_block(text(response), "slug")
    competition = world["competition"]
    response = client.post(edit_url(competition), form_data(name="Renamed", slug=""))
    assert response.status_code == 302
    competition.refresh_from_db()
    assert (competition.name, competition.slug) == ("Renamed", taken)


def test_editing_changes_the_options_rewrites_the_standings_and_locks_what_matches_need(
        client, world, django_capture_on_commit_callbacks):
    competition = world["competition"]
    client.force_login(world["organiser"])
    assert StandingRow.objects.filter(competition=competition).count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(edit_url(competition), form_data(name=competition.name, tiebreaks=BOSTON))
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.tiebreaks == BOSTON
    assert StandingRow.objects.filter(competition=competition).count() == 4  # refreshed after the commit
    response = client.post(edit_url(competition), form_data(name=competition.name, players=2))
    assert response.status_code == 422
    assert "cannot change once the competition has matches" in field_block(text(response), "players")
    response = client.post(edit_url(competition), form_data(name=competition.name, entrant_kind="teams"))
    assert "cannot change once the competition has entries" in field_block(text(response), "entrant_kind")


def test_publishing_and_unpublishing(client, world):
    draft = world["draft"]
    client.force_login(world["organiser"])
    url = reverse("competition_publish", args=[draft.club.slug, draft.slug])
    assert client.get(url).status_code == 405
    assert client.post(url, {"published": "true"}).status_code == 302
    draft.refresh_from_db()
    assert draft.published
    client.post(url, {"published": "false"})
    draft.refresh_from_db()
    assert not draft.published


def test_publishing_a_competition_of_fewer_than_two_entrants_warns_the_organiser(client, world):
    draft = world["draft"]
    draft.entries.all().delete()
    client.force_login(world["organiser"])
    url = reverse("competition_publish", args=[draft.club.slug, draft.slug])
    page = text(client.post(url, {"published": "true"}, follow=True))
    assert "is published" in page
    assert 'class="message warning"' in page and "has no entrants" in page and "at least two" in page
    Entry.objects.create(competition=draft, partnership=make_partnership(club=draft.club, name="Lone Pair"))
    page = text(client.post(url, {"published": "true"}, follow=True))
    assert "has one entrant" in page and "Add the entries" in page
    Entry.objects.create(competition=draft, partnership=make_partnership(club=draft.club, name="Second Pair"))
    page = text(client.post(url, {"published": "true"}, follow=True))
    assert 'class="message warning"' not in page


def test_the_organiser_finds_the_setup_pages_from_the_club_and_competition_pages(client, world):
    club, competition = world["club"], world["competition"]
    assert reverse("competition_create", args=[club.slug]) not in text(client.get(reverse("club", args=[club.slug])))
    client.force_login(world["organiser"])
    assert reverse("competition_create", args=[club.slug]) in text(client.get(reverse("club", args=[club.slug])))
    page = text(client.get(reverse("competition", args=[club.slug, competition.slug])))
    assert edit_url(competition) in page and entries_url(competition) in page


# ----------------------------------------------------------------------------- who may
SETUP_PAGES = {
    "create": lambda w: reverse("competition_create", args=[w["club"].slug]),
    "edit": lambda w: edit_url(w["competition"]),
    "entries": lambda w: entries_url(w["competition"]),
    "edit draft": lambda w: edit_url(w["draft"]),
    "entries of draft": lambda w: entries_url(w["draft"]),
}
EXPECTED = {
    #                  create  edit  entries  edit draft  entries of draft
    "anonymous":       ("login", "login", "login", 404, 404),  # a draft: as if there were none
    "scorekeeper":     (403, 403, 403, 404, 404),
    "other_organiser": (403, 403, 403, 404, 404),
    "organiser":       (200, 200, 200, 200, 200),
}


@pytest.mark.parametrize("actor", list(EXPECTED))
def test_only_the_clubs_organisers_set_up_its_competitions(client, world, actor):
    if actor != "anonymous":
        client.force_login(world[actor])
    entries_before = Entry.objects.count()
    for (page, url), expected in zip(SETUP_PAGES.items(), EXPECTED[actor], strict=True):
        for method in ("get", "post"):
            if method == "post":  # the entries page's add form posts to a view of its own
                target = url(world).replace("/entries/", "/entries/new/")
                response = client.post(target, {"partnership": make_partnership(club=world["club"]).pk})
            else:
                response = client.get(url(world))
            if expected == "login":
                assert response.status_code == 302 and "/accounts/login/" in response["Location"], (page, method)
            elif expected == 200 and method == "post":
                assert response.status_code in (200, 302, 422), (page, method)
            else:
                assert response.status_code == expected, (page, method, response.status_code)
    if actor != "organiser":
        assert Entry.objects.count() == entries_before  # a refused POST changes nothing
    publish = reverse("competition_publish", args=[world["draft"].club.slug, world["draft"].slug])
    client.post(publish, {"published": "true"})
    world["draft"].refresh_from_db()
    assert world["draft"].published == (actor == "organiser")


# ----------------------------------------------------------------------------- entries: services
def test_enter_checks_the_kind_and_the_size_and_refreshes_the_standings(world, django_capture_on_commit_callbacks):
    competition = make_competition(club=world["club"])
    pair = make_partnership(club=world["club"])
    with django_capture_on_commit_callbacks(execute=True):
        entry = setup.enter(competition=competition, partnership=pair, seed=1)
    assert (entry.joined_round, entry.seed, entry.withdrawn) == (1, 1, False)
    assert StandingRow.objects.filter(competition=competition, partnership=pair).exists()
    cases = [
        ({"partnership": pair}, "partnership", "is already entered"),
        ({"partnership": make_partnership(club=world["club"], players=2)}, "partnership", "a 4-player game"),
        ({"player": make_player()}, "player", "entered by partnerships, not by a player"),
        ({}, "partnership", "choose the partnership"),
        ({"partnership": make_partnership(), "seed": 1}, "seed", "seed 1 is already"),
        ({"partnership": make_partnership(), "seed": 0}, "seed", "a whole number from 1"),
    ]
    for kwargs, field, reason in cases:
        with pytest.raises(SetupError) as caught:
            setup.enter(competition=competition, **kwargs)
        assert caught.value.field == field and reason in caught.value.reason, kwargs
    shares = make_partnership()
    shares.player_two = pair.player_one
    shares.save()
    with pytest.raises(SetupError, match=f"{pair.player_one.name} already plays in"):
        setup.enter(competition=competition, partnership=shares)


def test_a_late_entry_plays_from_the_next_unpaired_round(world):
    competition = make_competition(club=world["club"], entrants=2)
    assert setup.first_unpaired_round(competition) == 1
    paired_round(competition, 1)
    assert setup.first_unpaired_round(competition) == 2
    draft = Round.objects.create(competition=competition, number=2, status=Round.DRAFT, pairing_state=Round.DONE)
    assert setup.first_unpaired_round(competition) == 3  # a draft already paired is not rewritten
    Round.objects.create(competition=competition, number=3, status=Round.DRAFT)  # made, not paired yet
    assert setup.first_unpaired_round(competition) == 3
    late = setup.enter(competition=competition, partnership=make_partnership(club=world["club"]))
    assert late.joined_round == 3
    assert draft.matches.count() == 0  # nothing rewritten


def test_withdraw_keeps_results_and_reinstate_takes_it_back(world, django_capture_on_commit_callbacks):
    competition = make_competition(club=world["club"])
    round_one = paired_round(competition, 1)
    match = round_one.matches.get()
    paired_round(competition, 2, status=Round.DRAFT)  # not published: not the last published round
    entry = Entry.objects.get(competition=competition, partnership=match.side_a)
    with django_capture_on_commit_callbacks(execute=True):
        setup.withdraw(entry=entry)
    entry.refresh_from_db()
    assert (entry.withdrawn, entry.withdrawn_after_round) == (True, 1)
    assert competition.matches.filter(pk=match.pk).exists()  # its result stands
    with pytest.raises(SetupError, match="has already withdrawn"):
        setup.withdraw(entry=entry)
    with pytest.raises(SetupError, match="withdraw it instead"):
        setup.remove_entry(entry=entry)
    setup.reinstate(entry=entry)
    entry.refresh_from_db()
    assert (entry.withdrawn, entry.withdrawn_after_round) == (False, None)
    with pytest.raises(SetupError, match="has not withdrawn"):
        setup.reinstate(entry=entry)
    setup.withdraw(entry=entry)
    again = setup.enter(competition=competition, partnership=match.side_a, seed=4)  # entering again reinstates
    assert (again.pk, again.withdrawn, again.seed) == (entry.pk, False, 4)
    fresh = setup.enter(competition=competition, partnership=make_partnership(club=world["club"]))
    setup.remove_entry(entry=fresh)
    assert not Entry.objects.filter(pk=fresh.pk).exists()


def test_seeds_and_groups_are_checked_as_a_whole(world):
    competition = make_competition(club=world["club"], entrants=3)
    competition.group_count = 2
    competition.save()
    a, b, c = competition.entries.order_by("id")
    set_seeds(competition=competition, seeds={a.pk: 1, b: 2})
    set_seeds(competition=competition, seeds={a.pk: 2, b.pk: 1})  # a swap in one go
    assert [e.seed for e in competition.entries.order_by("id")] == [2, 1, None]
    with pytest.raises(SetupError) as caught:
        set_seeds(competition=competition, seeds={c.pk: 1})
    assert caught.value.field == f"seed_{c.pk}" and "seed 1 is also" in caught.value.reason
    set_groups(competition=competition, groups={a.pk: "A", b.pk: " B ", c.pk: "A"})
    assert [e.group for e in competition.entries.order_by("id")] == ["A", "B", "A"]
    with pytest.raises(SetupError) as caught:
        set_groups(competition=competition, groups={c.pk: "C"})
    assert caught.value.field == "groups" and "has 2 groups, not 3" in caught.value.reason
    other = make_competition(club=world["club"], entrants=1).entries.get()
    with pytest.raises(SetupError, match="not an entry of"):
        set_seeds(competition=competition, seeds={other.pk: 5})


def test_teams_and_individual_entries(world):
    teams = make_competition(club=world["club"])
    teams.entrant_kind = Competition.TEAMS
    teams.save()
    pairs = [make_partnership(club=world["club"]) for _ in range(4)]
    blue = create_team(competition=teams, name="Blue Dollar", club=world["club"], partnerships=pairs[:3])
    assert Entry.objects.get(competition=teams, team=blue).joined_round == 1
    assert set(blue.partnerships.all()) == set(pairs[:3])
    with pytest.raises(SetupError, match="already plays for Blue Dollar") as caught:
        create_team(competition=teams, name="Pelican", partnerships=[pairs[2], pairs[3]])
    assert caught.value.field == "partnerships"
    with pytest.raises(SetupError, match="already has a team"):
        create_team(competition=teams, name="Blue Dollar")
    edit_team(team=blue, name="Blue Dollar Bar", partnerships=pairs[:2])
    blue.refresh_from_db()
    assert blue.name == "Blue Dollar Bar" and blue.partnerships.count() == 2
    with pytest.raises(SetupError, match="not a team competition"):
        create_team(competition=world["competition"], name="Nope")

    individual = make_competition(club=world["club"])
    individual.entrant_kind = Competition.INDIVIDUAL
    individual.save()
    player = make_player(club=world["club"])
    assert setup.enter(competition=individual, player=player).player == player
    with pytest.raises(SetupError, match="entered by individuals"):
        setup.enter(competition=individual, partnership=pairs[0])


def test_a_partnership_made_on_the_spot_is_reused(world):
    one, two = make_player(), make_player()
    made = create_partnership(club=world["club"], player_one=one, player_two=two)
    assert create_partnership(club=world["club"], player_one=two, player_two=one) == made
    with pytest.raises(SetupError) as caught:
        create_partnership(club=world["club"], player_one=one, player_two=one)
    assert caught.value.field == "player_two"


# ----------------------------------------------------------------------------- entries: the page
def test_the_entries_page_adds_seeds_withdraws_and_reinstates(client, world):
    competition = make_competition(club=world["club"], entrants=2)
    client.force_login(world["organiser"])
    url = entries_url(competition)
    page = text(client.get(url))
    assert "No round is paired yet" in page and 'name="player_two"' in page
    existing = make_partnership(club=world["club"], name="Smokey & Bunty")
    add = reverse("competition_entry_add", args=[competition.club.slug, competition.slug])
    assert client.post(add, {"partnership": existing.pk, "seed": 1}).status_code == 302
    one, two = make_player("Ann"), make_player("Bea")
    response = client.post(add, {"player_one": one.pk, "player_two": two.pk, "group": "A"}, follow=True)
    assert "Ann &amp; Bea is entered." in text(response)
    made = Entry.objects.get(competition=competition, partnership__player_one=one)
    assert (made.group, made.partnership.player_two) == ("A", two)

    response = client.post(add, {})
    assert response.status_code == 422
    assert "choose a partnership, or the players of a new one" in field_block(text(response), "partnership")
    response = client.post(add, {"player_one": one.pk})
    assert "choose the partner" in field_block(text(response), "player_two")

    rows = list(competition.entries.order_by("id"))
    arranging = reverse("competition_entries_arrange", args=[competition.club.slug, competition.slug])
    arrange = {}
    for n, entry in enumerate(rows, start=1):
        arrange[f"seed_{entry.pk}"], arrange[f"group_{entry.pk}"] = n, ""
    arrange[f"seed_{rows[-1].pk}"] = 1  # the same seed as the first
    response = client.post(arranging, arrange)
    assert response.status_code == 422
    page = text(response)
    row = page[page.index(f'id="entry-{rows[-1].pk}"'):]
    assert "seed 1 is also" in row[:row.index("</tr>")]
    arrange[f"seed_{rows[-1].pk}"] = 4
    assert client.post(arranging, arrange).status_code == 302
    assert [e.seed for e in competition.entries.order_by("id")] == [1, 2, 3, 4]

    paired_round(competition, 1)
    page = text(client.get(url))
    assert "plays from round 2" in page and "Add a late entrant" in page
    late = make_partnership(club=world["club"])
    response = client.post(add, {"partnership": late.pk}, follow=True)
    assert "a late entry: it plays from round 2" in text(response)
    assert Entry.objects.get(competition=competition, partnership=late).joined_round == 2

    target = rows[0]
    response = client.post(entry_url("withdraw", target), follow=True)
    assert "has withdrawn; its results stand" in text(response)
    target.refresh_from_db()
    assert target.withdrawn and target.withdrawn_after_round == 1
    assert "withdrawn</span> after round 1" in text(response)
    client.post(entry_url("reinstate", target))
    target.refresh_from_db()
    assert not target.withdrawn
    assert client.post(url.replace("/entries/", "/entries/999999/withdraw/")).status_code == 404


def test_a_team_is_made_and_edited_through_the_pages(client, world):
    competition = make_competition(club=world["club"])
    competition.entrant_kind, competition.team_tables = Competition.TEAMS, 2
    competition.save()
    client.force_login(world["organiser"])
    assert reverse("team_create", args=[world["club"].slug, competition.slug]) in text(
        client.get(entries_url(competition)))
    pairs = [make_partnership(club=world["club"]) for _ in range(2)]
    one, two = make_player(), make_player()
    url = reverse("team_create", args=[world["club"].slug, competition.slug])
    response = client.post(url, {"name": "Blue Dollar", "club": world["club"].pk,
                                 "partnerships": [p.pk for p in pairs], "player_one": one.pk, "player_two": two.pk})
    assert response.status_code == 302
    team = Team.objects.get(competition=competition, name="Blue Dollar")
    assert team.partnerships.count() == 3 and Entry.objects.filter(competition=competition, team=team).exists()
    response = client.post(url, {"name": "Blue Dollar"})
    assert response.status_code == 422 and "already has a team" in field_block(text(response), "name")
    response = client.post(url, {"name": "Pelican", "partnerships": [pairs[0].pk]})
    assert "already plays for Blue Dollar" in field_block(text(response), "partnerships")
    edit = reverse("team_edit", args=[world["club"].slug, competition.slug, team.pk])
    assert client.post(edit, {"name": "Blue Dollar Bar", "partnerships": [pairs[0].pk]}).status_code == 302
    team.refresh_from_db()
    assert team.name == "Blue Dollar Bar" and list(team.partnerships.all()) == [pairs[0]]
    pairs_only = world["competition"]
    assert client.get(reverse("team_create", args=[world["club"].slug, pairs_only.slug])).status_code == 404


# ----------------------------------------------------------------------------- the API
@pytest.fixture
def api(world) -> APIClient:
    client = APIClient()
    client.force_authenticate(world["organiser"])
    return client


def error_fields(response) -> list[str]:
    return [error["field"] for error in response.json()["errors"]]


def test_the_api_creates_a_competition_with_its_options(api, world):
    body = {"club": world["club"].pk, "name": "Boston", "system": "double_round_robin", "tiebreaks": BOSTON,
            "points_win": 3, "bye_policy": "average", "result_level": "match"}
    response = api.post("/api/competitions/", body, format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert (created["tiebreaks"], created["system"], created["points_win"]) == (BOSTON, "double_round_robin", 3)
    for tiebreaks in (["wins", "wins"], ["bogus"], [], "wins"):
        response = api.post("/api/competitions/", {**body, "tiebreaks": tiebreaks}, format="json")
        assert response.status_code == 400 and error_fields(response) == ["tiebreaks"], tiebreaks
    cases = [({"system": "swiss"}, "planned_rounds"), ({"bye_score": {"chalks_for": -1}}, "bye_score.chalks_for"),
             ({"bye_score": {"goals": 1}}, "bye_score"), ({"third_place_match": True}, "third_place_match")]
    for extra, field in cases:
        response = api.post("/api/competitions/", {**body, **extra}, format="json")
        assert response.status_code == 400 and error_fields(response) == [field], extra
    patched = api.patch(f"/api/competitions/{created['id']}/", {"tiebreaks": ["match_points"]}, format="json")
    assert patched.status_code == 200 and patched.json()["tiebreaks"] == ["match_points"]
    bad = api.patch(f"/api/competitions/{created['id']}/", {"tiebreaks": ["nope"]}, format="json")
    assert bad.status_code == 400 and error_fields(bad) == ["tiebreaks"]


def test_the_api_lists_adds_and_withdraws_entries(api, world):
    competition = world["competition"]
    url = f"/api/competitions/{competition.pk}/entries/"
    listed = api.get(url).json()["results"]
    assert len(listed) == 4 and {"team", "player", "joined_round", "withdrawn_after_round"} <= set(listed[0])
    paired_round(competition, 1)
    pair = make_partnership(club=world["club"])
    response = api.post(url, {"partnership": pair.pk, "seed": 9}, format="json")
    assert response.status_code == 201, response.json()
    entry = response.json()
    assert (entry["joined_round"], entry["seed"], entry["entrant_name"]) == (2, 9, pair.display_name)
    again = api.post(url, {"partnership": pair.pk}, format="json")
    assert again.status_code == 400 and error_fields(again) == ["partnership"]
    withdrawn = api.post(f"{url}{entry['id']}/withdraw/")
    assert withdrawn.status_code == 200 and withdrawn.json()["withdrawn_after_round"] == 1
    twice = api.post(f"{url}{entry['id']}/withdraw/")
    assert twice.status_code == 400 and error_fields(twice) == ["entry"]
    assert api.post(f"{url}{entry['id']}/reinstate/").json()["withdrawn"] is False
    assert api.post(f"{url}999999/withdraw/").status_code == 404

    other = APIClient()
    other.force_authenticate(world["other_organiser"])
    assert other.post(f"{url}{entry['id']}/withdraw/").status_code == 403
    assert other.post(url, {"partnership": make_partnership().pk}, format="json").status_code == 403
    assert APIClient().post(f"{url}{entry['id']}/withdraw/").status_code in (401, 403)
    assert Entry.objects.get(pk=entry["id"]).withdrawn is False


def test_the_schema_has_the_entry_actions(client):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    assert "/api/competitions/{id}/entries/{entry_id}/withdraw/" in paths
    assert "/api/competitions/{id}/entries/{entry_id}/reinstate/" in paths


# ----------------------------------------------------------------------------- the standings table
def standing(competition: Competition, rank: int, partnership=None, **fields) -> StandingRow:
    partnership = partnership or make_partnership(club=competition.club)
    return StandingRow.objects.create(competition=competition, partnership=partnership, rank=rank, **fields)


def test_the_table_shows_the_tiebreak_columns_the_order_in_words_and_shared_places(world):
    competition = world["competition"]
    competition.tiebreaks = ["match_points", "buchholz", "bullseyes_for"]
    competition.save()
    first = standing(competition, 1, match_points=4, bullseyes_for=5, metrics={"buchholz": 7, "match_points": 4})
    standing(competition, 2, match_points=2, metrics={"buchholz": 3}, coarse=True)
    standing(competition, 2, match_points=2, metrics={"buchholz": 3}, withdrawn=True)
    rows = list(StandingRow.objects.filter(competition=competition).order_by("rank", "id"))
    table = standings_table(competition, rows)
    headers = [column.header for column in table.columns]
    assert headers == ["P", "W", "L", "Pts", "BE for", "BE agst", "Chalks for", "Chalks agst", "HJ for", "HJ agst",
                       "Bch"]
    assert [column.rank for column in table.columns if column.rank] == [1, 3, 2]
    assert [line.place for line in table.sections[0].groups[0].lines] == ["1", "=2", "=2"]
    html = render_to_string("pages/standings.html", {
        "competition": competition, "club": competition.club, "standings": rows,
        **standings_context(competition, rows)})
    assert "Ranked by match points, then Buchholz (opponents&#x27; points), then bullseyes for" in html
    assert html.count('<td class="num rank">=2</td>') == 2
    assert '<td class="num strong grp key">7</td>' in html  # Buchholz, read from the metrics; shown on a phone
    assert "badge withdrawn" in html and "some results were entered as game or match totals" in html
    assert reverse("player", args=[first.partnership.player_one_id]) in html


def test_the_table_works_for_teams_players_and_groups(world):
    competition = make_competition(club=world["club"])
    competition.entrant_kind, competition.tiebreaks = Competition.TEAMS, BOSTON
    competition.save()
    team = create_team(competition=competition, name="Pelican", club=world["club"])
    StandingRow.objects.create(competition=competition, team=team, rank=1, group="A")
    player = make_player("Carla")
    StandingRow.objects.create(competition=competition, player=player, rank=1, group="B")
    rows = list(StandingRow.objects.filter(competition=competition))
    table = standings_table(competition, rows)
    assert [group.title for group in table.sections[0].groups] == ["Group A", "Group B"]
    html = render_to_string("standings/_standings_table.html", {"standings": rows,
                                                             **standings_context(competition, rows)})
    assert "Pelican" in html and escape(world["club"].name) in html
    assert f'href="{reverse("player", args=[player.pk])}">Carla</a>' in html
    assert re.search(r"Ranked by bullseyes for, then fewest bullseyes against", html)


def test_the_competition_page_states_the_format_and_the_tiebreaks(client, world):
    competition = world["competition"]
    competition.tiebreaks = BOSTON
    competition.save()
    standing(competition, 1, bullseyes_for=3)
    standing(competition, 1, bullseyes_for=3)
    page = text(client.get(reverse("competition", args=[competition.club.slug, competition.slug])))
    assert "Round robin" in page and "A single game" in page and "A win: bullseyes for 1 (the target)." in page
    assert BOSTON_SENTENCE in page
    assert page.count('<td class="num rank">=1</td>') == 2
    standings_page = text(client.get(reverse("competition_standings", args=[competition.club.slug,
                                                                            competition.slug])))
    assert BOSTON_SENTENCE in standings_page and "HJ agst" in standings_page
