"""Drafts never leak. Nothing of a draft round (its matches, team matches, tables, byes and the
results an organiser already entered in them) or of an unpublished competition reaches anyone but the club's
organisers: no page, API endpoint or export shows it, the standings do not count it, the ratings do not rate it.

The walk enumerates every GET route there is — the page URL patterns from Django's resolver and the API's paths
from its OpenAPI schema — with every id filled in from a scene that has draft rounds (a league with a bye, a
knockout final, a team match with tables, an individual event whose draft made new partnerships) and an
unpublished competition, and asks each URL as each role:

- for everyone but the club's organisers, no response names a draft match's sides or a partnership only a draft
  made (every such name holds the marker ``Draftera``), links or lists a draft match or team match by id,
  answers 200 for a draft's URL, and
  every response is exactly what it is once the drafts are deleted (so a draft bye counted in the standings, a
  draft result in a rating, a round that exists, all show as a difference);
- the club's organisers still see the drafts where their pages show them.

A route added later is walked as it is; a route with a parameter the walk cannot fill fails the test, naming it.
"""

from __future__ import annotations

import difflib
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from io import StringIO
from urllib.parse import quote

import pytest
from django.core.management import call_command, load_command_class
from django.core.management.base import CommandError
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

from draw.models import Bye, Round
from draw.publishing import publish_round
from draw.request import request_pairing
from games import services
from games.models import Game, Hand, Match, TeamMatch
from league.models import Competition, Entry, EntryInvitation, Partnership, Player, Team
from standings.models import StandingRow
from standings.ratings import rebuild_ratings
from standings.services import refresh_standings
from tests.cache import clear_the_cache
from tests.factories import make_club, make_organiser, make_partnership, make_player, make_user, sweep

pytestmark = pytest.mark.django_db

MARKER = "draftera"  # in every name a draft match or an unpublished competition was made with
ROLES = ("anonymous", "player", "scorekeeper", "draft_scorekeeper", "other_organiser", "organiser")
NOT_ORGANISERS = ROLES[:-1]
SKIPPED_PREFIXES = ("admin/",)  # staff only: none of the roles is staff


# ----------------------------------------------------------------------------- the scene
@dataclass
class Scene:
    clubs: dict = field(default_factory=dict)
    users: dict = field(default_factory=dict)
    competitions: dict = field(default_factory=dict)
    draft_matches: set[int] = field(default_factory=set)
    draft_team_matches: set[int] = field(default_factory=set)
    public_matches: set[int] = field(default_factory=set)
    public_team_matches: set[int] = field(default_factory=set)
    draft_rounds: list[Round] = field(default_factory=list)
    draft_byes: set[int] = field(default_factory=set)
    draft_partnerships: set[int] = field(default_factory=set)  # made by pairing a draft round, played nowhere else
    hands: list[tuple[int, str, int]] = field(default_factory=list)  # (match id, token, hand id)

    @property
    def hidden_ids(self) -> set[int]:
        return self.draft_matches | self.draft_team_matches


def renamed(partnerships, teams=(), prefix: str = "") -> None:
    """Give the partnerships (and teams) their names with ``prefix``: the matches made meanwhile keep those names."""
    for partnership in partnerships:
        base = partnership.name.removeprefix("Draftera ")
        Partnership.objects.filter(pk=partnership.pk).update(name=f"{prefix}{base}")
        partnership.refresh_from_db()
    for team in teams:
        base = team.name.removeprefix("Draftera ")
        Team.objects.filter(pk=team.pk).update(name=f"{prefix}{base}")
        team.refresh_from_db()


