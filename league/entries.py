"""Entering a competition: its entrants (partnerships, club teams or players) entered, late entries,
withdrawals between rounds, reinstating and removing an entry. The other setup services are
``league.competition_options`` (the options), ``league.seeding`` (seeds, groups and divisions),
``league.partnerships`` and ``league.teams``; their error is ``league.setup_errors.SetupError``.

Every function takes keyword arguments, checks its input and raises :class:`SetupError` naming the field and
saying what is wrong, worded for the organiser; a change that can move the standings rewrites them once it
has committed (``league.services.refresh_standings``).

Rounds are never rewritten here. An entry made once a round has been paired plays from the next unpaired
round (``joined_round``); a withdrawal keeps every result and records the last round with a published
pairing (``withdrawn_after_round``); the pairing of later rounds leaves withdrawn entrants out.

    entry = enter(competition=league, partnership=pair)   # round 3 is paired: entry.joined_round == 4
    withdraw(entry=entry)                                  # withdrawn_after_round: the last published round
    reinstate(entry=entry)
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Q

from league.consent import missing_consent
from league.models import Competition, Entry, Partnership, Player, Team
from league.seeding import check_group_count, check_seed_free, check_seed_value, clean_division, clean_group
from league.setup_errors import NeedsInvitation, SetupError
from league.signals import standings_stale_after_commit

KIND_FIELD = {Competition.PAIRS: "partnership", Competition.TEAMS: "team", Competition.INDIVIDUAL: "player"}


# ----------------------------------------------------------------------------- rounds as entries see them
def first_unpaired_round(competition: Competition) -> int:
    """The first round not yet paired: 1 + the last round that is published, has pairings (matches, team
    matches, byes) or is being paired. An entry made now plays from this round."""
    rounds = competition.rounds.all()  # draw's rounds, through the relation: league does not import draw
    round_model = rounds.model
    paired = (rounds.filter(Q(status=round_model.PUBLISHED) | Q(matches__isnull=False) | Q(team_matches__isnull=False)
                            | Q(byes__isnull=False)
                            | Q(pairing_state__in=[round_model.QUEUED, round_model.RUNNING, round_model.DONE]))
              .aggregate(last=Max("number"))["last"])
    return (paired or 0) + 1


def last_published_round(competition: Competition) -> int:
    """The last published round that has pairings (0 before any)."""
    rounds = competition.rounds.all()  # draw's rounds, through the relation: league does not import draw
    last = (rounds.filter(status=rounds.model.PUBLISHED)
            .filter(Q(matches__isnull=False) | Q(team_matches__isnull=False) | Q(byes__isnull=False))
            .aggregate(last=Max("number"))["last"])
    return last or 0


def plays_round(entry: Entry, number: int) -> bool:
    """The entry plays round ``number``: it has joined by then and has not withdrawn before it (an entry
    withdrawn without ``withdrawn_after_round`` plays no more rounds)."""
    if entry.joined_round > number:
        return False
    if entry.withdrawn:
        return entry.withdrawn_after_round is not None and entry.withdrawn_after_round >= number
    return True


# ----------------------------------------------------------------------------- entering
def check_partnership(competition: Competition, partnership: Partnership, field: str = "partnership") -> None:
    if partnership.size * 2 != competition.players:
        raise SetupError(field, f"{partnership.display_name} has {partnership.size} player(s); "
                                f"{competition.name} is a {competition.players}-player game")


def players_of(partnership: Partnership) -> set[int]:
    return {partnership.player_one_id} | ({partnership.player_two_id} if partnership.player_two_id else set())


def _check_players_free(competition: Competition, partnership: Partnership) -> None:
    """A player sits at one table at a time: not in two partnerships entered in one competition."""
    players = players_of(partnership)
    clash = (Entry.objects.filter(competition=competition, withdrawn=False, partnership__isnull=False)
             .exclude(partnership=partnership)
             .filter(Q(partnership__player_one__in=players) | Q(partnership__player_two__in=players))
             .select_related("partnership__player_one", "partnership__player_two").first())
    if clash is not None:
        assert clash.partnership is not None  # the entries asked for have a partnership
        shared = players & players_of(clash.partnership)
        name = Player.objects.get(pk=min(shared)).name
        raise SetupError("partnership", f"{name} already plays in {clash.partnership.display_name}", clash=clash)


def enter(*, competition: Competition, partnership: Partnership | None = None, team: Team | None = None,
          player: Player | None = None, seed: int | None = None, group: str = "", division: str = "",
          refresh: bool = True) -> Entry:
    """Enter a partnership, a team or a player, as the competition's ``entrant_kind`` asks. Once a round has
    been paired the entry is a late one: it plays from :func:`first_unpaired_round` on. Entering a withdrawn
    entrant again reinstates it (and sets the seed and group given). ``refresh=False``: the caller refreshes
    the standings itself (once for many entries, as the CSV import does)."""
    wanted = KIND_FIELD[competition.entrant_kind]
    given = {"partnership": partnership, "team": team, "player": player}
    for name, value in given.items():
        if value is not None and name != wanted:
            raise SetupError(name, f"{competition.name} is entered by {_kind_plural(competition)}, not by a {name}")
    entrant = given[wanted]
    if entrant is None:
        raise SetupError(wanted, f"choose the {wanted} to enter")
    if partnership is not None:
        check_partnership(competition, partnership)
        _check_players_free(competition, partnership)
    if team is not None and team.competition_id != competition.pk:
        raise SetupError("team", f"{team.name} is a team of another competition")
    check_seed_value(seed, "seed")
    group = clean_group(group, "group")
    division = clean_division(division, "division")
    existing = Entry.objects.filter(competition=competition, **{wanted: entrant}).first()
    if existing is not None and not existing.withdrawn:
        raise SetupError(wanted, f"{existing.display_name} is already entered", clash=existing)
    if existing is None and wanted != "team":  # a team's club said yes when the team was made (create_team)
        entrant_of: dict[str, Any] = {wanted: entrant}  # a partnership or a player: not a team
        refused = missing_consent(competition, **entrant_of)
        if refused:
            raise NeedsInvitation(wanted, refused)
    check_seed_free(competition, seed, existing, "seed")
    check_group_count(competition, {group} if group else set(), existing, "group")
    with transaction.atomic():
        if existing is not None:
            existing.withdrawn, existing.withdrawn_after_round = False, None
            existing.seed, existing.group, existing.division = seed, group, division
            existing.save(update_fields=["withdrawn", "withdrawn_after_round", "seed", "group", "division"])
            entry = existing
        else:
            try:
                with transaction.atomic():
                    entry = Entry.objects.create(competition=competition, seed=seed, group=group, division=division,
                                                 joined_round=first_unpaired_round(competition), **{wanted: entrant})
            except IntegrityError:  # entered by someone else a moment ago
                raise SetupError(wanted, f"{entrant} is already entered") from None
        if refresh:
            standings_stale_after_commit(competition.pk)
    return entry


def _kind_plural(competition: Competition) -> str:
    return dict(Competition.ENTRANT_KINDS)[competition.entrant_kind].lower()


def withdraw(*, entry: Entry) -> Entry:
    """Withdraw an entrant between rounds: its results stand, it is not paired again, and
    ``withdrawn_after_round`` is the last round with a published pairing."""
    if entry.withdrawn:
        raise SetupError("entry", f"{entry.display_name} has already withdrawn")
    with transaction.atomic():
        entry.withdrawn = True
        entry.withdrawn_after_round = last_published_round(entry.competition)
        entry.save(update_fields=["withdrawn", "withdrawn_after_round"])
        standings_stale_after_commit(entry.competition_id)
        _place_freed(entry.competition)
    return entry


def reinstate(*, entry: Entry) -> Entry:
    """Take a withdrawal back: the entrant is paired again from the next round that is paired."""
    if not entry.withdrawn:
        raise SetupError("entry", f"{entry.display_name} has not withdrawn")
    if entry.partnership is not None:
        _check_players_free(entry.competition, entry.partnership)
    with transaction.atomic():
        entry.withdrawn, entry.withdrawn_after_round = False, None
        entry.save(update_fields=["withdrawn", "withdrawn_after_round"])
        standings_stale_after_commit(entry.competition_id)
    return entry


def has_played(entry: Entry, round_number: int | None = None) -> bool:
    """The entry has been paired (in round ``round_number``, if given): a match, a team match or a bye."""
    competition = entry.competition
    in_round = Q(round__number=round_number) if round_number is not None else Q()
    if entry.byes.filter(in_round).exists():
        return True
    if entry.partnership_id is not None:
        return competition.matches.filter(in_round).filter(
            Q(side_a=entry.partnership_id) | Q(side_b=entry.partnership_id)).exists()
    if entry.team_id is not None:
        return competition.team_matches.filter(in_round).filter(
            Q(team_a=entry.team_id) | Q(team_b=entry.team_id)).exists()
    player = entry.player_id
    return competition.matches.filter(in_round).filter(
        Q(side_a__player_one=player) | Q(side_a__player_two=player)
        | Q(side_b__player_one=player) | Q(side_b__player_two=player)).exists()


def remove_entry(*, entry: Entry) -> None:
    """Take an entry back altogether, while it has no match and no bye (withdraw it otherwise)."""
    if has_played(entry):
        raise SetupError("entry", f"{entry.display_name} has been paired: withdraw it instead, so its results stand")
    competition = entry.competition
    with transaction.atomic():
        entry.delete()
        standings_stale_after_commit(competition.pk)
        _place_freed(competition)


def _place_freed(competition: Competition) -> None:
    """The competition's waiting list moves up into the place (``league.entry_requests``, which builds on this
    module: imported here, when it is needed)."""
    from league.entry_requests import fill_places

    fill_places(competition)
