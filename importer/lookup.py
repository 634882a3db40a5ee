"""Looking up by name what a file refers to: players, partnerships, clubs, competitions and teams already stored.

References are never by id: players by name, nickname or "Name (Nickname)", partnerships by name or by their
players ("Ann & Bob" in either order), clubs by name or slug, a competition's teams by name. A name that matches
nothing, or more than one, raises :class:`NotFound` with the reason the organiser reads.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Q, QuerySet

from importer.cells import name_key
from league.models import Club, Competition, Partnership, Player, Team
from league.permissions import organised_partnerships_filter, public_partnership_filter


class NotFound(ValueError):  # noqa: N818 — a name the file gives that names nothing, or several things
    """What a name refers to cannot be told: nothing, or more than one thing, is called so."""


def _split_nickname(text: str) -> tuple[str, str]:
    match = re.fullmatch(r"(.*?)\s*\((.+)\)\s*", text)
    return (match.group(1), match.group(2)) if match else (text, "")


class PlayerIndex:
    """Players found by name, by nickname, or by "Name (Nickname)"."""

    def __init__(self, players: Iterable[Player], where: str) -> None:
        self.where = where
        self.by_name: dict[str, list[Player]] = defaultdict(list)
        self.by_nickname: dict[str, list[Player]] = defaultdict(list)
        for player in players:
            self.by_name[name_key(player.name)].append(player)
            if player.nickname:
                self.by_nickname[name_key(player.nickname)].append(player)

    def find(self, text: str) -> Player:
        name, nickname = _split_nickname(text)
        found = self.by_name.get(name_key(text)) or self.by_name.get(name_key(name), [])
        if nickname and len(found) > 1:
            found = [p for p in found if name_key(p.nickname) == name_key(nickname)]
        if not found:
            found = self.by_nickname.get(name_key(text), [])
        if len(found) == 1:
            return found[0]
        if found:
            raise NotFound(f"{len(found)} players {self.where} are called {text!r}: write \"Name (Nickname)\"")
        raise NotFound(f"no player {text!r} {self.where}: import the players first")


PAIR_SEPARATORS = re.compile(r"\s*(?:&|\+|/|\band\b)\s*", flags=re.IGNORECASE)


class PartnershipIndex:
    """Partnerships found by name, or by their players' names ("Ann & Bob", "Bob and Ann", "Ann / Bob")."""

    def __init__(self, partnerships: Iterable[Partnership], where: str) -> None:
        self.where = where
        self.by_name: dict[str, dict[int, Partnership]] = defaultdict(dict)
        self.by_players: dict[frozenset[str], dict[int, Partnership]] = defaultdict(dict)
        for partnership in partnerships:
            for text in {partnership.name, partnership.display_name} - {""}:
                self.by_name[name_key(text)][partnership.pk] = partnership
            two = partnership.player_two
            players = [partnership.player_one] + ([two] if two is not None else [])
            for key in _player_keys(players):
                self.by_players[key][partnership.pk] = partnership

    def find(self, text: str) -> Partnership:
        found = list(self.by_name.get(name_key(text), {}).values())
        if not found:
            names = [part for part in PAIR_SEPARATORS.split(text.strip()) if part]
            if 1 <= len(names) <= 2:
                found = list(self.by_players.get(frozenset(name_key(n) for n in names), {}).values())
        if len(found) == 1:
            return found[0]
        if found:
            raise NotFound(f"{len(found)} partnerships {self.where} match {text!r}: use the partnership's name")
        raise NotFound(f"no partnership {text!r} {self.where}")


def _player_keys(players: list[Player]) -> list[frozenset[str]]:
    """The keys a side is found by: its players' names, or nicknames, in any order."""
    keys = {frozenset(name_key(p.name) for p in players)}
    if all(p.nickname for p in players):
        keys.add(frozenset(name_key(p.nickname) for p in players))
    return list(keys)


def club_partnerships(club: Club, *, chosen_by: Club) -> QuerySet[Partnership]:
    """The partnerships of ``club`` (its own, and those without a club whose first player is of it) that the
    organisers of ``chosen_by`` may choose on their competitions' entries and team pages: the public ones and
    their own (``league.permissions``), never another club's that only its drafts know."""
    choosable = public_partnership_filter() | organised_partnerships_filter([chosen_by.pk])
    return (Partnership.objects.filter(Q(club=club) | Q(club__isnull=True, player_one__home_club=club))
            .filter(choosable).select_related("player_one", "player_two"))


class ClubIndex:
    """Every club, by name or by slug."""

    def __init__(self) -> None:
        self.clubs: dict[str, Club] = {}
        for club in Club.objects.all():
            self.clubs[name_key(club.name)] = club
            self.clubs[name_key(club.slug)] = club

    def find(self, text: str) -> Club:
        club = self.clubs.get(name_key(text))
        if club is None:
            raise NotFound(f"no club {text!r}")
        return club


class TeamIndex:
    """The competition's teams by name, and each team's pairs."""

    def __init__(self, competition: Competition) -> None:
        self.competition = competition
        self.by_name = {name_key(team.name): team for team in Team.objects.filter(competition=competition)}
        self.pairs: dict[int, PartnershipIndex] = {}

    def find(self, text: str) -> Team:
        team = self.by_name.get(name_key(text))
        if team is None:
            raise NotFound(f"no team {text!r} in {self.competition.name}: import the teams first")
        return team

    def pair(self, team: Team, text: str) -> Partnership:
        if team.pk not in self.pairs:
            self.pairs[team.pk] = PartnershipIndex(team.partnerships.select_related("player_one", "player_two"),
                                                   f"in team {team.name}")
        return self.pairs[team.pk].find(text)


def competitions_by_name(club: Club) -> dict[str, Competition]:
    """The club's competitions by slug and by name (a slug wins over another competition's name)."""
    found = {}
    for competition in Competition.objects.filter(club=club):
        found[name_key(competition.slug)] = competition
        found.setdefault(name_key(competition.name), competition)
    return found
