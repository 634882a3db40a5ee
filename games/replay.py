"""The replay of a finished hand from its stored record: the deal, the beg decisions and the runs of the pack, each
trick in turn, then the scoring in the order of R23 — for a hand entered as a full hand record or played at an
online table (which stores its hands through the same entry service, as records).

Everything shown is the engine's: the stored entry, with what the match filled in when it was scored (players,
dealer, score before, ruleset), is replayed by ``engine.replay_record`` (which checks every card again), and the
tricks are stepped through by a ``HandState`` that plays the record's cards one at a time. The points of each
category are the sheet's own reading of the engine's result (``games.scoresheet.hand_row``) and the moment a
side reaches the target is the engine's ``count_in_order`` (R23). Nothing here knows a rule of the game.

A hand entered as chalk totals has no record and so no replay (``ReplayUnavailable``), nor has a deleted one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from engine import HandState, RecordError, replay_record
from engine.awards import count_in_order
from engine.cards import CARD_NAMES, Card
from engine.words import SIDE_LETTERS
from games.models import Hand, Match
from games.scoresheet import MATCH_RELATED, Award, card_label, hand_row, seat_names

BEG_WORDS = {"stand": "stood", "give": "begged", "run": "begged"}


class ReplayUnavailable(Exception):  # noqa: N818 - a refusal worded for the reader, not a failure
    """The hand has no replay; ``reason`` says why, for the page."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# ----------------------------------------------------------------------------- what the page shows
@dataclass(frozen=True)
class CardView:
    text: str  # "TD"
    label: str  # "10♦"
    rank: str  # "10"
    suit: str  # "D"
    pip: str  # "♦"
    trump: bool = False

    @property
    def red(self) -> bool:
        return self.suit in ("D", "H")


@dataclass(frozen=True)
class SeatInfo:
    seat: int  # the seat's index (0 to 3)
    name: str
    side: str  # "A" or "B"
    dealer: bool
    eldest: bool

    @property
    def number(self) -> int:
        return self.seat + 1

    @property
    def label(self) -> str:
        return f"{self.name} ({self.side})"


@dataclass(frozen=True)
class SeatCards:
    seat: SeatInfo
    cards: list[CardView]


@dataclass(frozen=True)
class Run:
    number: int
    extra: list[SeatCards]
    kick: CardView
    kick_points: int
    last: bool
    last_card: bool = False  # R12 last_card_kick: the pack's last card, kicked with nothing dealt

    @property
    def kicks(self) -> list[CardView]:
        return [self.kick]


@dataclass(frozen=True)
class Play:
    seat: SeatInfo
    card: CardView
    wins: bool

    @property
    def cards(self) -> list[CardView]:
        return [self.card]


@dataclass(frozen=True)
class TrickStep:
    number: int
    leader: SeatInfo
    plays: list[Play]
    winner: SeatInfo
    hands_left: list[SeatCards]
    tricks_won: tuple[int, int]  # by side A and side B, this trick included


@dataclass(frozen=True)
class ScoreLine:
    category: str  # "High"
    rule: str  # "R18"
    detail: str  # "A♥, dealt to side A"
    side: str  # "A", "B" or "" (nobody)
    points: int
    score: tuple[int, int]  # after this line
    reaches_target: bool  # the line that took the winner to the target (R23)


@dataclass
class Replay:
    match: Match | None  # the match of a stored hand (None: an online table's hand)
    hand: Hand | None
    players: int
    seats: list[SeatInfo]
    dealt: list[SeatCards]  # the six cards each seat was dealt (R4)
    kicks: list[CardView]
    first_kick_points: int
    beg: str | None  # "stand", "give", "run", or None (the kick decided the game)
    eldest: SeatInfo
    dealer: SeatInfo
    runs: list[Run]
    trump: CardView | None  # a card-like view of the trump suit (pip and colour), None for a redeal
    trump_name: str
    redeal: bool
    decided_before_play: bool
    hands_at_play: list[SeatCards]  # the cards held as the first card is led (after any runs)
    tricks: list[TrickStep]
    scoring: list[ScoreLine]
    score_before: tuple[int, int]
    score_after: tuple[int, int]
    points: tuple[int, int]
    winner: str  # "A", "B" or ""
    target: int
    counts: tuple[int, int] | None = None
    notes: list[str] = field(default_factory=list)
    side_names: tuple[str, str] = ("Side A", "Side B")
    number: int = 0  # the hand's number in its game
    game_number: int = 0

    @property
    def steps(self) -> int:
        """The deal (step 0), each trick (1 … n), the scoring (n + 1)."""
        return len(self.tricks) + 2

    @property
    def scoring_step(self) -> int:
        return len(self.tricks) + 1

    @property
    def winner_name(self) -> str:
        return self.side_name(self.winner)

    def side_name(self, letter: str) -> str:
        return self.side_names[0] if letter == "A" else self.side_names[1] if letter == "B" else ""


