"""Results at the level a club keeps them: hand by hand, game by game, only the match's totals, and forfeits.

Each level's service, its checks (errors name the field), the match format checks, the settle task keeping
entered results, a match kept at one level, the standings rows read in one query, the sheet's marks, the
pages' permissions and the API's 400s. The settle task runs on commit (``django_capture_on_commit_callbacks``).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.common import EntryError
from games.entry import enter_hand, next_hand
from games.matches import revoke_entry_link
from games.models import Game, Hand, Match
from games.results import (
    clear_entered_result,
    clear_forfeit,
    delete_game_result,
    enter_game_result,
    record_forfeit,
    record_match_totals,
)
from games.selectors import STANDINGS_FIELDS, results_for_standings
from games.settle import settle_match
from league.models import Competition
from tests.factories import committing, make_competition, make_match, make_organiser, make_scene, make_user, sweep

pytestmark = pytest.mark.django_db


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run a service as a real commit would: the settle task runs after it."""
    return committing(django_capture_on_commit_callbacks)


@pytest.fixture
def scene():
    return make_scene("Blue Dollar Bar", organiser="olga", scorekeeper="scott", match_format=Competition.BEST_OF,
                      match_games=3)


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def field_of(call, *args, **kwargs) -> str:
    with pytest.raises(EntryError) as caught:
        call(*args, **kwargs)
    return caught.value.field


# ----------------------------------------------------------------------------- hand by hand keeps totals
def test_settle_keeps_the_match_totals_of_hands_on_the_match(scene, commit):
    match = scene["match"]
    hang = {**sweep(1), "jack": {"team": 1, "hang": True}}  # B: High, Low, Hang Jack (3), Game: 6 chalks
    for entry in (sweep(0), hang, sweep(0)):
        target = next_hand(match)
        commit(enter_hand, match=match, number=target.number, mode=Hand.CHALK, entry=entry,
               author_label="t")
    match = fresh(match)
    assert (match.chalks_a, match.chalks_b, match.hang_jacks_a, match.hang_jacks_b) == (8, 6, 0, 1)
    assert match.result_level == "hand" and match.chalks_known


# ----------------------------------------------------------------------------- game by game
def test_games_entered_decide_a_best_of_three(scene, commit):
    match = scene["match"]
    game = commit(enter_game_result, match, number=1, winner="a", hang_jacks_a=1, score_a=14,
                  score_b=9, user=scene["scorekeeper"])
    assert game.entered and game.scores_known and (game.score_a, game.score_b) == (14, 9)
    match = fresh(match)
    assert (match.result_level, match.status, match.games_a, match.games_b) == ("game", "in_progress", 1, 0)
    commit(enter_game_result, match, number=2, winner="b", hang_jacks_b=2)
    commit(enter_game_result, match, number=3, winner="a")
    match = fresh(match)
    assert (match.status, match.winner, match.games_a, match.games_b) == ("complete", "a", 2, 1)
    assert (match.chalks_a, match.chalks_b, match.chalks_known) == (14, 9, False)
    assert (match.hang_jacks_a, match.hang_jacks_b) == (1, 2)
    assert list(match.games.values_list("number", "winner", "entered")) == [
        (1, "a", True), (2, "b", True), (3, "a", True)]


