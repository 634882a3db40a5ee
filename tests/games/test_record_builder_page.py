"""The full-entry page carries the card-by-card builder (static/js/record_builder.js) and still takes a pasted
hand record: the builder only fills the record's textarea, the server path is the same."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from engine.actions import OVER
from engine.hand import HandState
from engine.record import write_record
from engine.rules import Ruleset
from games import scoresheet as selectors
from games.models import Hand
from tests.factories import make_competition, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def post(client, django_capture_on_commit_callbacks):
    def do(url: str, data: dict | None = None, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(url, data or {}, **kwargs)

    return do


def a_record(players: int, dealer: int) -> dict:
    state = HandState.deal(players, dealer, random.Random(5), Ruleset(), (0, 0))
    state.apply("stand")
    while state.phase != OVER:
        state.apply(state.legal_actions()[0])
    return write_record(state)


@pytest.mark.parametrize("players", [2, 4])
def test_the_page_includes_the_builder_and_still_takes_a_pasted_record(client, post, players):
    keeper = make_user("sam")
    match = make_match(make_competition(players=players), first_dealer=1, scorekeepers=[keeper])
    client.force_login(keeper)
    url = reverse("match_enter_record", args=[match.pk])
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "js/record_builder.js" in html
    assert 'id="record-builder"' in html and " hidden " in html.split('id="record-builder"')[1][:40]
    assert f'data-players="{players}"' in html and 'data-dealer="1"' in html
    assert response.context["seat_names"] == selectors.seat_names(match, players)
    seats = json.loads(html.split('id="rb-seats" type="application/json">')[1].split("</script>")[0])
    assert seats == response.context["seat_names"] and len(seats) == players
    # the builder sits inside the record form, before the textarea it writes into
    form = html.split('enctype="multipart/form-data"')[1].split("</form>")[0]
    assert form.index('id="record-builder"') < form.index('name="record"')

    record = a_record(players, dealer=1)
    for key in ("players", "dealer", "score_before"):
        record.pop(key, None)
    response = post(url, {"number": 1, "record": json.dumps(record)})
    assert response.status_code == 302, response.content.decode()[:2000]
    hand = Hand.objects.get(game__match=match, number=1)
    assert hand.mode == Hand.RECORD and hand.dealer == 1
    assert [hand.score_a_after, hand.score_b_after] == hand.result["score_after"]


def test_the_builder_script_is_served_and_self_contained():
    from pathlib import Path

    script = (Path(__file__).resolve().parents[2] / "static" / "js" / "record_builder.js").read_text()
    assert "http://" not in script and "https://" not in script and "import " not in script
    assert "textarea[name=record]" in script