# ----------------------------------------------------------------------------- reading
def hand_for_replay(match_id: int, hand_id: int) -> Hand | None:
    """The hand of the match with its game, match (sides and players, competition, club) and versions."""
    related = ["game__match__" + name for name in MATCH_RELATED]
    return (Hand.objects.select_related(*related).prefetch_related("versions")
            .filter(pk=hand_id, game__match_id=match_id).first())


def is_replayable(hand: Hand) -> bool:
    """A hand has a replay when it is stored as a full hand record and not deleted."""
    return hand.mode == Hand.RECORD and not hand.deleted


def stored_record(hand: Hand, match: Match) -> dict[str, Any]:
    """The hand record as the engine scored it: the stored entry with what the match filled in (as
    ``games.scoring.score_hand_entry`` does) — the dealer as stored, the score before the hand from the stored
    result (its score after less its points)."""
    result = hand.result if isinstance(hand.result, dict) else {}
    after, points = result.get("score_after") or [0, 0], result.get("points") or [0, 0]
    record = {**hand.entry, "players": match.competition.players, "dealer": hand.dealer,
              "score_before": [after[0] - points[0], after[1] - points[1]]}
    if match.competition.ruleset:
        record["ruleset"] = match.competition.ruleset
    else:
        record.pop("ruleset", None)
    return record


def build_replay(hand: Hand, match: Match) -> Replay:
    """The replay of a stored hand; raises ``ReplayUnavailable`` for a chalk entry, a deleted hand, or a record that
    no longer scores as it was stored."""
    where = f"hand {hand.number} of game {hand.game.number}"
    if hand.deleted:
        raise ReplayUnavailable(f"{where} was deleted: a deleted hand has no replay.")
    if hand.mode != Hand.RECORD or not isinstance(hand.entry, dict):
        raise ReplayUnavailable(f"{where} was entered as chalk totals (kicks, High, Low, Jack, Game), not as a "
                                "full hand record, so there are no cards to replay.")
    players = match.competition.players
    replay = build_record_replay(
        stored_record(hand, match), hand.result, where=where, names=seat_names(match, players),
        side_names=(match.side_a_name, match.side_b_name), number=hand.number, game_number=hand.game.number,
        notes=[f"This hand does not count: {hand.void_reason}."] if hand.void_reason else [],
        game_points=match.competition.engine_ruleset().game_points, awards_of=lambda: hand_row(
            hand, [], match.competition.engine_ruleset().game_points))
    replay.match, replay.hand = match, hand
    return replay


class _RecordOnly:
    """What ``games.scoresheet.hand_row`` reads of a hand, for a record stored elsewhere than as a ``Hand`` (an
    online table's hand): its result, nothing deleted, struck or corrected."""

    mode = Hand.RECORD
    deleted = False
    void_reason = ""
    counts = True

    def __init__(self, record: dict[str, Any], result: dict[str, Any], number: int) -> None:
        self.entry, self.result, self.number, self.dealer = record, result, number, record.get("dealer", 0)
        points, after = result.get("points") or [0, 0], result.get("score_after") or [0, 0]
        self.points_a, self.points_b = points
        self.score_a_after, self.score_b_after = after
        self.versions = self  # hand_row reads the history as ``hand.versions.all()``: none

    def all(self) -> tuple:
        return ()