def test_settle_does_not_recompute_entered_games(scene, commit):
    match = scene["match"]
    commit(enter_game_result, match, number=1, winner="b", score_a=7, score_b=15, hang_jacks_b=1)
    before = list(Game.objects.filter(match=match).values())
    settle_match(match.pk)
    settle_match(match.pk)
    assert list(Game.objects.filter(match=match).values()) == before
    assert fresh(match).games_b == 1 and not Game.objects.filter(match=match, entered=False).exists()


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"number": 1, "winner": "a", "score_a": 12, "score_b": 9}, "score_a"),       # the winner below 14
    ({"number": 1, "winner": "b", "score_a": 14, "score_b": 10}, "score_b"),      # the winner is not at the target
    ({"number": 1, "winner": "a", "score_a": 14}, "score_b"),                     # one side's chalks only
    ({"number": 1, "winner": "a", "hang_jacks_b": 2, "score_a": 14, "score_b": 5}, "hang_jacks_b"),  # 6 > 5
    ({"number": 2, "winner": "a"}, "number"),                                      # game 1 first
    ({"number": 1, "winner": "x"}, "winner"),
    ({"number": 1, "winner": "a", "hang_jacks_a": -1}, "hang_jacks_a"),
])
def test_a_game_result_that_cannot_be_is_refused_naming_the_field(scene, kwargs, field):
    assert field_of(enter_game_result, scene["match"], **kwargs) == field
    assert not Game.objects.filter(match=scene["match"]).exists()


def test_the_loser_may_pass_the_target_in_the_last_hand(scene, commit):
    """R23: the first side to the target wins, even when the other passes it later in the same hand."""
    game = commit(enter_game_result, scene["match"], number=1, winner="a", score_a=14, score_b=16)
    assert (game.score_a, game.score_b) == (14, 16)


def test_the_target_is_the_rulesets(commit):
    competition = make_competition(ruleset={"target": 7})
    match = make_match(competition)
    commit(enter_game_result, match, number=1, winner="a", score_a=7, score_b=2)
    assert fresh(match).winner == "a"
    assert field_of(enter_game_result, make_match(competition), number=1, winner="a", score_a=6,
                    score_b=2) == "score_a"


def test_no_game_after_the_match_is_decided(scene, commit):
    match = scene["match"]
    commit(enter_game_result, match, number=1, winner="a")
    commit(enter_game_result, match, number=2, winner="a")
    with pytest.raises(EntryError) as caught:
        enter_game_result(match, number=3, winner="b")
    assert caught.value.field == "number" and "won the match with game 2" in caught.value.reason


def test_correcting_and_deleting_entered_games(scene, commit):
    match = scene["match"]
    for number, winner in enumerate("aba", start=1):
        commit(enter_game_result, match, number=number, winner=winner)
    # game 2 to A would end the match after game 2, with a game 3 after it
    assert field_of(enter_game_result, match, number=2, winner="a") == "winner"
    assert field_of(delete_game_result, match, number=2, reason="wrong") == "number"  # the last first
    assert field_of(delete_game_result, match, number=3, reason=" ") == "reason"
    commit(delete_game_result, match, number=3, reason="game 3 was not played")
    commit(enter_game_result, match, number=2, winner="a", reason="B did not win game 2")
    match = fresh(match)
    assert (match.status, match.winner, match.games_a, match.games_b) == ("complete", "a", 2, 0)
    assert match.version == 5


def test_deleting_every_entered_game_frees_the_match_for_hands(scene, commit):
    match = scene["match"]
    commit(enter_game_result, match, number=1, winner="a")
    commit(delete_game_result, match, number=1, reason="entered in the wrong match")
    match = fresh(match)
    assert (match.result_level, match.status, match.games_a) == ("hand", "scheduled", 0)
    commit(enter_hand, match=match, number=1, mode=Hand.CHALK, entry=sweep(0), author_label="t")
    assert fresh(match).chalks_a == 4


