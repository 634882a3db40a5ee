"""The scoresheet's games as HTML sections, each kept in the cache under what it shows.

A live scoresheet (``live``) is rendered again for every hand entered, and a long match has many games: rendering
them all each time cost a 50-hand match's sheet most of its time (``bench/bench_live.py``). A game's section is
kept under a key made of everything it shows — the game's own fields, how many hands it has and when the last of
them changed (every change of a hand, entered, corrected, rescored, struck out, saves it with ``updated_at``), the
sums of their versions and running scores (a change seen even if a process's clock were behind another's), the
seat and side names, whether the reader gets the Correct links, and the template's own text — so a hand renders
only its own game again, and the other ASGI processes find it done (the cache is Redis when ``REDIS_URL`` is set).
A key that no longer matches is never read again; it expires.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db.models import Count, F, Max, Sum
from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString, mark_safe

from games.models import Game, Hand, Match
from games.scoresheet import GameSheet, game_won_by, hand_row, seat_names

SECTION_TEMPLATE = "games/_sheet_game.html"
KEPT_FOR = 24 * 3600
SHOWN_GAME_FIELDS = ("number", "winner", "score_a", "score_b", "scores_known", "entered", "hang_jacks_a",
                     "hang_jacks_b", "hands_counted")
_template_digest: str | None = None


def sheet_sections(match: Match, *, can_enter: bool) -> list[SafeString]:
    """The HTML section of each of the match's games, in order: from the cache where the game has not changed,
    rendered (in two queries for all the others) where it has."""
    games = list(Game.objects.filter(match=match).order_by("number").annotate(
        hand_count=Count("hands"), hands_changed=Max("hands__updated_at"), hand_versions=Sum("hands__version"),
        hand_scores=Sum(F("hands__score_a_after") * 1000 + F("hands__score_b_after"))))
    names = seat_names(match, match.competition.players)
    keys = {game.pk: _key(match, game, names, can_enter) for game in games}
    kept = cache.get_many(list(keys.values()))
    missing = [game for game in games if keys[game.pk] not in kept]
    made = _render(match, missing, names, can_enter)
    if made:
        cache.set_many({keys[pk]: html for pk, html in made.items()}, KEPT_FOR)
    return [mark_safe(made.get(game.pk) or kept[keys[game.pk]]) for game in games]


def _render(match: Match, games: Sequence[Game], names: list[str], can_enter: bool) -> dict[int, str]:
    if not games:
        return {}
    hands = defaultdict(list)
    for hand in Hand.objects.filter(game__in=games).order_by("number").prefetch_related("versions"):
        hands[hand.game_id].append(hand)
    game_points = match.competition.engine_ruleset().game_points
    made: dict[int, str] = {}
    for game in games:
        game.match = match
        rows = [hand_row(hand, names, game_points, game_won_by(hand)) for hand in hands[game.pk]]
        made[game.pk] = render_to_string(SECTION_TEMPLATE, {"sheet": GameSheet(game, rows), "match": match,
                                                            "can_enter": can_enter})
    return made


def _key(match: Match, game: Any, names: list[str], can_enter: bool) -> str:  # a Game with the hand annotations
    shown = [getattr(game, name) for name in SHOWN_GAME_FIELDS]
    shown += [game.hand_count, game.hands_changed.isoformat() if game.hands_changed else "", game.hand_versions,
              game.hand_scores, match.side_a_name,
              match.side_b_name, *names, can_enter, _template()]
    digest = hashlib.sha256(repr(shown).encode()).hexdigest()[:32]
    return f"sheet-game:{match.pk}:{game.pk}:{digest}"


def _template() -> str:
    """The section template's own text, so that a new version of it is never answered with the old HTML."""
    global _template_digest
    if _template_digest is None:
        source = get_template(SECTION_TEMPLATE).template.source  # type: ignore[attr-defined]  # Django's backend
        _template_digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    return _template_digest
