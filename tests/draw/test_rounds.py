"""Rounds: pairing by the Celery task (eager here), the organiser's draft with its flags, edits with warnings,
publishing, and the public pages — on SQLite.

The pairing task is queued with ``transaction.on_commit``, which a test inside a transaction never reaches:
``pair`` and ``post`` run the captured callbacks, as a real commit would. Results are set on the matches the
way a club that keeps only match totals would enter them (``finish``)."""

from __future__ import annotations

from collections import Counter

import pytest
from django.db.models import Q
from django.urls import reverse

from draw import draft_by_system
from draw.checks import check_round
from draw.draft_writing import partnership_of
from draw.edits import edit_pairing, move_to_bye, pair_byes, swap_pairings, swap_slots, swap_with_bye
from draw.errors import RoundError
from draw.field import load_field
from draw.models import Bye, Round
from draw.progress import Progress
from draw.publishing import publish_round, unpublish_round
from draw.request import request_pairing
from draw.run import run_pairing
from games import services
from games.models import Hand, Match, TeamMatch
from league.models import Competition, Entry, Partnership, Team
from tests.factories import make_club, make_organiser, make_partnership, make_player, make_user

pytestmark = pytest.mark.django_db

CHALK = {"kicks": ["5C"], "beg": "stand", "high": {"team": 0}, "low": {"team": 0}, "jack": {"team": 0, "hang": False},
         "game": {"team": 0}}


# ----------------------------------------------------------------------------- helpers
def competition_of(club, system: str, entrants: int = 0, *, clubs=None, **fields) -> Competition:
    """A published competition of ``club`` with ``entrants`` partnerships seeded 1, 2, … (their clubs taken in
    turn from ``clubs``)."""
    serial = Competition.objects.count() + 1
    competition = Competition.objects.create(club=club, name=f"{system} {serial}", slug=f"{system}-{serial}".replace(
        "_", "-"), system=system, published=True, **fields)
    for seed in range(1, entrants + 1):
        home = clubs[(seed - 1) % len(clubs)] if clubs else club
        partnership = make_partnership(club=home, name=f"Pair {seed}")
        Entry.objects.create(competition=competition, partnership=partnership, seed=seed)
    return competition


def pair(django_capture_on_commit_callbacks, competition, number=None) -> Round:
    with django_capture_on_commit_callbacks(execute=True):
        round_ = request_pairing(competition, number)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE, round_.pairing_message
    return round_


def publish(round_: Round) -> Round:
    return publish_round(round_)


def matches_of(round_: Round) -> list[Match]:
    return list(Match.objects.filter(round=round_).order_by("id"))


def finish(match: Match, winner: str = "a") -> None:
    """A match total entered: the winner took the one game."""
    Match.objects.filter(pk=match.pk).update(
        status=Match.COMPLETE, winner=winner, games_a=int(winner == "a"), games_b=int(winner == "b"),
        result_level="match")


def finish_round(round_: Round, winner=lambda match: "a") -> None:
    for match in matches_of(round_):
        finish(match, winner(match))


def names(round_: Round) -> set[frozenset[str]]:
    return {frozenset((m.side_a_name, m.side_b_name)) for m in matches_of(round_)}


def bye_names(round_: Round) -> list[str]:
    return [b.entry.display_name for b in Bye.objects.filter(round=round_).select_related("entry__partnership")]


def slot_of(round_: Round, partnership: Partnership) -> str:
    """The place of a partnership in a draft round, as the swap form names it."""
    match = Match.objects.filter(round=round_).filter(Q(side_a=partnership) | Q(side_b=partnership)).first()
    if match is None:
        return f"y{Bye.objects.get(round=round_, entry__partnership=partnership).pk}"
    return f"m{match.pk}-{'a' if match.side_a_id == partnership.pk else 'b'}"


def opponent_slot(round_: Round, partnership: Partnership) -> str:
    key = slot_of(round_, partnership)
    return key[:-1] + ("b" if key.endswith("a") else "a")


def manage_url(competition, number) -> str:
    return reverse("round_manage", args=[competition.club.slug, competition.slug, number])


def round_action_url(name, competition, number) -> str:
    return reverse(f"round_{name}", args=[competition.club.slug, competition.slug, number])


def status_url(competition, number) -> str:
    return reverse("round_pairing_status", args=[competition.club.slug, competition.slug, number])


def public_url(competition, number) -> str:
    return reverse("round_detail", args=[competition.club.slug, competition.slug, number])


