"""The web benchmark's bulk-built league: engine-scored game scripts and a round robin of partnerships stored with
the ORM, every total being what ``settle_match`` computes from the hands ((3) the standings page, (4) the worker's
memory)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.support.entries import RULESET


@dataclass
class GameScript:
    """A game as the engine scored it: (dealer, chalk entry, result) per hand, from ``first_dealer``."""

    first_dealer: int
    hands: list[tuple[int, dict[str, Any], dict[str, Any]]]
    next_dealer: int

    @property
    def winner(self) -> str:
        return "ab"[self.hands[-1][2]["winner"]]

    @property
    def score(self) -> tuple[int, int]:
        after = self.hands[-1][2]["score_after"]
        return after[0], after[1]

    @property
    def hang_jacks(self) -> tuple[int, int]:
        hang = [0, 0]
        for _, _, result in self.hands:
            if result["jack"] and result["jack"]["hang"]:
                hang[result["jack"]["team"]] += 1
        return hang[0], hang[1]


NON_SCORING_RANKS = "2345789TQK"


def random_chalk(rng: random.Random) -> dict[str, Any]:
    """A plausible chalk entry: mostly non-scoring kicks (sometimes an Ace or a Six), stands and gives,
    High and Low always, Jack in most hands (sometimes hanged), Game (sometimes tied)."""
    suit = rng.choice("CDHS")
    roll = rng.random()
    rank = "A" if roll < 0.08 else ("6" if roll < 0.12 else rng.choice(NON_SCORING_RANKS))
    entry: dict[str, Any] = {"kicks": [rank + suit], "beg": "stand" if rng.random() < 0.65 else "give",
                             "high": {"team": rng.randrange(2)}, "low": {"team": rng.randrange(2)}}
    if rng.random() < 0.7:
        entry["jack"] = {"team": rng.randrange(2), "hang": rng.random() < 0.12}
    entry["game"] = {"team": None if rng.random() < 0.05 else rng.randrange(2)}
    return entry


def play_script(first_dealer: int, rng: random.Random) -> GameScript:
    """One game to 14 scored hand by hand by the engine (``score_chalk``), the deal passing by ``next_dealer``."""
    from engine import RecordError, score_chalk
    from engine.game import next_dealer

    dealer, score, hands = first_dealer, [0, 0], []
    while True:
        context = {"players": 4, "dealer": dealer, "score_before": score, "ruleset": RULESET}
        entry = random_chalk(rng)
        attempts = [entry, {"kicks": entry["kicks"]}, {**entry, "beg": "stand"}]  # a winning kick ends the hand
        for entry in attempts:
            try:
                result = score_chalk({**entry, **context})
                break
            except RecordError:  # e.g. a give the rules do not allow here
                continue
        else:
            continue
        hands.append((dealer, entry, result))
        score = list(result["score_after"])
        dealer = next_dealer(4, dealer, result)
        if result["winner"] is not None:
            return GameScript(first_dealer, hands, dealer)


def game_scripts(seed: int = 1, per_bucket: int = 4) -> dict[tuple[int, str], list[GameScript]]:
    """``per_bucket`` engine-scored games for each first dealer (0-3) and winner ("a"/"b")."""
    rng = random.Random(f"scripts:{seed}")
    buckets: dict[tuple[int, str], list[GameScript]] = {(d, w): [] for d in range(4) for w in "ab"}
    while any(len(scripts) < per_bucket for scripts in buckets.values()):
        for dealer in range(4):
            script = play_script(dealer, rng)
            if len(buckets[(dealer, script.winner)]) < per_bucket:
                buckets[(dealer, script.winner)].append(script)
    return buckets


def round_robin(n: int) -> list[list[tuple[int, int]]]:
    """The circle method: n-1 rounds in which each of ``n`` (even) entrants plays once; sides alternate."""
    order = list(range(n))
    rounds = []
    for r in range(n - 1):
        pairs = [(order[i], order[n - 1 - i]) for i in range(n // 2)]
        rounds.append([(b, a) if (r + i) % 2 else (a, b) for i, (a, b) in enumerate(pairs)])
        order = [order[0], order[-1], *order[1:-1]]
    return rounds


def build_league(partnerships: int = 64, matches: int = 2_000, *, seed: int = 1, slug: str = "bench-league",
                 match_games: int = 5, scripts: dict[tuple[int, str], list[GameScript]] | None = None,
                 chunk: int = 250, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """A published best-of-``match_games`` league bulk-created with the ORM (best of 5 by default: ~4 games
    of ~6 hands a match, so 2,000 matches hold ~50,000 hands): a round robin of ``partnerships`` pairs cut at
    ``matches`` matches, ~96% complete, ~2.5% in progress (one game won, the next part-played), the rest
    scheduled. Games are engine-scored scripts (``game_scripts``) picked by first dealer and winner (the
    stronger pair wins more often), so every stored total is what ``settle_match`` computes from the hands:
    game scores and hang jacks, winners, next dealers, match results, versions; each hand has its version 1.
    Returns the competition and the counts."""
    from django.db import transaction

    from draw.models import Round
    from engine.game import next_dealer
    from games.models import Game, Hand, HandVersion, Match
    from league.models import Club, Competition, Entry, Partnership, Player

    rng = random.Random(f"league:{seed}")
    scripts = scripts or game_scripts(seed)
    with transaction.atomic():
        club = Club.objects.create(name=f"League Club {slug}", slug=f"club-{slug}", town="San Fernando")
        competition = Competition.objects.create(club=club, name=f"League {slug}", slug=slug, season="2025",
                                                 players=4, ruleset=RULESET, match_format=Competition.BEST_OF,
                                                 match_games=match_games, published=True)
        players = Player.objects.bulk_create(
            Player(name=f"League Player {i:03d}", nickname=f"P{i}", home_club=club) for i in range(2 * partnerships))
        pairs = Partnership.objects.bulk_create(  # every other pair unnamed: shown by its players' names
            Partnership(name=f"League Pair {i:02d}" if i % 2 else "", player_one=players[2 * i],
                        player_two=players[2 * i + 1], club=club) for i in range(partnerships))
        Entry.objects.bulk_create(Entry(competition=competition, partnership=pair, seed=i + 1)
                                  for i, pair in enumerate(pairs))
        schedule = [(r, a, b) for r, pairings in enumerate(round_robin(partnerships)) for a, b in pairings][:matches]
        rounds = Round.objects.bulk_create(Round(competition=competition, number=r + 1)
                                           for r in range(schedule[-1][0] + 1 if schedule else 0))
    strength = [rng.lognormvariate(0, 0.4) for _ in pairs]
    needed = competition.games_to_win()
    in_progress = -(-matches * 25 // 1000) if matches >= 10 else 0  # 2.5%, 1% scheduled (rounded up)
    scheduled = -(-matches // 100) if matches >= 10 else 0
    complete = max(0, matches - in_progress - scheduled)
    counts = {"matches": 0, "games": 0, "hands": 0}
    for start in range(0, len(schedule), chunk):
        with transaction.atomic():
            plans = []
            for index in range(start, min(start + chunk, len(schedule))):
                r, a, b = schedule[index]
                kind = "complete" if index < complete else ("in_progress" if index < complete + in_progress
                                                            else "scheduled")
                plans.append(_plan_match(kind, index % 4, strength[a] / (strength[a] + strength[b]), needed,
                                         scripts, rng) + (r, a, b))
            objects = []
            for _kind, first_dealer, games, partial, r, a, b in plans:
                wins = [g.winner for g in games]
                winner = next((s for s in "ab" if wins.count(s) >= needed), "")
                hands = sum(len(g.hands) for g in games) + len(partial)
                status = Match.COMPLETE if winner else (Match.IN_PROGRESS if hands else Match.SCHEDULED)
                chalks, hang = _match_totals(games, partial)
                objects.append(Match(
                    competition=competition, round=rounds[r], side_a=pairs[a], side_b=pairs[b],
                    side_a_name=pairs[a].display_name, side_b_name=pairs[b].display_name,
                    table=str(index % 32 + 1), first_dealer=first_dealer, status=status,
                    games_a=wins.count("a"), games_b=wins.count("b"), winner=winner,
                    chalks_a=chalks[0], chalks_b=chalks[1], hang_jacks_a=hang[0], hang_jacks_b=hang[1],
                    version=hands, settled_version=hands))
            stored = Match.objects.bulk_create(objects, batch_size=500)
            game_rows, hand_specs = [], []
            for match, (_kind, _first, games, partial, *_rest) in zip(stored, plans, strict=True):
                for number, script in enumerate(games, start=1):
                    game_rows.append(Game(match=match, number=number, first_dealer=script.first_dealer,
                                          score_a=script.score[0], score_b=script.score[1],
                                          hang_jacks_a=script.hang_jacks[0], hang_jacks_b=script.hang_jacks[1],
                                          winner=script.winner, next_dealer=script.next_dealer,
                                          hands_counted=len(script.hands)))
                    hand_specs.append(script.hands)
                if partial:
                    after = partial[-1][2]["score_after"]
                    hang = GameScript(games[-1].next_dealer, partial, 0).hang_jacks
                    game_rows.append(Game(match=match, number=len(games) + 1, first_dealer=games[-1].next_dealer,
                                          score_a=after[0], score_b=after[1], hang_jacks_a=hang[0],
                                          hang_jacks_b=hang[1], winner="",
                                          next_dealer=next_dealer(4, partial[-1][0], partial[-1][2]),
                                          hands_counted=len(partial)))
                    hand_specs.append(partial)
            stored_games = Game.objects.bulk_create(game_rows, batch_size=1_000)
            hand_rows = []
            for game, hands in zip(stored_games, hand_specs, strict=True):
                for number, (dealer, entry, result) in enumerate(hands, start=1):
                    hand_rows.append(Hand(game=game, number=number, mode=Hand.CHALK, dealer=dealer, entry=entry,
                                          result=result, points_a=result["points"][0], points_b=result["points"][1],
                                          score_a_after=result["score_after"][0],
                                          score_b_after=result["score_after"][1], entered_by="scorekeeper link"))
            stored_hands = Hand.objects.bulk_create(hand_rows, batch_size=1_000)
            HandVersion.objects.bulk_create(
                (HandVersion(hand=hand, version=1, mode=hand.mode, entry=hand.entry, result=hand.result,
                             author_label=hand.entered_by) for hand in stored_hands), batch_size=1_000)
        counts["matches"] += len(stored)
        counts["games"] += len(stored_games)
        counts["hands"] += len(stored_hands)
        if progress is not None:
            progress(f"    {counts['matches']:,} matches, {counts['games']:,} games, {counts['hands']:,} hands")
    return {"competition": competition, "club": club, **counts}


def _match_totals(games: list[GameScript], partial: list[tuple[int, dict, dict]]) -> tuple[list[int], list[int]]:
    """Chalks and hang jacks over the match's games, as ``settle_match`` keeps them on the match."""
    chalks = [sum(g.score[side] for g in games) for side in (0, 1)]
    hang = [sum(g.hang_jacks[side] for g in games) for side in (0, 1)]
    if partial:
        after = partial[-1][2]["score_after"]
        part_hang = GameScript(0, partial, 0).hang_jacks
        chalks = [chalks[side] + after[side] for side in (0, 1)]
        hang = [hang[side] + part_hang[side] for side in (0, 1)]
    return chalks, hang


def _plan_match(kind: str, first_dealer: int, p_a: float, needed: int, scripts: dict[tuple[int, str], list[GameScript]],
                rng: random.Random) -> tuple[str, int, list[GameScript], list[tuple[int, dict, dict]]]:
    """(kind, first dealer, the games won in order, the hands of the unfinished game): a complete match plays
    games until a side has won ``needed`` (side A winning each with probability ``p_a``); one in progress has
    one game won and 1-5 hands of the next (fewer than it takes to win it); a scheduled one nothing."""
    games: list[GameScript] = []
    dealer = first_dealer
    while kind != "scheduled" and not (kind == "in_progress" and games):
        script = rng.choice(scripts[(dealer, "a" if rng.random() < p_a else "b")])
        games.append(script)
        dealer = script.next_dealer
        if kind == "complete" and max(sum(g.winner == s for g in games) for s in "ab") >= needed:
            break
    partial: list[tuple[int, dict, dict]] = []
    if kind == "in_progress":
        script = rng.choice(scripts[(dealer, rng.choice("ab"))])
        partial = script.hands[:min(rng.randint(1, 5), len(script.hands) - 1)]
    return kind, first_dealer, games, partial

