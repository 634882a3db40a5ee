"""The replay: a finished hand stored as a full hand record (entered, or played online — the tables store
their hands through the same ``enter_hand``) is stepped through from its stored record: the deal, each trick (who
led, who played what, who won it, the cards left), then the scoring in the order of R23 (R6, R8, R18–R22) and the
score after. Every figure is checked against an independent oracle: the ``HandState`` the bots played, never the
replay's own code. A chalk-only hand has no replay (a 404 that says why); drafts stay the organisers'."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from draw.models import Round
from engine.cards import CARD_NAMES, Card, names_of
from engine.rules import Ruleset
from games import services
from games.entry import delete_hand
from games.models import Hand, Match
from games.replay import ReplayUnavailable, build_replay, hand_for_replay, is_replayable
from importer.management.commands.seed_demo import play_hand, record_entry
from tests.factories import make_competition, make_match, make_organiser, make_user, sweep

pytestmark = pytest.mark.django_db


def bots_hand(players: int, seed: int, *, want):
    """A hand the heuristic bots play from dealer 0 at 0 – 0, the first of the seeded deals that ``want`` accepts."""
    rng = random.Random(seed)
    for _ in range(2000):
        hand = play_hand(players, 0, (0, 0), Ruleset(), rng)
        if want(hand):
            return hand
    raise AssertionError("no such hand in 2,000 deals")


def enter_record(match: Match, hand) -> Hand:
    target = services.next_hand(match)
    assert target.dealer == 0 and target.score_before == (0, 0)
    return services.enter_hand(match=match, number=target.number, mode=Hand.RECORD, entry=record_entry(hand),
                               author_label="test")


def seat_of(leader: int, position: int, players: int) -> int:
    return (leader + position) % players


def cards_left_after(oracle, trick_number: int) -> list[set[str]]:
    """What each seat holds after ``trick_number`` tricks: what it was dealt (runs included) less what it played."""
    left = [set(names_of(oracle.dealt[s])) for s in range(oracle.players)]
    for leader, cards, _winner in oracle.tricks[:trick_number]:
        for position, card in enumerate(cards):
            left[seat_of(leader, position, oracle.players)].remove(CARD_NAMES[card])
    return left


@pytest.fixture
def ran_pack():
    """A 4-player hand in which the eldest begged and the dealer ran the pack, then all six-plus-three tricks."""
    return bots_hand(4, 11, want=lambda h: h.beg == "run" and h.plays and h.runs >= 1)


@pytest.fixture
def stood():
    return bots_hand(4, 5, want=lambda h: h.beg == "stand" and h.plays and h.result()["jack"] is not None)


def check_against(replay, oracle):
    """The replay shows what the bots' hand did: the deal, every trick and the scoring (R17–R23)."""
    result = oracle.result()
    players = oracle.players
    assert replay.players == players
    for seat in range(players):
        assert {c.text for c in replay.dealt[seat].cards} == set(names_of(oracle.initial_hands[seat]))
        assert {c.text for c in replay.hands_at_play[seat].cards} == set(names_of(oracle.dealt[seat]))
    assert [k.text for k in replay.kicks] == [CARD_NAMES[k] for k in oracle.kicks]
    assert replay.beg == oracle.beg
    assert len(replay.runs) == oracle.runs
    assert replay.trump.suit == result["trump"]
    assert len(replay.tricks) == len(oracle.tricks) == len(result["tricks"])
    for number, (step, (leader, cards, winner)) in enumerate(zip(replay.tricks, oracle.tricks, strict=True), 1):
        assert step.number == number
        assert step.leader.seat == leader  # R13 for the first, R17 (the last winner) after
        assert [(p.seat.seat, p.card.text) for p in step.plays] == [
            (seat_of(leader, i, players), CARD_NAMES[c]) for i, c in enumerate(cards)]
        assert step.winner.seat == winner
        assert [p.wins for p in step.plays] == [p.seat.seat == winner for p in step.plays]
        assert [{c.text for c in seat.cards} for seat in step.hands_left] == cards_left_after(oracle, number)
    won = [sum(1 for _l, _c, w in oracle.tricks if w % 2 == team) for team in (0, 1)]
    assert replay.tricks[-1].tricks_won == tuple(won)
    assert replay.score_before == (0, 0)
    assert replay.score_after == tuple(result["score_after"])
    assert replay.points == tuple(result["points"])
    assert replay.winner == ("AB"[result["winner"]] if result["winner"] is not None else "")


