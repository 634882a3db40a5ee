"""Live pages: the socket of an open page (``live.consumers``) sends its regions again, rendered for its
reader, once a hand, a settle or a publication is committed; drafts stay private in every message.

Real commits (``transaction=True``): a hand's commit queues the settle task, which runs in-process here, refreshes
the standings and sends the competition's notice, as in production.
"""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.urls import reverse

from config.asgi import application
from draw.models import Round
from games.entry import enter_hand
from live import notices as live_notices
from live import render
from live.routing import websocket_urlpatterns
from tests.factories import make_player, make_scene, make_user, sweep
from tests.waiting import until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
db = sync_to_async


@pytest_asyncio.fixture(autouse=True)
async def closed_connections():
    yield
    await sync_to_async(connections.close_all)()
    await render.close_connections()


def scene():
    found = make_scene("Live Club", organiser="org", scorekeeper="keeper")
    competition, match = found["competition"], found["match"]
    found["standings"] = reverse("competition_standings", args=[competition.club.slug, competition.slug])
    found["sheet"] = reverse("match_sheet", args=[match.pk])
    return found


async def open_page(path: str, user=None, app=None) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(app or URLRouter(websocket_urlpatterns), f"/ws/live/?path={path}")
    socket.scope["user"] = user
    return socket


async def connected(path: str, user=None) -> tuple[WebsocketCommunicator, dict]:
    socket = await open_page(path, user)
    assert (await socket.connect(10))[0], f"{path} refused"
    return socket, await socket.receive_json_from(5)


async def refused(path: str, user=None) -> int:
    socket = await open_page(path, user)
    accepted, code = await socket.connect(10)
    assert not accepted
    return code


async def regions_after(socket: WebsocketCommunicator, wanted, timeout: float = 5.0) -> dict:
    """The first ``regions`` message whose content has ``wanted`` (a predicate on the content region)."""
    async def wait():
        while True:
            message = await socket.receive_json_from(timeout)
            if message["type"] == "regions" and wanted(message["regions"]["content"]):
                return message
    return await asyncio.wait_for(wait(), timeout)


async def hub_idle_after(version: int, timeout: float = 5.0) -> None:
    """Until this process's hub has heard the notice of ``version`` on every page it watches and has no rendering
    running: whatever those notices cause has been rendered and sent by then."""
    from live.hub import hub

    await until(lambda: all(watched.wanted >= version and (watched.task is None or watched.task.done())
                            for watched in hub()._watched.values()), timeout, f"the hub to render notice {version}")


def enter_sweep(match, number: int, user):
    return enter_hand(match=match, number=number, mode="chalk", entry=sweep(0), user=user)


async def test_a_visitors_standings_and_scoresheet_follow_a_hand_as_a_reload_would_show_them():
    found = await db(scene)()
    standings, first = await connected(found["standings"])
    sheet, first_sheet = await connected(found["sheet"])
    assert first["type"] == "regions" and "No standings yet" in first["regions"]["content"]
    assert "hand-1-1" not in first_sheet["regions"]["content"]

    await db(enter_sweep)(found["match"], 1, found["scorekeeper"])
    hand = await regions_after(sheet, lambda html: 'id="hand-1-1"' in html)
    reload = await db(render.render_page)(found["sheet"])
    assert hand["version"] > first_sheet["version"]
    table = await regions_after(standings, lambda html: ">4<" in html)  # Lions' 4 chalks
    assert table["regions"] == (await db(render.render_page)(found["standings"])).regions
    assert reload.regions["content"].count('id="hand-1-1"') == 1
    for socket in (standings, sheet):
        await socket.disconnect()


async def test_a_draft_is_never_sent_to_a_visitor_and_an_organiser_gets_it():
    found = await db(scene)()
    competition = found["competition"]
    await db(type(competition).objects.filter(pk=competition.pk).update)(published=False)
    assert await refused(found["standings"]) == 4404
    assert await refused(found["sheet"]) == 4404
    assert await refused(found["standings"], await db(make_user)("nosy")) == 4404
    organiser_page, message = await connected(found["standings"], found["organiser"])
    assert "draft" in message["regions"]["content"]
    await organiser_page.disconnect()