def build_record_replay(record: dict[str, Any], stored_result: Any, *, where: str, names: list[str],
                        side_names: tuple[str, str], number: int, game_number: int, game_points: int,
                        notes: list[str] | None = None, awards_of: Any = None) -> Replay:
    """The replay of a full hand record (with ``players``, ``dealer``, ``score_before`` and ``ruleset`` filled in)
    whose engine result was stored as ``stored_result``: a match's hand (``build_replay``) or an online table's
    finished hand. ``names``: who sat where (``""`` for "Seat N"); ``side_names``: side A's and side B's;
    ``where``: the hand in words, for the refusals. Raises ``ReplayUnavailable`` when the record no longer replays
    or no longer scores as stored."""
    try:
        final = replay_record(record)
    except RecordError as error:
        raise ReplayUnavailable(f"{where}: its record no longer replays ({error.field}: {error.reason}).") from None
    result = final.result()
    stored = stored_result if isinstance(stored_result, dict) else {}
    if [result["points"], result["score_after"]] != [stored.get("points"), stored.get("score_after")]:
        raise ReplayUnavailable(f"{where}: its record no longer scores as it was stored (were the competition's "
                                "rules changed since?), so it is not replayed.")

    players = final.players
    seats = [SeatInfo(s, (names[s] if s < len(names) else "") or f"Seat {s + 1}", SIDE_LETTERS[s % 2],
                      s == final.dealer, s == final.eldest)
             for s in range(players)]
    trump = final.trump_suit
    trump_index = int(trump) if trump is not None else -1

    def view(card: Card | int | str) -> CardView:
        card = card if isinstance(card, Card) else Card(card) if isinstance(card, int) else Card.parse(card)
        rank = card.symbol[:-1]
        return CardView(str(card), card.symbol, rank, card.suit.letter, card.suit.symbol, int(card.suit) == trump_index)

    def in_order(cards: list[Card]) -> list[CardView]:
        """Trumps first, then the other suits, each from the highest card down."""
        ordered = sorted(cards, key=lambda c: (int(c.suit) != trump_index, -int(c.suit), -c.rank))
        return [view(c) for c in ordered]

    written = final.to_record()  # the engine's own writing of the record: card names as it spells them
    dealt = [SeatCards(seats[s], in_order([Card.parse(c) for c in written["hands"][s]])) for s in range(players)]
    runs = []
    written_runs = written.get("runs") or []
    for run_number, run in enumerate(written_runs, start=1):
        kick = Card.parse(run["kick"])
        runs.append(Run(run_number, [SeatCards(seats[s], [view(c) for c in run["extra"][s]]) for s in range(players)],
                        view(kick), final.ruleset.kick_points_for(kick), run_number == len(written_runs),
                        last_card=not any(run["extra"])))

    # step through the tricks: the same deal and decisions, then the record's cards one at a time
    actions = final.actions()
    start = final.to_dict()
    start["actions"] = actions[:len(actions) - len(final.plays)]
    state = HandState.from_dict(start)
    hands_at_play = [SeatCards(seats[s], in_order(state.hand_of(s))) for s in range(players)]
    tricks: list[TrickStep] = []
    won = [0, 0]
    plays: list[tuple[int, int]] = []
    for index in final.plays:
        plays.append((state.turn, index))
        state.apply(CARD_NAMES[index])
        if len(state.tricks) > len(tricks):
            leader, cards, winner = state.tricks[-1]
            won[winner % 2] += 1
            tricks.append(TrickStep(
                number=len(tricks) + 1, leader=seats[leader],
                plays=[Play(seats[seat], view(card), seat == winner) for seat, card in plays],
                winner=seats[winner],
                hands_left=[SeatCards(seats[s], in_order(state.hand_of(s))) for s in range(players)],
                tricks_won=(won[0], won[1])))
            plays = []
    if state.result() != result:  # the engine's contract; never a traceback on the page if it were broken
        raise ReplayUnavailable(f"{where}: its step-by-step replay does not end where its record does.")

    score_before = (final.score_before[0], final.score_before[1])
    target = final.ruleset.target
    row = awards_of() if awards_of is not None else hand_row(
        cast(Hand, _RecordOnly(record, stored, number)), [], game_points)  # what hand_row reads of a Hand
    scoring = _scoring(row, result, score_before, target)
    game = result.get("game")
    return Replay(
        match=None, hand=None, players=players, seats=seats, dealt=dealt,
        kicks=[view(k) for k in final.kicks], first_kick_points=final.ruleset.kick_points_for(Card(final.kicks[0])),
        beg=final.beg, eldest=seats[final.eldest], dealer=seats[final.dealer], runs=runs,
        trump=CardView("", trump.symbol, "", trump.letter, trump.symbol, True) if trump is not None else None,
        trump_name=trump.name.lower() if trump is not None else "",
        redeal=bool(result["redeal"]), decided_before_play=not final.plays and not result["redeal"],
        hands_at_play=hands_at_play, tricks=tricks, scoring=scoring,
        score_before=(score_before[0], score_before[1]),
        score_after=(result["score_after"][0], result["score_after"][1]),
        points=(result["points"][0], result["points"][1]),
        winner=SIDE_LETTERS[result["winner"]] if result["winner"] in (0, 1) else "", target=target,
        counts=tuple(game["counts"]) if isinstance(game, dict) and game.get("counts") else None,
        notes=list(notes or []), side_names=side_names, number=number, game_number=game_number,
    )


