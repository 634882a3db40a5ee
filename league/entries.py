"""Setting a competition up: its options checked together, its entrants (partnerships, club teams or
players), late entries, withdrawals between rounds, seeds, groups and teams.

Every function takes keyword arguments, checks its input and raises :class:`SetupError` naming the field and
saying what is wrong, worded for the organiser; a change that can move the standings rewrites them once it
has committed (``league.services.refresh_standings``).

Rounds are never rewritten here. An entry made once a round has been paired plays from the next unpaired
round (``joined_round``); a withdrawal keeps every result and records the last round with a published
pairing (``withdrawn_after_round``); the pairing of later rounds leaves withdrawn entrants out.

    entry = enter(competition=league, partnership=pair)   # round 3 is paired: entry.joined_round == 4
    withdraw(entry=entry)                                  # withdrawn_after_round: the last published round
    reinstate(entry=entry)
    arrange(competition=league, seeds={entry.pk: 1}, groups={entry.pk: "A"})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Max, Q

from engine import Ruleset, RulesetError, most_chalks_at_game_end, most_hang_jacks_in_game
from engine.errors import FieldError
from league.consent import missing_consent, missing_team_consent, other_club
from league.models import MAX_SEED, Club, Competition, Entry, Partnership, Player, Team, validate_plain_text
from league.signals import (
    publication_changed_after_commit,
    ratings_stale_after_commit,
    standings_stale_after_commit,
)

__all__ = [
    "NeedsInvitation", "SetupError", "already_partners", "arrange", "check_competition", "create_partnership",
    "create_team", "edit_team", "enter", "last_published_round", "new_partnership", "first_unpaired_round",
    "partnerships_of", "reinstate", "remove_entry", "set_groups", "set_published", "set_seeds",
    "update_competition", "update_partnership", "withdraw",
]

KNOCKOUTS = (Competition.KNOCKOUT, Competition.GROUPS_KNOCKOUT)
KIND_FIELD = {Competition.PAIRS: "partnership", Competition.TEAMS: "team", Competition.INDIVIDUAL: "player"}
LOCKED_BY_MATCHES = ("players", "ruleset")
GROUP_MAX = cast(int, Entry._meta.get_field("group").max_length)
DIVISION_MAX = cast(int, Entry._meta.get_field("division").max_length)
PARTNERSHIP_NAME_MAX = cast(int, Partnership._meta.get_field("name").max_length)
TEAM_NAME_MAX = cast(int, Team._meta.get_field("name").max_length)


class SetupError(FieldError):
    """A setup the organiser asked for that cannot be made: ``field`` names the input (``partnership``,
    ``tiebreaks``, ``seed_12`` for entry 12's seed), ``reason`` says what is wrong with it. When the input is a
    list (a team's partnerships), ``item`` is the element at fault; ``clash`` is the stored object the input
    collides with, if any (the entry already made, the partnership of the same players)."""

    def __init__(self, field: str, reason: str, *, item: Any = None, clash: Any = None) -> None:
        super().__init__(field, reason)
        self.item = item
        self.clash = clash


class NeedsInvitation(SetupError):
    """An entrant of another club that has not accepted an invitation (``league.consent``): the input is fine, the
    other club's answer is missing, so the API answers 409."""

    conflict = True


# ----------------------------------------------------------------------------- the competition's options
def _played(competition: Competition | None) -> bool:
    return competition is not None and competition.pk is not None and (
        competition.matches.exists() or competition.team_matches.exists())


OPTION_CHECKS: list[Callable[[Callable[[str], Any]], None]] = []
"""Checks of a competition's options that the layers above ``league`` own; each takes ``get(name)`` (the value
over the instance's, or the default) and raises :class:`SetupError` naming the field. ``config.wiring``
registers the standings' own (``standings.services.check_standings_options``)."""


def register_option_check(check: Callable[[Callable[[str], Any]], None]) -> None:
    if check not in OPTION_CHECKS:
        OPTION_CHECKS.append(check)


def check_competition(values: Mapping[str, Any], instance: Competition | None = None) -> None:
    """Check a competition's options together (``values`` over ``instance``'s, or the defaults for a new
    one): Swiss rounds, groups, knockout-only options, team settings, points, byes and the tiebreak order
    (through ``standings.metrics``); players and ruleset stay as they are once matches exist, the entrant
    kind once entries do, the system once a round does. Raises :class:`SetupError`."""
    def get(name: str) -> Any:
        if name in values:
            return values[name]
        if instance is not None:
            return getattr(instance, name)
        return cast(models.Field, Competition._meta.get_field(name)).get_default()

    _check_bounds(values)
    system, kind, players = get("system"), get("entrant_kind"), get("players")
    if get("match_format") == Competition.BEST_OF and get("match_games") % 2 == 0:
        raise SetupError("match_games", f"best of {get('match_games')} games has no majority: a best-of match "
                                        "needs an odd number of games (3, 5, 7, …)")
    if system == Competition.SWISS and not get("planned_rounds"):
        raise SetupError("planned_rounds", "a Swiss event declares its number of rounds")
    if system == Competition.GROUPS_KNOCKOUT:
        if get("group_count") < 2:
            raise SetupError("group_count", "groups before a knockout need at least 2 groups")
        if get("advance_per_group") < 1:
            raise SetupError("advance_per_group", "at least one entrant of each group goes through")
    elif get("group_count") and system != Competition.ROUND_ROBIN and system != Competition.DOUBLE_ROUND_ROBIN:
        raise SetupError("group_count", f"a {_system_name(system)} has no groups (set 0)")
    if get("third_place_match") and system not in KNOCKOUTS:
        raise SetupError("third_place_match", "only a knockout has a third-place match")
    if kind == Competition.INDIVIDUAL:
        if players != 4:
            raise SetupError("entrant_kind", "All Twos has no partners to rotate: enter its players as "
                                             "one-player partnerships")
        if system in KNOCKOUTS:
            raise SetupError("entrant_kind", "a knockout needs fixed entrants; individual events rotate partners")
    if kind == Competition.TEAMS:
        if get("team_tables") < 1:
            raise SetupError("team_tables", "a team match needs at least one table")
        if get("team_mode") == Competition.TEAM_RACE and get("team_target") < 1:
            raise SetupError("team_target", "a race needs a target of at least one bullseye")
        if get("team_mode") == Competition.TEAM_FIXED and get("team_games_per_table") < 1:
            raise SetupError("team_games_per_table", "each table plays at least one game")
    if get("points_draw") > get("points_win"):
        raise SetupError("points_draw", "a draw cannot earn more points than a win")
    if get("points_loss") > get("points_draw"):
        raise SetupError("points_loss", "a loss cannot earn more points than a draw")
    for check in OPTION_CHECKS:  # the layers above add theirs (the standings: tiebreaks, points, bye score)
        check(get)
    _check_bye_score(get)
    _check_locked(values, instance)


def _check_bounds(values: Mapping[str, Any]) -> None:
    """Each number within its field's bounds (``league.models``' ``MAX_…``, and the database's range): a form and
    a serializer say so themselves, a caller of the service learns it here."""
    for name, value in values.items():
        try:
            field = Competition._meta.get_field(name)
        except FieldDoesNotExist:
            continue
        if isinstance(field, models.IntegerField) and isinstance(value, int) and not isinstance(value, bool):
            try:
                field.run_validators(value)
            except ValidationError as error:
                raise SetupError(name, error.messages[0]) from None


def _check_bye_score(get: Callable[[str], Any]) -> None:
    """A fixed bye is credited as a match: no more bullseyes than the competition's match (or team match) can have
    games, no more chalks or hang jacks than those games can give a side under the ruleset (``engine.limits``)."""
    score = get("bye_score") or {}
    try:
        rules = Ruleset.from_dict(get("ruleset") or None)
    except RulesetError:
        return  # the ruleset's own check names it
    games = _most_games(get)
    bounds = {"bullseyes": games, "chalks": games * most_chalks_at_game_end(rules),
              "hang_jacks": games * most_hang_jacks_in_game(rules)}
    for key, value in score.items():
        kind = key.rsplit("_", 1)[0]
        if kind in bounds and isinstance(value, int) and value > bounds[kind]:
            raise SetupError(f"bye_score.{key}", f"at most {bounds[kind]}: a bye counts as a match, which has at "
                                                 f"most {games} game{'s' if games != 1 else ''} here, and "
                                                 f"{_what_games_give(kind, rules)}")


def _most_games(get: Callable[[str], Any]) -> int:
    """The most games one match (a team match, in a team competition) can have under the competition's format."""
    if get("entrant_kind") == Competition.TEAMS:
        if get("team_mode") == Competition.TEAM_FIXED:
            return max(get("team_tables") * get("team_games_per_table"), 1)
        return max(2 * get("team_target") - 1, 1)
    match_format, games = get("match_format"), get("match_games")
    if match_format == Competition.SINGLE:
        return 1
    return max(games if match_format == Competition.BEST_OF else 2 * games - 1, 1)


def _what_games_give(kind: str, rules: Ruleset) -> str:
    if kind == "bullseyes":
        return "a bullseye is a game won"
    if kind == "chalks":
        return f"a side ends a game with at most {most_chalks_at_game_end(rules)} chalks"
    return f"a side has at most {most_hang_jacks_in_game(rules)} hang jacks a game"


def _check_locked(values: Mapping[str, Any], instance: Competition | None) -> None:
    if instance is None or instance.pk is None:
        return
    if _played(instance):
        for name in LOCKED_BY_MATCHES:
            if name in values and values[name] != getattr(instance, name):
                raise SetupError(name, "cannot change once the competition has matches")
    if "entrant_kind" in values and values["entrant_kind"] != instance.entrant_kind and instance.entries.exists():
        raise SetupError("entrant_kind", "cannot change once the competition has entries")
    if "system" in values and values["system"] != instance.system and instance.rounds.exists():
        raise SetupError("system", "cannot change once a round has been made")


def _system_name(system: str) -> str:
    return dict(Competition.SYSTEMS).get(system, system).lower()


def update_competition(*, competition: Competition, **values: Any) -> Competition:
    """Change a competition's options (checked with :func:`check_competition`); the standings are rewritten,
    since the tiebreaks, points and byes decide them."""
    check_competition(values, competition)
    publishing = "published" in values and values["published"] != competition.published
    for name, value in values.items():
        setattr(competition, name, value)
    with transaction.atomic():
        competition.save()
        standings_stale_after_commit(competition.pk)
        if publishing:
            ratings_stale_after_commit()
    return competition


def set_published(*, competition: Competition, published: bool) -> Competition:
    """Publish a competition (everyone sees it) or take it back to a draft (its club's organisers only); only
    a published competition's results rate players."""
    with transaction.atomic():
        changed = competition.published != published
        competition.published = published
        competition.save(update_fields=["published"])
        if changed:
            ratings_stale_after_commit()
            publication_changed_after_commit(competition.pk)
    return competition


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


# ----------------------------------------------------------------------------- entering
def _check_partnership(competition: Competition, partnership: Partnership, field: str = "partnership") -> None:
    if partnership.size * 2 != competition.players:
        raise SetupError(field, f"{partnership.display_name} has {partnership.size} player(s); "
                                f"{competition.name} is a {competition.players}-player game")


def _players_of(partnership: Partnership) -> set[int]:
    return {partnership.player_one_id} | ({partnership.player_two_id} if partnership.player_two_id else set())


def _check_players_free(competition: Competition, partnership: Partnership) -> None:
    """A player sits at one table at a time: not in two partnerships entered in one competition."""
    players = _players_of(partnership)
    clash = (Entry.objects.filter(competition=competition, withdrawn=False, partnership__isnull=False)
             .exclude(partnership=partnership)
             .filter(Q(partnership__player_one__in=players) | Q(partnership__player_two__in=players))
             .select_related("partnership__player_one", "partnership__player_two").first())
    if clash is not None:
        assert clash.partnership is not None  # the entries asked for have a partnership
        shared = players & _players_of(clash.partnership)
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
        _check_partnership(competition, partnership)
        _check_players_free(competition, partnership)
    if team is not None and team.competition_id != competition.pk:
        raise SetupError("team", f"{team.name} is a team of another competition")
    _check_seed_value(seed, "seed")
    group = _clean_group(group, "group")
    division = _clean_division(division, "division")
    existing = Entry.objects.filter(competition=competition, **{wanted: entrant}).first()
    if existing is not None and not existing.withdrawn:
        raise SetupError(wanted, f"{existing.display_name} is already entered", clash=existing)
    if existing is None and wanted != "team":  # a team's club said yes when the team was made (create_team)
        entrant_of: dict[str, Any] = {wanted: entrant}  # a partnership or a player: not a team
        refused = missing_consent(competition, **entrant_of)
        if refused:
            raise NeedsInvitation(wanted, refused)
    _check_seed_free(competition, seed, existing, "seed")
    _check_group_count(competition, {group} if group else set(), existing, "group")
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


def _has_played(entry: Entry) -> bool:
    competition = entry.competition
    if entry.byes.exists():
        return True
    if entry.partnership_id is not None:
        return competition.matches.filter(Q(side_a=entry.partnership_id) | Q(side_b=entry.partnership_id)).exists()
    if entry.team_id is not None:
        return competition.team_matches.filter(Q(team_a=entry.team_id) | Q(team_b=entry.team_id)).exists()
    player = entry.player_id
    return competition.matches.filter(
        Q(side_a__player_one=player) | Q(side_a__player_two=player)
        | Q(side_b__player_one=player) | Q(side_b__player_two=player)).exists()


def remove_entry(*, entry: Entry) -> None:
    """Take an entry back altogether, while it has no match and no bye (withdraw it otherwise)."""
    if _has_played(entry):
        raise SetupError("entry", f"{entry.display_name} has been paired: withdraw it instead, so its results stand")
    competition = entry.competition
    with transaction.atomic():
        entry.delete()
        standings_stale_after_commit(competition.pk)


# ----------------------------------------------------------------------------- seeds and groups
def _check_seed_value(seed: object, field: str) -> None:
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 1 <= seed <= MAX_SEED):
        raise SetupError(field, f"a seed is a whole number from 1 to {MAX_SEED:,}")


def _check_seed_free(competition: Competition, seed: int | None, entry: Entry | None, field: str) -> None:
    if seed is None:
        return
    taken = Entry.objects.filter(competition=competition, seed=seed)
    if entry is not None:
        taken = taken.exclude(pk=entry.pk)
    other = taken.first()
    if other is not None:
        raise SetupError(field, f"seed {seed} is already {other.display_name}'s", clash=other)


def plain_name(text: str, field: str, what: str, most: int | None = None) -> str:
    """``text`` stripped, as one line of plain text of at most ``most`` characters (``validate_plain_text``), or a
    ``SetupError`` on ``field``: the pages, the API and the CSV import check a name the same way here."""
    text = (text or "").strip()
    try:
        validate_plain_text(text)
    except ValidationError as error:
        raise SetupError(field, f"{what} {error.messages[0]}") from None
    if most is not None and len(text) > most:
        raise SetupError(field, f"{what} has at most {most} characters")
    return text


def _clean_group(group: object, field: str) -> str:
    if group is None:
        return ""
    if not isinstance(group, str):
        raise SetupError(field, "a group is a name, e.g. A or Group 1")
    return plain_name(group, field, "a group's name", GROUP_MAX)


def _clean_division(division: object, field: str) -> str:
    if division is None:
        return ""
    if not isinstance(division, str):
        raise SetupError(field, "a division is a name, e.g. Premier or North")
    return plain_name(division, field, "a division's name", DIVISION_MAX)


def _check_group_count(competition: Competition, new: set[str], entry: Entry | None, field: str,
                       replaced: Iterable[int] = ()) -> None:
    if not competition.group_count or not new:
        return
    others = Entry.objects.filter(competition=competition).exclude(group="").exclude(pk__in=list(replaced))
    if entry is not None:
        others = others.exclude(pk=entry.pk)
    groups = set(others.values_list("group", flat=True)) | new
    if len(groups) > competition.group_count:
        raise SetupError(field, f"{competition.name} has {competition.group_count} groups, not {len(groups)} "
                                f"({', '.join(sorted(groups))})")


def _entries_by_id(competition: Competition, ids: Iterable[int]) -> dict[int, Entry]:
    wanted = {getattr(key, "pk", key) for key in ids}
    found = {entry.pk: entry for entry in Entry.objects.filter(competition=competition, pk__in=wanted)
             .select_related("partnership__player_one", "partnership__player_two", "team", "player")}
    missing = wanted - set(found)
    if missing:
        raise SetupError("entry", f"entry {min(missing)} is not an entry of {competition.name}")
    return found


def set_seeds(*, competition: Competition, seeds: Mapping[Any, int | None]) -> list[Entry]:
    """Give entries their seeds (entry or entry id → a seed from 1, or None for unseeded). Two entries may
    not share a seed; an error names the field ``seed_<entry id>``."""
    return arrange(competition=competition, seeds=seeds)


def set_groups(*, competition: Competition, groups: Mapping[Any, str]) -> list[Entry]:
    """Put entries in groups (entry or entry id → a group name, "" for none); no more groups than the
    competition's ``group_count`` when it has one. An error names the field ``group_<entry id>``."""
    return arrange(competition=competition, groups=groups)


def arrange(*, competition: Competition, seeds: Mapping[Any, int | None] | None = None,
            groups: Mapping[Any, str] | None = None,
            divisions: Mapping[Any, str] | None = None) -> list[Entry]:
    """Seeds, groups and divisions together, checked as a whole and saved in one go (see :func:`set_seeds`,
    :func:`set_groups`); returns the entries changed."""
    seeds = {getattr(key, "pk", key): value for key, value in (seeds or {}).items()}
    groups = {getattr(key, "pk", key): value for key, value in (groups or {}).items()}
    divisions = {getattr(key, "pk", key): _clean_division(value, f"division_{getattr(key, 'pk', key)}")
                 for key, value in (divisions or {}).items()}
    entries = _entries_by_id(competition, set(seeds) | set(groups) | set(divisions))
    for entry_id, seed in seeds.items():
        _check_seed_value(seed, f"seed_{entry_id}")
    _check_seeds_differ(competition, seeds)
    cleaned = {entry_id: _clean_group(group, f"group_{entry_id}") for entry_id, group in groups.items()}
    try:
        _check_group_count(competition, {group for group in cleaned.values() if group}, None, "groups",
                           replaced=cleaned)
    except SetupError as error:
        raise SetupError("groups", error.reason) from None
    changed = []
    with transaction.atomic():
        for entry_id, entry in entries.items():
            fields = []
            if entry_id in seeds and entry.seed != seeds[entry_id]:
                entry.seed = seeds[entry_id]
                fields.append("seed")
            if entry_id in cleaned and entry.group != cleaned[entry_id]:
                entry.group = cleaned[entry_id]
                fields.append("group")
            if entry_id in divisions and entry.division != divisions[entry_id]:
                entry.division = divisions[entry_id]
                fields.append("division")
            if fields:
                entry.save(update_fields=fields)
                changed.append(entry)
        if changed:
            standings_stale_after_commit(competition.pk)
    return changed


def _check_seeds_differ(competition: Competition, seeds: Mapping[int, int | None]) -> None:
    """No two entries share a seed once ``seeds`` is applied; the error is on the entry whose seed changed."""
    before = dict(Entry.objects.filter(competition=competition).exclude(seed=None).values_list("pk", "seed"))
    holders: dict[int, list[int]] = {}
    for entry_id, seed in {**before, **seeds}.items():
        if seed is not None:
            holders.setdefault(seed, []).append(entry_id)
    for seed, ids in sorted(holders.items()):
        if len(ids) > 1:
            culprit = max([entry_id for entry_id in ids if before.get(entry_id) != seed] or ids)
            other = Entry.objects.select_related("partnership__player_one", "partnership__player_two", "team",
                                                 "player").get(pk=min(set(ids) - {culprit}))
            raise SetupError(f"seed_{culprit}", f"seed {seed} is also {other.display_name}'s")


# ----------------------------------------------------------------------------- partnerships and teams
def _check_partners(player_one: Player | None, player_two: Player | None) -> None:
    if player_one is None:
        raise SetupError("player_one", "choose the first player")
    if player_two is not None and player_two.pk == player_one.pk:
        raise SetupError("player_two", "the partners must be two different players")


def partnerships_of(player_one: Player, player_two: Player | None = None) -> Any:
    """The partnership of exactly these players, in either order (of the one player in the 2-player game):
    at most one, as the ``unique_partners`` and ``unique_single_partner`` constraints hold."""
    if player_two is None:
        return Partnership.objects.filter(player_one=player_one, player_two__isnull=True)
    return Partnership.objects.filter(Q(player_one=player_one, player_two=player_two)
                                      | Q(player_one=player_two, player_two=player_one))


def already_partners(existing: Partnership) -> str:
    """Why a partnership of these players cannot be made again: it names the one there is."""
    if existing.player_two is None:
        players = f"{existing.player_one.name} already has a partnership"
    else:
        players = f"{existing.player_one.name} & {existing.player_two.name} are already a partnership"
    name = f"“{existing.name}”" if existing.name else "without a name"
    return f"{players}: {name} (id {existing.pk}); choose that one"


def create_partnership(*, club: Club | None, player_one: Player, player_two: Player | None = None,
                       name: str = "", reuse: bool = True) -> Partnership:
    """A new partnership of these players. The same players (either order) are one partnership, whatever its
    name: with ``reuse`` (an entry made on the spot) the existing one is returned when the name asked for is
    empty or its own; otherwise a ``SetupError`` names it (on ``name`` when only the name differs)."""
    _check_partners(player_one, player_two)
    name = plain_name(name, "name", "a partnership's name", PARTNERSHIP_NAME_MAX)
    existing = _existing_partnership(player_one, player_two)
    if existing is None:
        try:
            with transaction.atomic():
                return Partnership.objects.create(club=club, player_one=player_one, player_two=player_two,
                                                  name=name)
        except IntegrityError:  # made at the same moment by another request
            existing = _existing_partnership(player_one, player_two)
            if existing is None:
                raise
    if reuse and (not name or name.casefold() == existing.name.casefold()):
        return existing
    raise SetupError("name" if reuse else "player_one", already_partners(existing))


def update_partnership(*, partnership: Partnership, **changes: Any) -> Partnership:
    """Change a partnership's name, players or club; its players may not be another partnership's."""
    for field, value in changes.items():
        setattr(partnership, field, value)
    if partnership.player_two_id is not None and partnership.player_two_id == partnership.player_one_id:
        raise SetupError("player_two", "the partners must be two different players")
    other = _existing_partnership(partnership.player_one, partnership.player_two, exclude=partnership.pk)
    if other is not None:
        raise SetupError("player_one", already_partners(other))
    partnership.save()
    return partnership


def _existing_partnership(player_one: Player, player_two: Player | None,
                          exclude: int | None = None) -> Partnership | None:
    found = partnerships_of(player_one, player_two).select_related("player_one", "player_two")
    if exclude is not None:
        found = found.exclude(pk=exclude)
    return found.order_by("id").first()


def new_partnership(*, club: Club, player_one: Player, player_two: Player | None = None,
                    name: str = "") -> Partnership:
    """A partnership the club does not have yet (the CSV import's): refused when the players are already one of
    the club's partnerships, or when another of its partnerships has the name (names must tell them apart)."""
    _check_partners(player_one, player_two)
    name = plain_name(name, "name", "a partnership's name", PARTNERSHIP_NAME_MAX)
    existing = _existing_partnership(player_one, player_two)  # the same players are one partnership, anywhere
    if existing is not None:
        raise SetupError("player_one", f"these players are already the partnership {existing.display_name}",
                         clash=existing)
    if name:
        named = Partnership.objects.filter(_of_club(club), name__iexact=name).order_by("id").first()
        if named is not None:
            raise SetupError("name", f"{club.name} already has a partnership called {name!r}", clash=named)
    return Partnership.objects.create(club=club, player_one=player_one, player_two=player_two, name=name)


def _of_club(club: Club) -> Q:
    """The club's partnerships: its own, and those without a club whose first player is of the club."""
    return Q(club=club) | Q(club__isnull=True, player_one__home_club=club)


def _check_team(competition: Competition, name: str, partnerships: list[Partnership],
                team: Team | None = None, club: Club | None = None) -> str:
    if competition.entrant_kind != Competition.TEAMS:
        raise SetupError("name", f"{competition.name} is not a team competition")
    name = plain_name(name, "name", "a team's name", TEAM_NAME_MAX)
    if not name:
        raise SetupError("name", "give the team a name")
    taken = Team.objects.filter(competition=competition, name=name)
    if team is not None:
        taken = taken.exclude(pk=team.pk)
    if taken.exists():
        raise SetupError("name", f"{competition.name} already has a team {name!r}", clash=taken.first())
    already = set(team.partnerships.values_list("pk", flat=True)) if team is not None else set()
    for partnership in partnerships:
        try:
            _check_partnership(competition, partnership, field="partnerships")
        except SetupError as error:
            raise SetupError(error.field, error.reason, item=partnership) from None
        foreign = None if partnership.pk in already else other_club(
            competition, partnership=partnership, home={club.pk} if club is not None else set())
        if foreign is not None:
            raise NeedsInvitation("partnerships", f"{partnership.display_name} plays for {foreign.name}: a team has "
                                                  "its own club's pairs and guests", item=partnership)
    seen: dict[int, Partnership] = {}
    for partnership in partnerships:
        for player in _players_of(partnership):
            if player in seen and seen[player].pk != partnership.pk:
                raise SetupError("partnerships", f"{Player.objects.get(pk=player).name} is in both "
                                                 f"{seen[player].display_name} and {partnership.display_name}",
                                 item=partnership)
            seen[player] = partnership
    clash = (Team.partnerships.through.objects
             .filter(team__competition=competition, partnership__in=[p.pk for p in partnerships])
             .exclude(team_id=getattr(team, "pk", None)).select_related("team")  # type: ignore[misc]  # None: no team
             .first())
    if clash is not None:
        other = next(p for p in partnerships if p.pk == clash.partnership_id)
        raise SetupError("partnerships", f"{other.display_name} already plays for {clash.team.name}", item=other,
                         clash=clash.team)
    return name


def create_team(*, competition: Competition, name: str, club: Club | None = None,
                partnerships: Iterable[Partnership] = (), seed: int | None = None, group: str = "", division: str = "",
                refresh: bool = True) -> Team:
    """A club's team of pairs for a team competition, entered in it (from the next unpaired round);
    ``refresh`` as for :func:`enter`."""
    partnerships = list(partnerships)
    name = _check_team(competition, name, partnerships, club=club)
    refused = missing_team_consent(competition, club, name)
    if refused:
        raise NeedsInvitation("club", refused)
    with transaction.atomic():
        team = Team.objects.create(competition=competition, club=club, name=name)
        team.partnerships.set(partnerships)
        enter(competition=competition, team=team, seed=seed, group=group, division=division, refresh=refresh)
    return team


def edit_team(*, team: Team, name: str | None = None, club: Club | None | object = ...,
              partnerships: Iterable[Partnership] | None = None) -> Team:
    """Rename a team, change its club or its pairs (its results stand)."""
    competition = team.competition
    chosen = list(partnerships) if partnerships is not None else list(team.partnerships.all())
    new_club = team.club if club is ... else cast("Club | None", club)
    name = _check_team(competition, team.name if name is None else name, chosen, team=team, club=new_club)
    if club is not ... and getattr(club, "pk", None) != team.club_id:
        refused = missing_team_consent(competition, new_club, team.name)
        if refused:
            raise NeedsInvitation("club", refused)
    with transaction.atomic():
        team.name = name
        if club is not ...:
            team.club = new_club
        team.save()
        if partnerships is not None:
            team.partnerships.set(chosen)
        standings_stale_after_commit(competition.pk)
    return team
