"""A scorekeeper's chalk entries: whole matches entered hand by hand through ``POST /api/matches/{id}/hands/``
(the web, resilience and live pages benchmarks), and the competition of matches between distinct pairs they enter."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

RULESET = {"target": 14}


def chalk(high: int, low: int, jack: int, game: int) -> dict[str, Any]:
    """A stand on a non-scoring kick (5C) with High, Low, Jack and Game to the teams given (0 = side A)."""
    return {"kicks": ["5C"], "beg": "stand", "high": {"team": high}, "low": {"team": low},
            "jack": {"team": jack}, "game": {"team": game}}


def game_entries(winner: str) -> list[dict[str, Any]]:
    """Six hands in which side ``winner`` ("a"/"b") reaches 14 on the last one and the other side 10:
    3-1, 2-2, 3-1, 1-3, 3-1, 2-2 (winner's chalks first), so every hand scores for both sides."""
    w = 0 if winner == "a" else 1
    o = 1 - w
    splits = [(w, o, w, w), (w, w, o, o), (w, o, w, w), (o, w, o, o), (w, o, w, w), (w, w, o, o)]
    return [chalk(*split) for split in splits]


MATCH_WINNERS = (("a", "b", "a"), ("b", "b"), ("a", "a"), ("b", "a", "b"))


def match_winners(index: int) -> tuple[str, ...]:
    """The games' winners of the ``index``-th scorekeeper's match (2 or 3 games, either side winning)."""
    return MATCH_WINNERS[index % len(MATCH_WINNERS)]


@dataclass
class EntryMatch:
    id: int
    token: str
    side_a: int
    side_b: int


@dataclass
class EntryRun:
    """What one scorekeeper did: POSTs sent, 201s received, latencies (s), errors, games finished."""

    match_id: int
    sent: int = 0
    ok: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    chalks: tuple[int, int] = (0, 0)


Post = Callable[[str, Any, dict[str, str]], tuple[int, bytes]]


def enter_match(post: Post, match: EntryMatch, winners: tuple[str, ...], *,
                expect: Callable[[int, int, int, int, float], None] | None = None,
                wait_settled: Callable[[int, int], bool] | None = None, think: float = 0.0) -> EntryRun:
    """Enter a whole match hand by hand through ``post``: the next hand's number is read from each 201
    (the hand after it, or hand 1 of the next game once the game is won). ``expect`` is told of each
    committed hand (match, version, side A's and side B's chalks over the match, time of the 201);
    after a game-winning hand ``wait_settled`` waits for the settle task, since the next game opens then.
    ``think``: seconds between a 201 and the next POST (0: as fast as the server answers)."""
    run = EntryRun(match.id)
    path = f"/api/matches/{match.id}/hands/"
    headers = {"X-Entry-Token": match.token}
    number, version, done = 1, 0, [0, 0]
    for game_number, winner in enumerate(winners, start=1):
        for entry in game_entries(winner):
            if think and run.sent:
                time.sleep(think)
            started = time.perf_counter()
            try:
                status, body = post(path, {"number": number, "mode": "chalk", "entry": entry}, headers)
            except Exception as error:  # a transport failure is an error of the run, not of the benchmark
                run.sent += 1
                run.errors.append(f"match {match.id} game {game_number} hand {number}: {error!r}")
                return run
            committed_at = time.perf_counter()
            run.sent += 1
            run.latencies.append(committed_at - started)
            if status != 201:
                run.errors.append(f"match {match.id} game {game_number} hand {number}: HTTP {status} "
                                  f"{body[:300].decode(errors='replace')}")
                return run
            run.ok += 1
            version += 1
            hand = json.loads(body)
            score = (hand["score_a_after"], hand["score_b_after"])
            run.chalks = (done[0] + score[0], done[1] + score[1])
            if expect is not None:
                expect(match.id, version, run.chalks[0], run.chalks[1], committed_at)
            if hand["result"]["winner"] is not None:
                won = "ab"[hand["result"]["winner"]]
                run.games.append(won)
                if won != winner:
                    run.errors.append(f"match {match.id} game {game_number}: won by {won}, expected {winner}")
                    return run
                done = [done[0] + score[0], done[1] + score[1]]
                number = 1
                if game_number < len(winners) and wait_settled is not None and not wait_settled(match.id, version):
                    run.errors.append(f"match {match.id}: game {game_number} was not settled in time")
                    return run
                break
            number = hand["number"] + 1
        else:
            run.errors.append(f"match {match.id} game {game_number}: not won after {len(game_entries(winner))} hands")
            return run
    return run




def build_entry_competition(matches: int, *, slug: str = "bench-entry") -> tuple[Any, list[EntryMatch]]:
    """A published best-of-3 competition of ``matches`` matches between distinct pairs (so each standings row
    belongs to one match), each with its own private entry token."""
    from games.models import Match
    from league.models import Club, Competition, Entry, Partnership, Player

    club = Club.objects.create(name=f"Entry Club {slug}", slug=f"club-{slug}", town="Arima")
    competition = Competition.objects.create(club=club, name=f"Entry Cup {slug}", slug=slug, season="2025",
                                             players=4, ruleset=RULESET, match_format=Competition.BEST_OF,
                                             match_games=3, published=True)
    players = Player.objects.bulk_create(Player(name=f"Entry Player {slug} {i:03d}", home_club=club)
                                         for i in range(4 * matches))
    pairs = Partnership.objects.bulk_create(
        Partnership(name=f"Entry Pair {i:03d}", player_one=players[2 * i], player_two=players[2 * i + 1], club=club)
        for i in range(2 * matches))
    Entry.objects.bulk_create(Entry(competition=competition, partnership=pair) for pair in pairs)
    created = []
    for i in range(matches):
        a, b = pairs[2 * i], pairs[2 * i + 1]
        match = Match.objects.create(competition=competition, side_a=a, side_b=b, side_a_name=a.name,
                                     side_b_name=b.name, first_dealer=i % 4, table=str(i + 1))
        created.append(EntryMatch(match.pk, match.entry_token, a.pk, b.pk))
    return competition, created