async def test_a_round_taken_back_to_a_draft_tells_its_open_pages_they_are_gone():
    from draw.publishing import publish_round, unpublish_round

    found = await db(scene)()
    match, competition = found["match"], found["competition"]
    round_ = await db(Round.objects.create)(competition=competition, number=1, status=Round.DRAFT)
    await db(type(match).objects.filter(pk=match.pk).update)(round=round_)
    await db(publish_round)(round_, found["organiser"])
    detail = reverse("round_detail", args=[competition.club.slug, competition.slug, 1])
    visitor, first = await connected(detail)
    sheet, _ = await connected(found["sheet"])
    organiser, _ = await connected(detail, found["organiser"])
    assert "Lions" in first["regions"]["content"]

    await db(unpublish_round)(await db(Round.objects.get)(pk=round_.pk), found["organiser"])
    for socket in (visitor, sheet):
        gone = await socket.receive_json_from(5)
        assert gone == {"type": "gone", "status": 404}
        assert (await socket.receive_output(5))["code"] == 4404
    # the organiser's page of the round now redirects to its management page: not shown in place either
    assert (await organiser.receive_json_from(5))["type"] == "gone"


async def test_personal_readers_get_their_own_rendering_and_other_users_the_visitors():
    found = await db(scene)()
    await db(enter_sweep)(found["match"], 1, found["scorekeeper"])
    visitor = await db(render.render_page)(found["sheet"])
    keeper = await db(render.render_page)(found["sheet"], found["scorekeeper"])
    assert "Correct" not in visitor.regions["content"] and "Correct" in keeper.regions["content"]
    _, message = await connected(found["sheet"], found["scorekeeper"])
    assert message["regions"] == keeper.regions


def live_paths(found) -> list[str]:
    competition, club = found["competition"], found["competition"].club
    return [found["sheet"], found["standings"], reverse("competition", args=[club.slug, competition.slug]),
            reverse("competition_rounds", args=[club.slug, competition.slug])]


async def test_a_signed_in_player_with_no_role_sees_on_every_live_page_what_a_visitor_sees():
    """Why such readers share the visitors' rendering (``live.pages``)."""
    found = await db(scene)()
    await db(enter_sweep)(found["match"], 1, found["scorekeeper"])
    player = await db(make_user)("player")
    await db(make_player)("A Player", club=found["club"], user=player)
    for path in await db(live_paths)(found):
        assert (await db(render.render_page)(path, player)).regions == (await db(render.render_page)(path)).regions


async def test_many_readers_of_a_page_cost_one_rendering_per_notice(monkeypatch):
    found = await db(scene)()
    calls = []
    real = render.render_page

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    def sent(group, message):
        notices.append(message["version"])
        real_send(group, message)

    notices: list[int] = []
    real_send = live_notices.send_to_group
    monkeypatch.setattr("live.consumers.render_page", counted)
    monkeypatch.setattr(live_notices, "send_to_group", sent)
    readers = [await connected(found["sheet"]) for _ in range(5)]
    assert len(calls) == 1  # the first reader's; the others got it
    calls.clear()
    await db(enter_sweep)(found["match"], 1, found["scorekeeper"])
    for socket, _ in readers:
        await regions_after(socket, lambda html: 'id="hand-1-1"' in html)
    await hub_idle_after(max(notices))
    # the hand's own notice, then the settle's: at most one rendering each, for all five readers
    assert 1 <= len(calls) <= 2
    for socket, _ in readers:
        await socket.disconnect()


async def test_a_page_that_is_not_live_or_a_bad_frame_is_refused():
    found = await db(scene)()
    assert await refused("/no/such/page/") == 4404
    assert await refused(reverse("players")) == 4404
    assert await refused("not-a-path") == 4404
    socket, _ = await connected(found["standings"])
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from(5) == {"type": "pong"}
    await socket.send_to(text_data="x" * 300)
    assert (await socket.receive_output(5))["code"] == 4400


async def test_a_frame_nested_deeper_than_a_decoder_goes_closes_the_socket_as_junk_with_no_traceback(caplog):
    found = await db(scene)()
    socket, _ = await connected(found["standings"])
    await socket.send_to(text_data="[" * 4096)
    assert (await socket.receive_output(5))["code"] == 4400  # junk: closed, as any frame but a ping
    assert not [record for record in caplog.records if record.exc_info], "a traceback was logged"


async def test_more_than_twenty_messages_in_ten_seconds_close_the_live_socket():
    found = await db(scene)()
    socket, _ = await connected(found["standings"])
    for _ in range(20):
        await socket.send_json_to({"type": "ping"})
        assert (await socket.receive_json_from(5))["type"] == "pong"
    await socket.send_json_to({"type": "ping"})
    assert (await socket.receive_output(5))["code"] == 4029  # as the online table's socket closes


