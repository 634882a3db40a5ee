"""``python -m engine play``: a whole game between a person and bots over plain text streams — the
table told in words, the choices numbered, a card or a word typed.

>>> from engine.actions import Action
>>> legal = [Action.parse("stand"), Action.parse("beg")]
>>> parse_choice("2", legal), parse_choice("Stand", legal), parse_choice("s", legal)
(Action('beg'), Action('stand'), Action('stand'))
>>> parse_choice("7", legal)
Traceback (most recent call last):
...
engine.cli.play.ChoiceError: there is no choice 7; choose 1 to 2
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

from engine.cli.common import EXIT_OK, CliError, is_terminal, ruleset_option
from engine.words import seat as seat_name
from engine.words import seat_index_range

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.game import GameState
    from engine.hand import HandState
    from engine.seat_view import SeatView


class ChoiceError(ValueError):
    """Input at the ``play`` prompt that is not a legal choice; the message says why."""


def cmd_play(args: argparse.Namespace) -> int:
    from engine.bots import make_bot
    from engine.errors import EngineError
    from engine.game import GameState

    if args.seat >= args.players:
        raise CliError(f"--seat: must be {seat_index_range(args.players)}, got {args.seat}")
    try:
        bot = make_bot(args.bot)
    except EngineError as error:
        raise CliError(str(error)) from None
    ruleset = ruleset_option(args.ruleset, args.target)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    game = GameState.new(players=args.players, ruleset=ruleset, seed=seed)
    out = sys.stdout
    session = PlaySession(
        game, human=args.seat, bot=bot, bot_name=args.bot, rng=random.Random(f"{seed}:play"),
        stdin=sys.stdin, stdout=out, symbols=_can_encode(out, "♠♥♦♣"),
        color=is_terminal(out) and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb",
        echo=not is_terminal(sys.stdin),
    )
    return session.run()


def _can_encode(stream: IO[str], text: str) -> bool:
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


WORDS = {"s": "stand", "b": "beg", "g": "give", "r": "run", "give one": "give", "run the pack": "run"}
HELP = """\
  Choose by the number shown, or type a card: rank 2-9, T or 10, J, Q, K, A, then suit C, D, H, S
  (e.g. TD, 10d, js). Before play: stand (s) or beg (b); as dealer after a beg: give (g) or run (r).
  Cards without a number cannot be played now. 'quit' leaves the game."""


def parse_choice(text: str, legal: Sequence[Action], why_illegal: Callable[[Action], str | None] | None = None
                 ) -> Action:
    """The action meant by ``text`` at a prompt with numbered ``legal`` choices, or ``ChoiceError``."""
    from engine.actions import Action
    from engine.errors import EngineError

    word = " ".join(text.split()).lower()
    if not word:
        raise ChoiceError(f"please choose 1 to {len(legal)}, or type a card" if legal else "nothing to choose")
    if word.isascii() and word.isdigit() and len(word) <= 100:  # not "²", which int() refuses
        number = int(word)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        raise ChoiceError(f"there is no choice {number}; choose 1 to {len(legal)}")
    word = WORDS.get(word, word)
    try:
        action = Action.parse(word)
    except EngineError:
        raise ChoiceError(f"{text.strip()!r} is not a choice: type a number from 1 to {len(legal)}, a card "
                          "such as TD or 10d, or 'help'") from None
    if action in legal:
        return action
    reason = why_illegal(action) if why_illegal else None
    raise ChoiceError(f"{action} is not allowed now: {reason}" if reason else f"{action} is not allowed now")


class _EndOfInput(Exception):
    pass


class _Quit(Exception):
    pass


class PlaySession:
    """A game between one person and bots over plain text streams (a terminal, or a test's pipes)."""

    def __init__(self, game: GameState, human: int, bot: Any, bot_name: str, rng: random.Random,
                 stdin: IO[str], stdout: IO[str], symbols: bool = True, color: bool = False,
                 echo: bool = False) -> None:
        self.game = game
        self.human = human
        self.bot = bot
        self.bot_name = bot_name
        self.rng = rng
        self.stdin = stdin
        self.stdout = stdout
        self.symbols = symbols
        self.color = color
        self.echo = echo
        self.players = game.players
        self.current: HandState | None = None
        self.hands_over = 0

    # ------------------------------------------------------------ text
    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def card(self, index: int) -> str:
        from engine.cards import CARD_NAMES, CARDS

        return CARDS[index].symbol if self.symbols else CARD_NAMES[index]

    def suit(self, suit: int) -> str:
        from engine.cards import SUIT_LETTERS, SUIT_SYMBOLS

        return (SUIT_SYMBOLS if self.symbols else SUIT_LETTERS)[suit]

    def dim(self, text: str) -> str:
        return f"\x1b[2m{text}\x1b[0m" if self.color else text

    def bold(self, text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if self.color else text

    def who(self, seat: int) -> str:
        if seat == self.human:
            return "You"
        if self.players == 4 and seat % 2 == self.human % 2:
            return f"{seat_name(seat, capital=True)} (partner)"
        return f"{seat_name(seat, capital=True)} (opponent)"

    def does(self, seat: int, verb: str) -> str:
        """``You play`` / ``Seat 1 (opponent) plays``."""
        return f"{self.who(seat)} {verb if seat == self.human else verb + 's'}"

    def team(self, team: int) -> str:
        if self.players == 2:
            return "you" if team == self.human % 2 else "your opponent"
        return "your team" if team == self.human % 2 else "their team"

    def scores(self, team: int, points: int) -> str:
        """``you score 1`` / ``their team scores 3``."""
        name = self.team(team)
        return f"{name} score{'' if name == 'you' else 's'} {points}"

    def score_line(self, score: Sequence[int]) -> str:
        us = self.human % 2
        target = self.game.ruleset.target
        return f"Score: {self.team(us)} {score[us]}, {self.team(1 - us)} {score[1 - us]} (game to {target})"

    def trick_text(self, leader: int, cards: Sequence[int]) -> str:
        return ", ".join(f"{self.who((leader + i) % self.players)} {self.card(c)}" for i, c in enumerate(cards))

    # ------------------------------------------------------------ the game
    def run(self) -> int:
        game = self.game
        self.say(f"All Fours, {self.players} players, game to {game.ruleset.target}. You are {seat_name(self.human)}"
                 + (f", your partner is {seat_name((self.human + 2) % 4)}." if self.players == 4 else ".")
                 + f" Bots: {self.bot_name}. Seed {game.seed}. Type 'help' at a prompt for help.")
        try:
            while not game.is_over:
                if game.hand is not self.current:
                    self.current = game.hand
                    self.hand_header(game.hand)
                seat = game.turn
                if not game.legal_actions():  # a first deal whose kick already decided the game
                    self.show_result(game.hand.result())
                    break
                assert seat is not None  # a seat is to act while there are legal actions
                if seat == self.human:
                    action = self.ask()
                else:
                    action = self.bot.choose(game.seat_view(seat), self.rng)
                self.apply(seat, action)
            self.game_over()
        except _EndOfInput:
            self.say("\nEnd of input: game abandoned.")
        except _Quit:
            self.say("Game abandoned.")
        self.stdout.flush()
        return EXIT_OK

    def hand_header(self, hand: HandState) -> None:
        number = len(self.game.history) + 1
        self.say("")
        self.say(self.bold(f"=== Hand {number}: {self.who(hand.dealer)} deal"
                           f"{'' if hand.dealer == self.human else 's'}; "
                           f"{self.who(hand.eldest)} {'are' if hand.eldest == self.human else 'is'} eldest ==="))
        self.announce_kicks(hand, 0)

    def announce_kicks(self, hand: HandState, start: int, stop: int | None = None) -> None:
        dealer_team = hand.dealer % 2
        for kick in hand.kicks[start:stop]:
            points = hand.ruleset.kick_points[kick % 13]
            gain = f": {self.scores(dealer_team, points)}" if points else ""
            self.say(f"Kicked {self.card(kick)}{gain}.")

    def apply(self, seat: int, action: Action) -> None:
        from engine.actions import OVER

        game = self.game
        hand = game.hand
        kicks, tricks = len(hand.kicks), len(hand.tricks)
        kind = action.kind
        if kind == "play":
            assert action.card is not None  # a play has its card
            self.say(f"{self.does(seat, 'play')} {self.card(action.card.index)}.")
        elif kind == "stand":
            self.say(f"{self.does(seat, 'stand')}: {self.suit(hand.kicks[-1] // 13)} is trump.")
        elif kind == "beg":
            self.say(f"{self.does(seat, 'beg')}.")
        elif kind == "give":
            self.say(f"{self.does(seat, 'give')} one: {self.scores(hand.eldest % 2, 1)}, "
                     f"{self.suit(hand.kicks[-1] // 13)} stays trump.")
        else:
            self.say(f"{self.does(seat, 'run')} the pack: 3 more cards each.")
        result = game.apply(action, seat)
        if kind == "run":
            runs_end = len(hand.kicks) - hand.last_kick
            self.announce_kicks(hand, kicks, runs_end)
            if hand.last_kick:
                self.say("The pack cannot supply another round: its last card is kicked.")
                self.announce_kicks(hand, runs_end)
            if hand.trump >= 0 and hand.winner is None:  # a kick that won the game: show_result names trumps
                self.say(f"{self.suit(hand.trump)} is trump; hands of {hand.hand_size} cards.")
            elif hand.redeal:
                self.say("The pack cannot be run again: the same dealer deals a new hand.")
        if len(hand.tricks) > tricks:
            leader, cards, winner = hand.tricks[-1]
            self.say(f"  Trick {len(hand.tricks)}: {self.trick_text(leader, cards)} -> "
                     f"{self.does(winner, 'win')}.")
        if result is None:
            return
        self.show_result(result.to_dict())
        if game.hand is not hand:
            self.current = game.hand
            self.hand_header(game.hand)
            if game.hand.phase == OVER and game.last_result is not None:
                self.show_result(game.last_result.to_dict())

    def show_result(self, result: dict[str, Any]) -> None:
        self.hands_over += 1
        say = self.say
        say(self.bold("--- Hand over ---"))
        if result.get("redeal"):
            say("  Redeal: the pack ran out while the begged suit kept turning up.")
        elif not result.get("tricks"):
            say("  No card was played: the game was decided before play.")
            if result.get("trump") is not None:
                say(f"  Trump {self.suit('CDHS'.index(result['trump']))}.")
        else:
            say(f"  Trump {self.suit('CDHS'.index(result['trump']))}.")
            for name in ("high", "low"):
                item = result.get(name)
                if item:
                    say(f"  {name.title():<5} {self.card(_index(item['card']))}: {self.team(item['team'])} +1")
            jack = result.get("jack")
            if jack:
                hanged = "hang jack! " if jack.get("hang") else ""
                say(f"  Jack  {hanged}{self.team(jack['team'])} +{jack['points']}")
            else:
                say("  Jack  not won by anyone (not dealt, or kicked)")
            game = result.get("game")
            if game:
                counts = game["counts"]
                us = self.human % 2
                who = f"{self.team(game['team'])} +{self.game.ruleset.game_points}" \
                    if game["team"] is not None else "tie, nobody scores"
                say(f"  Game  {self.team(us)} {counts[us]}, {self.team(1 - us)} {counts[1 - us]}: {who}")
        for label, key in (("Kick points", "kick_points"), ("Beg point", "beg_points")):
            pts = result.get(key) or [0, 0]
            if any(pts):
                say(f"  {label}: " + ", ".join(f"{self.team(t)} {pts[t]}" for t in (0, 1) if pts[t]))
        points = result.get("points") or [0, 0]
        us = self.human % 2
        say(f"  This hand: {self.team(us)} +{points[us]}, {self.team(1 - us)} +{points[1 - us]}. "
            + self.score_line(result.get("score_after") or self.game.score))

    def game_over(self) -> None:
        game = self.game
        winner = game.winner if game.winner is not None else game.hand.winner
        score = game.hand.score
        us = self.human % 2
        self.say("")
        if winner is None:
            self.say(self.bold("=== Game over: no winner ==="))
            return
        verdict = ("You win" if self.players == 2 else "Your team wins") if winner == us else \
            ("Your opponent wins" if self.players == 2 else "Their team wins")
        self.say(self.bold(f"=== Game over: {verdict} {score[winner]} to {score[1 - winner]} "
                           f"after {self.hands_over} hand{'s' if self.hands_over != 1 else ''} ==="))
        self.say(f"(replay this game with --seed {game.seed})")

    # ------------------------------------------------------------ the person's turn
    def ask(self) -> Action:
        from engine.cards import SUIT_MASKS

        game = self.game
        hand = game.hand
        view = game.seat_view(self.human)
        legal = list(view.legal)
        self.status(view)
        cards = self.sorted_cards(view.hand, view.trump if view.trump >= 0 else view.kicks[-1] // 13)
        if view.phase == "play":
            choices = [a for i in cards for a in legal if a.card is not None and a.card.index == i]
            playable = {a.card.index for a in choices if a.card is not None}
            parts = []
            number = 0
            for index in cards:
                if index in playable:
                    number += 1
                    parts.append(f"{number}) {self.bold(self.card(index))}")
                else:
                    parts.append(self.dim("   " + self.card(index)))
            self.say("Your hand: " + "  ".join(parts))
            if len(choices) < len(cards):
                self.say(self.dim("  (cards without a number cannot be played now)"))
            prompt = f"Play a card [{_span(len(choices))} or e.g. {self._example(choices)}]: "
        else:
            choices = legal
            self.say("Your hand: " + " ".join(self.card(i) for i in cards))
            kick = view.kicks[-1]
            if view.phase == "beg":
                self.say(f"Kicked {self.card(kick)}: {self.suit(kick // 13)} is proposed as trump.")
                labels = {"stand": f"stand ({self.suit(kick // 13)} is trump)",
                          "beg": "beg (the dealer gives you one point or runs the pack)"}
                why = hand.can_stand()
                if why is not None:
                    self.say(f"  You may not stand: {why}.")
            else:
                trumps = view.hand & SUIT_MASKS[view.begged]
                count = trumps.bit_count()
                self.say(f"{self.who(hand.eldest)} begged. You hold {count} card{'' if count == 1 else 's'} of "
                         f"{self.suit(view.begged)}, the begged suit.")
                labels = {"give": f"give one ({self.scores(hand.eldest % 2, 1)}, "
                                  f"{self.suit(view.begged)} stays trump)",
                          "run": "run the pack (3 more cards each, a new kick)"}
                why = hand.can_give()
                if why is not None:
                    self.say(f"  You may not give one: {why}.")
            self.say("  " + "   ".join(f"{n}) {labels[a.kind]}" for n, a in enumerate(choices, 1)))
            prompt = f"Your choice [{_span(len(choices))}]: "
        while True:
            text = self.read(prompt)
            word = text.strip().lower()
            if word in ("q", "quit", "exit"):
                raise _Quit
            if word in ("?", "h", "help"):
                self.say(HELP)
                continue
            try:
                return parse_choice(text, choices, lambda a: hand.why_illegal(a, self.human))
            except ChoiceError as error:
                self.say(f"  {error}")

    def status(self, view: SeatView) -> None:
        hand = self.game.hand
        trump = f"trump {self.suit(view.trump)}" if view.trump >= 0 else "trump not settled"
        kicks = " ".join(self.card(k) for k in view.kicks)
        self.say("")
        self.say(f"{self.score_line(view.score)} | {trump} | kicked {kicks} | dealer {self.who(hand.dealer)}")
        if view.tricks:
            leader, cards, winner = view.tricks[-1]
            self.say(f"Last trick: {self.trick_text(leader, cards)} -> {self.does(winner, 'win')}")
        elif view.phase == "play":
            self.say("Last trick: none yet")
        if view.phase == "play":
            if view.trick:
                self.say(f"This trick: {self.trick_text(view.leader, view.trick)}")
            else:
                self.say("You lead this trick.")

    def sorted_cards(self, mask: int, trump: int) -> list[int]:
        """The cards of ``mask``: trumps first, then the other suits, each high to low."""
        from engine.cards import bits

        order = [trump] + [s for s in (3, 2, 1, 0) if s != trump]
        return sorted(bits(mask), key=lambda i: (order.index(i // 13), -i))

    def _example(self, choices: Sequence[Action]) -> str:
        from engine.cards import CARD_NAMES

        return CARD_NAMES[choices[0].card.index] if choices and choices[0].card is not None else "TD"

    def read(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise _EndOfInput
        if self.echo:
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        return line


def _span(count: int) -> str:
    return "1" if count == 1 else f"1-{count}"


def _index(name: str) -> int:
    from engine.cards import parse_card_index

    return parse_card_index(name)