SCORING_ORDER = (  # R23: the kick (R6) and the beg point (R8) come first, as they were scored, then R18–R22
    ("kick", "Kick", "R6"), ("beg_point", "Beg point", "R8"), ("high", "High", "R18"), ("low", "Low", "R19"),
    ("jack", "Jack", "R20"), ("game", "Game", "R22"),
)


def _scoring(row: Any, result: dict[str, Any], score_before: tuple[int, int], target: int) -> list[ScoreLine]:
    """The hand's points category by category in the order of R23 (``row``: the sheet's reading of its awards,
    ``games.scoresheet.hand_row``), each with the score after it and the line at which the winner reached the
    target (the engine's ``count_in_order``)."""
    score, points = [score_before[0], score_before[1]], [0, 0]
    winner: int | None = None
    lines = []
    played = bool(result.get("tricks"))
    for key, category, rule in SCORING_ORDER:
        awards: list[Award] = getattr(row, key)
        if key in ("kick", "beg_point") and not awards:
            continue  # no kick points, no beg point: nothing to say
        if key not in ("kick", "beg_point") and not played:
            continue  # no card was played (a redeal, or the game was decided by a kick or the beg point)
        detail = _detail(key, result)
        if key == "jack" and isinstance(result.get("jack"), dict) and result["jack"].get("hang"):
            category, rule = "Hang Jack", "R21"
        if not awards:
            lines.append(ScoreLine(category, rule, detail or "nobody", "", 0, (score[0], score[1]), False))
            continue
        for award in awards:
            team = 0 if award.side == "a" else 1 if award.side == "b" else None
            reached = False
            if team is not None and award.points:
                before = winner
                winner = count_in_order(score, points, ((team, award.points),), target, winner)
                reached = before is None and winner is not None
            lines.append(ScoreLine(category, rule, detail or award.note, award.letter, award.points,
                                   (score[0], score[1]), reached))
    return lines


def _detail(key: str, result: dict[str, Any]) -> str:
    value = result.get(key)
    if key in ("high", "low") and isinstance(value, dict):
        return f"{card_label(value.get('card'))}, dealt to side {SIDE_LETTERS[value['team']]}"
    if key == "jack" and value is None:
        return "the jack of trumps was not dealt"
    if key == "jack" and isinstance(value, dict):
        if value.get("hang"):
            return f"hanged: taken by side {SIDE_LETTERS[value['team']]}"
        return f"held and kept by side {SIDE_LETTERS[value['team']]}"
    if key == "game" and isinstance(value, dict) and value.get("counts"):
        counts = value["counts"]
        if value.get("team") is None:
            return f"counts {counts[0]} – {counts[1]}: a tie, nobody scores"
        return f"counts {counts[0]} – {counts[1]}"
    if key == "kick":
        return "to the dealer's side"
    if key == "beg_point":
        return "the dealer gave one"
    return ""