@pytest.fixture
def post(client, django_capture_on_commit_callbacks):
    def do(url: str, data: dict | None = None, follow: bool = True):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(url, data or {})
        if follow and response.status_code == 302:  # the page after the task ran, as after a real commit
            return client.get(response["Location"])
        return response

    return do


# ----------------------------------------------------------------------------- the whole flow on the pages
def test_organiser_pairs_reviews_edits_and_publishes_a_swiss_round(client, club, organiser, post,
                                                                    django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 7, planned_rounds=3)
    client.force_login(organiser)

    page = client.get(manage_url(competition, 1))
    assert page.status_code == 200 and "Pair round 1" in page.content.decode()
    page = post(round_action_url("pair", competition, 1)).content.decode()
    round_one = Round.objects.get(competition=competition, number=1)
    assert round_one.status == Round.DRAFT and round_one.pairing_state == Round.DONE
    assert len(matches_of(round_one)) == 3 and len(bye_names(round_one)) == 1
    assert "Draft pairings" in page and "Bye: counts as a win" in page and "Publish Round 1" in page
    assert all(m.first_dealer == 0 and m.table for m in matches_of(round_one))

    post(round_action_url("publish", competition, 1))
    round_one.refresh_from_db()
    assert round_one.is_published and round_one.published_at is not None
    finish_round(round_one)

    post(round_action_url("pair", competition, 2))
    round_two = Round.objects.get(competition=competition, number=2)
    first_round = names(round_one)
    assert not names(round_two) & first_round, "a Swiss round repeated a pairing"
    page = client.get(manage_url(competition, 2)).content.decode()
    assert "Float: scores" in page or "Bye" in page  # 7 entrants: a float or a bye explains round 2

    # swap to make a rematch of round 1: the page warns
    old = next(m for m in matches_of(round_one) if slot_of(round_two, m.side_a).startswith("m"))
    first, second = opponent_slot(round_two, old.side_a), slot_of(round_two, old.side_b)
    page = post(round_action_url("swap", competition, 2), {"first": first, "second": second}).content.decode()
    assert "the pairings now break" in page.lower()
    assert 'id="warnings"' in page and "warning-rematch" in page
    assert "Changed by hand" in page
    assert any("edited" in m.pairing_flags for m in matches_of(round_two))

    # edit a match's sides back (any two entrants): still a draft, then publish
    match = matches_of(round_two)[0]
    post(round_action_url("edit_match", competition, 2), {"match": match.pk, "side_a": match.side_b_id,
                                                          "side_b": match.side_a_id})
    swapped = Match.objects.get(pk=match.pk)
    assert (swapped.side_a_id, swapped.side_b_id) == (match.side_b_id, match.side_a_id)
    assert client.get(public_url(competition, 2)).status_code == 302  # the organiser is sent to the draft page
    client.logout()
    assert client.get(public_url(competition, 2)).status_code == 404
    client.force_login(organiser)
    post(round_action_url("publish", competition, 2))
    client.logout()
    page = client.get(public_url(competition, 2)).content.decode()
    assert swapped.side_a_name in page and "Table" in page and 'round-print.css" media="print"' in page


def test_edit_services_return_warnings_and_move_entrants_to_and_from_the_bye(club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 5, planned_rounds=4)
    round_one = pair(django_capture_on_commit_callbacks, competition)
    match_one, match_two = matches_of(round_one)
    bye = Bye.objects.get(round=round_one)

    warnings = swap_with_bye(round_one, match_one, "a", bye)
    assert not {w["code"] for w in warnings} & {"rematch", "missing", "twice"}
    bye.refresh_from_db()
    match_one.refresh_from_db()
    assert "edited" in match_one.pairing_flags and "edited" in bye.flags

    move_to_bye(round_one, match_two)
    assert Bye.objects.filter(round=round_one).count() == 3 and len(matches_of(round_one)) == 1
    codes = {w["code"] for w in check_round(round_one)}
    assert codes  # three byes in one round: the engine says so
    byes = list(Bye.objects.filter(round=round_one).order_by("id"))
    pair_byes(round_one, byes[0], byes[1])
    assert len(matches_of(round_one)) == 2 and Bye.objects.filter(round=round_one).count() == 1

    one, two = matches_of(round_one)
    warnings = edit_pairing(one, side_a=two.side_a, side_b=one.side_b)
    assert any(w["code"] in ("twice", "duplicate", "missing", "placed_twice") or "twice" in w["message"]
               or "missing" in w["message"] for w in warnings), warnings
    with pytest.raises(RoundError):
        edit_pairing(one, side_a=one.side_b, side_b=one.side_b)
    publish(round_one)
    with pytest.raises(RoundError, match="published"):
        swap_pairings(round_one, one, "a", two, "b")