# ----------------------------------------------------------------------------- match totals only
@pytest.mark.parametrize(("match_format", "games", "totals", "ok"), [
    (Competition.BEST_OF, 3, (2, 0), True), (Competition.BEST_OF, 3, (1, 2), True),
    (Competition.BEST_OF, 3, (3, 0), False), (Competition.BEST_OF, 3, (1, 1), False),
    (Competition.BEST_OF, 3, (2, 2), False), (Competition.BEST_OF, 7, (4, 3), True),
    (Competition.FIRST_TO, 3, (3, 2), True), (Competition.FIRST_TO, 3, (2, 2), False),
    (Competition.SINGLE, 1, (0, 1), True), (Competition.SINGLE, 1, (2, 0), False),
])
def test_match_totals_are_checked_against_the_format(commit, match_format, games, totals, ok):
    match = make_match(make_competition(match_format=match_format, match_games=games))
    if not ok:
        with pytest.raises(EntryError) as caught:
            record_match_totals(match, games_a=totals[0], games_b=totals[1])
        assert caught.value.field in ("games_a", "games_b") and "is not a result of" in caught.value.reason
        return
    chalks = (14 * totals[0] + 5, 14 * totals[1] + 5)  # each game won went to 14 (R24)
    commit(record_match_totals, match, games_a=totals[0], games_b=totals[1], hang_jacks_a=1,
           chalks_a=chalks[0], chalks_b=chalks[1])
    match = fresh(match)
    assert (match.status, match.winner, match.result_level) == ("complete", "a" if totals[0] > totals[1] else "b",
                                                                 "match")
    assert (match.games_a, match.games_b, match.chalks_a, match.chalks_b, match.chalks_known) == (
        *totals, *chalks, True)


def test_match_totals_without_chalks_are_marked_and_kept_by_settle(scene, commit):
    match = scene["match"]
    commit(record_match_totals, match, games_a=1, games_b=2, hang_jacks_b=3)
    settle_match(match.pk)
    match = fresh(match)
    assert (match.winner, match.games_a, match.games_b, match.hang_jacks_b, match.chalks_known) == (
        "b", 1, 2, 3, False)
    commit(record_match_totals, match, games_a=2, games_b=1, chalks_a=30, chalks_b=25)  # a correction
    match = fresh(match)
    assert (match.winner, match.chalks_a, match.chalks_known, match.hang_jacks_b) == ("a", 30, True, 0)
    assert field_of(record_match_totals, match, games_a=2, games_b=1, chalks_a=30) == "chalks_b"
    assert field_of(record_match_totals, match, games_a=2, games_b=1, hang_jacks_a=11, chalks_a=30,
                    chalks_b=5) == "hang_jacks_a"


# ----------------------------------------------------------------------------- forfeits
@pytest.mark.parametrize(("outcome", "winner"), [("forfeit_a", "b"), ("forfeit_b", "a"), ("double_forfeit", "")])
def test_a_forfeit_completes_the_match_for_the_side_present(scene, commit, outcome, winner):
    match = scene["match"]
    commit(record_forfeit, match, outcome=outcome, user=scene["organiser"])
    match = fresh(match)
    assert (match.status, match.winner, match.outcome) == ("complete", winner, outcome)
    row = next(r for r in results_for_standings(match.competition_id) if r["id"] == match.pk)
    assert (row["outcome"], row["winner"], row["status"]) == (outcome, winner, "complete")
    with pytest.raises(EntryError) as caught:
        enter_hand(match=match, number=1, mode=Hand.CHALK, entry=sweep(0), author_label="t")
    assert caught.value.field == "match" and "forfeit" in caught.value.reason
    assert field_of(enter_game_result, match, number=1, winner="a") == "match"
    commit(clear_forfeit, match, user=scene["organiser"])
    match = fresh(match)
    assert (match.status, match.winner, match.outcome) == ("scheduled", "", "played")


def test_a_bad_forfeit_outcome_is_refused(scene):
    assert field_of(record_forfeit, scene["match"], outcome="played") == "outcome"
    assert field_of(clear_forfeit, scene["match"]) == "outcome"


def test_a_walk_out_keeps_the_hands_on_the_sheet(scene, commit):
    match = scene["match"]
    commit(enter_hand, match=match, number=1, mode=Hand.CHALK, entry=sweep(1), author_label="t")
    commit(record_forfeit, match, outcome="forfeit_b")
    match = fresh(match)
    assert (match.status, match.winner, match.chalks_b) == ("complete", "a", 4)
    assert Hand.objects.filter(game__match=match).count() == 1
    assert list(match.games.values_list("number", flat=True)) == [1]


