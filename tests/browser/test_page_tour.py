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

from draw.models import Round
from draw.publishing import publish_round
from draw.request import request_pairing
from games import services
from games.models import Hand, Match
from league.models import Competition, Entry, Partnership, Player, Team
from standings.ratings import rebuild_ratings
from tests.factories import make_club, make_organiser, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-for-tests-1"
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
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
    round_ = request_pairing(competition_)  # the task runs as the request commits (eager Celery)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE, round_.pairing_message
    return publish_round(round_)


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
    request_pairing(swiss)  # round 2: a draft for the organiser's page

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
    team_match = services.create_team_match(teams, home, away, tables=lineup)
    for table, (games_a, games_b) in zip(team_match.table_matches.order_by("table_number"), ((2, 1), (2, 0), (1, 2)),
                                         strict=True):
        services.record_match_totals(table, games_a=games_a, games_b=games_b, author_label="tour")

    # a league kept hand by hand, its table named as some clubs name it ("Table 1"): two hands, one a renege
    weekly = competition(club, "Tuesday Hand League", "tuesday", tiebreaks=[
        "bullseyes_for", "bullseyes_against", "hang_jacks_for", "hang_jacks_against", "chalk_difference"])
    for name in ("Jaguars", "Hawks"):
        Entry.objects.create(competition=weekly, partnership=pairs[name])
    hands = services.create_match(competition=weekly, side_a=pairs["Jaguars"], side_b=pairs["Hawks"], table="Table 1")
    services.enter_hand(match=hands, number=1, mode=Hand.CHALK, author_label="tour", entry={
        "kicks": ["5C", "9H"], "beg": "run", "high": {"team": 0}, "low": {"team": 1}, "jack": {"team": 0},
        "game": {"team": 1}})
    services.enter_hand(match=hands, number=2, mode=Hand.CHALK, author_label="tour", entry={
        "kicks": ["4D"], "beg": "stand", "high": {"team": 1}, "low": {"team": 1}, "game": {"team": 0},
        "penalty": {"kind": "renege", "team": 0, "trump_honour": False}})

    rebuild_ratings()
    return {"club": club, "organiser": organiser, "swiss": swiss, "knockout": knockout, "teams": teams,
            "team_match": team_match, "sheet": matches[0], "player": pairs["Lions"].player_one,
            "weekly": weekly, "hands": hands}


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
        "hand-league": reverse("competition", args=of(league["weekly"])),
        "hand-standings": reverse("competition_standings", args=of(league["weekly"])),
        "hand-sheet": reverse("match_sheet", args=[league["hands"].pk]),
        "hand-print": reverse("match_print", args=[league["hands"].pk]),
    }


def organiser_tour(league: dict) -> dict[str, str]:
    club, swiss = league["club"], league["swiss"]
    hand = Hand.objects.get(game__match=league["hands"], number=2)
    return {
        "org-club": reverse("club", args=[club.slug]),
        "org-competition": reverse("competition", args=[club.slug, swiss.slug]),
        "org-round-manage": reverse("round_manage", args=[club.slug, swiss.slug, 2]),
        "org-entries": reverse("competition_entries", args=[club.slug, swiss.slug]),
        "org-teams": reverse("competition", args=[club.slug, league["teams"].slug]),
        "org-setup": reverse("competition_edit", args=[club.slug, swiss.slug]),
        "org-new-competition": reverse("competition_create", args=[club.slug]),
        "org-import": reverse("club_import", args=[club.slug]),
        "org-match-manage": reverse("match_manage", args=[league["sheet"].pk]),
        "org-forfeit": reverse("match_forfeit", args=[league["sheet"].pk]),
        "org-game-results": reverse("match_game_results", args=[league["sheet"].pk]),
        "org-totals": reverse("match_match_totals", args=[league["sheet"].pk]),
        "org-team-match-new": reverse("team_match_new", args=[club.slug, league["teams"].slug]),
        "org-team-totals": reverse("team_match_totals", args=[league["team_match"].pk]),
        "org-enter": reverse("match_enter", args=[league["hands"].pk]),
        "org-enter-record": reverse("match_enter_record", args=[league["hands"].pk]),
        "org-hand-edit": reverse("match_hand_edit", args=[league["hands"].pk, hand.pk]),
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


# each screen in a group of its own: two ~20 s tours side by side on two workers, not one after the other
@pytest.mark.slow
@pytest.mark.parametrize("viewport", [pytest.param(name, marks=pytest.mark.xdist_group(f"page-tour-{name}"))
                                      for name in VIEWPORTS])
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


STANDINGS_GEOMETRY = """() => {
  const wrap = document.querySelector("table.standings").closest(".table-wrap");
  const box = element => element.getBoundingClientRect();
  const row = document.querySelector("table.standings tbody tr");
  const last = document.querySelector("table.standings thead th:last-child");
  return {scrollWidth: wrap.scrollWidth, clientWidth: wrap.clientWidth, wrapLeft: box(wrap).left,
          wrapRight: box(wrap).right, rankLeft: box(row.querySelector(".rank")).left,
          rankRight: box(row.querySelector(".rank")).right, nameLeft: box(row.querySelector("th.name")).left,
          lastRight: box(last).right, screen: window.innerWidth};
}"""


def test_the_standings_show_every_column_at_1280_and_scroll_beside_fixed_names_on_a_phone(
        live_server, browser, shots):
    league = build_league()
    club = league["club"]
    pages = {name: live_server.url + reverse("competition_standings", args=[club.slug, league[name].slug])
             for name in ("swiss", "weekly")}

    desk = browser.new_context(viewport=VIEWPORTS["desktop"]).new_page()
    for name, url in pages.items():
        desk.goto(url)
        at = desk.evaluate(STANDINGS_GEOMETRY)
        assert at["scrollWidth"] <= at["clientWidth"] + 1, (name, at)  # nothing hidden beyond the right edge
        assert at["lastRight"] <= at["screen"], (name, at)
    desk.context.close()

    phone = browser.new_context(viewport=VIEWPORTS["phone"], is_mobile=True, has_touch=True).new_page()
    phone.goto(pages["weekly"])
    phone.get_by_text("Show every column").first.tap()  # a phone shows the ranking's columns; the rest on a tap
    before = phone.evaluate(STANDINGS_GEOMETRY)
    assert before["scrollWidth"] > before["clientWidth"], before  # the figures scroll…
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # …inside their box, not the page
    phone.eval_on_selector("table.standings", "t => { const w = t.closest('.table-wrap'); "
                                              "w.scrollLeft = w.scrollWidth; }")
    after = phone.evaluate(STANDINGS_GEOMETRY)
    phone.screenshot(path=str(shots / "phone-standings-scrolled.png"), full_page=True)
    assert abs(after["rankLeft"] - after["wrapLeft"]) <= 1, after  # the place and the name stay put…
    assert abs(after["nameLeft"] - after["rankRight"]) <= 1 and after["nameLeft"] == before["nameLeft"], after
    assert after["lastRight"] <= after["wrapRight"] + 1, after  # …while the last column comes into view
    phone.context.close()
