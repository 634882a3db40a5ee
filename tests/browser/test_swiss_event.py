"""An organiser runs a Swiss evening at a desktop: logs in, creates the Swiss competition on the setup form,
enters six partnerships on the entries page and publishes, pairs round 1 (the progress bar runs to the end and
the draft shows), publishes it, enters each match's totals from its scoresheet, pairs round 2 — no pair meets
twice, the winners meet the winners as far as the odd score groups allow — and reads the standings.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``); Celery runs eagerly.
"""

from __future__ import annotations

import re

import pytest

from draw.models import Round
from games.models import Match
from league.models import Competition
from standings.models import StandingRow
from tests.factories import make_club, make_organiser, make_partnership, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PASSWORD = "pw-for-tests-1"
PAIRS = ("Lions", "Tigers", "Eagles", "Sharks", "Jaguars", "Hawks")
# round 1, by table: games of side A, games of side B, hang jacks of side A (best of 3, match totals only)
ROUND_1_RESULTS = ((2, 0, 1), (1, 2, 0), (2, 1, 0))
RANKED_BY = ("Ranked by wins, then Buchholz (opponents' points), then bullseye difference; "
             "entrants still level share a place.")


def messages(page) -> str:
    return page.locator(".messages").inner_text()


def submit(page, name: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


def pair_label(pair) -> str:
    """How the entries page's partnership list names a pair."""
    return f"{pair.name} ({pair.player_one.name} & {pair.player_two.name}) · {pair.club.name}"


def pair_and_show_draft(page, number: int) -> list[dict]:
    """Click "Pair round N" on the round's page and wait for the bar to run to the end and the draft to show
    (the pairing may be done before the page comes back, or the page's script reloads it when it is)."""
    assert f"Round {number} has not been paired yet." in page.locator("#pairing").inner_text()
    submit(page, f"Pair round {number}")
    page.locator("#draft table.pairings").wait_for(timeout=30_000)
    page.wait_for_function("document.querySelector('[data-pairing-progress]').value === 1")
    assert page.locator("#pairing").get_attribute("data-state") == "done"
    assert not page.locator("[data-pairing-refresh]").count()
    assert "Paired: 3 matches." in page.locator("[data-pairing-message]").inner_text()
    status = page.evaluate("url => fetch(url, {headers: {Accept: 'application/json'}}).then(r => r.json())",
                           page.locator("#pairing").get_attribute("data-pairing-status"))  # what the bar polls
    assert (status["state"], status["progress"], status["round"]) == ("done", 1, number)
    rows = []
    for row in page.locator("#draft table.pairings tbody tr").all():
        a, b = row.locator(".side-a-text").inner_text(), row.locator(".side-b-text").inner_text()
        name_a, score_a = re.fullmatch(r"(.+) \((\d+)\)", a.strip()).groups()
        name_b, score_b = re.fullmatch(r"(.+) \((\d+)\)", b.strip()).groups()
        rows.append({"a": name_a, "b": name_b, "scores": (int(score_a), int(score_b)),
                     "flags": row.locator(".flags").inner_text()})
    return rows


def meetings(round_: Round) -> set[frozenset[int]]:
    """The pairs of partnerships that meet in the round (in the database)."""
    return {frozenset((m.side_a_id, m.side_b_id)) for m in Match.objects.filter(round=round_)}


def publish_round(page, number: int) -> None:
    submit(page, f"Publish Round {number}")
    assert f"Round {number} is published" in messages(page)
    assert page.locator("h1 .badge").text_content().strip() == "published"


def test_organiser_runs_a_swiss_event(live_server, browser, shots):
    club = make_club("Belmont Sports Club")
    make_organiser(club, make_user("olive", password=PASSWORD))
    pairs = {name: make_partnership(club=club, name=name) for name in PAIRS}
    base = live_server.url

    page = browser.new_context(**DESKTOP).new_page()
    new_url = f"{base}/clubs/{club.slug}/competitions/new/"
    page.goto(new_url)
    assert "/accounts/login/" in page.url
    page.fill("input[name=username]", "olive")
    page.fill("input[name=password]", PASSWORD)
    submit(page, "Log in")
    assert page.url == new_url

    # --- the competition, on the setup form
    page.fill("#id_name", "Friday Night Swiss")
    page.select_option("#id_system", label="Swiss")
    page.fill("#id_planned_rounds", "3")
    page.select_option("#id_players", label="4 players")
    page.select_option("#id_match_format", value="best_of")
    page.fill("#id_match_games", "3")
    assert page.eval_on_selector("#id_match_format", "s => s.selectedOptions[0].textContent") == "Best of 3 games"
    page.select_option("#id_result_level", label="Match totals only")
    page.select_option("#id_tiebreaks_1", label="Won")
    page.select_option("#id_tiebreaks_2", label="Buchholz")
    page.select_option("#id_tiebreaks_3", label="Bullseye difference")
    page.screenshot(path=str(shots / "swiss-create.png"), full_page=True)
    submit(page, "Create the competition")
    competition = Competition.objects.get(club=club)
    assert page.url == f"{base}/clubs/{club.slug}/{competition.slug}/entries/", page.url
    assert "Friday Night Swiss was created as a draft" in messages(page)
    assert (competition.system, competition.planned_rounds, competition.match_format, competition.match_games,
            competition.result_level, competition.published) == ("swiss", 3, "best_of", 3, "match", False)
    assert competition.tiebreaks == ["wins", "buchholz", "bullseye_difference"]

    # --- six partnerships on the entries page, then publish
    for name in PAIRS:
        page.select_option("#id_partnership", label=pair_label(pairs[name]))
        submit(page, "Enter")
        assert f"{name} is entered." in messages(page)
    assert "6 entrants" in page.locator(".lead").inner_text()
    assert page.locator("table.entries tbody tr").count() == 6
    page.screenshot(path=str(shots / "swiss-entries.png"), full_page=True)
    submit(page, "Publish")
    assert "Friday Night Swiss is published" in messages(page)
    competition.refresh_from_db()
    assert competition.published

    # --- round 1: pair, review the draft, publish
    rounds_url = f"{base}/clubs/{club.slug}/{competition.slug}/rounds/"
    page.goto(rounds_url)
    with page.expect_navigation():
        page.get_by_role("link", name="Pair round 1", exact=True).click()
    assert page.url == f"{rounds_url}1/manage/"
    page.screenshot(path=str(shots / "swiss-round-1-unpaired.png"), full_page=True)
    draft_1 = pair_and_show_draft(page, 1)
    page.screenshot(path=str(shots / "swiss-round-1-draft.png"), full_page=True)
    assert len(draft_1) == 3
    assert sorted(name for row in draft_1 for name in (row["a"], row["b"])) == sorted(PAIRS)
    assert all(row["scores"] == (0, 0) for row in draft_1)
    publish_round(page, 1)

    # --- round 1's results: from the public pairings, each match's scoresheet, its match totals
    round_1 = Round.objects.get(competition=competition, number=1)
    matches_1 = list(Match.objects.filter(round=round_1).order_by("table"))
    assert [(m.side_a_name, m.side_b_name) for m in matches_1] == [(row["a"], row["b"]) for row in draft_1]
    with page.expect_navigation():
        page.get_by_role("link", name="public page", exact=True).click()
    round_1_url = page.url
    assert round_1_url == f"{rounds_url}1/"
    winners, losers = set(), set()
    for match, (games_a, games_b, hang_jacks_a) in zip(matches_1, ROUND_1_RESULTS, strict=True):
        page.goto(round_1_url)
        with page.expect_navigation():
            page.locator(f"#match-{match.pk} td.vs a").click()
        assert page.url == f"{base}/matches/{match.pk}/"
        with page.expect_navigation():
            page.get_by_role("link", name="Match totals", exact=True).click()
        page.fill("#id_games_a", str(games_a))
        page.fill("#id_games_b", str(games_b))
        page.fill("#id_hang_jacks_a", str(hang_jacks_a))
        if match == matches_1[0]:
            page.screenshot(path=str(shots / "swiss-match-totals.png"), full_page=True)
        submit(page, "Save totals")
        assert "Match totals saved." in messages(page)
        (winners if games_a > games_b else losers).add(match.side_a_name)
        (losers if games_a > games_b else winners).add(match.side_b_name)
    page.goto(round_1_url)
    for match, (games_a, games_b, _) in zip(matches_1, ROUND_1_RESULTS, strict=True):
        assert page.locator(f"#match-{match.pk} td.vs").inner_text() == f"{games_a} – {games_b}"
        assert page.locator(f"#match-{match.pk} .won").inner_text() in winners
    page.screenshot(path=str(shots / "swiss-round-1-results.png"), full_page=True)
    for match in matches_1:
        match.refresh_from_db()
        assert (match.status, match.result_level) == (Match.COMPLETE, "match")

    # --- round 2: pair, check the draft on the page and in the database, publish
    page.goto(rounds_url)
    with page.expect_navigation():
        page.get_by_role("link", name="Pair round 2", exact=True).click()
    draft_2 = pair_and_show_draft(page, 2)
    page.screenshot(path=str(shots / "swiss-round-2-draft.png"), full_page=True)
    met = {frozenset((row["a"], row["b"])) for row in draft_1}
    assert len(draft_2) == 3
    assert sorted(name for row in draft_2 for name in (row["a"], row["b"])) == sorted(PAIRS)
    assert not met & {frozenset((row["a"], row["b"])) for row in draft_2}, "a pair meets twice"
    assert "Rematch" not in page.locator("#draft").inner_text()
    for row in draft_2:  # the scores shown are the round-1 match points: 2 a win
        for side, score in zip((row["a"], row["b"]), row["scores"], strict=True):
            assert score == (2 if side in winners else 0), (side, score)
    # three winners and three losers: one winners' match, one losers' match and one float between them
    groups = sorted(tuple(sorted(side in winners for side in (row["a"], row["b"]))) for row in draft_2)
    assert groups == [(False, False), (False, True), (True, True)], draft_2
    floats = [row for row in draft_2 if row["scores"][0] != row["scores"][1]]
    assert "Float" in floats[0]["flags"], floats[0]
    assert not page.locator("#warnings").count()

    round_2 = Round.objects.get(competition=competition, number=2)
    assert len(meetings(round_2)) == 3 and not meetings(round_1) & meetings(round_2), "a pair meets twice"
    winner_ids = {pairs[name].pk for name in winners}
    assert sorted(len(pair & winner_ids) for pair in meetings(round_2)) == [0, 1, 2]
    publish_round(page, 2)
    page.screenshot(path=str(shots / "swiss-round-2-published.png"), full_page=True)

    # --- the standings: round 1's winners above its losers, the order of tiebreaks in words
    with page.expect_navigation():
        page.get_by_role("link", name="Friday Night Swiss").first.click()
    with page.expect_navigation():
        page.get_by_role("link", name="Standings on their own page", exact=True).click()
    assert page.url == f"{base}/clubs/{club.slug}/{competition.slug}/standings/"
    assert page.locator("p.ranking").inner_text() == RANKED_BY
    lines = page.locator("table.standings tbody tr")
    assert lines.count() == 6
    table = []
    for i in range(6):
        cells = lines.nth(i).locator("td, th").all_inner_texts()
        table.append((cells[0], cells[1].split()[0], cells[2:5]))  # place, pair name, played / won / lost
    assert {name for _, name, _ in table[:3]} == winners, table
    assert {name for _, name, _ in table[3:]} == losers, table
    assert all(counts == ["1", "1", "0"] for _, _, counts in table[:3]), table
    assert all(counts == ["1", "0", "1"] for _, _, counts in table[3:]), table
    assert table[0][0] == "1" and table[0][1] == matches_1[0].side_a_name  # won 2–0: the best bullseye difference
    assert "†" in page.locator("#standings").inner_text()  # results entered as match totals are marked
    page.screenshot(path=str(shots / "swiss-standings.png"), full_page=True)
    page.context.close()

    rows = StandingRow.objects.filter(competition=competition).select_related("partnership")
    ranks = {row.partnership.name: row.rank for row in rows}
    assert max(ranks[name] for name in winners) < min(ranks[name] for name in losers), ranks