# ----------------------------------------------------------------------------- one level a match
def test_hands_and_coarse_results_do_not_mix(scene, commit):
    match = scene["match"]
    commit(enter_hand, match=match, number=1, mode=Hand.CHALK, entry=sweep(0), author_label="t")
    for call, kwargs in ((enter_game_result, {"number": 1, "winner": "a"}),
                         (record_match_totals, {"games_a": 2, "games_b": 0})):
        with pytest.raises(EntryError) as caught:
            call(match, **kwargs)
        assert caught.value.field == "match" and "hands are entered" in caught.value.reason

    other = make_match(scene["competition"])
    commit(enter_game_result, other, number=1, winner="b")
    with pytest.raises(EntryError) as caught:
        enter_hand(match=other, number=1, mode=Hand.CHALK, entry=sweep(0), author_label="t")
    assert caught.value.field == "match" and "game results are entered" in caught.value.reason
    assert field_of(record_match_totals, other, games_a=0, games_b=2) == "match"

    third = make_match(scene["competition"])
    commit(record_match_totals, third, games_a=2, games_b=0)
    assert "match totals are recorded" in pytest.raises(
        EntryError, enter_game_result, third, number=1, winner="a").value.reason
    commit(clear_entered_result, third)
    third = fresh(third)
    assert (third.result_level, third.status, third.games_a, third.winner) == ("hand", "scheduled", 0, "")
    commit(enter_hand, match=third, number=1, mode=Hand.CHALK, entry=sweep(1), author_label="t")
    assert fresh(third).chalks_b == 4


def test_an_empty_game_opened_by_the_entry_page_does_not_block_game_results(scene, commit):
    match = scene["match"]
    next_hand(match)  # the entry page was opened: game 1 exists, without hands
    commit(enter_game_result, match, number=1, winner="a", score_a=14, score_b=3)
    assert list(Game.objects.filter(match=match).values_list("number", "entered")) == [(1, True)]


# ----------------------------------------------------------------------------- standings rows
def test_results_for_standings_is_one_query_over_matches(scene, commit, django_assert_num_queries):
    competition = scene["competition"]
    commit(enter_game_result, scene["match"], number=1, winner="a", hang_jacks_a=1)
    totals = make_match(competition)
    commit(record_match_totals, totals, games_a=0, games_b=2, chalks_a=10, chalks_b=28)
    with django_assert_num_queries(1):
        rows = results_for_standings(competition.pk)
    assert set(rows[0]) == set(STANDINGS_FIELDS)
    by_id = {row["id"]: row for row in rows}
    assert by_id[scene["match"].pk]["result_level"] == "game" and by_id[scene["match"].pk]["hang_jacks_a"] == 1
    assert (by_id[totals.pk]["games_b"], by_id[totals.pk]["chalks_b"], by_id[totals.pk]["winner"]) == (2, 28, "b")
    assert by_id[totals.pk]["round_number"] is None and by_id[totals.pk]["team_match_id"] is None


# ----------------------------------------------------------------------------- pages
def page(response) -> str:
    return response.content.decode()


def block(html: str, field: str) -> str:
    start = html.index(f'id="f-{field}"')
    following = html.find('id="f-', start + 5)
    return html[start:following if following != -1 else len(html)]


def test_the_sheet_marks_results_entered_at_a_coarser_level(client, scene, commit):
    match, competition = scene["match"], scene["competition"]
    commit(enter_game_result, match, number=1, winner="a", score_a=14, score_b=2)
    sheet = page(client.get(reverse("match_sheet", args=[match.pk])))
    assert "entered as game results" in sheet and "entered as a game result" in sheet and "14" in sheet
    totals = make_match(competition)
    commit(record_match_totals, totals, games_a=2, games_b=1)
    sheet = page(client.get(reverse("match_sheet", args=[totals.pk])))
    assert "match totals only" in sheet and "chalks not kept" in sheet
    forfeited = make_match(competition)
    commit(record_forfeit, forfeited, outcome="forfeit_a")
    sheet = page(client.get(reverse("match_sheet", args=[forfeited.pk])))
    assert ">forfeit<" in sheet and "won by forfeit" in sheet


