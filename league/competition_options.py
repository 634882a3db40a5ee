"""A competition's options: checked together (:func:`check_competition`, with the checks the layers above add
through :func:`register_option_check`), changed (:func:`update_competition`) and published
(:func:`set_published`). A change that can move the standings rewrites them once it has committed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models, transaction

from engine import Ruleset, RulesetError, most_chalks_at_game_end, most_hang_jacks_in_game
from league.models import Competition
from league.setup_errors import SetupError
from league.signals import (
    publication_changed_after_commit,
    ratings_stale_after_commit,
    standings_stale_after_commit,
)

KNOCKOUTS = (Competition.KNOCKOUT, Competition.GROUPS_KNOCKOUT)
LOCKED_BY_MATCHES = ("players", "ruleset")


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