@pytest.fixture
def scene(django_capture_on_commit_callbacks) -> Scene:
    def commit(function, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(*args, **kwargs)

    def pair(competition) -> Round:
        round_ = commit(request_pairing, competition)
        round_.refresh_from_db()
        assert round_.pairing_state == Round.DONE, round_.pairing_message
        return round_

    s = Scene()
    home = s.clubs["home"] = make_club("Belmont Sports Club")
    s.clubs["other"] = make_club("Arima Social Club")
    organiser = s.users["organiser"] = make_organiser(home, make_user("olive"))
    s.users["other_organiser"] = make_organiser(s.clubs["other"], make_user("oscar"))
    s.users["scorekeeper"], s.users["draft_scorekeeper"] = make_user("sam"), make_user("dora")
    s.users["player"] = make_user("pat")

    # a round robin of five pairs: round 1 played, round 2 a draft with a result, a forfeit and a bye
    league = s.competitions["league"] = Competition.objects.create(
        club=home, name="Friday League", slug="friday-league", published=True)
    pairs = [make_partnership(club=home, name=name) for name in ("Lions", "Tigers", "Bears", "Wolves", "Eagles")]
    for seed, partnership in enumerate(pairs, start=1):
        Entry.objects.create(competition=league, partnership=partnership, seed=seed)
    Player.objects.filter(pk=pairs[0].player_one_id).update(user=s.users["player"])
    first = commit(publish_round, pair(league))
    for match in Match.objects.filter(round=first):
        commit(services.record_match_totals, match, games_a=1, games_b=0, user=organiser)
        s.public_matches.add(match.pk)
    Match.objects.get(pk=min(s.public_matches)).scorekeepers.add(s.users["scorekeeper"])
    renamed(pairs, prefix="Draftera ")
    second = pair(league)
    drafted = list(Match.objects.filter(round=second).order_by("id"))
    commit(services.record_match_totals, drafted[0], games_a=1, games_b=0, user=organiser)
    commit(services.record_forfeit, drafted[1], outcome=Match.FORFEIT_A, user=organiser)
    drafted[0].scorekeepers.add(s.users["draft_scorekeeper"])
    s.draft_byes |= set(Bye.objects.filter(round=second).values_list("pk", flat=True))
    assert s.draft_byes, "a round of five pairs has a bye"

    # an unpublished competition of the same pairs, with a result and a forfeit
    secret = s.competitions["secret"] = Competition.objects.create(
        club=home, name="Draftera Secret Cup", slug="draftera-secret-cup", published=False)
    for partnership in pairs[:4]:
        Entry.objects.create(competition=secret, partnership=partnership)
    hidden = [services.create_match(competition=secret, side_a=pairs[0], side_b=pairs[1]),
              services.create_match(competition=secret, side_a=pairs[2], side_b=pairs[3])]
    commit(services.record_match_totals, hidden[0], games_a=0, games_b=1, user=organiser)
    commit(services.record_forfeit, hidden[1], outcome=Match.FORFEIT_B, user=organiser)
    renamed(pairs)

    # a knockout of four: the semi-finals played, the final a draft with a hand entered
    cup = s.competitions["cup"] = Competition.objects.create(
        club=home, name="Knockout Cup", slug="knockout-cup", published=True, system=Competition.KNOCKOUT)
    cup_pairs = [make_partnership(club=home, name=name) for name in ("Sharks", "Rays", "Eels", "Crabs")]
    for seed, partnership in enumerate(cup_pairs, start=1):
        Entry.objects.create(competition=cup, partnership=partnership, seed=seed)
    semis = commit(publish_round, pair(cup))
    for match in Match.objects.filter(round=semis):
        commit(services.record_match_totals, match, games_a=1, games_b=0, user=organiser)
        s.public_matches.add(match.pk)
    renamed(cup_pairs, prefix="Draftera ")
    final_round = cup.rounds.get(number=2)  # drafted by itself once the semi-finals were decided
    commit(request_pairing, cup, final_round.number)  # paired again under the new names
    final_round.refresh_from_db()
    assert final_round.pairing_state == Round.DONE and not final_round.is_published
    final = Match.objects.get(round=final_round)
    hand = commit(services.enter_hand, match=final, number=1, mode=Hand.CHALK, entry=sweep(0), user=organiser)
    renamed(cup_pairs)

    # club teams, two tables a team match: round 1 played, round 2 a draft with its tables and a table's result
    teams_league = s.competitions["teams"] = Competition.objects.create(
        club=home, name="Inter-club Teams", slug="inter-club-teams", published=True,
        entrant_kind=Competition.TEAMS, team_tables=2, team_mode=Competition.TEAM_FIXED, team_games_per_table=1)
    teams, team_pairs = [], []
    for seed, name in enumerate(("Red", "Blue", "Gold"), start=1):
        team = Team.objects.create(competition=teams_league, club=home, name=name)
        members = [make_partnership(club=home, name=f"{name} {n}") for n in (1, 2)]
        team.partnerships.add(*members)
        Entry.objects.create(competition=teams_league, team=team, seed=seed)
        teams.append(team)
        team_pairs.append(members)
    team_round = commit(publish_round, pair(teams_league))
    for team_match in TeamMatch.objects.filter(round=team_round):
        commit(services.record_team_totals, team_match, 2, 0, user=organiser)
        s.public_team_matches.add(team_match.pk)
    renamed(sum(team_pairs, []), teams, prefix="Draftera ")
    tie = TeamMatch.objects.get(round=pair(teams_league))
    by_team = {team.pk: members for team, members in zip(teams, team_pairs, strict=True)}
    tables = list(zip(by_team[tie.team_a_id], by_team[tie.team_b_id], strict=True))
    seated = commit(services.set_team_tables, tie, tables)
    commit(services.record_match_totals, seated[0], games_a=1, games_b=0, user=organiser)
    renamed(sum(team_pairs, []), teams)

    # an individual event of nine players: round 1 played, round 2 a draft, whose pairing made the partnerships
    # of its tables (who partners whom is the draft's: those partnerships carry the marker) and a sitting-out
    solo = s.competitions["individual"] = Competition.objects.create(
        club=home, name="Rotating Partners", slug="rotating-partners", published=True, system=Competition.SWISS,
        entrant_kind=Competition.INDIVIDUAL, planned_rounds=3)
    for seed in range(1, 10):
        Entry.objects.create(competition=solo, player=make_player(f"Solo {seed}", club=home), seed=seed)
    solo_first = commit(publish_round, pair(solo))
    for match in Match.objects.filter(round=solo_first):
        commit(services.record_match_totals, match, games_a=1, games_b=0, user=organiser)
        s.public_matches.add(match.pk)
    solo_draft = pair(solo)
    s.draft_byes |= set(Bye.objects.filter(round=solo_draft).values_list("pk", flat=True))
    played_in_public = Match.objects.filter(pk__in=s.public_matches)
    seen = {p for m in played_in_public for p in (m.side_a_id, m.side_b_id)}
    s.draft_partnerships = {p for m in Match.objects.filter(round=solo_draft) for p in (m.side_a_id, m.side_b_id)
                            if p not in seen}
    assert len(s.draft_partnerships) >= 3, "the draft pairs players who have not partnered yet"
    for partnership in Partnership.objects.filter(pk__in=s.draft_partnerships).select_related("player_one",
                                                                                               "player_two"):
        Partnership.objects.filter(pk=partnership.pk).update(name=f"Draftera {partnership.display_name}")
    for match in Match.objects.filter(round=solo_draft).select_related("side_a", "side_b"):  # as if paired now
        Match.objects.filter(pk=match.pk).update(side_a_name=match.side_a.display_name,
                                                 side_b_name=match.side_b.display_name)

    s.draft_rounds = list(Round.objects.filter(status=Round.DRAFT))
    assert len(s.draft_rounds) == 4
    s.draft_matches = set(Match.objects.filter(round__status=Round.DRAFT).values_list("pk", flat=True))
    s.draft_matches |= {m.pk for m in hidden}
    s.draft_team_matches = set(TeamMatch.objects.filter(round__status=Round.DRAFT).values_list("pk", flat=True))
    s.hands = [(final.pk, final.entry_token, hand.pk)]
    settle_everything()
    return s


def settle_everything() -> None:
    """What the tasks leave behind: every competition's standings refreshed, the ratings rebuilt."""
    for competition_id in Competition.objects.values_list("pk", flat=True):
        refresh_standings(competition_id)
    rebuild_ratings()


def delete_the_drafts(s: Scene) -> None:
    """The world without its drafts: what the public must see with them in place."""
    Match.objects.filter(pk__in=s.draft_matches).delete()
    TeamMatch.objects.filter(pk__in=s.draft_team_matches).delete()
    Round.objects.filter(pk__in=[r.pk for r in s.draft_rounds]).delete()
    Partnership.objects.filter(pk__in=s.draft_partnerships).delete()
    secret = s.competitions["secret"]
    StandingRow.objects.filter(competition=secret).delete()
    Entry.objects.filter(competition=secret).delete()
    secret.delete()
    settle_everything()


# ----------------------------------------------------------------------------- every URL there is
PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")


def page_routes(patterns=None, prefix: str = "") -> Iterator[str]:
    """Every page route (``clubs/<slug:club_slug>/…``) of the resolver; the API's router routes are walked from
    its schema instead."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            route = prefix + str(entry.pattern)
            if isinstance(entry.pattern, RoutePattern) and not route.startswith(SKIPPED_PREFIXES):
                yield from page_routes(entry.url_patterns, route)
        elif (isinstance(entry, URLPattern) and not isinstance(entry.pattern, RegexPattern)
              and "<drf_format_suffix:" not in str(entry.pattern)):  # the same answer as JSON, .api, …
            yield prefix + str(entry.pattern)


def api_paths() -> Iterator[tuple[str, list[str]]]:
    """Every GET path of the OpenAPI schema, with the names of its query parameters."""
    schema = json.loads(Client().get("/api/schema/", {"format": "json"}).content)
    for path, operations in schema["paths"].items():
        if "get" in operations:
            parameters = operations["get"].get("parameters", [])
            yield path, [p["name"] for p in parameters if p["in"] == "query"]


def fillers(s: Scene) -> dict:
    """The values each route parameter takes: every draft object, and a public one of each kind."""
    some_public = sorted(s.public_matches)[:2]
    matches = sorted(s.draft_matches) + some_public
    team_matches = sorted(s.draft_team_matches) + sorted(s.public_team_matches)[:1]
    # the private links of the draft rounds' matches (an unpublished competition's match is its scorekeepers'
    # and its link's holders' as soon as the organisers give it to them: they are not among the roles walked)
    tokens = list(Match.objects.filter(pk__in=matches, competition__published=True)
                  .values_list("entry_token", flat=True))
    sides = Match.objects.filter(pk__in=matches)
    players = sorted({p for m in sides for p in (m.side_a.player_one_id, m.side_a.player_two_id,
                                                  m.side_b.player_one_id, m.side_b.player_two_id) if p})
    return {
        "matches": matches, "team-matches": team_matches, "tokens": tokens, "players": players,
        "competitions": [(c.club.slug, c.slug, c.pk) for c in s.competitions.values()],
        "games": list(Game.objects.filter(match_id__in=matches).values_list("pk", flat=True)),
        "hands": list(Hand.objects.filter(game__match_id__in=matches).values_list("pk", flat=True)),
        "partnerships": sorted({p for m in sides for p in (m.side_a_id, m.side_b_id)}),
        "teams": list(Team.objects.values_list("pk", flat=True)),
        "entries": list(Entry.objects.values_list("pk", flat=True)),
        "clubs": [club.pk for club in s.clubs.values()],
        "invitations": list(EntryInvitation.objects.values_list("pk", flat=True)) or [0],  # none made: an unknown id
        "rounds": [r.pk for r in s.draft_rounds] + list(Round.objects.filter(status=Round.PUBLISHED)
                                                        .values_list("pk", flat=True)[:2]),
    }


def fill_page(route: str, s: Scene, values: dict) -> list[str]:
    """The route with each parameter filled in every way the scene offers."""
    names = [m["name"] for m in PARAMETER.finditer(route)]
    if "hand_pk" in names:  # a hand only with its own match or link
        options = [{"pk": match, "token": token, "hand_pk": hand} for match, token, hand in s.hands]
    elif "competition_slug" in names:
        options = [{"club_slug": club, "competition_slug": slug} for club, slug, _ in values["competitions"]]
    else:
        options = [{}]
    per_name = {
        "club_slug": [club.slug for club in s.clubs.values()], "number": [1, 2, 3], "token": values["tokens"],
        "team_pk": values["teams"], "template": ["players", "results"],
        "user_pk": [user.pk for user in s.users.values()][:2], "entry_pk": values["entries"][:2],
        "fixture_pk": values["matches"][:2], "bye_pk": sorted(s.draft_byes)[:2] or [0],  # buttons: GET is a 405
        "state": ["paid"], "request_pk": [0],  # an entry asked for: its buttons are POST only (a GET is a 405)
        "pk": values["team-matches"] if "team-matches/<" in route else (
            values["players"] if route.startswith("players/") else values["matches"]),
    }
    urls = []
    for option in options:
        free = [name for name in names if name not in option]
        unknown = [name for name in free if name not in per_name]
        assert not unknown, f"the walk cannot fill {unknown} of the route {route!r}: add them to fill_page"
        for combination in itertools.product(*(per_name[name] for name in free)):
            chosen = {**option, **dict(zip(free, combination, strict=True))}
            urls.append("/" + PARAMETER.sub(lambda m, chosen=chosen: str(chosen[m["name"]]), route))
    return urls


def fill_api(path: str, query: list[str], values: dict) -> list[str]:
    resource = path.removeprefix("/api/").split("/", 1)[0]
    names = re.findall(r"{(\w+)}", path)
    per_name = {"id": [c[2] for c in values["competitions"]] if resource == "competitions" else values.get(resource),
                "entry_id": values["entries"][:3], "number": [1]}
    unknown = [name for name in names if not per_name.get(name)]
    assert not unknown, f"the walk cannot fill {unknown} of the API path {path!r}: add them to fill_api"
    urls = []
    for combination in itertools.product(*(per_name[name] for name in names)):
        url = path
        for name, value in zip(names, combination, strict=True):
            url = url.replace("{" + name + "}", str(value))
        urls.append(url)
        if "competition" in query:
            urls += [f"{url}?competition={c[2]}" for c in values["competitions"]]
    return urls


def every_url(s: Scene) -> dict[str, list[str]]:
    """Every route and API path, with the URLs it is filled in as."""
    values = fillers(s)
    by_route = {route: fill_page(route, s, values) for route in page_routes()}
    by_route.update({path: fill_api(path, query, values) for path, query in api_paths()})
    return {route: sorted(set(urls)) for route, urls in by_route.items()}


# ----------------------------------------------------------------------------- asking
CSRF = re.compile(r"\b[A-Za-z0-9]{64}\b")  # a CSRF token, new in each page
LIVE_VERSION = re.compile(r'data-live-version="\d+"')  # when a live page was rendered (live.middleware)
SERVER_NOW = re.compile(r'"server_now": "[^"]+"')  # a round clock's reading says when it was read


def client_for(s: Scene, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(s.users[role])
    return client


def answers(client: Client, by_route: dict[str, list[str]]) -> dict[str, tuple[int, str]]:
    """Each URL's status and body; the URL itself, which the page repeats in its "Log in" link, is taken out
    of the body (it is what the visitor typed, not something the app told them). A route whose first URL answers
    405 is a button's (POST only): refused before its view reads anything, it is not asked with its other ids."""
    seen = {}
    for urls in by_route.values():
        for url in urls:
            clear_the_cache()  # the API's throttles count each walk's requests: every URL is asked with a fresh count
            response = client.get(url)
            body = b"".join(response.streaming_content) if response.streaming else response.content
            body = body.replace(b"\r\n ", b"")  # an iCal feed folds its long lines: a name may sit across two
            text = SERVER_NOW.sub("…", LIVE_VERSION.sub("…", CSRF.sub("…", body.decode("utf-8", "replace"))))
            seen[url] = (response.status_code, text.replace(quote(url), "…").replace(url, "…"))
            if response.status_code == 405:
                break
    return seen


def draft_url(url: str, s: Scene) -> bool:
    """The URL names a draft object (a draft match's id or link, a draft team match, a hand of a draft)."""
    tokens = set(Match.objects.filter(pk__in=s.draft_matches).values_list("entry_token", flat=True))
    numbers = [int(n) for n in re.findall(r"/(\d+)/", url)] or [0]
    if re.search(r"/enter/([^/]+)/", url) and re.search(r"/enter/([^/]+)/", url)[1] in tokens:
        return True
    if url.startswith(("/matches/", "/api/matches/")):
        return numbers[0] in s.draft_matches
    if url.startswith(("/team-matches/", "/api/team-matches/")):
        return numbers[0] in s.draft_team_matches
    drafts_hands = set(Hand.objects.filter(game__match_id__in=s.draft_matches).values_list("pk", flat=True))
    drafts_games = set(Game.objects.filter(match_id__in=s.draft_matches).values_list("pk", flat=True))
    if url.startswith("/api/hands/"):
        return numbers[0] in drafts_hands
    if url.startswith("/api/games/"):
        return numbers[0] in drafts_games
    if url.startswith("/api/partnerships/"):
        return numbers[0] in s.draft_partnerships
    if url.startswith("/api/rounds/"):
        return numbers[0] in {r.pk for r in s.draft_rounds}
    secret = s.competitions["secret"]
    return f"/{secret.slug}/" in url or url.startswith(f"/api/competitions/{secret.pk}/")


def leaked_ids(body: str, s: Scene) -> set[int]:
    """The draft matches and team matches the body links, lists or names by id."""
    found = {int(n) for n in re.findall(r"/matches/(\d+)/", body)} & s.draft_matches
    found |= {int(n) for n in re.findall(r"/team-matches/(\d+)/", body)} & s.draft_team_matches
    try:
        data = json.loads(body)
    except ValueError:
        return found

    def walk(value) -> None:
        if isinstance(value, dict):
            if "side_a_name" in value and value.get("id") in s.draft_matches:
                found.add(value["id"])
            if "team_a_name" in value and value.get("id") in s.draft_team_matches:
                found.add(value["id"])
            if value.get("match") in s.draft_matches or value.get("match_id") in s.draft_matches:
                found.add(value.get("match") or value.get("match_id"))
            if value.get("team_match") in s.draft_team_matches:
                found.add(value["team_match"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(data)
    return found


# ----------------------------------------------------------------------------- the walk
# One test a role, so that the walks (the longest tests of the suite) run side by side under pytest-xdist
# (tests/conftest.py lets a test marked ``xdist_group`` leave its file's worker).
@pytest.mark.slow  # every page, API read and export, before and after the drafts are deleted
@pytest.mark.parametrize("role", [pytest.param(role, marks=pytest.mark.xdist_group(f"drafts-never-leak-{role}"))
                                  for role in NOT_ORGANISERS])
def test_no_page_api_or_export_shows_a_draft_to_anyone_but_the_clubs_organisers(scene, role):
    by_route = every_url(scene)
    assert sum(map(len, by_route.values())) > 150, by_route  # every route, filled in: the walk is not empty
    before = answers(client_for(scene, role), by_route)

    problems = []
    for url, (status, body) in before.items():
        if status >= 500:
            problems.append(f"{role} {url}: {status}")
        if MARKER in body.lower():
            problems.append(f"{role} {url}: names a draft ({status})")
        if leaked_ids(body, scene):
            problems.append(f"{role} {url}: shows draft match ids {sorted(leaked_ids(body, scene))}")
        if status == 200 and draft_url(url, scene):
            problems.append(f"{role} {url}: a draft's URL answers 200")
    assert not problems, "\n".join(problems)
    if role == "anonymous":
        assert sum(status == 200 for status, _ in before.values()) > 40  # the public pages are walked

    delete_the_drafts(scene)
    # a 405 (a button's URL asked with GET) is answered before the view reads anything: not asked again
    asked_again = {route: [url for url in urls if url in before and before[url][0] != 405]
                   for route, urls in by_route.items()}
    after = answers(client_for(scene, role), asked_again)
    changed = [url for url in after if before[url] != after[url]]
    assert not changed, f"{role} sees the drafts on {changed}:\n{difference(before, after, changed[0])}"


@pytest.mark.slow  # every page, API read and export
@pytest.mark.xdist_group("drafts-never-leak-organiser")
def test_the_clubs_organisers_see_their_drafts_on_every_page_that_lists_them(scene):
    organiser = answers(client_for(scene, "organiser"), every_url(scene))
    league, secret, teams = (scene.competitions[k] for k in ("league", "secret", "teams"))
    shown = [f"/clubs/{league.club.slug}/{league.slug}/", f"/api/competitions/{league.pk}/matches/",
             f"/api/matches/?competition={league.pk}", f"/clubs/{league.club.slug}/{league.slug}/results.csv",
             f"/clubs/{secret.club.slug}/{secret.slug}/", f"/api/team-matches/?competition={teams.pk}",
             f"/clubs/{teams.club.slug}/{teams.slug}/team-matches/",
             *[f"/matches/{pk}/" for pk in scene.draft_matches],
             *[f"/team-matches/{pk}/" for pk in scene.draft_team_matches],
             "/api/partnerships/", *[f"/api/partnerships/{pk}/" for pk in scene.draft_partnerships],
             *{f"/players/{p.player_one_id}/" for p in Partnership.objects.filter(pk__in=scene.draft_partnerships)}]
    for url in shown:
        status, body = organiser[url]
        assert status == 200 and MARKER in body.lower(), f"the organiser does not see the draft on {url}"
    assert not [url for url, (status, _) in organiser.items() if status >= 500]


def difference(before: dict, after: dict, url: str) -> str:
    lines = difflib.unified_diff(before[url][1].splitlines(), after[url][1].splitlines(), "with the drafts",
                                 "without them", lineterm="")
    return f"{url}: {before[url][0]} / {after[url][0]}\n" + "\n".join(list(lines)[:20])


# ----------------------------------------------------------------------------- standings and ratings
def standings_of(competition: Competition) -> dict[str, tuple[int, int, int]]:
    return {row.entrant.display_name: (row.played, row.won, row.byes)
            for row in StandingRow.objects.filter(competition=competition, section="")}


def test_the_standings_count_a_draft_rounds_byes_and_results_only_once_it_is_published(
        scene, django_capture_on_commit_callbacks):
    league = scene.competitions["league"]
    draft = Round.objects.get(competition=league, status=Round.DRAFT)
    first_byes = {b.entry.display_name for b in Bye.objects.filter(round__competition=league, round__number=1)}
    public = standings_of(league)
    assert {name: byes for name, (_, _, byes) in public.items()} == {
        name: int(name in first_byes) for name in public}  # the draft's bye is not counted
    response = Client().get(f"/api/competitions/{league.pk}/standings/").json()
    assert {row["entrant_name"]: (row["played"], row["won"], row["byes"]) for row in response} == public
    played = Match.objects.get(round=draft, outcome=Match.PLAYED, status=Match.COMPLETE)

    with django_capture_on_commit_callbacks(execute=True):
        publish_round(draft)
    published = standings_of(league)
    bye = Bye.objects.get(round=draft).entry.display_name
    assert published[bye][2] == public[bye][2] + 1  # counted as soon as the round is published
    winner, loser = played.side_a.display_name, played.side_b.display_name
    assert published[winner][:2] == (public[winner][0] + 1, public[winner][1] + 1)
    assert published[loser][:2] == (public[loser][0] + 1, public[loser][1])


def test_a_draft_match_rates_nobody_and_a_forfeit_on_it_is_not_on_the_players_pages(scene):
    from standings.models import RatingPoint

    assert not RatingPoint.objects.filter(match_id__in=scene.draft_matches).exists()
    forfeited = Match.objects.filter(pk__in=scene.draft_matches, outcome=Match.FORFEIT_A).select_related("side_a")
    for match in forfeited:
        page = Client().get(f"/players/{match.side_a.player_one_id}/").content.decode()
        assert f"/matches/{match.pk}/" not in page and "forfeit" not in page.lower()


# ----------------------------------------------------------------------------- the export command
def export(*args: str) -> str:
    out = StringIO()
    call_command("export_csv", *args, stdout=out)
    return out.getvalue()


def test_export_csv_writes_what_the_public_sees_unless_include_drafts(scene):
    league, secret = scene.competitions["league"], scene.competitions["secret"]
    club = league.club.slug
    for what in ("results", "standings"):
        public = export("--club", club, "--competition", league.slug, "--what", what)
        assert MARKER not in public.lower()
    drafts = export("--club", club, "--competition", league.slug, "--what", "results", "--include-drafts")
    in_drafts = Match.objects.filter(competition=league, round__status=Round.DRAFT).count()
    round_2 = [line for line in drafts.splitlines() if line.startswith("2,")]
    assert [line.lower().count(MARKER) >= 2 for line in round_2 if ",bye," not in line] == \
        [True] * in_drafts  # round 2's matches, with their sides
    draft_byes = Bye.objects.filter(round__competition=league, round__status=Round.DRAFT).count()
    assert len([line for line in round_2 if ",bye," in line]) == draft_byes  # and its byes, as bye rows
    with pytest.raises(CommandError, match="not published") as refused:
        export("--club", club, "--competition", secret.slug, "--what", "results")
    assert refused.value.returncode == 2
    assert MARKER in export("--club", club, "--competition", secret.slug, "--what", "results",
                            "--include-drafts").lower()
    help_text = load_command_class("importer", "export_csv").create_parser("manage.py", "export_csv").format_help()
    assert "--include-drafts" in help_text and "what the public sees" in " ".join(help_text.split())