def test_the_mark_include_for_fixtures(scene, commit):
    from django.template.loader import render_to_string

    commit(record_match_totals, scene["match"], games_a=2, games_b=0)
    assert "match totals only" in render_to_string("games/_result_mark.html", {"match": fresh(scene["match"])})
    assert render_to_string("games/_result_mark.html", {"match": make_match(scene["competition"])}).strip() == ""


def test_game_results_page_for_scorekeepers_only(client, scene):
    url = reverse("match_game_results", args=[scene["match"].pk])
    assert client.get(url).status_code == 302  # log in
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 403
    client.force_login(scene["scorekeeper"])
    assert client.get(url).status_code == 200
    client.force_login(scene["organiser"])
    assert client.get(url).status_code == 200


def test_game_results_page_enters_games_and_shows_errors_next_to_the_field(client, scene, commit):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    url = reverse("match_game_results", args=[match.pk])
    response = commit(client.post, url, {"number": 1, "winner": "a", "hang_jacks_a": 1, "hang_jacks_b": 0,
                                         "score_a": 12, "score_b": 3})
    assert response.status_code == 422
    assert "below the target 14" in block(page(response), "score_a")
    response = commit(client.post, url, {"number": 1, "winner": "a", "hang_jacks_a": 1, "score_a": 14,
                                         "score_b": 3})
    assert response.status_code == 302
    response = commit(client.post, url, {"number": 2, "winner": "a"}, follow=True)
    assert "Game 2 saved" in page(response)
    match = fresh(match)
    assert (match.status, match.winner, match.hang_jacks_a) == ("complete", "a", 1)
    response = commit(client.post, url, {"number": 3, "winner": "b"})
    assert response.status_code == 422 and "won the match with game 2" in page(response)
    response = commit(client.post, reverse("match_game_result_delete", args=[match.pk, 2]), {"reason": "typo"})
    assert response.status_code == 302 and fresh(match).games_a == 1


def test_the_private_link_enters_game_results_too(client, scene, commit):
    match = scene["match"]
    url = reverse("token_game_results", args=[match.entry_token])
    assert client.get(url).status_code == 200
    assert commit(client.post, url, {"number": 1, "winner": "b"}).status_code == 302
    assert fresh(match).games_b == 1
    revoke_entry_link(match=match)
    assert client.get(url).status_code == 404


def test_match_totals_page(client, scene, commit):
    match = scene["match"]
    url = reverse("match_match_totals", args=[match.pk])
    client.force_login(make_user("stranger"))
    assert client.post(url, {"games_a": 2, "games_b": 0}).status_code == 403
    client.force_login(scene["scorekeeper"])
    response = commit(client.post, url, {"games_a": 3, "games_b": 0})
    assert response.status_code == 422 and "is not a result of best of 3 games" in block(page(response),
                                                                                               "games_a")
    assert commit(client.post, url, {"games_a": 2, "games_b": 1, "chalks_a": 35, "chalks_b": 30}).status_code == 302
    match = fresh(match)
    assert (match.winner, match.chalks_a, match.result_level) == ("a", 35, "match")
    assert commit(client.post, reverse("match_match_totals_clear", args=[match.pk]), {}).status_code == 302
    assert fresh(match).result_level == "hand"


def test_the_entry_page_says_why_no_hands_go_into_a_coarse_match(client, scene, commit):
    match = scene["match"]
    commit(enter_game_result, match, number=1, winner="a")
    client.force_login(scene["scorekeeper"])
    response = client.get(reverse("match_enter", args=[match.pk]))
    assert response.status_code == 200 and "entered as game results, so hands cannot be added" in page(response)
    response = commit(client.post, reverse("match_enter", args=[match.pk]),
                      {"number": 1, "kick": "5S", "beg": "stand", "high": "a", "low": "a", "jack": "a", "game": "a"})
    assert response.status_code == 422 and "so hands cannot be added" in page(response)
    assert Hand.objects.filter(game__match=match).count() == 0


