"""A club's people: its details, its organisers, its players (made, edited, linked to a login) and the merge of
two records of one player, keeping every result of both.

Every operation checks what it is given and raises ``SetupError`` naming the field, as ``league.entries`` does,
so that a page puts the message next to the field and the API answers 400.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from typing import cast

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from league.models import Club, ClubRole, Competition, Entry, Partnership, Player
from league.services import unique_slug
from league.setup_errors import SetupError, plain_name
from league.signals import ratings_stale_after_commit, standings_stale_after_commit

NAME_MAX = cast(int, Player._meta.get_field("name").max_length)
NICKNAME_MAX = cast(int, Player._meta.get_field("nickname").max_length)
CLUB_NAME_MAX = cast(int, Club._meta.get_field("name").max_length)
CLUBS_PER_DAY = 3  # clubs one account makes in 24 hours: enough for a real organiser, too few to flood the site


# ------------------------------------------------------------------------------------------------ clubs
def create_club_for(*, user, name: str, town: str = "") -> Club:
    """A new club, ``user`` its first organiser; an account makes at most ``CLUBS_PER_DAY`` clubs in a day."""
    name = _club_name(name)
    town = plain_name(town, "town", "a town's name", Club._meta.get_field("town").max_length)
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one club made at a time
        _check_clubs_today(user)
        club = Club.objects.create(name=name, slug=unique_slug(Club.objects.all(), name), town=town, created_by=user)
        ClubRole.objects.create(club=club, user=user, role=ClubRole.ORGANISER)
    return club


def _check_clubs_today(user) -> None:
    limit = CLUBS_PER_DAY
    made = Club.objects.filter(created_by=user, created_at__gte=timezone.now() - timedelta(days=1)).count()
    if made >= limit:
        raise SetupError("name", f"an account makes at most {limit} clubs a day and you have made {made} in the "
                                 "last 24 hours: try again tomorrow, or ask the site's administrator")


def edit_club(*, club: Club, name: str, town: str = "") -> Club:
    club.name = _club_name(name, club)
    club.town = plain_name(town, "town", "a town's name", Club._meta.get_field("town").max_length)
    club.save(update_fields=["name", "town"])
    return club


def _club_name(name: str, club: Club | None = None) -> str:
    name = plain_name(name, "name", "a club's name", CLUB_NAME_MAX)
    if not name:
        raise SetupError("name", "give the club's name")
    if Club.objects.filter(name__iexact=name).exclude(pk=getattr(club, "pk", None)).exists():  # type: ignore[misc]
        raise SetupError("name", f"there is already a club called {name}")
    return name


def _user_named(username: str, field: str):
    username = (username or "").strip()
    if not username:
        raise SetupError(field, "give the person's username")
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        raise SetupError(field, f"nobody has the username {username!r}: give the username of an existing account, "
                                "or use Invite people: they make their account as they accept")
    return user


def add_organiser(*, club: Club, username: str) -> ClubRole:
    user = _user_named(username, "username")
    role, made = ClubRole.objects.get_or_create(club=club, user=user, role=ClubRole.ORGANISER)
    if not made:
        raise SetupError("username", f"{user.get_username()} is already an organiser of {club.name}")
    return role


def remove_organiser(*, club: Club, user_id: int, by) -> None:
    """Remove an organiser; a club keeps at least one, and nobody removes themselves by accident."""
    roles = ClubRole.objects.filter(club=club, role=ClubRole.ORGANISER)
    if roles.count() <= 1:
        raise SetupError("organiser", f"{club.name} needs at least one organiser")
    if by is not None and by.pk == user_id:
        raise SetupError("organiser", "you cannot remove yourself: ask another organiser")
    if not roles.filter(user_id=user_id).delete()[0]:
        raise SetupError("organiser", "that person is not an organiser of the club")


# ---------------------------------------------------------------------------------------------- players
def _player_fields(name: str, nickname: str) -> tuple[str, str]:
    name = plain_name(name, "name", "a player's name", NAME_MAX)
    if not name:
        raise SetupError("name", "give the player's name")
    return name, plain_name(nickname, "nickname", "a nickname", NICKNAME_MAX)


def _check_name_free(club: Club, name: str, player: Player | None = None) -> None:
    others = Player.objects.filter(home_club=club, name__iexact=name)
    taken = others.exclude(pk=getattr(player, "pk", None)).first()  # type: ignore[misc]  # None: a new player
    if taken is not None:
        raise SetupError("name", f"{club.name} already has a player called {taken.name}: give a different name "
                                 "(or merge the two records)")


class SimilarName(SetupError):
    """A name that differs from a player's of the club only in case, spaces or accents: made only once the organiser
    confirms it is another person (the API answers 409 until then)."""

    conflict = True


def name_key(name: str) -> str:
    """What two ways of writing one name share: ``"Ànil  RAMDASS"`` and ``"anil ramdass"`` → ``"anil ramdass"``."""
    letters = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in letters if not unicodedata.combining(c)).casefold().split())


def similar_player(club: Club, name: str, player: Player | None = None) -> Player | None:
    """The club's player whose name is written like ``name`` but for case, spaces or accents, if any."""
    key = name_key(name)
    others = Player.objects.filter(home_club=club).exclude(pk=getattr(player, "pk", None))  # type: ignore[misc]
    found = next((pk for pk, other in others.values_list("pk", "name").iterator() if name_key(other) == key), None)
    return None if found is None else Player.objects.get(pk=found)


