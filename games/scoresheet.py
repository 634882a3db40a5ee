"""The read model of a match's scoresheet, shaped like the chalk board: its games, each hand's row (the
engine's stored result, its history of versions, the awards), the seats' names and the recent hands for the
entry pages.

Nothing here scores a hand: the sheet shows the engine's stored result of each hand (docs/architecture.md,
"nothing re-scores a hand on a page view")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet

from engine import words
from games.models import SIDE_A, SIDE_B, Game, Hand, Match

SIDE_OF_TEAM = (SIDE_A, SIDE_B)


MATCH_RELATED = ("competition__club", "round", "side_a__player_one", "side_a__player_two", "side_b__player_one",
                 "side_b__player_two")


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


BEG_LABELS: dict[Any, str] = {"stand": "stood", "give": "gave one", "run": "ran the pack"}


# ----------------------------------------------------------------------------- cards, seats
def card_label(text: str | None) -> str:
    """``"TD"`` → ``"10♦"``, ``"JH"`` → ``"J♥"`` (as stored by the engine; anything else is shown as is)."""
    if not text or not isinstance(text, str):
        return ""
    text = text.strip().upper()
    rank, suit = text[:-1], text[-1:]
    if suit not in SUIT_SYMBOLS:
        return text
    return f"{'10' if rank == 'T' else rank}{SUIT_SYMBOLS[suit]}"


def seat_names(match: Match, players: int) -> list[str]:
    """Who sits where, by seat index: side A holds indexes 0 and 2 (seats 1 and 3: its first and second player),
    side B indexes 1 and 3 (seats 2 and 4); in a 2-player match seat 1 is side A's player and seat 2 side B's."""
    a, b = match.side_a, match.side_b
    if players == 2:
        return [a.player_one.name, b.player_one.name]
    return [a.player_one.name, b.player_one.name,
            a.player_two.name if a.player_two is not None else "",
            b.player_two.name if b.player_two is not None else ""]


def dealer_label(names: list[str], seat: int) -> str:
    name = names[seat] if 0 <= seat < len(names) and names[seat] else words.seat(seat, capital=True)
    return f"{name} ({words.SIDE_LETTERS[seat % 2]})"


# ----------------------------------------------------------------------------- the scoresheet
@dataclass
class Award:
    """Points a category gave one side on the chalk, e.g. Hang Jack 3 to side B."""

    side: str
    points: int
    note: str = ""

    @property
    def letter(self) -> str:
        return self.side.upper()


@dataclass
class VersionLine:
    version: int
    action: str
    author: str
    at: Any
    reason: str


@dataclass
class HandRow:
    hand: Hand
    number: int
    dealer: str
    kicks: list[str]
    beg: str
    trump: str
    kick: list[Award]
    beg_point: list[Award]
    high: list[Award]
    low: list[Award]
    jack: list[Award]
    game: list[Award]
    penalty: list[Award]
    penalty_text: str
    points: tuple[int, int]
    score: tuple[int, int] | tuple[str, str]  # ("—", "—") for a struck (deleted or void) hand
    redeal: bool
    deleted: bool
    void_reason: str
    corrected: bool
    won_game: str
    history: list[VersionLine] = field(default_factory=list)
    edit_url: str = ""
    beg_choice: str = ""  # as entered: "stand", "give" or "run" ("" for a hand the kick decided)

    @property
    def struck(self) -> bool:
        return self.deleted or bool(self.void_reason)


@dataclass
class GameSheet:
    game: Game
    rows: list[HandRow]

    @property
    def winner_name(self) -> str:
        return self.game.match.side_name(self.game.winner) if self.game.winner else ""


def _kicks_of(hand: Hand) -> list[str]:
    entry = hand.entry if isinstance(hand.entry, dict) else {}
    if hand.mode == Hand.RECORD:
        kicks = [entry.get("kick")] + [run.get("kick") for run in entry.get("runs") or [] if isinstance(run, dict)]
    else:
        kicks = list(entry.get("kicks") or [])
    return [card_label(k) for k in kicks if isinstance(k, str) and k]


def _pair_awards(values: Any, note: str = "") -> list[Award]:
    if not isinstance(values, list | tuple) or len(values) != 2:
        return []
    return [Award(SIDE_OF_TEAM[team], value, note) for team, value in enumerate(values) if value]


def _team_award(value: Any, points: int, note: str = "") -> list[Award]:
    if not isinstance(value, dict) or value.get("team") not in (0, 1):
        return []
    return [Award(SIDE_OF_TEAM[value["team"]], points, note)]


def _penalty(result: dict[str, Any]) -> tuple[list[Award], str]:
    penalty = result.get("penalty")
    if not isinstance(penalty, dict):
        return [], ""
    awards = _pair_awards(penalty.get("points"), penalty.get("kind", "").replace("_", " "))
    loses = penalty.get("loses_game")
    if loses in (0, 1):
        awards.append(Award(SIDE_OF_TEAM[1 - loses], 0, "game forfeited by " + SIDE_OF_TEAM[loses].upper()))
    return awards, penalty.get("explanation", "")


def _history(hand: Hand) -> list[VersionLine]:
    lines = []
    for version in hand.versions.all():
        if version.version == 1:
            action = "entered"
        elif version.deleted:
            action = "deleted"
        else:
            action = "corrected"
        lines.append(VersionLine(version.version, action, version.author_label, version.created_at, version.reason))
    return lines


def hand_row(hand: Hand, names: list[str], game_points: int, winner_side: str = "") -> HandRow:
    result = hand.result if isinstance(hand.result, dict) else {}
    entry = hand.entry if isinstance(hand.entry, dict) else {}
    jack = result.get("jack")
    jack_awards = _team_award(jack, jack.get("points", 0) if isinstance(jack, dict) else 0,
                              "hang jack" if isinstance(jack, dict) and jack.get("hang") else "")
    game = result.get("game")
    penalty_awards, penalty_text = _penalty(result)
    withheld = isinstance(result.get("penalty"), dict) and result["penalty"].get("game_withheld")
    game_awards = _team_award(game, 0 if withheld else game_points, "withheld" if withheld else "")
    if isinstance(game, dict) and game.get("team") is None and "team" in game:
        game_awards = [Award("", 0, "tie")]
    high, low = result.get("high"), result.get("low")
    history = _history(hand)
    trump = result.get("trump") or ""
    return HandRow(
        hand=hand,
        number=hand.number,
        dealer=dealer_label(names, hand.dealer),
        kicks=_kicks_of(hand),
        beg=BEG_LABELS.get(entry.get("beg"), ""),
        trump=SUIT_SYMBOLS.get(trump, trump),
        kick=_pair_awards(result.get("kick_points")),
        beg_point=_pair_awards(result.get("beg_points")),
        high=_team_award(high, 1, card_label(high.get("card")) if isinstance(high, dict) else ""),
        low=_team_award(low, 1, card_label(low.get("card")) if isinstance(low, dict) else ""),
        jack=jack_awards,
        game=game_awards,
        penalty=penalty_awards,
        penalty_text=penalty_text,
        points=(hand.points_a, hand.points_b),
        score=(hand.score_a_after, hand.score_b_after) if hand.counts else ("—", "—"),  # a struck hand adds nothing
        redeal=bool(result.get("redeal")),
        deleted=hand.deleted,
        void_reason=hand.void_reason,
        corrected=any(line.action == "corrected" for line in history),
        won_game=winner_side,
        history=history,
        beg_choice=entry["beg"] if entry.get("beg") in BEG_LABELS else "",
    )


def game_won_by(hand: Hand) -> str:
    """The side (``"a"``/``"b"``) whose game this hand won, or ``""``."""
    if hand.counts and isinstance(hand.result, dict) and hand.result.get("winner") in (0, 1):
        return SIDE_OF_TEAM[hand.result["winner"]]
    return ""


def scoresheet(match_id: int) -> tuple[Match, list[GameSheet]] | None:
    """The match (sides, players, competition, club) and each game's hands as chalk-board rows, in a fixed
    number of queries whatever the number of hands."""
    hands = Hand.objects.order_by("number").prefetch_related("versions")
    games = Game.objects.order_by("number").prefetch_related(Prefetch("hands", queryset=hands))
    match = (Match.objects.select_related(*MATCH_RELATED).prefetch_related(Prefetch("games", queryset=games))
             .filter(pk=match_id).first())
    if match is None:
        return None
    players = match.competition.players
    names = seat_names(match, players)
    game_points = match.competition.engine_ruleset().game_points
    sheets = []
    for game in match.games.all():
        game.match = match
        rows = [hand_row(hand, names, game_points, game_won_by(hand)) for hand in game.hands.all()]
        sheets.append(GameSheet(game, rows))
    return match, sheets


def match_for_pages(match_id: int) -> Match | None:
    """A match with what the entry and organiser pages show (sides and their players, competition, club)."""
    return Match.objects.select_related(*MATCH_RELATED).filter(pk=match_id).first()


def match_by_token(token: str) -> Match | None:
    return Match.objects.select_related(*MATCH_RELATED).filter(entry_token=token).first()


def recent_hands(match: Match, limit: int = 6) -> list[HandRow]:
    """The last hands entered in the match (newest first), deleted and void ones included."""
    hands = (Hand.objects.filter(game__match=match).select_related("game")
             .prefetch_related("versions").order_by("-game__number", "-number")[:limit])
    names = seat_names(match, match.competition.players)
    game_points = match.competition.engine_ruleset().game_points
    return [hand_row(hand, names, game_points) for hand in hands]


def last_counting_hand(match: Match) -> Hand | None:
    """The hand ``games.entry.undo_last_hand`` would strike out."""
    return (Hand.objects.filter(game__match=match, deleted=False, void_reason="")
            .select_related("game").order_by("-game__number", "-number").first())


def games_of(match: Match) -> QuerySet[Game]:
    return Game.objects.filter(match=match).order_by("number")


def match_with_scorekeepers(match_id: int) -> Match | None:
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.order_by("username")
    return (Match.objects.select_related("competition__club", "side_a", "side_b")
            .prefetch_related(Prefetch("scorekeepers", queryset=users)).filter(pk=match_id).first())