def scoring_categories(replay) -> list[str]:
    return [line.category for line in replay.scoring]


def test_a_full_record_replays_every_trick_as_it_was_played(ran_pack):
    match = make_match(make_competition())
    stored = enter_record(match, ran_pack)
    hand = hand_for_replay(match.pk, stored.pk)
    assert is_replayable(hand)
    replay = build_replay(hand, hand.game.match)
    check_against(replay, ran_pack)
    assert len(replay.tricks) == 6 + 3 * ran_pack.runs  # R9: three more cards a seat for each run
    # each run's extra cards are the record's, seat by seat
    record = record_entry(ran_pack)
    assert [[[c.text for c in seat.cards] for seat in run.extra] for run in replay.runs] == [
        run["extra"] for run in record["runs"]]
    assert [run.last for run in replay.runs] == [False] * (ran_pack.runs - 1) + [True]
    # every trick's cards leave the hands: after the last one nobody holds a card
    assert all(not seat.cards for seat in replay.tricks[-1].hands_left)
    assert replay.steps == len(replay.tricks) + 2


def test_the_scoring_follows_the_order_of_the_rules_and_ends_at_the_score_after(stood):
    match = make_match(make_competition())
    stored = enter_record(match, stood)
    replay = build_replay(hand_for_replay(match.pk, stored.pk), match)
    check_against(replay, stood)
    result = stood.result()
    categories = [c for c in scoring_categories(replay) if c not in ("Kick", "Beg point")]
    jack = "Hang Jack" if result["jack"]["hang"] else "Jack"
    assert categories == ["High", "Low", jack, "Game"]  # R23: High, Low, Jack or Hang Jack, Game
    high = next(line for line in replay.scoring if line.category == "High")
    assert high.side == "AB"[result["high"]["team"]] and high.points == 1
    assert Card.parse(result["high"]["card"]).symbol in high.detail  # R18: the highest trump dealt
    jack_line = next(line for line in replay.scoring if line.category == jack)
    assert jack_line.side == "AB"[result["jack"]["team"]] and jack_line.points == result["jack"]["points"]
    # each line's score is the one before plus its points, and the last is the hand's score after
    score = list(replay.score_before)
    for line in replay.scoring:
        if line.side:
            score["AB".index(line.side)] += line.points
        assert line.score == tuple(score)
    assert replay.scoring[-1].score == tuple(result["score_after"])
    assert not any(line.reaches_target for line in replay.scoring)  # 0 – 0 before: nobody reaches 14


def test_the_line_that_takes_a_side_to_the_target_is_marked_R23():
    """A game to 2: the first award that takes a side to 2 wins it, whatever follows (R23)."""
    competition = make_competition(ruleset={"target": 2})
    rng = random.Random(3)
    for _ in range(500):
        hand = play_hand(4, 0, (0, 0), Ruleset.from_dict({"target": 2}), rng)
        if hand.plays and hand.result()["winner"] is not None and not any(hand.kick_points) and not any(
                hand.beg_points):
            break
    else:
        raise AssertionError("no such hand")
    match = make_match(competition)
    stored = enter_record(match, hand)
    replay = build_replay(hand_for_replay(match.pk, stored.pk), match)
    marked = [line for line in replay.scoring if line.reaches_target]
    assert len(marked) == 1
    assert marked[0].side == "AB"[hand.result()["winner"]]
    assert marked[0].score["AB".index(marked[0].side)] >= 2
    before = replay.scoring[:replay.scoring.index(marked[0])]
    assert all(max(line.score) < 2 for line in before)


def test_a_two_player_hand_replays_too():
    hand = bots_hand(2, 8, want=lambda h: bool(h.plays))
    match = make_match(make_competition(players=2))
    stored = enter_record(match, hand)
    replay = build_replay(hand_for_replay(match.pk, stored.pk), match)
    check_against(replay, hand)
    assert len(replay.seats) == 2