def test_same_club_pairing_is_flagged_and_explained(client, organiser, django_capture_on_commit_callbacks):
    blue, red = make_club("Blue Dollar", organisers=[organiser]), make_club("Red House")
    competition = competition_of(blue, Competition.SWISS, 4, clubs=[blue, red], planned_rounds=3, avoid_same_club=True)
    round_one = pair(django_capture_on_commit_callbacks, competition)
    assert all(m.side_a.club_id != m.side_b.club_id for m in matches_of(round_one))
    one, two = matches_of(round_one)
    same = "a" if two.side_a.club_id == one.side_a.club_id else "b"
    warnings = swap_pairings(round_one, one, "b", two, same)
    assert {w["code"] for w in warnings} >= {"same_club"}
    client.force_login(organiser)
    page = client.get(manage_url(competition, 1)).content.decode()
    assert "warning-same_club" in page


# ----------------------------------------------------------------------------- drafts are not public
def test_the_public_never_sees_a_draft_round(client, club, organiser, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.KNOCKOUT, 4)
    round_one = pair(django_capture_on_commit_callbacks, competition)
    draft_names = [m.side_a_name for m in matches_of(round_one)]
    stranger = make_user("uwe")
    for who in (None, stranger):
        if who:
            client.force_login(who)
        assert client.get(public_url(competition, 1)).status_code == 404
        for page in (reverse("competition_rounds", args=[club.slug, competition.slug]),
                     reverse("competition_bracket", args=[club.slug, competition.slug])):
            html = client.get(page).content.decode()
            assert not any(name in html for name in draft_names), page
            assert "Round 1" not in html and "Semi-finals" not in html and "Final" not in html.replace(
                "Finals", "")
    client.force_login(organiser)
    rounds_page = client.get(reverse("competition_rounds", args=[club.slug, competition.slug])).content.decode()
    assert manage_url(competition, 1) in rounds_page  # organisers reach their drafts
    publish(round_one)
    client.logout()
    html = client.get(reverse("competition_bracket", args=[club.slug, competition.slug])).content.decode()
    assert all(name in html for name in draft_names)


def test_a_round_cannot_be_paired_again_once_a_hand_is_entered(client, club, organiser, post,
                                                                django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 4, planned_rounds=3)
    round_one = pair(django_capture_on_commit_callbacks, competition)
    first_ids = [m.pk for m in matches_of(round_one)]
    again = pair(django_capture_on_commit_callbacks, competition, 1)  # nothing entered: allowed, a new draft
    assert again.pk == round_one.pk and again.pairing_version == 2
    assert [m.pk for m in matches_of(again)] != first_ids
    publish(again)
    again = pair(django_capture_on_commit_callbacks, competition, 1)  # a published round goes back to a draft
    assert again.status == Round.DRAFT
    publish(again)

    match = matches_of(again)[0]
    services.enter_hand(match=match, number=1, mode=Hand.CHALK, entry=CHALK, author_label="sam")
    with pytest.raises(RoundError, match="hand"):
        request_pairing(competition, 1)
    with pytest.raises(RoundError, match="hand"):
        unpublish_round(again)
    client.force_login(organiser)
    page = client.get(manage_url(competition, 1)).content.decode()
    assert "cannot be paired again" in page and 'id="pair-button"' not in page
    page = post(round_action_url("pair", competition, 1)).content.decode()
    assert "cannot be paired again" in page
    assert Match.objects.filter(pk=match.pk).exists()


def test_a_forfeit_or_a_match_total_also_stops_a_new_pairing(club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.ROUND_ROBIN, 4)
    round_one = pair(django_capture_on_commit_callbacks, competition)
    match = matches_of(round_one)[0]
    Match.objects.filter(pk=match.pk).update(outcome=Match.FORFEIT_A)
    with pytest.raises(RoundError, match="forfeit"):
        request_pairing(competition, 1)
    Match.objects.filter(pk=match.pk).update(outcome=Match.PLAYED, games_a=1)
    with pytest.raises(RoundError, match="result"):
        request_pairing(competition, 1)