async def test_the_socket_is_refused_from_another_sites_page():
    found = await db(scene)()
    foreign = WebsocketCommunicator(application, f"/ws/live/?path={found['standings']}",
                                    headers=[(b"origin", b"http://evil.example")])
    assert not (await foreign.connect(10))[0]
    ours = WebsocketCommunicator(application, f"/ws/live/?path={found['standings']}",
                                 headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")])
    assert (await ours.connect(10))[0]
    assert (await ours.receive_json_from(5))["type"] == "regions"
    await ours.disconnect()



def draft_round_with_a_secret_fixture(found) -> Round:
    from tests.factories import make_match, make_partnership

    competition, club = found["competition"], found["club"]
    round_ = Round.objects.create(competition=competition, number=1, status=Round.DRAFT)
    secret = make_match(competition, side_a=make_partnership(club=club, name="Secret Pair"),
                        side_b=make_partnership(club=club, name="Hidden Pair"))
    secret.round = round_
    secret.save(update_fields=["round"])
    return round_


def fixtures_of(html: str) -> str:
    """The page's "Fixtures and results" section (its standings list every entrant, drafts or not)."""
    return html[html.index('<section id="fixtures">'):]


async def test_a_draft_rounds_fixtures_reach_only_organisers_until_published_then_every_open_page():
    """Drafts stay private in the live messages too; publication reaches the players' open pages."""
    from draw.publishing import publish_round

    found = await db(scene)()
    round_ = await db(draft_round_with_a_secret_fixture)(found)
    competition = found["competition"]
    home = reverse("competition", args=[competition.club.slug, competition.slug])
    visitor, first = await connected(home)
    player_user = await db(make_user)("player")
    player, _ = await connected(home, player_user)
    organiser, organisers_first = await connected(home, found["organiser"])
    assert "Secret Pair" not in fixtures_of(first["regions"]["content"])
    assert "Secret Pair" in fixtures_of(organisers_first["regions"]["content"])

    await db(enter_sweep)(found["match"], 1, found["scorekeeper"])  # a public match's hand: every page renders
    for socket in (visitor, player):
        update = await regions_after(socket, lambda html: "In progress" in fixtures_of(html))
        assert "Secret Pair" not in fixtures_of(update["regions"]["content"])
    update = await regions_after(organiser, lambda html: "In progress" in fixtures_of(html))
    assert "Secret Pair" in fixtures_of(update["regions"]["content"])

    await db(publish_round)(round_, found["organiser"])
    for socket in (visitor, player):
        await regions_after(socket, lambda html: "Secret Pair" in fixtures_of(html))
    for socket in (visitor, player, organiser):
        await socket.disconnect()


async def test_an_organisers_page_closes_when_they_log_out_and_a_visitors_does_not():
    from django.test import Client

    found = await db(scene)()
    organiser, _ = await connected(found["standings"], found["organiser"])
    visitor, _ = await connected(found["standings"])

    def log_out():
        browser = Client()
        browser.force_login(found["organiser"])
        assert browser.post(reverse("logout")).status_code == 302

    await db(log_out)()
    assert await organiser.receive_json_from(5) == {"type": "gone", "status": 401}
    assert (await organiser.receive_output(5))["code"] == 4401
    assert await visitor.receive_nothing(0.3)
    await visitor.disconnect()


async def test_a_query_the_page_does_not_read_does_not_make_a_new_page():
    from live.pages import live_page

    found = await db(scene)()
    page = await db(live_page)(found["standings"] + "?x=1&rounds_page=2&y=2", None)
    assert page.path == found["standings"] + "?rounds_page=2"


async def test_a_page_that_fails_to_render_keeps_its_readers_and_they_get_the_next_rendering(monkeypatch):
    found = await db(scene)()
    sheet, _ = await connected(found["sheet"])
    real, failing = render.render_page, {"on": True}

    def flaky(*args, **kwargs):
        if failing["on"]:
            return render.Rendered(500)
        return real(*args, **kwargs)

    monkeypatch.setattr("live.consumers.render_page", flaky)
    await db(enter_sweep)(found["match"], 1, found["scorekeeper"])
    assert await sheet.receive_nothing(0.5)  # no "gone": the page keeps what it shows
    failing["on"] = False
    await db(enter_sweep)(found["match"], 2, found["scorekeeper"])
    await regions_after(sheet, lambda html: 'id="hand-1-2"' in html and 'id="hand-1-1"' in html)
    await sheet.disconnect()
