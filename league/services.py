"""Business operations on clubs and competitions: creating them (entries: ``league.entries``, options:
``league.competition_options``)."""

from __future__ import annotations

from typing import cast

from django.db import transaction
from django.utils.text import slugify

from league.consent import other_club
from league.models import Club, Competition, Entry, EntryInvitation, Team
from league.setup_errors import SetupError

RESERVED_SLUGS = frozenset({  # words the page URLs use
    "import", "competitions", "new", "edit", "manage", "players", "people", "teams", "entries", "rounds", "bracket",
    "standings", "results", "setup", "archive", "tables"})


def unique_slug(queryset, text: str, wanted: str = "") -> str:
    """``wanted`` if given, else a slug of ``text`` made unique within ``queryset`` (``-2``, ``-3``, …) that is
    none of the words the pages' URLs use after a club's or competition's slug."""
    if wanted:
        return wanted
    base = slugify(text)[:100] or "untitled"
    slug, n = base, 1
    while slug in RESERVED_SLUGS or queryset.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def create_club(*, name: str, slug: str = "", town: str = "") -> Club:
    return Club.objects.create(name=name, slug=unique_slug(Club.objects.all(), name, slug), town=town)


def create_competition(*, club: Club, name: str, slug: str = "", **fields) -> Competition:
    """A competition of ``club``; the slug is made from the name when not given."""
    slug = unique_slug(Competition.objects.filter(club=club), name, slug)
    return Competition.objects.create(club=club, name=name, slug=slug, **fields)


# what a new season takes over from the last: the format, the standings' rules and the team settings
SEASON_FIELDS = ("players", "ruleset", "match_format", "match_games", "system", "entrant_kind", "result_level",
                 "planned_rounds", "avoid_same_club", "tiebreaks", "points_win", "points_draw", "points_loss",
                 "bye_policy", "bye_score", "division_ranking", "third_place_match", "group_count",
                 "advance_per_group", "team_tables", "team_mode", "team_target", "team_games_per_table",
                 "confirm_results", "unconfirmed_results", "play_online", "online_grace_minutes", "online_no_show",
                 "online_bot_rated", "online_next_round", "online_tie_by_tie", "online_clock_minutes",
                 "online_increment_seconds", "online_increment_per", "online_spectators")
SEASON_MAX = cast(int, Competition._meta.get_field("season").max_length)  # a CharField's: never None


def copy_to_new_season(*, competition: Competition, season: str, name: str = "",
                       entrants: bool = True) -> Competition:
    """A new competition of the same club for ``season``, with the old one's format, tiebreaks, bye rules, rule
    variants and team settings, as a draft (published when the organiser says); with ``entrants``, every entrant
    not withdrawn, with its seed, group and division (a team league's teams with their pairs); another club's
    entrants are invited again rather than entered. No round, match or result is copied. ``name`` defaults to the
    old name; the slug is made unique."""
    season = (season or "").strip()
    if not season:
        raise SetupError("season", "name the new season, e.g. 2027")
    if len(season) > SEASON_MAX:
        raise SetupError("season", f"at most {SEASON_MAX} characters")
    name = (name or "").strip() or competition.name
    if Competition.objects.filter(club=competition.club_id, name=name, season=season).exists():
        raise SetupError("season", f"{competition.club.name} already has {name} in {season}")
    with transaction.atomic():
        new = create_competition(club=competition.club, name=name, slug="",
                                 **{field: getattr(competition, field) for field in SEASON_FIELDS},
                                 season=season, published=False)
        if entrants:
            _copy_entrants(competition, new)
    return new


def _copy_entrants(old: Competition, new: Competition) -> None:
    """The old season's entrants, entered again; another club's are invited again instead (their yes was to the
    old season), and enter once that club or the players accept."""
    teams: dict[int | None, Team] = {}
    invited = []
    for team in old.teams.prefetch_related("partnerships").select_related("club"):
        if other_club(new, team_club=team.club) is not None:
            invited.append(EntryInvitation(competition=new, club=team.club, team_name=team.name))
            continue
        teams[team.pk] = Team.objects.create(competition=new, club=team.club, name=team.name)
        teams[team.pk].partnerships.set(team.partnerships.all())
    entries = []
    for entry in old.entries.filter(withdrawn=False).select_related(
            "partnership__player_one", "partnership__player_two", "player").order_by("id"):
        if entry.team_id is not None and entry.team_id not in teams:
            continue  # another club's team: invited above
        club = other_club(new, partnership=entry.partnership, player=entry.player) if entry.team_id is None else None
        if club is not None:
            invited.append(EntryInvitation(competition=new, club=club, partnership=entry.partnership,
                                           player=entry.player))
            continue
        entries.append(Entry(competition=new, partnership_id=entry.partnership_id, player_id=entry.player_id,
                             team=teams.get(entry.team_id), seed=entry.seed, group=entry.group,
                             division=entry.division))
    Entry.objects.bulk_create(entries)
    EntryInvitation.objects.bulk_create(invited)
