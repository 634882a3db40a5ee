"""Read queries for the server-rendered pages: home, club, competition (fixtures and standings) and the
match scoresheet shaped like the chalk board.

Nothing here scores a hand: the sheet shows the engine's stored result of each hand (ARCHITECTURE.md,
"nothing re-scores a hand on a page view"). Results are read through ``games.selectors``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from engine import words
from games.models import SIDE_A, SIDE_B, Game, Hand, Match
from games.selectors import competition_matches
from league.models import Bye, Club, Competition, Round, StandingRow
from league.permissions import published_round_filter, visible_competitions

SIDE_OF_TEAM = (SIDE_A, SIDE_B)
MATCH_RELATED = ("competition__club", "round", "side_a__player_one", "side_a__player_two", "side_b__player_one",
                 "side_b__player_two")
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
BEG_LABELS = {"stand": "stood", "give": "gave one", "run": "ran the pack"}


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
            a.player_two.name if a.player_two_id else "", b.player_two.name if b.player_two_id else ""]


def dealer_label(names: list[str], seat: int) -> str:
    name = names[seat] if 0 <= seat < len(names) and names[seat] else words.seat(seat, capital=True)
    return f"{name} ({words.SIDE_LETTERS[seat % 2]})"


# ----------------------------------------------------------------------------- home, club, competition
def home_page(user: Any) -> dict[str, Any]:
    """The clubs and the competitions the user may see, as querysets (the page shows them a page at a time)."""
    competitions = visible_competitions(user).select_related("club").order_by("club__name", "-created_at", "id")
    return {"clubs": Club.objects.order_by("name", "id"), "competitions": competitions}


def club_page(club: Club, user: Any) -> dict[str, Any]:
    competitions = visible_competitions(user).filter(club=club).order_by("-created_at", "name", "id")
    return {"club": club, "competitions": competitions}


def competition_by_slugs(club_slug: str, competition_slug: str) -> Competition | None:
    return (Competition.objects.select_related("club")
            .filter(club__slug=club_slug, slug=competition_slug).first())


@dataclass
class RoundOfMatches:
    round: Round | None
    matches: list[Match]
    byes: list[Bye] = field(default_factory=list)

    @property
    def title(self) -> str:
        return str(self.round) if self.round is not None else "Unscheduled"


def fixture_rounds(competition: Competition, *, include_drafts: bool = False) -> list[int | None]:
    """The rounds the competition page shows fixtures of, in round order, in one query: the id of each round
    with a match or a bye (a bye shows as soon as its round is published), then None when some matches have no
    round; draft rounds only for the organisers (``include_drafts``). The page is cut from this list, and only
    its rounds' matches and byes are read (``fixtures_by_round``)."""
    matches = Match.objects.filter(competition=competition)
    byes = Bye.objects.filter(round__competition=competition)
    if not include_drafts:
        matches, byes = matches.filter(published_round_filter()), byes.filter(round__status=Round.PUBLISHED)
    keys = (matches.order_by().values_list("round_id", "round__number")
            .union(byes.order_by().values_list("round_id", "round__number")))
    return [round_id for round_id, _ in sorted(keys, key=lambda key: (key[0] is None, key[1] or 0))]


def fixtures_by_round(competition: Competition, rounds: Sequence[int | None], *,
                      include_drafts: bool = False) -> list[RoundOfMatches]:
    """The matches and byes of ``rounds`` (ids from ``fixture_rounds``; None: the matches without a round)
    grouped by round in that order, in two queries whatever the competition's size; the matches of draft rounds
    only for the organisers (``include_drafts``)."""
    from league.round_selectors import BYE_RELATED

    ids = [round_id for round_id in rounds if round_id is not None]
    in_rounds = Q(round_id__in=ids) | (Q(round__isnull=True) if None in rounds else Q(pk__in=[]))
    groups: dict[int | None, RoundOfMatches] = {}
    matches = competition_matches(competition, include_drafts=include_drafts).filter(in_rounds).select_related(
        "side_a__player_one", "side_a__player_two", "side_b__player_one", "side_b__player_two")  # players' links
    for match in matches:
        groups.setdefault(match.round_id, RoundOfMatches(match.round, [])).matches.append(match)
    byes = Bye.objects.filter(round__competition=competition, round_id__in=ids).select_related(
        "round", *BYE_RELATED).order_by("id")
    if not include_drafts:
        byes = byes.filter(round__status=Round.PUBLISHED)
    for bye in byes:
        groups.setdefault(bye.round_id, RoundOfMatches(bye.round, [])).byes.append(bye)
    return [groups[round_id] for round_id in rounds if round_id in groups]


def standings_sections(competition: Competition) -> tuple[list[StandingRow], list[StandingRow]]:
    """The ranking and a team league's per-pair statistics, in one query."""
    rows = list(StandingRow.objects.filter(competition=competition)
                .select_related("partnership__player_one", "partnership__player_two", "team", "player")
                .order_by("section", "group", "rank", "id"))
    return [r for r in rows if not r.section], [r for r in rows if r.section == "pairs"]


def standings(competition: Competition, section: str = "") -> QuerySet[StandingRow]:
    """The ranking (group by group), or with ``section="pairs"`` a team league's per-pair statistics."""
    return (StandingRow.objects.filter(competition=competition, section=section)
            .select_related("partnership__player_one", "partnership__player_two", "team", "player")
            .order_by("group", "rank", "id"))


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
    )


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
        rows = []
        for hand in game.hands.all():
            won = ""
            if hand.counts and isinstance(hand.result, dict) and hand.result.get("winner") in (0, 1):
                won = SIDE_OF_TEAM[hand.result["winner"]]
            rows.append(hand_row(hand, names, game_points, won))
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
    """The hand ``games.services.undo_last_hand`` would strike out."""
    return (Hand.objects.filter(game__match=match, deleted=False, void_reason="")
            .select_related("game").order_by("-game__number", "-number").first())


def games_of(match: Match) -> QuerySet[Game]:
    return Game.objects.filter(match=match).order_by("number")


def match_with_scorekeepers(match_id: int) -> Match | None:
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.order_by("username")
    return (Match.objects.select_related("competition__club", "side_a", "side_b")
            .prefetch_related(Prefetch("scorekeepers", queryset=users)).filter(pk=match_id).first())