def test_a_chalk_only_hand_has_no_replay_and_says_why(client: Client):
    match = make_match(make_competition())
    services.enter_hand(match=match, number=1, mode=Hand.CHALK, entry=sweep(0), author_label="test")
    hand = Hand.objects.get(game__match=match)
    assert not is_replayable(hand)
    with pytest.raises(ReplayUnavailable, match="chalk totals"):
        build_replay(hand_for_replay(match.pk, hand.pk), match)
    response = client.get(reverse("hand_replay", args=[match.pk, hand.pk]))
    assert response.status_code == 404
    assert "entered as chalk totals" in response.content.decode()
    # and the scoresheet gives it no replay link
    sheet = client.get(reverse("match_sheet", args=[match.pk])).content.decode()
    assert reverse("hand_replay", args=[match.pk, hand.pk]) not in sheet


def test_a_deleted_hand_and_a_hand_of_another_match_are_404(client: Client, stood):
    match, other = make_match(make_competition()), make_match(make_competition())
    stored = enter_record(match, stood)
    assert client.get(reverse("hand_replay", args=[other.pk, stored.pk])).status_code == 404
    delete_hand(hand=stored, reason="entered at the wrong table", author_label="test")
    response = client.get(reverse("hand_replay", args=[match.pk, stored.pk]))
    assert response.status_code == 404
    assert "deleted" in response.content.decode()


# ----------------------------------------------------------------------------- the page
def test_the_page_shows_every_step_and_links_from_the_scoresheet(client: Client, ran_pack):
    match = make_match(make_competition())
    stored = enter_record(match, ran_pack)
    url = reverse("hand_replay", args=[match.pk, stored.pk])
    sheet = client.get(reverse("match_sheet", args=[match.pk])).content.decode()
    assert f'href="{url}"' in sheet
    replay = build_replay(hand_for_replay(match.pk, stored.pk), match)
    for step in range(replay.steps):
        response = client.get(url, {"trick": step})
        assert response.status_code == 200, step
        page = response.content.decode()
        shown = page.split(f'id="step-{step}"', 1)[1].split("</section>", 1)[0]
        assert " hidden" not in shown.split(">", 1)[0]  # the step asked for is the one not hidden
        assert page.count('class="rp-step"') == replay.steps
        assert page.count(" hidden>") == replay.steps - 1
        if step == 0:
            assert "ran the pack" in shown and "begged" in shown
            for seat in replay.dealt:
                assert all(f'data-card="{c.text}"' in shown for c in seat.cards)
        elif step <= len(replay.tricks):
            trick = replay.tricks[step - 1]
            assert f"Trick {step} " in shown
            for play in trick.plays:
                assert f'data-card="{play.card.text}"' in shown
            assert f"{trick.winner.label} wins trick {step}" in shown
            assert f'href="?trick={step + 1}"' in page and f'href="?trick={step - 1}"' in page
        else:
            assert "Scoring" in shown and "High" in shown and "Game" in shown
            assert f"{replay.score_after[0]} – {replay.score_after[1]}" in shown
            assert 'id="rp-next" rel="next" aria-disabled="true"' in page  # nothing after the scoring
    assert "js/replay.js" in client.get(url).content.decode()


@pytest.mark.parametrize("bad", ["x", "-1", "99", "1.5", "٣", "9" * 30])
def test_a_bad_trick_number_is_a_400_that_names_the_field(client: Client, stood, bad):
    match = make_match(make_competition())
    stored = enter_record(match, stood)
    response = client.get(reverse("hand_replay", args=[match.pk, stored.pk]), {"trick": bad})
    assert response.status_code == 400
    page = response.content.decode()
    assert "trick:" in page and "from 0 (the deal) to 7" in page
    assert 'id="step-0" data-step="0" data-title="The deal">' in page  # and the deal is shown


def test_drafts_do_not_leak_the_replay_of_their_hands(client: Client, stood):
    """The scoresheet's rule: an unpublished competition's or a draft round's hand is a 404 (the same as no hand at
    all) for everyone but the club's organisers."""
    draft = make_competition(published=False)
    organiser = make_organiser(draft.club, make_user())
    match = make_match(draft)
    stored = enter_record(match, stood)
    url = reverse("hand_replay", args=[match.pk, stored.pk])
    hidden = client.get(url)
    assert hidden.status_code == 404
    assert "No such hand in this match" in hidden.content.decode()
    assert match.side_a_name not in hidden.content.decode()
    client.force_login(make_user())
    assert client.get(url).status_code == 404
    client.force_login(organiser)
    assert client.get(url).status_code == 200

    public = make_competition()
    round_ = Round.objects.create(competition=public, number=1, status=Round.DRAFT)
    in_draft = make_match(public)
    stored = enter_record(in_draft, stood)
    Match.objects.filter(pk=in_draft.pk).update(round=round_)
    anonymous = Client()
    assert anonymous.get(reverse("hand_replay", args=[in_draft.pk, stored.pk])).status_code == 404
    Round.objects.filter(pk=round_.pk).update(status=Round.PUBLISHED)
    assert anonymous.get(reverse("hand_replay", args=[in_draft.pk, stored.pk])).status_code == 200


