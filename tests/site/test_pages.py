"""The server-rendered pages: each renders what it should, and the scorekeeper's entry page drives
``games.services`` — a game to 14 through the form, errors next to the field the engine names, a double
submission refused, corrections with their reason, undo.

Celery runs eagerly, but the settle task is queued with ``transaction.on_commit``, which a test inside a
transaction never reaches: ``post`` runs the captured callbacks, as a real commit would.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from draw.models import Round
from engine.actions import OVER
from engine.hand import HandState
from engine.record import write_record
from engine.rules import Ruleset
from games import services
from games.models import Hand, HandVersion, Match
from games.scoresheet import scoresheet
from league.models import Competition
from standings.models import StandingRow
from tests.factories import (
    committing,
    make_competition,
    make_match,
    make_organiser,
    make_scene,
    make_user,
)

pytestmark = pytest.mark.django_db

# A hand where side A takes High, Low, Jack and Game: 4 chalks, no kick points (5C kicks nothing).
SWEEP_A = {"kick": "5C", "beg": "stand", "high": "a", "low": "a", "jack": "a", "game": "a", "penalty": ""}


@pytest.fixture
def post(client, django_capture_on_commit_callbacks):
    """POST as the client, running the on-commit settle task as a real commit would."""
    commit = committing(django_capture_on_commit_callbacks)

    def do(url: str, data: dict | None = None, **kwargs):
        return commit(client.post, url, data or {}, **kwargs)

    return do


@pytest.fixture
def scene():
    """A published single-game competition of a club, a match in round 1, its organiser and scorekeeper."""
    scene = make_scene("Belmont Sports Club", organiser="olive", scorekeeper="sam")
    match = scene["match"]
    match.round = Round.objects.create(competition=scene["competition"], number=1)
    match.save()
    return scene


def enter_url(match: Match) -> str:
    return reverse("match_enter", args=[match.pk])


def hand_data(number: int, **changes) -> dict:
    return {**SWEEP_A, "number": number, **changes}


def block(html: str, field: str) -> str:
    """The HTML of the form field's block (``id="f-<field>"``) up to the next field's block."""
    start = html.index(f'id="f-{field}"')
    following = html.find('id="f-', start + 5)
    return html[start:following if following != -1 else len(html)]


def top_errors(html: str) -> str:
    found = re.search(r'<div class="errors top"[^>]*>(.*?)</div>', html, re.S)
    return found.group(1) if found else ""


def text(response) -> str:
    return response.content.decode()


# ----------------------------------------------------------------------------- public pages
def test_home_lists_clubs_and_published_competitions_only(client, scene):
    draft = make_competition(club=scene["club"], published=False)
    page = text(client.get(reverse("home")))
    assert "Belmont Sports Club" in page
    assert scene["competition"].name in page
    assert draft.name not in page


def test_home_shows_an_organiser_their_drafts(client, scene):
    draft = make_competition(club=scene["club"], published=False)
    client.force_login(scene["organiser"])
    page = text(client.get(reverse("home")))
    assert draft.name in page and "draft" in page


def test_club_page_lists_its_competitions(client, scene):
    other = make_competition()
    response = client.get(reverse("club", args=[scene["club"].slug]))
    assert response.status_code == 200
    page = text(response)
    assert scene["competition"].name in page and other.name not in page


def test_unknown_club_is_404(client):
    assert client.get(reverse("club", args=["nowhere"])).status_code == 404


def test_competition_page_shows_fixtures_by_round_and_the_standings_columns(client, scene, post):
    match, competition = scene["match"], scene["competition"]
    unscheduled = make_match(competition)
    client.force_login(scene["scorekeeper"])
    post(enter_url(match), hand_data(1))
    client.logout()
    response = client.get(reverse("competition", args=[scene["club"].slug, competition.slug]))
    assert response.status_code == 200
    page = text(response)
    fixtures = page[page.index('id="fixtures"'):]
    assert fixtures.index("Round 1") < fixtures.index(match.side_a_name) < fixtures.index("Unscheduled")
    assert escape(unscheduled.side_a_name) in page
    assert reverse("match_sheet", args=[match.pk]) in page
    assert "In progress" in page and "Scheduled" in page
    for heading in ("Partnership", "BE for", "BE agst", "BE ±", "Chalks for", "Chalks agst", "Chalks ±", "HJ for",
                    "HJ agst"):
        assert heading in page, heading
    rows = response.context["standings"]
    assert len(rows) == 4
    leader = next(row for row in rows if row.partnership_id == match.side_a_id)
    assert leader.chalks_for == 4 and leader.chalks_against == 0


def test_unpublished_competition_is_404_for_others_and_shown_to_its_organiser(client, scene):
    draft = make_competition(club=scene["club"], published=False)
    url = reverse("competition", args=[scene["club"].slug, draft.slug])
    assert client.get(url).status_code == 404
    client.force_login(make_user())
    assert client.get(url).status_code == 404
    client.force_login(scene["organiser"])
    assert client.get(url).status_code == 200


# ----------------------------------------------------------------------------- a game to 14 through the form
def test_entering_a_game_to_14_updates_the_sheet_and_the_standings(client, scene, post):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    page = text(client.get(enter_url(match)))
    assert 'name="number" value="1"' in page
    assert "Dealer" in page and match.side_a.player_one.name in page  # seat 0 deals first
    for number in range(1, 5):
        response = post(enter_url(match), hand_data(number))
        assert response.status_code == 302, top_errors(text(response))
        assert response["Location"] == enter_url(match)
        if number < 4:
            page = text(client.get(enter_url(match)))
            assert f'name="number" value="{number + 1}"' in page
            assert f'data-score="a">{4 * number}<' in page  # the running score at the top
            assert f"Hand {number} saved" in page
    match.refresh_from_db()
    assert match.status == Match.COMPLETE and match.winner == "a" and (match.games_a, match.games_b) == (1, 0)
    done = text(client.get(enter_url(match)))
    assert "Match over" in done and 'name="number"' not in done

    sheet = client.get(reverse("match_sheet", args=[match.pk]))
    html = text(sheet)
    assert "won by " + match.side_a_name in html
    assert f"Result: <strong>{match.side_a_name} won</strong>" in html
    game = scoresheet(match.pk)[1][0]
    assert [row.score for row in game.rows] == [(4, 0), (8, 0), (12, 0), (16, 0)]
    assert game.rows[-1].won_game == "a"

    standings = {row.partnership_id: row for row in StandingRow.objects.filter(competition=scene["competition"])}
    winner, loser = standings[match.side_a_id], standings[match.side_b_id]
    assert (winner.rank, winner.played, winner.won, winner.bullseyes_for, winner.chalks_for) == (1, 1, 1, 1, 16)
    assert (loser.played, loser.lost, loser.bullseyes_against, loser.chalks_against) == (1, 1, 1, 16)
    public = text(client.get(reverse("competition", args=[scene["club"].slug, scene["competition"].slug])))
    assert "1 – 0" in public


def test_best_of_three_moves_on_to_game_two(client, post):
    competition = make_competition(match_format=Competition.BEST_OF, match_games=3)
    organiser = make_organiser(competition.club)
    match = make_match(competition)
    client.force_login(organiser)
    for number in range(1, 5):
        post(enter_url(match), hand_data(number))
    page = text(client.get(enter_url(match)))
    assert "Game 2" in page and 'name="number" value="1"' in page
    assert "games 1–0" in page


# ----------------------------------------------------------------------------- errors next to the field
@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"high": "nobody", "no_trump": "on", "low": "b"}, "low", "no Low without High"),
    ({"kick": "ZZ"}, "kick", "is not a card"),
    ({"kick": ""}, "kick", "missing: the first kick"),
    ({"beg": ""}, "beg", "missing"),
    ({"game": ""}, "game", "missing: the hand was played"),
    ({"beg": "run", "run_kick_1": "5C"}, "run_kick_1", "kicked twice"),
    ({"high_card": "3H"}, "high_card", "is not a trump"),
    ({"jack": "b", "high_card": "JC"}, "jack", "JC was dealt to side A"),
    ({"penalty": "renege", "renege_side": ""}, "renege_side", "say which side reneged"),
    ({"game_count_a": "40"}, "game_count_a", "give both counts"),
])
def test_errors_appear_next_to_the_field_named(client, scene, post, changes, field, words):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    response = post(enter_url(match), hand_data(1, **changes))
    assert response.status_code == 422
    html = text(response)
    assert words in block(html, field), (field, top_errors(html))
    assert "field-errors" in block(html, field)
    assert not Hand.objects.filter(game__match=match).exists()


def test_an_error_keeps_what_was_tapped(client, scene, post):
    client.force_login(scene["scorekeeper"])
    html = text(post(enter_url(scene["match"]), hand_data(1, game="")))
    assert 'value="5C"' in html
    assert re.search(r'name="high" value="a"[^>]*checked', html)


def test_a_double_submission_is_refused_and_stores_one_hand(client, scene, post):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    assert post(enter_url(match), hand_data(1)).status_code == 302
    again = post(enter_url(match), hand_data(1), follow=True)
    html = text(again)
    stored = Hand.objects.get(game__match=match)
    at = timezone.localtime(stored.created_at).strftime("%H:%M:%S")  # the club's clock, not UTC
    assert f"hand 1 of game 1 was already entered by sam at {at}" in html
    assert 'name="number" value="2"' in html  # a fresh form for the next hand
    assert Hand.objects.filter(game__match=match).count() == 1


def test_a_hand_number_ahead_of_the_sheet_is_refused_at_the_top(client, scene, post):
    client.force_login(scene["scorekeeper"])
    html = text(post(enter_url(scene["match"]), hand_data(3)))
    assert "the next hand of game 1 is hand 1, not 3" in top_errors(html)


def test_a_misdeal_and_a_renege(client, scene, post):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    # seat 0 (side A) misdeals: B scores 1 and seat 0 deals again (R27)
    assert post(enter_url(match), {"number": 1, "penalty": "misdeal", "kick": "JH", "beg": "stand"}).status_code == 302
    hand = Hand.objects.get(game__match=match, number=1)
    assert (hand.points_a, hand.points_b, hand.entry) == (0, 1, {"penalty": {"kind": "misdeal"}})
    page = text(client.get(enter_url(match)))
    assert f"Dealer <strong>{match.side_a.player_one.name} (A)" in page
    response = post(enter_url(match), hand_data(2, penalty="renege", renege_side="b", game="b"))
    assert response.status_code == 302, top_errors(text(response))
    renege = Hand.objects.get(game__match=match, number=2)
    assert renege.result["penalty"]["game_withheld"] is True
    sheet = text(client.get(reverse("match_sheet", args=[match.pk])))
    assert "reneged" in sheet and "withheld" in sheet


def test_two_player_form_offers_five_runs_of_the_pack(client):
    competition = make_competition(players=2)
    match = make_match(competition)
    client.force_login(make_organiser(competition.club))
    html = text(client.get(enter_url(match)))
    assert 'name="run_kick_5"' in html
    four = make_match(make_competition(club=competition.club))
    html = text(client.get(enter_url(four)))
    assert 'name="run_kick_2"' in html and 'name="run_kick_3"' not in html


def test_kick_points_and_a_run_of_the_pack(client, scene, post):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    # seat 0 deals: kicks JH (3 to A), runs the pack, QH (same suit, run again), 7D names diamonds
    data = hand_data(1, kick="jh", beg="run", run_kick_1="Q♥", run_kick_2="7d", jack="hang_b")
    response = post(enter_url(match), data)
    assert response.status_code == 302, top_errors(text(response))
    hand = Hand.objects.get(game__match=match)
    assert hand.entry["kicks"] == ["JH", "QH", "7D"]
    assert hand.result["kick_points"] == [3, 0] and hand.result["trump"] == "D"
    sheet = text(client.get(reverse("match_sheet", args=[match.pk])))
    assert "J♥ → Q♥ → 7♦" in sheet and "hang jack" in sheet


# ----------------------------------------------------------------------------- full entry: a hand record
def a_record(dealer: int = 0) -> dict:
    state = HandState.deal(4, dealer, random.Random(3), Ruleset(), (0, 0))
    state.apply("stand")
    while state.phase != OVER:
        state.apply(state.legal_actions()[0])
    return write_record(state)


def test_full_entry_takes_a_pasted_record_or_a_file(client, scene, post):
    from django.core.files.uploadedfile import SimpleUploadedFile

    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    url = reverse("match_enter_record", args=[match.pk])
    assert "Hand record (JSON)" in text(client.get(url))
    response = post(url, {"number": 1, "record": json.dumps(a_record())})
    assert response.status_code == 302, top_errors(text(response))
    first = Hand.objects.get(game__match=match, number=1)
    assert first.mode == Hand.RECORD
    record = a_record(dealer=1)
    record["score_before"] = [first.score_a_after, first.score_b_after]
    upload = SimpleUploadedFile("hand.json", json.dumps(record).encode(), content_type="application/json")
    response = post(url, {"number": 2, "record_file": upload})
    assert response.status_code == 302, text(response)
    assert Hand.objects.filter(game__match=match, mode=Hand.RECORD).count() == 2


@pytest.mark.parametrize(("record", "words"), [
    ("{not json", "not JSON"),
    ("", "paste a hand record"),
    (json.dumps({**a_record(), "dealer": 2}), "dealer: the match says 0, the entry says 2"),
    (json.dumps({**a_record(), "kick": "ZZ"}), "kick: "),
])
def test_full_entry_errors_are_shown_by_the_record(client, scene, post, record, words):
    client.force_login(scene["scorekeeper"])
    response = post(reverse("match_enter_record", args=[scene["match"].pk]), {"number": 1, "record": record})
    assert response.status_code == 422
    assert words in block(text(response), "record")


# ----------------------------------------------------------------------------- corrections, deletions, undo
def test_a_correction_is_marked_with_its_reason_and_recounts(client, scene, post):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    for number in (1, 2):
        post(enter_url(match), hand_data(number))
    first = Hand.objects.get(game__match=match, number=1)
    edit = reverse("match_hand_edit", args=[match.pk, first.pk])
    form = text(client.get(edit))
    assert 'value="5C"' in form and re.search(r'name="low" value="a"[^>]*checked', form)
    missing_reason = post(edit, {**SWEEP_A, "low": "b", "version": 1})
    assert "This field is required" in block(text(missing_reason), "reason")
    response = post(edit, {**SWEEP_A, "low": "b", "reason": "Low went to B", "version": 1})
    assert response.status_code == 302 and response["Location"] == reverse("match_sheet", args=[match.pk])
    sheet = client.get(reverse("match_sheet", args=[match.pk]))
    html = text(sheet)
    assert "corrected" in html and "Low went to B" in html and "v2 corrected by sam" in html
    rows = scoresheet(match.pk)[1][0].rows
    assert rows[0].corrected and rows[0].score == (3, 1) and rows[1].score == (7, 1)


def test_a_correction_error_is_shown_next_to_the_field(client, scene, post):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    post(enter_url(match), hand_data(1))
    hand = Hand.objects.get(game__match=match)
    response = post(reverse("match_hand_edit", args=[match.pk, hand.pk]),
                    {**SWEEP_A, "high": "nobody", "no_trump": "on", "reason": "x", "version": 1})
    assert "no Low without High" in block(text(response), "low")
    assert HandVersion.objects.filter(hand=hand).count() == 1


def test_a_record_hand_is_corrected_as_json(client, scene, post):
    match = scene["match"]
    client.force_login(scene["organiser"])
    post(reverse("match_enter_record", args=[match.pk]), {"number": 1, "record": json.dumps(a_record())})
    hand = Hand.objects.get(game__match=match)
    edit = reverse("match_hand_edit", args=[match.pk, hand.pk])
    assert "&quot;plays&quot;" in text(client.get(edit))
    response = post(edit, {"as": "json", "record": json.dumps({**a_record(), "plays": ["AS"]}), "reason": "typo"})
    assert response.status_code == 422 and "plays" in block(text(response), "record")


def test_delete_strikes_a_hand_out_with_the_reason(client, scene, post):
    match = scene["match"]
    client.force_login(scene["organiser"])
    for number in (1, 2):
        post(enter_url(match), hand_data(number))
    first = Hand.objects.get(game__match=match, number=1)
    url = reverse("match_hand_delete", args=[match.pk, first.pk])
    assert "Why is it deleted?" in text(client.get(url))
    assert post(url, {"reason": ""}).status_code == 422
    assert post(url, {"reason": "entered twice"}).status_code == 302
    sheet = client.get(reverse("match_sheet", args=[match.pk]))
    html = text(sheet)
    assert 'class="hand struck' in html and "entered twice" in html and "deleted" in html
    assert scoresheet(match.pk)[1][0].rows[1].score == (4, 0)


def test_undo_strikes_out_the_last_hand_once(client, scene, post):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    for number in (1, 2):
        post(enter_url(match), hand_data(number))
    page = client.get(enter_url(match))
    last = page.context["undo_hand"]
    assert last.number == 2 and "Undo hand 2" in text(page)
    undo = reverse("match_undo", args=[match.pk])
    assert client.get(undo).status_code == 405
    done = post(undo, {"hand": last.pk}, follow=True)
    assert "Hand 2 of game 1 undone" in text(done)
    again = post(undo, {"hand": last.pk}, follow=True)  # the double tap
    assert "already undone" in text(again)
    counting = Hand.objects.filter(game__match=match, deleted=False)
    assert list(counting.values_list("number", flat=True)) == [1]
    page = text(client.get(enter_url(match)))
    assert 'name="number" value="2"' in page and 'data-score="a">4<' in page  # the undone hand's number again


# ----------------------------------------------------------------------------- the private link, the organiser
def test_the_private_link_opens_the_entry_page_without_an_account(client, scene, post):
    match = scene["match"]
    url = reverse("token_enter", args=[match.entry_token])
    page = text(client.get(url))
    assert "Save hand 1" in page and reverse("token_enter_record", args=[match.entry_token]) in page
    assert post(url, hand_data(1)).status_code == 302
    hand = Hand.objects.get(game__match=match)
    assert hand.entered_by == "scorekeeper link"
    page = text(client.get(url))
    assert reverse("token_hand_edit", args=[match.entry_token, hand.pk]) in page
    assert reverse("token_undo", args=[match.entry_token]) in page


def test_organiser_assigns_scorekeepers_and_revokes_and_renews_the_link(client, scene, post):
    match = scene["match"]
    make_user("rita")
    client.force_login(scene["organiser"])
    url = reverse("match_manage", args=[match.pk])
    page = text(client.get(url))
    assert match.entry_token in page and "sam" in page
    add = reverse("match_scorekeeper_add", args=[match.pk])
    assert "no user is called" in text(post(add, {"username": "nobody"}))
    post(add, {"username": "rita"})
    assert set(match.scorekeepers.values_list("username", flat=True)) == {"sam", "rita"}
    post(reverse("match_scorekeeper_remove", args=[match.pk, scene["scorekeeper"].pk]), {})
    assert list(match.scorekeepers.values_list("username", flat=True)) == ["rita"]
    old = match.entry_token
    post(reverse("match_link_revoke", args=[match.pk]), {})
    client.logout()
    assert client.get(reverse("token_enter", args=[old])).status_code == 404  # as an unknown link
    client.force_login(scene["organiser"])
    assert "revoked" in text(client.get(url))
    post(reverse("match_link_renew", args=[match.pk]), {})
    match.refresh_from_db()
    assert match.entry_token != old and not match.entry_token_revoked
    client.logout()
    assert client.get(reverse("token_enter", args=[old])).status_code == 404
    assert client.get(reverse("token_enter", args=[match.entry_token])).status_code == 200


def test_login_page_and_logout(client, scene):
    response = client.get(reverse("login"))
    assert response.status_code == 200 and 'name="password"' in text(response)
    response = client.post(reverse("login"), {"username": "sam", "password": "pw-for-tests-1"})
    assert response.status_code == 302
    assert "Log out" in text(client.get(reverse("home")))
    assert client.post(reverse("logout")).status_code == 302
    assert "Log in" in text(client.get(reverse("home")))


# ----------------------------------------------------------------------------- the sheet
def test_the_sheet_shows_every_category_and_prints_one_game_a_page(client, scene, post):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    post(enter_url(match), hand_data(1, kick="AC", beg="give", jack="hang_b", game="tie"))
    client.logout()
    sheet = client.get(reverse("match_sheet", args=[match.pk]))
    html = text(sheet)
    for heading in ("Hand", "Dealer", "Kicks", "Trump", "Kick", "Beg", "High", "Low", "Jack", "Game", "Penalty"):
        assert f">{heading}<" in html or f'">{heading}</abbr>' in html, heading
    row = scoresheet(match.pk)[1][0].rows[0]
    assert [a.side for a in row.kick] == ["a"] and [a.side for a in row.beg_point] == ["b"]
    assert row.jack[0].points == 3 and row.game[0].note == "tie"
    assert row.points == (3, 4) and row.score == (3, 4)
    assert 'class="game-sheet"' in html and "Correct</a>" not in html  # the public sees no edit links
    css = (settings.BASE_DIR / "static" / "css" / "app.css").read_text()
    assert "@media print" in css and "break-after: page" in css


def test_busy_pages_take_a_fixed_number_of_queries(client, scene, post, django_assert_num_queries,
                                                   django_assert_max_num_queries):
    match = scene["match"]
    client.force_login(scene["scorekeeper"])
    for number in range(1, 4):
        post(enter_url(match), hand_data(number))
    hand = Hand.objects.get(game__match=match, number=1)
    services.correct_hand(hand=hand, mode=Hand.CHALK, entry=hand.entry, reason="same", version=hand.version,
                          user=scene["scorekeeper"])
    with django_assert_max_num_queries(11):  # + session, user, the permission checks and the online table
        client.get(reverse("match_sheet", args=[match.pk]))
    client.logout()
    with django_assert_num_queries(6):  # match with sides and players, games, hands, versions, result history, the
        client.get(reverse("match_sheet", args=[match.pk]))  # online table that plays the match (tables' tag)
    with django_assert_num_queries(6):  # competition, its entry window, the rounds with fixtures, the page's matches
        # and byes, standings
        client.get(reverse("competition", args=[scene["club"].slug, scene["competition"].slug]))


def test_unknown_match_and_hand_are_404(client, scene):
    client.force_login(scene["organiser"])
    assert client.get(reverse("match_sheet", args=[999999])).status_code == 404
    assert client.get(reverse("match_enter", args=[999999])).status_code == 404
    assert client.get(reverse("match_hand_edit", args=[scene["match"].pk, 999999])).status_code == 404
    assert client.get(reverse("token_enter", args=["no-such-token"])).status_code == 404
