"""Words a player understands. Every message names the sides A and B (never "team 0/1") and
numbers seats 1 to 4 as people do (the records keep their indexes); a table is "Table 1", never "Table Table 1";
a match format says its number ("Best of 3 games", on pages, on setup forms and in the API's schema); the rating
chart's caption says what the chart draws; and every page under a club names the club in its breadcrumbs.
(The standings' columns at 1280px and on a phone: tests/browser/test_page_tour.py.)"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from draw.models import Round
from engine import RecordError, effects_under_each_setting, score_chalk, score_record
from engine.cards import Card
from engine.penalties import ExposedCard, Misdeal, Renege
from games import services
from games.models import Hand, Match
from league.models import Competition, Entry, Team
from standings.ratings import rebuild_ratings
from tests.factories import make_club, make_competition, make_match, make_organiser, make_partnership, make_user

pytestmark = pytest.mark.django_db

TEAM_NUMBER = re.compile(r"\b[Tt]eams? [01]\b")
SEAT_ZERO = re.compile(r"\b[Ss]eats? 0\b")
CHALK = {"players": 4, "dealer": 0, "kicks": ["5C"], "beg": "stand", "high": {"team": 0}, "low": {"team": 1},
         "jack": {"team": 0}, "game": {"team": 1}}
RECORD = {"players": 2, "dealer": 0, "kick": "KS", "beg": "stand",
          "hands": [["AS", "KH", "2C", "TD", "9S", "3H"], ["QS", "JS", "4H", "5D", "7C", "8C"]]}


def refusal(score, entry: dict) -> str:
    with pytest.raises(RecordError) as caught:
        score(entry)
    return str(caught.value)


def test_engine_messages_say_side_a_or_b_and_number_seats_from_1():
    messages = [
        refusal(score_chalk, {**CHALK, "high": {"team": 2}}),
        refusal(score_chalk, {**CHALK, "game": {"counts": [40, 20]}}),
        refusal(score_chalk, {**CHALK, "game": {"team": 1, "counts": [40, 20]}}),
        refusal(score_chalk, {**CHALK, "high": {"team": 1, "card": "JC"}, "jack": {"team": 0}}),
        refusal(score_chalk, {**CHALK, "score_before": [13, 0], "kicks": ["AS"]}),
        refusal(score_chalk, {**CHALK, "score_before": [14, 0]}),
        refusal(score_chalk, {**CHALK, "dealer": 4}),
        refusal(score_chalk, {**CHALK, "penalty": {"kind": "exposed_card", "seat": 7, "card": "AS"}}),
        refusal(score_chalk, {"players": 4, "dealer": 2, "penalty": {"kind": "misdeal", "dealer": 1}}),
        refusal(score_record, {**RECORD, "plays": ["QS", "KH"]}),
        refusal(score_record, {**RECORD, "dealer": 2}),
    ]
    messages += [effect.explanation for penalty in (Renege(team=0), Renege(team=1, trump_honour=True),
                                                   ExposedCard(seat=0, card=Card.parse("AS")), Misdeal(dealer=3))
                 for effect in effects_under_each_setting(penalty).values()]
    for message in messages:
        assert not TEAM_NUMBER.search(message) and not SEAT_ZERO.search(message), message
    assert "high.team: must be 0 (side A) or 1 (side B), got 2" in messages
    assert "game.team: side A counted more (40 to 20), so side A has Game" in messages
    assert "jack.team: JC was dealt to side B (it was High), so only side B can score Jack" in messages
    assert any("took side A to the target" in m for m in messages)
    assert "score_before[0]: side A has 14, already the target 14: that game is over" in messages
    assert "plays[1]: KH is not a legal play for seat 1: trump was led and seat 1 holds AS, 9S" in messages
    assert "dealer: must be a seat index from 0 to 1 (seat 1 to seat 2), got 2" in messages
    assert any(m.startswith("Seat 4 (side B) misdealt: side A scores 1 and seat 4 deals") for m in messages)


def test_the_entry_page_says_the_engines_words(client):
    keeper = make_user()
    match = make_match(make_competition(), scorekeepers=[keeper])
    client.force_login(keeper)
    data = {"number": 1, "kick": "5C", "beg": "stand", "high": "b", "high_card": "JC", "low": "b", "jack": "a",
            "game": "a"}
    page = client.post(reverse("match_enter", args=[match.pk]), data).content.decode()
    assert "JC was dealt to side B (it was High), so only side B can score Jack" in page
    assert not TEAM_NUMBER.search(page)


@pytest.fixture
def scene():
    club = make_club("Belmont Sports Club")
    organiser = make_organiser(club, make_user("olive"))
    competition = make_competition(club=club, match_format=Competition.BEST_OF, match_games=3)
    named = make_match(competition)
    Match.objects.filter(pk=named.pk).update(table="Table 1")
    numbered = make_match(competition)
    Match.objects.filter(pk=numbered.pk).update(table="2")
    return {"club": club, "organiser": organiser, "competition": competition, "named": named, "numbered": numbered}


def test_seats_are_numbered_1_to_4_on_the_scoresheets(client, scene):
    match = scene["named"]
    sheet = client.get(reverse("match_sheet", args=[match.pk])).content.decode()
    assert "seats 1 and 3: " in sheet and "seats 2 and 4: " in sheet
    printed = client.get(reverse("match_print", args=[match.pk])).content.decode()
    assert "seat 1: " in printed and "seat 4: " in printed
    for page in (sheet, printed):
        assert not SEAT_ZERO.search(page)


def test_a_table_is_table_1_never_table_table_1(client, scene):
    club, competition = scene["club"], scene["competition"]
    round_ = Round.objects.create(competition=competition, number=1)
    Match.objects.filter(competition=competition).update(round=round_)
    client.force_login(scene["organiser"])
    pages = [reverse("competition", args=[club.slug, competition.slug]),
             reverse("competition_rounds", args=[club.slug, competition.slug]),
             reverse("round_detail", args=[club.slug, competition.slug, 1]),
             reverse("round_manage", args=[club.slug, competition.slug, 1]),
             reverse("match_sheet", args=[scene["named"].pk]), reverse("match_print", args=[scene["named"].pk]),
             reverse("match_sheet", args=[scene["numbered"].pk])]
    for url in pages:
        page = client.get(url).content.decode()
        assert not re.search(r"[Tt]able [Tt]able", page), url
        assert "Table 1" in page or "Table 2" in page, url
    assert "Table 2" in client.get(reverse("competition", args=[club.slug, competition.slug])).content.decode()


def test_the_match_format_reads_best_of_3_games_never_best_of_n(client, scene):
    club, competition = scene["club"], scene["competition"]
    for url in (reverse("home"), reverse("club", args=[club.slug]),
                reverse("competition", args=[club.slug, competition.slug])):
        page = client.get(url).content.decode()
        assert "Best of 3 games" in page and "of N" not in page and "N =" not in page, url
    client.force_login(scene["organiser"])
    setup = client.get(reverse("competition_edit", args=[club.slug, competition.slug])).content.decode()
    assert re.search(r'<option value="best_of" selected>Best of 3 games</option>', setup)
    assert '<option value="first_to">First to 3 games</option>' in setup and "N games" not in setup
    fresh = client.get(reverse("competition_create", args=[club.slug])).content.decode()
    assert "First to 1 game<" in fresh and "N games" not in fresh
    schema = client.get("/api/schema/", {"format": "json"}).content.decode()
    assert "N games" not in schema and "N bullseyes" not in schema
    assert "Best of match_games games" in schema


def test_every_page_under_a_club_names_it_in_its_breadcrumbs(client, scene):
    club, competition, match = scene["club"], scene["competition"], scene["named"]
    teams = make_competition(club=club)
    Competition.objects.filter(pk=teams.pk).update(entrant_kind=Competition.TEAMS, team_tables=1)
    teams.refresh_from_db()
    home, away = (Team.objects.create(competition=teams, club=club, name=name) for name in ("Bombers", "Ballers"))
    for team in (home, away):
        team.partnerships.add(make_partnership(club=club))
        Entry.objects.create(competition=teams, team=team)
    team_match = services.create_team_match(teams, home, away)
    client.force_login(scene["organiser"])
    urls = [reverse("club_import", args=[club.slug]),
            reverse("competition_create", args=[club.slug]),
            *(reverse(name, args=[club.slug, competition.slug]) for name in (
                "competition", "competition_standings", "competition_rounds", "competition_edit",
                "competition_entries")),
            reverse("round_manage", args=[club.slug, competition.slug, 1]),
            reverse("match_sheet", args=[match.pk]), reverse("match_manage", args=[match.pk]),
            reverse("match_forfeit", args=[match.pk]),
            reverse("team_matches", args=[club.slug, teams.slug]),
            reverse("team_match_new", args=[club.slug, teams.slug]),
            reverse("team_match", args=[team_match.pk]), reverse("team_match_totals", args=[team_match.pk])]
    club_link = f'<a href="{reverse("club", args=[club.slug])}">{club.name}</a>'
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        crumbs = re.search(r'<nav class="crumbs">(.*?)</nav>', response.content.decode(), re.S)
        assert crumbs and club_link in crumbs.group(1), (url, crumbs and crumbs.group(1))


def test_the_rating_chart_caption_says_what_the_chart_draws(client):
    club = make_club()
    competition = make_competition(club=club, published=True)
    lions, tigers, sharks = (make_partnership(club=club) for _ in range(3))
    for side_a, side_b, games in ((lions, tigers, (1, 0)), (lions, sharks, (0, 1)), (tigers, sharks, (1, 0))):
        services.record_match_totals(make_match(competition, side_a=side_a, side_b=side_b), games_a=games[0],
                                     games_b=games[1], author_label="test")
    rebuild_ratings()
    dashed = 0
    for pair in (lions, tigers, sharks):
        page = client.get(reverse("player", args=[pair.player_one.pk])).content.decode()
        chart = page[page.index('class="rating-chart"'):]
        text = re.search(r'<figcaption[^>]*>(.*?)</figcaption>', chart, re.S).group(1)
        assert "The first point (0) is the starting rating, 1500" in text
        assert "the rating after one of the 2 rated matches, green when it went up, red when it went down" in text
        drawn = 'class="base"' in page  # the dashed line, drawn only when the start is inside the chart
        assert ("also drawn as the dashed line" in text) == drawn and ("dashed" in text) == drawn, pair
        dashed += drawn
    assert 0 < dashed < 3, "both kinds of chart are shown"
    assert Hand.objects.count() == 0