def test_forfeit_page_is_for_organisers(client, scene, commit):
    match = scene["match"]
    url = reverse("match_forfeit", args=[match.pk])
    assert client.get(url).status_code == 302
    client.force_login(scene["scorekeeper"])
    assert client.get(url).status_code == 403
    assert commit(client.post, url, {"outcome": "forfeit_a"}).status_code == 403
    client.force_login(scene["organiser"])
    assert client.get(url).status_code == 200
    response = commit(client.post, url, {"outcome": "nonsense"})
    assert response.status_code == 422 and "field-errors" in block(page(response), "outcome")
    assert commit(client.post, url, {"outcome": "forfeit_a"}).status_code == 302
    assert (fresh(match).winner, fresh(match).status) == ("b", "complete")
    assert commit(client.post, reverse("match_forfeit_clear", args=[match.pk]), {}).status_code == 302
    assert fresh(match).outcome == "played"


def test_printable_scoresheet_blank_and_filled(client, scene, commit):
    match = scene["match"]
    commit(enter_hand, match=match, number=1, mode=Hand.CHALK,
           entry={**sweep(1), "jack": {"team": 1, "hang": True}}, author_label="t")
    response = client.get(reverse("match_print", args=[match.pk]))
    assert response.status_code == 200
    html = page(response)
    for column in ("High", "Low", "Jack / Hang Jack", "Game", "Dealer", "Kick"):
        assert f">{column}</th>" in html, column
    assert "HJ→B" in html and "print.css" in html and 'class="print-sheet"' in html
    row_mm = float(re.search(r'data-row-mm="([0-9.]+)"', html).group(1))
    blank = page(client.get(reverse("match_print", args=[match.pk]) + "?blank=1"))
    assert "HJ→B" not in blank and blank.count('class="ps-game"') == 3  # best of 3: room for three games
    blank_mm = float(re.search(r'data-row-mm="([0-9.]+)"', blank).group(1))
    # one page: the games, two side by side, each its rows plus four for its title and head, fit the 185 mm
    # they are given of the 259 mm a letter page leaves inside its margins (the header and footer take the rest)
    games = [section.count('<tr class="blank">') + 4 for section in blank.split('class="ps-game"')[1:]]
    height = sum(max(games[i:i + 2]) for i in range(0, len(games), 2))
    assert 0 < row_mm <= 6.5 and 0 < blank_mm <= 6.5 and height * blank_mm <= 185


def test_printable_scoresheet_follows_the_competitions_visibility(client, scene):
    draft = make_match(make_competition(club=scene["club"], published=False))
    assert client.get(reverse("match_print", args=[draft.pk])).status_code == 404
    client.force_login(scene["organiser"])
    assert client.get(reverse("match_print", args=[draft.pk])).status_code == 200


def test_print_stylesheet_hides_the_chrome_and_sizes_the_page():
    from django.conf import settings

    css = (settings.BASE_DIR / "static" / "css" / "print.css").read_text()
    assert "@page" in css and "margin: 10mm" in css
    assert "header.site" in css and ".noprint" in css and "button" in css


# ----------------------------------------------------------------------------- API
@pytest.fixture
def api(scene) -> APIClient:
    client = APIClient()
    client.force_login(scene["scorekeeper"])
    return client


def errors(response) -> list[str]:
    return [error["field"] for error in response.json()["errors"]]


