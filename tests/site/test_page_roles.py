"""Who may do what on the pages, as a table: every actor against every action, GET and POST alike.

Forbidden → 403 (or the login page for someone not logged in); an unpublished competition → 404 for
everyone but its club's organisers. A refused POST changes nothing.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Hand, HandVersion, Match
from league.competition_options import set_published
from tests.factories import make_club, make_competition, make_match, make_organiser, make_user
from tests.shared_rows import shared_world

pytestmark = pytest.mark.django_db

OK, LOGIN = "ok", "login"
ACTIONS = ("view_draft", "enter", "undo", "correct", "delete", "manage")
EXPECTED = {
    #                      view_draft  enter  undo   correct delete  manage links
    "anonymous":          (404,        LOGIN, LOGIN, LOGIN,  LOGIN,  LOGIN),
    "user_without_role":  (404,        403,   403,   403,    403,    403),
    "other_scorekeeper":  (404,        403,   403,   403,    403,    403),
    "scorekeeper":        (404,        OK,    OK,    OK,     OK,     403),
    "private_link":       (404,        OK,    OK,    OK,     OK,     LOGIN),
    "revoked_link":       (404,        404,   404,   404,    404,    LOGIN),  # as an unknown link
    "other_organiser":    (404,        403,   403,   403,    403,    403),
    "organiser":          (OK,         OK,    OK,    OK,     OK,     OK),
}
CASES = [(actor, action, outcomes[n]) for actor, outcomes in EXPECTED.items() for n, action in enumerate(ACTIONS)]
HAND = {"kick": "5C", "beg": "stand", "high": "a", "low": "a", "jack": "a", "game": "a", "penalty": ""}
CHALK = {"kicks": ["5C"], "beg": "stand", "high": {"team": 0}, "low": {"team": 0}, "jack": {"team": 0, "hang": False},
         "game": {"team": 0}}


def build_world() -> dict:
    club = make_club("Belmont Sports Club")
    organiser = make_organiser(club, make_user("olive"))
    other_organiser = make_organiser(make_club("Arima Social Club"), make_user("oscar"))
    scorekeeper, other_scorekeeper = make_user("sam"), make_user("ned")
    make_user("uma")
    competition = make_competition(club=club)
    match = make_match(competition, scorekeepers=[scorekeeper])
    make_match(competition, scorekeepers=[other_scorekeeper])
    draft = make_competition(club=club, published=False)
    draft_match = make_match(draft)
    hand = services.enter_hand(match=match, number=1, mode=Hand.CHALK, entry=CHALK, user=organiser)
    return {"club": club, "competition": competition, "match": match, "hand": hand, "draft": draft,
            "draft_match": draft_match, "users": {"organiser": organiser, "other_organiser": other_organiser,
                                                  "scorekeeper": scorekeeper, "other_scorekeeper": other_scorekeeper,
                                                  "user_without_role": make_user("uwe")}}


module_world, world = shared_world(build_world)


def become(client, world, actor: str) -> str | None:
    """Log the client in as the actor; returns the private link's token for the link actors."""
    if actor in world["users"]:
        client.force_login(world["users"][actor])
    if actor == "revoked_link":
        services.revoke_entry_link(match=world["match"])
    return world["match"].entry_token if actor in ("private_link", "revoked_link") else None


def url(world, token: str | None, name: str, *extra) -> str:
    if token:
        return reverse(f"token_{name}", args=[token, *extra])
    return reverse(f"match_{name}", args=[world["match"].pk, *extra])


def outcome(response) -> object:
    if response.status_code in (200, 302) and "/accounts/login/" in response.get("Location", ""):
        return LOGIN
    if response.status_code in (403, 404):
        return response.status_code
    return OK if response.status_code in (200, 302) else response.status_code


def counts(world) -> tuple:
    match = world["match"]
    match.refresh_from_db()
    return (Hand.objects.filter(game__match=match).count(), HandVersion.objects.filter(hand__game__match=match).count(),
            Hand.objects.filter(game__match=match, deleted=True).count(),
            tuple(sorted(match.scorekeepers.values_list("username", flat=True))))