# ----------------------------------------------------------------------------- systems
def test_swiss_over_three_rounds_never_repeats_and_pairs_within_score_groups(club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 8, planned_rounds=3)
    met: Counter = Counter()
    for number in (1, 2, 3):
        round_ = pair(django_capture_on_commit_callbacks, competition)
        assert round_.number == number
        pairs = names(round_)
        assert len(pairs) == 4 and not Bye.objects.filter(round=round_).exists()
        met.update(pairs)
        if number == 2:  # after round 1 the four winners play each other
            winners = {m.side_a_name for m in matches_of(Round.objects.get(competition=competition, number=1))}
            assert sum(1 for pair_ in pairs if pair_ <= winners) == 2
        publish(round_)
        finish_round(round_)
    assert max(met.values()) == 1, "a pairing was repeated"
    with pytest.raises(RoundError, match="3 rounds"):
        request_pairing(competition)


def test_swiss_waits_for_the_results_and_counts_forfeits_and_byes(club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 5, planned_rounds=3)
    round_one = publish(pair(django_capture_on_commit_callbacks, competition))
    with pytest.raises(RoundError, match="no result yet"):
        request_pairing(competition)
    one, two = matches_of(round_one)
    finish(one, "b")
    Match.objects.filter(pk=two.pk).update(outcome=Match.FORFEIT_A)
    field = load_field(competition, 2)
    scores = {field.name(u): field.score(u) for u in field.active}
    bye = Bye.objects.get(round=round_one)
    assert scores[bye.entry.display_name] == competition.points_win  # a fixed bye counts as a win
    assert scores[one.side_b_name] == competition.points_win and scores[one.side_a_name] == 0
    assert scores[two.side_b_name] == competition.points_win and scores[two.side_a_name] == 0
    round_two = pair(django_capture_on_commit_callbacks, competition)
    assert bye.entry.display_name not in bye_names(round_two)  # nobody has a second bye while others have none


def test_round_robin_schedule_meets_every_pair_once_with_a_bye_each(club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.ROUND_ROBIN, 5)
    met: Counter = Counter()
    byes: Counter = Counter()
    for number in range(1, 6):
        round_ = publish(pair(django_capture_on_commit_callbacks, competition))
        assert round_.number == number and len(matches_of(round_)) == 2
        met.update(names(round_))
        byes.update(bye_names(round_))
    assert len(met) == 10 and set(met.values()) == {1}
    assert len(byes) == 5 and set(byes.values()) == {1}
    with pytest.raises(RoundError, match="5 rounds"):
        request_pairing(competition)
    # pairing a round again gives the same round of the schedule
    last = Round.objects.get(competition=competition, number=5)
    before = names(last)
    unpublish_round(last)
    assert names(pair(django_capture_on_commit_callbacks, competition, 5)) == before


def test_double_round_robin_meets_every_pair_twice(club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.DOUBLE_ROUND_ROBIN, 4)
    met: Counter = Counter()
    for _ in range(6):
        met.update(names(publish(pair(django_capture_on_commit_callbacks, competition))))
    assert len(met) == 6 and set(met.values()) == {2}


def test_a_round_robin_gives_the_opponent_of_a_withdrawn_entrant_a_bye(club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.ROUND_ROBIN, 4)
    publish(pair(django_capture_on_commit_callbacks, competition))
    gone = Entry.objects.get(competition=competition, seed=4)
    Entry.objects.filter(pk=gone.pk).update(withdrawn=True, withdrawn_after_round=1)
    round_two = pair(django_capture_on_commit_callbacks, competition)
    assert len(matches_of(round_two)) == 1
    assert all(gone.partnership.display_name not in pair_ for pair_ in names(round_two))
    bye = Bye.objects.get(round=round_two)
    assert "opponent_withdrew" in bye.flags


def test_knockout_with_byes_advancement_and_a_third_place_match(client, club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.KNOCKOUT, 6, third_place_match=True,
                                 match_format=Competition.BEST_OF, match_games=3)
    round_one = publish(pair(django_capture_on_commit_callbacks, competition))
    assert round_one.stage == "knockout" and round_one.name == "Quarter-finals"
    assert sorted(bye_names(round_one)) == ["Pair 1", "Pair 2"]  # the top seeds
    assert all(b.bracket_position for b in Bye.objects.filter(round=round_one))
    assert len(matches_of(round_one)) == 2 and all(m.bracket_position for m in matches_of(round_one))
    finish_round(round_one, winner=lambda m: "b")  # the lower seeds win

    semis = publish(pair(django_capture_on_commit_callbacks, competition))
    assert semis.name == "Semi-finals" and len(matches_of(semis)) == 2
    in_semis = {n for pair_ in names(semis) for n in pair_}
    winners = {m.side_b_name for m in matches_of(round_one)}
    assert in_semis == {"Pair 1", "Pair 2"} | winners
    finish_round(semis)

    final = publish(pair(django_capture_on_commit_callbacks, competition))
    assert final.name == "Final"
    ties = matches_of(final)
    assert len(ties) == 2 and sum(m.third_place for m in ties) == 1
    decider = next(m for m in ties if not m.third_place)
    third = next(m for m in ties if m.third_place)
    assert {decider.side_a_name, decider.side_b_name} == {m.side_a_name for m in matches_of(semis)}
    assert {third.side_a_name, third.side_b_name} == {m.side_b_name for m in matches_of(semis)}
    finish(decider, "a")
    with pytest.raises(RoundError, match="over"):
        request_pairing(competition)

    page = client.get(reverse("competition_bracket", args=[club.slug, competition.slug])).content.decode()
    assert page.count('class="bracket-col"') == 3 and 'id="third-place"' in page
    assert "bye" in page and 'class="entrant won"' in page