def test_api_game_results(api, scene, commit):
    match = scene["match"]
    url = f"/api/matches/{match.pk}/games/"
    response = commit(api.post, url, {"number": 1, "winner": "a", "score_a": 13, "score_b": 2}, format="json")
    assert response.status_code == 400 and errors(response) == ["score_a"]
    response = commit(api.post, url, {"number": 1, "winner": "c"}, format="json")
    assert response.status_code == 400 and errors(response) == ["winner"]
    response = commit(api.post, url, {"number": 1, "winner": "a", "hang_jacks_b": 1}, format="json")
    assert response.status_code == 201 and response.json()["entered"] and not response.json()["scores_known"]
    response = commit(api.post, url, {"number": 3, "winner": "a"}, format="json")
    assert response.status_code == 400 and errors(response) == ["number"]
    detail = api.get(f"/api/matches/{match.pk}/").json()
    assert (detail["result_level"], detail["games_a"], detail["hang_jacks_b"]) == ("game", 1, 1)
    response = commit(api.delete, f"{url}1/", {"reason": "wrong match"}, format="json")
    assert response.status_code == 200 and response.json()["result_level"] == "hand"
    assert commit(api.delete, f"{url}1/").status_code == 400


def test_api_match_totals_and_forfeit(api, scene, commit):
    match = scene["match"]
    url = f"/api/matches/{match.pk}/totals/"
    response = commit(api.post, url, {"games_a": 1, "games_b": 1}, format="json")
    assert response.status_code == 400 and errors(response) == ["games_a"]
    response = commit(api.post, url, {"games_a": 2, "games_b": -1}, format="json")
    assert response.status_code == 400 and errors(response) == ["games_b"]
    response = commit(api.post, url, {"games_a": 0, "games_b": 2, "chalks_a": 20}, format="json")
    assert response.status_code == 400 and errors(response) == ["chalks_b"]
    response = commit(api.post, url, {"games_a": 0, "games_b": 2}, format="json")
    assert response.status_code == 200
    assert (response.json()["winner"], response.json()["chalks_known"]) == ("b", False)
    response = commit(api.post, f"/api/matches/{match.pk}/hands/",
                      {"number": 1, "mode": "chalk", "entry": sweep(0)}, format="json")
    assert response.status_code == 400 and errors(response) == ["match"]
    assert commit(api.delete, url).status_code == 200

    forfeit = f"/api/matches/{match.pk}/forfeit/"
    assert commit(api.post, forfeit, {"outcome": "forfeit_b"}, format="json").status_code == 403  # scorekeeper
    organiser = APIClient()
    organiser.force_login(scene["organiser"])
    response = commit(organiser.post, forfeit, {"outcome": "walkover"}, format="json")
    assert response.status_code == 400 and errors(response) == ["outcome"]
    response = commit(organiser.post, forfeit, {"outcome": "forfeit_b"}, format="json")
    assert response.status_code == 200 and (response.json()["status"], response.json()["winner"]) == ("complete", "a")
    assert commit(organiser.delete, forfeit).json()["outcome"] == "played"
    assert commit(APIClient().post, url, {"games_a": 2, "games_b": 0}, format="json").status_code in (401, 403)


@pytest.mark.django_db
def test_every_change_to_an_entered_result_is_a_version_with_who_when_and_why():
    from games.models import ResultVersion

    competition = make_competition(match_format=Competition.BEST_OF, match_games=3)
    match = make_match(competition)
    organiser = make_organiser(competition.club)
    record_match_totals(match, games_a=2, games_b=1, hang_jacks_a=1, user=organiser)
    record_match_totals(Match.objects.get(pk=match.pk), games_a=1, games_b=2, user=organiser,
                                 reason="sides swapped on the sheet")
    record_forfeit(Match.objects.get(pk=match.pk), outcome=Match.FORFEIT_A, author_label="committee")
    versions = list(ResultVersion.objects.filter(match=match))
    assert [v.action for v in versions] == ["totals recorded", "totals recorded", "forfeit recorded"]
    assert versions[0].data["games"] == {"a": 2, "b": 1} and versions[1].data["games"] == {"a": 1, "b": 2}
    assert versions[1].reason == "sides swapped on the sheet" and versions[1].author == organiser
    assert versions[2].author is None and versions[2].author_label == "committee"
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "Result history" in page and "sides swapped on the sheet" in page and "committee" in page