@pytest.mark.parametrize(("actor", "action", "expected"), CASES, ids=[f"{a}-{b}" for a, b, _ in CASES])
def test_who_may_do_what(client, world, actor, action, expected):
    token = become(client, world, actor)
    hand = world["hand"]
    before = counts(world)
    if action == "view_draft":
        draft = world["draft"]
        competition_page = client.get(reverse("competition", args=[world["club"].slug, draft.slug]))
        sheet = client.get(reverse("match_sheet", args=[world["draft_match"].pk]))
        assert outcome(competition_page) == expected
        assert outcome(sheet) == expected
        return
    if action == "manage":
        target = reverse("match_manage", args=[world["match"].pk])
        adding = reverse("match_scorekeeper_add", args=[world["match"].pk])
        got, posted = client.get(target), client.post(adding, {"username": "uma"})
        changed = ("uma" in counts(world)[3])
    elif action == "enter":
        target = url(world, token, "enter")
        got, posted = client.get(target), client.post(target, {**HAND, "number": 2})
        changed = counts(world)[0] == before[0] + 1
    elif action == "undo":
        target = url(world, token, "undo")
        got = client.get(url(world, token, "enter"))  # the page with the Undo button
        posted = client.post(target, {"hand": hand.pk})
        changed = counts(world)[2] == before[2] + 1
    elif action == "correct":
        target = url(world, token, "hand_edit", hand.pk)
        got, posted = client.get(target), client.post(target, {**HAND, "low": "b", "reason": "Low was B's",
                                                                 "version": hand.version})
        changed = counts(world)[1] == before[1] + 1
    else:
        target = url(world, token, "hand_delete", hand.pk)
        got, posted = client.get(target), client.post(target, {"reason": "never played"})
        changed = counts(world)[2] == before[2] + 1
    assert outcome(got) == expected, (got.status_code, got.get("Location"))
    assert outcome(posted) == expected, (posted.status_code, posted.get("Location"))
    if expected == OK:
        assert got.status_code == 200 and posted.status_code == 302
        assert changed, "the allowed POST did not take effect"
    else:
        assert counts(world) == before, "a refused POST changed something"


def test_the_sheet_of_a_published_match_is_public_and_hides_the_edit_links(client, world):
    sheet = reverse("match_sheet", args=[world["match"].pk])
    page = client.get(sheet).content.decode()
    assert reverse("match_hand_edit", args=[world["match"].pk, world["hand"].pk]) not in page
    client.force_login(world["users"]["scorekeeper"])
    page = client.get(sheet).content.decode()
    assert reverse("match_hand_edit", args=[world["match"].pk, world["hand"].pk]) in page
    assert reverse("match_manage", args=[world["match"].pk]) not in page
    client.force_login(world["users"]["organiser"])
    assert reverse("match_manage", args=[world["match"].pk]) in client.get(sheet).content.decode()


def test_a_draft_matchs_own_scorekeeper_gets_nothing_of_it_until_the_competition_is_published(client, world):
    draft_match, keeper = world["draft_match"], make_user("dora")
    draft_match.scorekeepers.add(keeper)
    client.force_login(keeper)
    assert client.get(reverse("match_enter", args=[draft_match.pk])).status_code == 404
    assert client.get(reverse("match_sheet", args=[draft_match.pk])).status_code == 404
    assert client.get(reverse("competition", args=[world["club"].slug, world["draft"].slug])).status_code == 404
    set_published(competition=world["draft"], published=True)
    assert client.get(reverse("match_enter", args=[draft_match.pk])).status_code == 200
    assert client.get(reverse("match_sheet", args=[draft_match.pk])).status_code == 200


def test_a_draft_match_is_404_not_403_for_someone_without_a_role(client, world):
    client.force_login(world["users"]["user_without_role"])
    draft_match = world["draft_match"]
    for name in ("match_enter", "match_manage"):
        assert client.get(reverse(name, args=[draft_match.pk])).status_code == 404
    assert client.post(reverse("match_undo", args=[draft_match.pk])).status_code == 404


def test_a_private_link_opens_only_its_own_match(client, world):
    other = Match.objects.exclude(pk=world["match"].pk).filter(competition=world["competition"]).first()
    token = world["match"].entry_token
    hand_of_other = services.enter_hand(match=other, number=1, mode=Hand.CHALK, entry=CHALK,
                                        user=world["users"]["organiser"])
    response = client.get(reverse("token_hand_edit", args=[token, hand_of_other.pk]))
    assert response.status_code == 404
    response = client.post(reverse("token_hand_delete", args=[token, hand_of_other.pk]), {"reason": "x"})
    assert response.status_code == 404
    assert not Hand.objects.get(pk=hand_of_other.pk).deleted


def test_a_renewed_link_works_at_once_and_the_old_one_stops(client, world):
    old = world["match"].entry_token
    services.renew_entry_link(match=world["match"])
    assert client.get(reverse("token_enter", args=[old])).status_code == 404
    assert client.get(reverse("token_enter", args=[world["match"].entry_token])).status_code == 200


def test_the_private_link_gives_no_organiser_rights(client, world):
    token = world["match"].entry_token
    client.get(reverse("token_enter", args=[token]))
    response = client.get(reverse("match_manage", args=[world["match"].pk]))
    assert outcome(response) == LOGIN
    assert outcome(client.get(reverse("match_enter", args=[world["match"].pk]))) == LOGIN
