"""A tour of the league's pages in Chromium, on a desktop and on a 390px phone: a small league built with the
services (a Swiss with a published round whose results were entered as match totals and a forfeit, a knockout
with its bracket, a team competition with a team match, players with ratings), then every page a club's
members and organisers open — each answers 200, nothing is wider than the phone's screen, and each is kept as a
screenshot (``SCREENSHOT_DIR``, else the test's temporary folder) for a person to look at.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``); Celery runs eagerly, so
each service's task (pairing, settling, standings) has run by the time it returns.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services, team_services
from games.models import Match
from league import rounds
from league.models import Competition, Entry, Partnership, Player, Round, Team
from league.ratings import rebuild_ratings
from tests.web.factories import make_club, make_organiser, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-for-tests-1"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
# long names on purpose: the pages must wrap them on a phone, not widen
PAIRS = {
    "Lions": ("Marcia Baptiste-Ramkissoon", "Dexter Ali"),
    "Tigers": ("Anil Maharaj", "Kerry-Ann Joseph"),
    "Eagles of Belmont Circular Road": ("Curtis Noel", "Sherry Ann Mohammed"),
    "Sharks": ("Ravi Persad", "Gail Charles"),
    "Jaguars": ("Wendell Pierre", "Rhonda Lee Chin"),
    "Hawks": ("Dave Ramdass", "Joanne Francois"),
}


def pair(club, name: str, players: tuple[str, str]) -> Partnership:
    one, two = (Player.objects.create(name=player, home_club=club) for player in players)
    return Partnership.objects.create(name=name, player_one=one, player_two=two, club=club)


def competition(club, name: str, slug: str, **fields) -> Competition:
    return Competition.objects.create(club=club, name=name, slug=slug, published=True, **fields)


def pair_and_publish(competition_: Competition) -> Round:
    round_ = rounds.request_pairing(competition_)  # the task runs as the request commits (eager Celery)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE, round_.pairing_message
    return rounds.publish_round(round_)


def build_league() -> dict:
    club = make_club("Belmont Sports Club")
    organiser = make_organiser(club, make_user("olive", password=PASSWORD))
    pairs = {name: pair(club, name, players) for name, players in PAIRS.items()}

    # a Swiss: round 1 published, its results entered as match totals (and a forfeit); round 2 a draft
    swiss = competition(club, "Friday Night Swiss", "friday-swiss", system=Competition.SWISS, planned_rounds=3,
                        match_format=Competition.BEST_OF, match_games=3, result_level="match", season="2025")
    for seed, partnership in enumerate(pairs.values(), start=1):
        Entry.objects.create(competition=swiss, partnership=partnership, seed=seed)
    round_one = pair_and_publish(swiss)
    matches = list(Match.objects.filter(round=round_one).order_by("table"))
    services.record_match_totals(matches[0], games_a=2, games_b=1, hang_jacks_a=1, author_label="tour")
    services.record_match_totals(matches[1], games_a=0, games_b=2, author_label="tour")
    services.record_forfeit(matches[2], outcome=Match.FORFEIT_B, author_label="tour")
    rounds.request_pairing(swiss)  # round 2: a draft for the organiser's page

    # a knockout of four: the semi-finals published, one played
    knockout = competition(club, "Independence Cup", "independence-cup", system=Competition.KNOCKOUT,
                           match_format=Competition.BEST_OF, match_games=3, result_level="match")
    for seed, name in enumerate(("Lions", "Tigers", "Sharks", "Hawks"), start=1):
        Entry.objects.create(competition=knockout, partnership=pairs[name], seed=seed)
    semis = pair_and_publish(knockout)
    services.record_match_totals(Match.objects.filter(round=semis).order_by("table").first(), games_a=2, games_b=0,
                                 author_label="tour")

    # a team competition: two clubs' teams at three tables, racing to 5 bullseyes
    teams = competition(club, "Inter-Club Team League", "inter-club", entrant_kind=Competition.TEAMS,
                        team_tables=3, team_mode=Competition.TEAM_RACE, team_target=5)
    rivals = make_club("Blue Dollar Bar")
    home = Team.objects.create(competition=teams, club=club, name="Belmont Bombers")
    away = Team.objects.create(competition=teams, club=rivals, name="Blue Dollar Ballers")
    home.partnerships.add(pairs["Lions"], pairs["Tigers"], pairs["Sharks"])
    away.partnerships.add(*(pair(rivals, f"Ballers {n}", (f"Visitor {n}A", f"Visitor {n}B")) for n in (1, 2, 3)))
    for team in (home, away):
        Entry.objects.create(competition=teams, team=team)
    lineup = list(zip(home.partnerships.order_by("id"), away.partnerships.order_by("id"), strict=True))
    team_match = team_services.create_team_match(teams, home, away, tables=lineup)
    for table, (games_a, games_b) in zip(team_match.table_matches.order_by("table_number"), ((2, 1), (2, 0), (1, 2)),
                                         strict=True):
        services.record_match_totals(table, games_a=games_a, games_b=games_b, author_label="tour")

    rebuild_ratings()
    return {"club": club, "organiser": organiser, "swiss": swiss, "knockout": knockout, "teams": teams,
            "team_match": team_match, "sheet": matches[0], "player": pairs["Lions"].player_one}


def tour(league: dict) -> dict[str, str]:
    club, swiss, knockout, teams = league["club"], league["swiss"], league["knockout"], league["teams"]

    def of(competition_: Competition) -> list[str]:
        return [club.slug, competition_.slug]

    return {
        "home": reverse("home"),
        "club": reverse("club", args=[club.slug]),
        "competition": reverse("competition", args=of(swiss)),
        "standings": reverse("competition_standings", args=of(swiss)),
        "rounds": reverse("competition_rounds", args=of(swiss)),
        "round": reverse("round_detail", args=[*of(swiss), 1]),
        "knockout": reverse("competition", args=of(knockout)),
        "bracket": reverse("competition_bracket", args=of(knockout)),
        "teams": reverse("competition", args=of(teams)),
        "team-matches": reverse("team_matches", args=of(teams)),
        "team-match": reverse("team_match", args=[league["team_match"].pk]),
        "players": reverse("players"),
        "player": reverse("player", args=[league["player"].pk]),
        "sheet": reverse("match_sheet", args=[league["sheet"].pk]),
        "print": reverse("match_print", args=[league["sheet"].pk]),
    }


def organiser_tour(league: dict) -> dict[str, str]:
    club, swiss = league["club"], league["swiss"]
    return {
        "org-club": reverse("club", args=[club.slug]),
        "org-competition": reverse("competition", args=[club.slug, swiss.slug]),
        "org-round-manage": reverse("round_manage", args=[club.slug, swiss.slug, 2]),
        "org-entries": reverse("competition_entries", args=[club.slug, swiss.slug]),
        "org-teams": reverse("competition", args=[club.slug, league["teams"].slug]),
    }


WIDEST = """() => {
  // the element that sticks out furthest to the right where no scrolling box clips it, for the failure message
  const clipped = element => {
    let escaping = getComputedStyle(element).position === "absolute";  // clipped only from its containing block up
    for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (escaping && style.position === "static") continue;
      escaping = false;
      if (style.overflowX !== "visible") return true;
    }
    return false;
  };
  let widest = null, right = 0;
  for (const element of document.body.querySelectorAll("*")) {
    const edge = element.getBoundingClientRect().right;
    if (edge > right && !clipped(element)) { right = edge; widest = element; }
  }
  return widest ? `${widest.tagName.toLowerCase()}.${widest.className} (${Math.round(right)}px)` : "";
}"""


def visit(page, base: str, name: str, path: str, viewport: str, shots) -> str:
    """Open the page, keep its screenshot; what is wrong with it ('' when nothing)."""
    response = page.goto(base + path)
    assert response is not None and response.status == 200, (name, viewport, response and response.status)
    page.screenshot(path=str(shots / f"{viewport}-{name}.png"), full_page=True)
    scroll_width, screen = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if scroll_width > screen + 1:
        return f"{name} is {scroll_width}px wide on a {screen}px screen: {page.evaluate(WIDEST)}"
    return ""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_every_page_opens_and_fits_the_screen(live_server, browser, shots, viewport):
    league = build_league()
    assert Match.objects.filter(competition=league["swiss"], status=Match.COMPLETE).count() == 3
    assert league["player"].rating.matches >= 1  # rated
    base = live_server.url

    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    problems = [visit(page, base, name, path, viewport, shots) for name, path in tour(league).items()]

    page.goto(f"{base}{reverse('login')}")
    page.fill("input[name=username]", "olive")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in", exact=True).click()
    problems += [visit(page, base, name, path, viewport, shots) for name, path in organiser_tour(league).items()]

    # every link of the competition pages' navigation leads somewhere (as the organiser: all of them)
    for competition_ in ("swiss", "knockout", "teams"):
        page.goto(base + reverse("competition", args=[league["club"].slug, league[competition_].slug]))
        links = page.eval_on_selector_all("#competition-nav a, .downloads a, #organiser-nav a",
                                          "links => links.map(a => a.getAttribute('href'))")
        assert len(links) >= 6, (competition_, links)
        for link in links:
            response = page.request.get(base + link)
            assert response.status == 200, (competition_, link, response.status)
    context.close()
    assert not [problem for problem in problems if problem], problems