def test_groups_then_knockout_seeds_from_the_group_standings(club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.GROUPS_KNOCKOUT, 8, group_count=2, advance_per_group=2)
    group_rounds = []
    for number in (1, 2, 3):
        round_ = publish(pair(django_capture_on_commit_callbacks, competition))
        assert round_.number == number and round_.stage == "group" and len(matches_of(round_)) == 4
        assert {m.group for m in matches_of(round_)} == {"A", "B"}
        group_rounds.append(round_)
    groups = {e.seed: e.group for e in Entry.objects.filter(competition=competition)}
    assert groups[1] != groups[2] and groups[1] == groups[4]  # snake: 1 and 4 in one group, 2 and 3 in the other
    assert Counter(groups.values()) == {"A": 4, "B": 4}
    seed_of = {e.partnership.display_name: e.seed for e in Entry.objects.filter(competition=competition)}
    for round_ in group_rounds:  # the better seed always wins
        finish_round(round_, winner=lambda m: "a" if seed_of[m.side_a_name] < seed_of[m.side_b_name] else "b")

    knockout = pair(django_capture_on_commit_callbacks, competition)
    assert knockout.number == 4 and knockout.stage == "knockout" and knockout.name == "Semi-finals"
    pairs = {frozenset(seed_of[n] for n in pair_) for pair_ in names(knockout)}
    by_group: dict[str, list[int]] = {}
    for seed, letter in sorted(groups.items()):
        by_group.setdefault(letter, []).append(seed)
    a, b = by_group["A"], by_group["B"]
    assert pairs == {frozenset((a[0], b[1])), frozenset((b[0], a[1]))}  # winners meet the other group's runner-up


def test_individual_rounds_make_partnerships_of_players(club, django_capture_on_commit_callbacks):
    competition = Competition.objects.create(club=club, name="Rotating", slug="rotating", published=True,
                                             system=Competition.SWISS, entrant_kind=Competition.INDIVIDUAL,
                                             planned_rounds=3)
    players = [make_player(f"Player {n}", club=club) for n in range(1, 10)]
    for seed, player in enumerate(players, start=1):
        Entry.objects.create(competition=competition, player=player, seed=seed)
    existing = Partnership.objects.create(player_one=players[0], player_two=players[1], name="Old hands")
    assert partnership_of(players[1], players[0]) == existing

    partnerships_before = Partnership.objects.count()
    round_one = publish(pair(django_capture_on_commit_callbacks, competition))
    tables = matches_of(round_one)
    assert len(tables) == 2 and Bye.objects.filter(round=round_one).count() == 1
    seated = [p for m in tables for side in (m.side_a, m.side_b) for p in (side.player_one, side.player_two)]
    assert len(set(seated)) == 8
    assert Partnership.objects.count() >= partnerships_before + 3  # at most one pair could be reused
    assert all(m.side_a.club_id == club.pk for m in tables)  # players of one club: the partnership's club
    finish_round(round_one)
    round_two = pair(django_capture_on_commit_callbacks, competition)
    first_partners = {frozenset((s.player_one_id, s.player_two_id)) for m in tables for s in (m.side_a, m.side_b)}
    second = matches_of(round_two)
    assert not first_partners & {frozenset((s.player_one_id, s.player_two_id)) for m in second
                                 for s in (m.side_a, m.side_b)}, "a partnership was repeated"
    sitting = Bye.objects.get(round=round_two)
    assert sitting.entry.player_id != Bye.objects.get(round=round_one).entry.player_id
    assert "sitting_out" in sitting.flags
    # swapping two players re-forms the partnerships
    warnings = swap_slots(round_two, f"m{second[0].pk}-a1", f"y{sitting.pk}")
    assert isinstance(warnings, list)
    second[0].refresh_from_db()
    assert sitting.entry.player_id in (second[0].side_a.player_one_id, second[0].side_a.player_two_id)