def _check_not_similar(club: Club, name: str, player: Player | None, confirmed: bool) -> None:
    other = None if confirmed else similar_player(club, name, player)
    if other is not None:
        raise SimilarName("name", f"looks like {other.name}, already one of {club.name}'s players (the same name "
                                  "but for capitals, spaces or accents): confirm that this is another person, or use "
                                  "that record")


def create_player(*, club: Club, name: str, nickname: str = "", confirmed: bool = False) -> Player:
    """A new player of the club; a name like another player's but for case, spaces or accents raises
    ``SimilarName`` unless ``confirmed``."""
    name, nickname = _player_fields(name, nickname)
    _check_name_free(club, name)
    _check_not_similar(club, name, None, confirmed)
    return Player.objects.create(name=name, nickname=nickname, home_club=club)


def edit_player(*, player: Player, name: str, nickname: str = "", confirmed: bool = False) -> Player:
    name, nickname = _player_fields(name, nickname)
    if player.home_club is not None:
        _check_name_free(player.home_club, name, player)
        if name_key(name) != name_key(player.name):
            _check_not_similar(player.home_club, name, player, confirmed)
    player.name, player.nickname = name, nickname
    player.save(update_fields=["name", "nickname"])
    return player


def why_not_deletable(player: Player) -> str | None:
    """Why the player's record cannot be deleted (it has partnerships, entries or standings: results that would be
    lost), or ``None``."""
    partnerships = Partnership.objects.filter(Q(player_one=player) | Q(player_two=player))
    if partnerships.exists():
        return (f"{player.name} plays in {partnerships.count()} partnership(s), which hold their entries and results: "
                "merge the record into another instead")
    if Entry.objects.filter(player=player).exists() or player.standings.exists():
        return f"{player.name} is entered in a competition: withdraw or merge the record instead"
    return None


def delete_player(*, player: Player) -> None:
    """Delete a player's record that holds no result (a mistake or a duplicate never played)."""
    why = why_not_deletable(player)
    if why is not None:
        raise SetupError("delete", why)
    player.delete()  # its rating and rating history (standings' rows) go with it: their foreign keys cascade


@dataclass(frozen=True)
class MergePlan:
    """What merging ``duplicate`` into ``keep`` moves, said before it is done."""

    keep: Player
    duplicate: Player
    partnerships: list[str]
    competitions: list[str]
    login_moves: bool
    nickname_moves: bool

    def lines(self) -> list[str]:
        keep, duplicate = self.keep.name, self.duplicate.name
        out = [f"{len(self.partnerships)} partnership(s) of {duplicate} become {keep}'s, with their results"
               + (f": {', '.join(self.partnerships)}" if self.partnerships else "")]
        if self.competitions:
            out.append(f"{duplicate}'s entries in {', '.join(self.competitions)} become {keep}'s")
        if self.login_moves:
            out.append(f"{duplicate}'s login moves to {keep}")
        if self.nickname_moves:
            out.append(f"{keep} takes the nickname “{self.duplicate.nickname}”")
        out.append(f"the record of {duplicate} is deleted; the ratings are worked out again")
        return out


