"""What the notification tests share: people with accounts playing a round, and a round to publish."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from draw.models import Round
from games.models import Match
from league.models import Competition, Partnership
from tests.factories import make_competition, make_match, make_player, make_user

TRINIDAD = ZoneInfo("America/Port_of_Spain")
FRIDAY_8PM = datetime(2031, 3, 14, 20, 0, tzinfo=TRINIDAD)  # a Friday


def pair_of(competition: Competition, first: str, second: str, *, accounts: bool = True) -> Partnership:
    """A pair named by its players, each with an account named as they are (lower case) when ``accounts``."""
    players = [make_player(name, club=competition.club,
                           user=make_user(name.lower()) if accounts else None) for name in (first, second)]
    for player in players:
        if player.user is not None:
            player.user.email = f"{player.user.username}@example.org"
            player.user.save(update_fields=["email"])
    return Partnership.objects.create(player_one=players[0], player_two=players[1], club=competition.club)


def draft_round(competition: Competition | None = None, *, number: int = 3) -> tuple[Round, Match]:
    """A draft round with one match at table 7, Friday 8 pm: Ann & Bob (accounts) v Cid & Dee (Cid has none)."""
    competition = competition or make_competition()
    round_ = Round.objects.create(competition=competition, number=number, status=Round.DRAFT)
    ann_bob = pair_of(competition, "Ann", "Bob")
    cid_dee = pair_of(competition, "Cid", "Dee", accounts=False)
    dee = cid_dee.player_two
    assert dee is not None
    dee.user = make_user("dee")
    dee.user.email = "dee@example.org"
    dee.user.save(update_fields=["email"])
    dee.save(update_fields=["user"])
    match = make_match(competition, side_a=ann_bob, side_b=cid_dee)
    Match.objects.filter(pk=match.pk).update(round=round_, table="7", scheduled_at=FRIDAY_8PM)
    match.refresh_from_db()
    return round_, match