def test_a_late_entry_joins_the_next_round_and_a_withdrawn_one_is_not_paired(club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 6, planned_rounds=4)
    round_one = publish(pair(django_capture_on_commit_callbacks, competition))
    finish_round(round_one)
    Entry.objects.create(competition=competition, partnership=make_partnership(club=club, name="Latecomers"),
                                joined_round=2)
    gone = Entry.objects.get(competition=competition, seed=1)
    Entry.objects.filter(pk=gone.pk).update(withdrawn=True, withdrawn_after_round=1)
    assert "Latecomers" not in {n for p in names(round_one) for n in p}

    round_two = pair(django_capture_on_commit_callbacks, competition)
    paired = {n for p in names(round_two) for n in p} | set(bye_names(round_two))
    assert "Latecomers" in paired and gone.partnership.display_name not in paired
    assert len(paired) == 6


def test_a_pairing_that_cannot_be_made_fails_with_the_reason(client, club, organiser,
                                                             django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 1, planned_rounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = request_pairing(competition)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.FAILED and "two entrants" in round_.pairing_message
    client.force_login(organiser)
    page = client.get(manage_url(competition, 1)).content.decode()
    assert "state-failed" in page and "two entrants" in page and "Publish" not in page
    with pytest.raises(RoundError, match="failed"):
        publish_round(round_)


def test_a_manual_competition_is_not_paired(club):
    competition = competition_of(club, Competition.MANUAL, 4)
    with pytest.raises(RoundError, match="by hand"):
        request_pairing(competition)
    assert not competition.rounds.exists()


def team_competition(club, system: str, teams: int, **fields) -> Competition:
    competition = competition_of(club, system, 0, entrant_kind=Competition.TEAMS, team_tables=2, **fields)
    for seed in range(1, teams + 1):
        home = make_club(f"Bar {seed}")
        team = Team.objects.create(competition=competition, club=home, name=f"Team {seed}")
        team.partnerships.add(*(make_partnership(club=home) for _ in range(2)))
        Entry.objects.create(competition=competition, team=team, seed=seed)
    return competition


def team_matches_of(round_: Round) -> list[TeamMatch]:
    return list(TeamMatch.objects.filter(round=round_).order_by("id"))


def finish_team(team_match: TeamMatch, winner: str = "a") -> None:
    TeamMatch.objects.filter(pk=team_match.pk).update(
        status=TeamMatch.COMPLETE, winner=winner, bullseyes_a=22 if winner == "a" else 10,
        bullseyes_b=22 if winner == "b" else 10, result_level="match")


def test_club_teams_are_paired_into_team_matches(client, club, organiser, django_capture_on_commit_callbacks):
    competition = team_competition(club, Competition.SWISS, 5, planned_rounds=3)
    round_one = pair(django_capture_on_commit_callbacks, competition)
    ties = team_matches_of(round_one)
    assert len(ties) == 2 and not Match.objects.filter(round=round_one).exists()  # the captains seat the tables
    assert len(bye_names(round_one)) == 1
    client.force_login(organiser)
    page = client.get(manage_url(competition, 1)).content.decode()
    assert ties[0].team_a_name in page and "team-match-" in page
    bye = Bye.objects.get(round=round_one)
    swap_with_bye(round_one, ties[0], "b", bye)
    ties[0].refresh_from_db()
    assert ties[0].team_b_id == bye.entry.team_id and "edited" in ties[0].pairing_flags
    publish(round_one)
    for tie in team_matches_of(round_one):
        finish_team(tie, "a")
    round_two = pair(django_capture_on_commit_callbacks, competition)
    first = {frozenset((t.team_a_id, t.team_b_id)) for t in team_matches_of(round_one)}
    assert not first & {frozenset((t.team_a_id, t.team_b_id)) for t in team_matches_of(round_two)}
    publish(round_two)
    client.logout()
    page = client.get(public_url(competition, 2)).content.decode()
    assert reverse("team_match", args=[team_matches_of(round_two)[0].pk]) in page


def test_a_team_knockout_keeps_its_bracket_in_the_flags(client, club, organiser,
                                                         django_capture_on_commit_callbacks):
    """``TeamMatch`` and ``Bye`` have no bracket column: their place is stored with the flags (``draw.placement``),
    read back as fields, and never shown as a flag."""
    competition = team_competition(club, Competition.KNOCKOUT, 3)
    round_one = pair(django_capture_on_commit_callbacks, competition)
    (semi,) = team_matches_of(round_one)
    assert semi.bracket_position == 2 and bye_names(round_one) == ["Team 1"]
    assert Bye.objects.get(round=round_one).bracket_position == 1
    client.force_login(organiser)
    page = client.get(manage_url(competition, 1)).content.decode()
    assert "tie 1" in page and "position:" not in page and "Position:" not in page
    publish(round_one)
    bracket = client.get(reverse("competition_bracket", args=[club.slug, competition.slug])).content.decode()
    assert "Team 1" in bracket and "position:" not in bracket
    finish_team(semi, "b")
    final = publish(pair(django_capture_on_commit_callbacks, competition))
    (decider,) = team_matches_of(final)
    assert final.name == "Final" and {decider.team_a_name, decider.team_b_name} == {"Team 1", semi.team_b_name}
    finish_team(decider, "a")
    with pytest.raises(RoundError, match="over"):
        request_pairing(competition)
    page = client.get(reverse("competition_bracket", args=[club.slug, competition.slug])).content.decode()
    assert page.count('class="tie"') == 3 and "Team 1" in page


# ----------------------------------------------------------------------------- the task itself
def test_the_task_skips_an_old_version_and_a_round_already_paired(club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 4, planned_rounds=2)
    round_ = pair(django_capture_on_commit_callbacks, competition)
    ids = [m.pk for m in matches_of(round_)]
    assert "skipped" in run_pairing(round_.pk, round_.pairing_version)  # done: the draft is kept
    assert [m.pk for m in matches_of(round_)] == ids
    with django_capture_on_commit_callbacks(execute=False):  # asked again, the task not run yet
        request_pairing(competition, 1)
    assert "superseded" in run_pairing(round_.pk, 1)["skipped"]
    assert [m.pk for m in matches_of(round_)] == ids
    with django_capture_on_commit_callbacks(execute=False):  # asked again while queued: supersedes it
        again = request_pairing(competition, 1)
    assert again.pairing_version == 3 and again.pairing_state == Round.QUEUED
    assert "superseded" in run_pairing(round_.pk, 2)["skipped"]
    result = run_pairing(round_.pk, 3)
    assert result["state"] == Round.DONE and result["matches"] == 2
    assert run_pairing(round_.pk, 3)["skipped"] == "already paired"
    assert [m.pk for m in matches_of(round_)] != ids


def test_progress_is_written_by_the_engine_callback(club):
    competition = competition_of(club, Competition.SWISS, 4, planned_rounds=2)
    round_ = Round.objects.create(competition=competition, number=1, status=Round.DRAFT, pairing_version=3)
    progress = Progress(round_.pk, 3)
    progress(0.5, "halfway")
    round_.refresh_from_db()
    assert (round_.pairing_progress, round_.pairing_message) == (0.5, "halfway")
    progress(0.6, "too soon")  # within the throttle interval: not written
    round_.refresh_from_db()
    assert round_.pairing_progress == 0.5
    progress.part(0.5, 0.5).write(0.5, "a part", force=True)
    round_.refresh_from_db()
    assert round_.pairing_progress == 0.75
    Progress(round_.pk, 2).write(0.9, "an old version", force=True)
    round_.refresh_from_db()
    assert round_.pairing_message == "a part"


def test_pairing_status_endpoint_answers_json(client, club, organiser, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 4, planned_rounds=2)
    pair(django_capture_on_commit_callbacks, competition)
    client.force_login(organiser)
    response = client.get(status_url(competition, 1))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = response.json()
    assert data["state"] == "done" and data["progress"] == 1.0 and data["message"].startswith("Paired")
    assert {"state", "progress", "message"} <= set(data)
    assert client.get(status_url(competition, 2)).status_code == 404
    page = client.get(manage_url(competition, 1)).content.decode()
    assert "pairing_progress.js" in page and status_url(competition, 1) in page


# ----------------------------------------------------------------------------- who may do what
@pytest.mark.parametrize("actor", ["anonymous", "scorekeeper", "other_organiser", "user_without_role"])
def test_only_the_clubs_organisers_manage_rounds(client, club, actor, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 4, planned_rounds=3)
    round_one = publish(pair(django_capture_on_commit_callbacks, competition))
    match = matches_of(round_one)[0]
    if actor == "scorekeeper":
        user = make_user("sam")
        match.scorekeepers.add(user)
    elif actor == "other_organiser":
        user = make_organiser(make_club("Arima Social Club"), make_user("oscar"))
    elif actor == "user_without_role":
        user = make_user("uma")
    if actor != "anonymous":
        client.force_login(user)
    expected = 302 if actor == "anonymous" else 403
    before = (Round.objects.count(), Round.objects.get(pk=round_one.pk).status)
    for url in (manage_url(competition, 1), manage_url(competition, 2), status_url(competition, 1)):
        response = client.get(url)
        assert response.status_code == expected, url
        if actor == "anonymous":
            assert "/accounts/login/" in response["Location"]
    for number, action in ((2, "pair"), (1, "unpublish"), (1, "swap")):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(round_action_url(action, competition, number))
        assert response.status_code == expected
    assert (Round.objects.count(), Round.objects.get(pk=round_one.pk).status) == before
    # the published round is public to all of them
    assert client.get(public_url(competition, 1)).status_code == 200


def test_an_unpublished_competition_is_a_404_to_other_users(client, club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.SWISS, 4, planned_rounds=3)
    Competition.objects.filter(pk=competition.pk).update(published=False)
    other = make_organiser(make_club("Arima Social Club"), make_user("oscar"))
    client.force_login(other)
    assert client.get(manage_url(competition, 1)).status_code == 404
    assert client.get(reverse("competition_rounds", args=[club.slug, competition.slug])).status_code == 404


def test_rounds_and_results_by_round_pages(client, club, organiser, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.ROUND_ROBIN, 4)
    round_one = publish(pair(django_capture_on_commit_callbacks, competition))
    finish(matches_of(round_one)[0], "b")
    pair(django_capture_on_commit_callbacks, competition)  # round 2: a draft
    rounds_url = reverse("competition_rounds", args=[club.slug, competition.slug])
    page = client.get(rounds_url).content.decode()
    assert 'id="round-1"' in page and 'id="round-2"' not in page and "0 – 1" in page
    assert reverse("competition_bracket", args=[club.slug, competition.slug]) not in page
    assert client.get(reverse("competition_bracket", args=[club.slug, competition.slug])).status_code == 404
    client.force_login(organiser)
    page = client.get(rounds_url).content.decode()
    assert manage_url(competition, 2) in page and "Publish Round 2 before pairing the next round" in page
    publish(Round.objects.get(competition=competition, number=2))
    assert manage_url(competition, 3) in client.get(rounds_url).content.decode()


def test_the_manage_page_of_a_round_far_ahead_is_a_404(client, club, organiser):
    competition = competition_of(club, Competition.SWISS, 4, planned_rounds=3)
    client.force_login(organiser)
    assert client.get(manage_url(competition, 1)).status_code == 200
    assert client.get(manage_url(competition, 2)).status_code == 404


def test_every_pair_of_a_round_is_paired_once(club, django_capture_on_commit_callbacks):
    """The draft holds each active entrant exactly once, at a table or on the bye."""
    competition = competition_of(club, Competition.SWISS, 9, planned_rounds=2)
    round_ = pair(django_capture_on_commit_callbacks, competition)
    placed = [n for m in matches_of(round_) for n in (m.side_a_name, m.side_b_name)] + bye_names(round_)
    assert sorted(placed) == sorted(f"Pair {n}" for n in range(1, 10))
    assert sorted(int(m.table) for m in matches_of(round_)) == list(range(1, 5))
    assert Bye.objects.get(round=round_).entry.seed == 9  # round 1: the bye to the lowest-ranked


def test_a_bye_moved_up_to_avoid_a_rematch_says_so_on_the_draft(client, club, monkeypatch,
                                                                        django_capture_on_commit_callbacks):
    """The pairing engine's bye flag (``avoids_rematch``) reaches the stored bye and the organiser's draft page."""
    real = draft_by_system.pair_spec
    monkeypatch.setattr(draft_by_system, "pair_spec", lambda spec, progress: {**real(spec, progress),
                                                                  "bye_flags": ["avoids_rematch"]})
    competition = competition_of(club, Competition.SWISS, 5, planned_rounds=3)
    round_one = pair(django_capture_on_commit_callbacks, competition)
    bye = Bye.objects.get(round=round_one)
    assert bye.flags == ["bye", "avoids_rematch"]
    client.force_login(make_organiser(club, make_user("bye-reader")))
    page = client.get(reverse("round_manage", args=[club.slug, competition.slug, 1])).content.decode()
    assert "Bye moved up" in page and "forced a rematch" in page