def link_login(*, player: Player, username: str) -> Player:
    """Link the player to a login (their own pages, and the tables they sit at); a blank username unlinks."""
    if not (username or "").strip():
        player.user = None
    else:
        user = _user_named(username, "username")
        other = Player.objects.filter(user=user, home_club_id=player.home_club_id).exclude(pk=player.pk).first()
        if other is not None:  # one record a club: the same person's record at another club is theirs too
            raise SetupError("username", f"{user.get_username()} is already linked to {other.name}")
        player.user = user
    player.save(update_fields=["user"])
    return player


def merge_plan(*, keep: Player, duplicate: Player) -> MergePlan:
    """What ``merge_players`` would move, after the same checks (``SetupError`` when it is refused)."""
    _check_merge(keep, duplicate)
    pairs = Partnership.objects.filter(Q(player_one=duplicate) | Q(player_two=duplicate)).select_related(
        "player_one", "player_two").order_by("id")
    competitions = (Competition.objects.filter(Q(entries__player=duplicate) | Q(entries__partnership__in=pairs))
                    .distinct().order_by("name").values_list("name", flat=True))
    return MergePlan(keep=keep, duplicate=duplicate, partnerships=[pair.display_name for pair in pairs],
                     competitions=list(competitions), login_moves=bool(duplicate.user_id and not keep.user_id),
                     nickname_moves=bool(duplicate.nickname and not keep.nickname))


def merge_players(*, keep: Player, duplicate: Player) -> Player:
    """Merge ``duplicate`` into ``keep``: every partnership, entry and standings line of the duplicate becomes
    the kept player's (so every result, which belongs to a partnership, stays), its login moves over if the
    kept record has none, and the duplicate is deleted. Refused when the two played as partners, or are both
    entered in one individual event. The ratings are rebuilt, and the standings of the events touched."""
    _check_merge(keep, duplicate)
    _merge_moves(keep, duplicate)
    return keep


def _check_merge(keep: Player, duplicate: Player) -> None:
    if keep.pk == duplicate.pk:
        raise SetupError("duplicate", "choose two different records of the player")
    together = Partnership.objects.filter(Q(player_one=keep, player_two=duplicate)
                                          | Q(player_one=duplicate, player_two=keep)).first()
    if together is not None:
        raise SetupError("duplicate", f"{keep.name} and {duplicate.name} played together as {together.display_name}: "
                                      "they are two players")
    both = Entry.objects.filter(player=keep, competition__entries__player=duplicate).select_related("competition")
    if both.exists():
        entered = both.first()
        assert entered is not None  # it exists
        raise SetupError("duplicate", f"both are entered in {entered.competition.name}")
    pairs = Q(entries__partnership__player_one=keep) | Q(entries__partnership__player_two=keep)
    shared = (Entry.objects.filter(Q(partnership__player_one=duplicate) | Q(partnership__player_two=duplicate))
              .filter(competition__in=Competition.objects.filter(pairs)).select_related("competition").first())
    if shared is not None:
        raise SetupError("duplicate", f"both play in {shared.competition.name}, in two partnerships")
    if keep.user_id and duplicate.user_id:
        raise SetupError("duplicate", "both records have a login: unlink one first")


def _merge_moves(keep: Player, duplicate: Player) -> None:
    with transaction.atomic():
        Partnership.objects.filter(player_one=duplicate).update(player_one=keep)
        Partnership.objects.filter(player_two=duplicate).update(player_two=keep)
        competitions = set(Entry.objects.filter(player=duplicate).values_list("competition_id", flat=True))
        Entry.objects.filter(player=duplicate).update(player=keep)
        if duplicate.user_id and not keep.user_id:
            keep.user_id, duplicate.user_id = duplicate.user_id, None
            duplicate.save(update_fields=["user"])
            keep.save(update_fields=["user"])
        if not keep.nickname and duplicate.nickname:
            keep.nickname = duplicate.nickname
            keep.save(update_fields=["nickname"])
        # the duplicate's standings lines, rating and rating history go with it (their foreign keys cascade): the
        # refresh below writes the lines again, and the ratings are rebuilt from the whole history
        duplicate.delete()
        for competition_id in competitions:
            standings_stale_after_commit(competition_id)
        ratings_stale_after_commit()