# ----------------------------------------------------------------------------- hands with no card played, a give
def crafted_record(kicks: list[str]) -> dict:
    """A 4-player record dealt from the cards left after ``kicks``: six cards a seat, then, for each later kick, a run
    of three more a seat (R9)."""
    pack = [name for name in CARD_NAMES if name not in kicks]
    hands = [pack[i * 6:(i + 1) * 6] for i in range(4)]
    rest = pack[24:]
    runs = []
    for kick in kicks[1:]:
        runs.append({"extra": [rest[i * 3:(i + 1) * 3] for i in range(4)], "kick": kick})
        rest = rest[12:]
    record = {"hands": hands, "kick": kicks[0]}
    if runs:
        record.update(beg="run", runs=runs)
    return record


def test_a_hand_the_kick_decides_shows_the_deal_and_the_kick_only(client: Client):
    """R6 and R23: a jack kicked gives the dealer's side 3, which is the target: nothing is stood, begged or played."""
    match = make_match(make_competition(ruleset={"target": 3}))
    record = crafted_record(["JS"])
    stored = services.enter_hand(match=match, number=1, mode=Hand.RECORD, entry=record, author_label="test")
    replay = build_replay(hand_for_replay(match.pk, stored.pk), match)
    assert replay.tricks == [] and replay.decided_before_play and not replay.redeal
    assert replay.beg is None and replay.trump.suit == "S"
    assert [(line.category, line.side, line.points, line.reaches_target) for line in replay.scoring] == [
        ("Kick", "A", 3, True)]  # the dealer (seat 1) is side A's
    assert replay.winner == "A" and replay.steps == 2
    url = reverse("hand_replay", args=[match.pk, stored.pk])
    deal = client.get(url).content.decode()
    assert "the game is decided before anyone stands or begs" in deal
    scoring = client.get(url, {"trick": 1}).content.decode()
    assert "3 reached" in scoring and "Game 1 to" in scoring
    assert client.get(url, {"trick": 2}).status_code == 400


def test_a_redeal_shows_every_run_and_no_trick(client: Client):
    """R11 and R12: the begged suit turns up at every run until the pack cannot be run again: a redeal."""
    match = make_match(make_competition())
    record = crafted_record(["2S", "3S", "4S"])
    stored = services.enter_hand(match=match, number=1, mode=Hand.RECORD, entry=record, author_label="test")
    replay = build_replay(hand_for_replay(match.pk, stored.pk), match)
    assert replay.redeal and replay.trump is None and replay.tricks == [] and replay.scoring == []
    assert [run.kick.text for run in replay.runs] == ["3S", "4S"]
    assert [[[c.text for c in seat.cards] for seat in run.extra] for run in replay.runs] == [
        run["extra"] for run in record["runs"]]
    page = client.get(reverse("hand_replay", args=[match.pk, stored.pk])).content.decode()
    assert "the begged suit again: the pack is run again" in page
    assert "the hand is a redeal" in page


def test_a_give_one_is_scored_before_high_low_jack_and_game(client: Client):
    """R8 then R23: the beg point is on the chalk before anything the tricks give."""
    hand = bots_hand(4, 21, want=lambda h: h.beg == "give" and bool(h.plays))
    match = make_match(make_competition())
    stored = enter_record(match, hand)
    replay = build_replay(hand_for_replay(match.pk, stored.pk), match)
    check_against(replay, hand)
    categories = scoring_categories(replay)
    assert categories.index("Beg point") < categories.index("High")
    beg = next(line for line in replay.scoring if line.category == "Beg point")
    assert (beg.side, beg.points) == ("B", 1)  # the eldest (seat 2) is side B's
    page = client.get(reverse("hand_replay", args=[match.pk, stored.pk])).content.decode()
    assert "<strong>gave one</strong>: 1 to side B" in page


def test_a_record_entered_in_lower_case_with_10s_replays_in_the_engines_spelling(stood):
    """HAND_RECORD.md: cards are case-insensitive on input and ``10`` is accepted for ``T``; the replay shows the
    cards as the engine writes them."""
    entry = record_entry(stood)

    def scrawl(card: str) -> str:
        return card.replace("T", "10").lower()

    entry = {**entry, "hands": [[scrawl(c) for c in seat] for seat in entry["hands"]], "kick": scrawl(entry["kick"]),
             "plays": [scrawl(c) for c in entry["plays"]]}
    match = make_match(make_competition())
    stored = services.enter_hand(match=match, number=1, mode=Hand.RECORD, entry=entry, author_label="test")
    check_against(build_replay(hand_for_replay(match.pk, stored.pk), match), stood)


def test_the_replay_page_takes_two_queries_whatever_the_hand(client: Client, django_assert_num_queries, ran_pack):
    match = make_match(make_competition())
    stored = enter_record(match, ran_pack)
    with django_assert_num_queries(2):  # the hand with its match, sides, players, competition and club; versions
        client.get(reverse("hand_replay", args=[match.pk, stored.pk]))


def test_a_hand_played_online_replays_from_the_record_the_table_stored(client: Client):
    """One replay for both: a fixture played at an online table (``tables``, the layer above) stores each hand
    through ``enter_hand`` as a record, and each replays card for card as the table played it."""
    from tables import dealing, fixtures
    from tables.models import TableHand
    from tests.factories import make_scene
    from tests.tables.helpers import play_out

    scene = make_scene("Online", organiser="org", scorekeeper="keeper", ruleset={"target": 5})
    match = scene["match"]
    table = play_out(dealing.start(fixtures.open_fixture(match, scene["scorekeeper"])))  # the clock plays every seat
    played = list(TableHand.objects.filter(table=table).order_by("number"))
    assert played and all(hand.stored_hand_id for hand in played)
    for online in played:
        stored = hand_for_replay(match.pk, online.stored_hand_id)
        replay = build_replay(stored, stored.game.match)
        shown = [play.card.text for trick in replay.tricks for play in trick.plays]
        assert shown == online.record["plays"]
        assert [k.text for k in replay.kicks][0] == online.record["kick"]
        assert replay.score_after == (stored.score_a_after, stored.score_b_after)
        url = reverse("hand_replay", args=[match.pk, stored.pk])
        assert client.get(url, {"trick": replay.scoring_step}).status_code == 200
    sheet = client.get(reverse("match_sheet", args=[match.pk])).content.decode()
    assert sheet.count('class="replay-link noprint"') == len(played)


@pytest.mark.parametrize("seed", [5, 11, 23])
def test_a_record_kept_elsewhere_replays_as_the_same_record_stored_on_a_sheet(seed):
    """``build_record_replay`` (a casual online table's hand, kept as the engine's record at the table) shows
    exactly what ``build_replay`` shows of the same record entered on a scoresheet: the same deal, tricks and
    scoring lines."""
    from games.replay import build_record_replay

    oracle = bots_hand(4, seed, want=lambda h: bool(h.plays))
    match = make_match(make_competition())
    stored = enter_record(match, oracle)
    on_sheet = build_replay(hand_for_replay(match.pk, stored.pk), match)
    record = oracle.to_record()
    kept = build_record_replay(record, oracle.result(), where="hand 1 of table 1", names=["", "", "", ""],
                               side_names=("North", "East"), number=1, game_number=1,
                               game_points=Ruleset().game_points)
    check_against(kept, oracle)
    assert kept.scoring == on_sheet.scoring
    assert [[p.card.text for p in t.plays] for t in kept.tricks] == [[p.card.text for p in t.plays]
                                                                     for t in on_sheet.tricks]
    assert [s.name for s in kept.seats] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    assert kept.side_name("A") == "North" and kept.match is None
    bad = {**record, "plays": record["plays"][:-1]}  # a card short: the record is not over
    with pytest.raises(ReplayUnavailable, match="hand 1 of table 1: its record no longer"):
        build_record_replay(bad, oracle.result(), where="hand 1 of table 1", names=[], side_names=("A", "B"),
                            number=1, game_number=1, game_points=Ruleset().game_points)
