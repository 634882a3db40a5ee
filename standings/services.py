"""The standings of a competition: computed from its entries, results and byes by ``standings.metrics`` and
stored as ``StandingRow`` rows, rewritten by ``refresh_standings`` under the competition's lock."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.agreement import pending_match_ids
from games.choices import MatchStatus, Outcome, ResultLevel
from games.clock import results_clock
from games.selectors import results_for_standings, team_results_for_standings
from league import dispatch
from league.bulk import update_rows
from league.checkins import no_shows
from league.choices import StandingsSection, UnconfirmedResults
from league.models import Competition, Entry, Partnership, ResultsClock
from league.setup_errors import SetupError
from standings import metrics as standings
from standings.models import StandingRow
from standings.signals import standings_refreshed

COLUMNS = ("bullseyes_for", "bullseyes_against", "chalks_for", "chalks_against", "hang_jacks_for",
           "hang_jacks_against")


PAIRS_SECTION = StandingsSection.PAIRS


def competition_settings(competition: Competition, *, team_ranking: bool = False) -> standings.StandingsSettings:
    """The competition's standings rules as the standings module takes them (raises StandingsError naming the
    field when an organiser stored a bad tiebreak or bye score)."""
    return standings.StandingsSettings(
        tiebreaks=tuple(competition.tiebreaks or ()) or standings.DEFAULT_SETTINGS.tiebreaks,
        points_win=competition.points_win, points_draw=competition.points_draw,
        points_loss=competition.points_loss, bye_policy=competition.bye_policy,
        bye_score=competition.bye_score or {},
        games_to_win=competition.team_target if team_ranking else competition.games_to_win(),
        division_ranking=competition.division_ranking)


def standings_rows(competition_id: int) -> list[dict]:
    """The competition's standings rows (fields of ``StandingRow``) from its entries, results and byes, by
    ``standings.metrics``: partnerships, teams (then per-pair statistics of the tables), or players. Matches and
    byes of draft rounds are not counted: the rows are the same for the organisers and the public."""
    competition = Competition.objects.get(pk=competition_id)
    entries: list[Any] = list(Entry.objects.filter(competition_id=competition_id)
                   .values("id", "partnership_id", "team_id", "player_id", "withdrawn", "group", "division"))
    kind = competition.entrant_kind
    held = held_match_ids(competition)
    every_match = results_for_standings(competition_id)
    matches = [m for m in every_match if _begun(m) and m["id"] not in held]
    if competition.system == Competition.GROUPS_KNOCKOUT:
        matches = [m for m in matches if m.get("group")]  # the group stage ranks; the knockout is a bracket
    # draw's byes, from the app registry (standings sits below draw and does not import it); a draft's byes (and
    # matches) count once it is published
    bye_model, round_model = apps.get_model("draw", "Bye"), apps.get_model("draw", "Round")
    byes = list(bye_model.objects.filter(round__competition_id=competition_id, round__status=round_model.PUBLISHED)
                .values("entry_id", "round__number"))
    key = {Competition.PAIRS: "partnership_id", Competition.TEAMS: "team_id",
           Competition.INDIVIDUAL: "player_id"}[kind]
    entrant_of_entry = {entry["id"]: entry[key] for entry in entries}
    entrants = [standings.Entrant(entry[key], entry["withdrawn"], entry["group"], entry["division"])
                for entry in entries]
    bye_list = [standings.Bye(entrant_of_entry[b["entry_id"]], b["round__number"]) for b in byes
                if b["entry_id"] in entrant_of_entry]
    absences = [standings.Absence(entrant_of_entry[entry_id], number) for entry_id, number in no_shows(competition)
                if entry_id in entrant_of_entry]
    if kind == Competition.TEAMS:
        held_teams = {m["team_match_id"] for m in every_match if m["id"] in held}
        teams = [_result(row, "team_a_id", "team_b_id", bullseyes=True)
                 for row in team_results_for_standings(competition_id) if _begun(row) and row["id"] not in held_teams]
        rows = _rows(entrants, teams, bye_list, competition_settings(competition, team_ranking=True), key, absences)
        tables = [m for m in matches if m.get("team_match_id")]
        pairs = sorted({m["side_a_id"] for m in tables} | {m["side_b_id"] for m in tables})
        pair_results = [_result(m, "side_a_id", "side_b_id") for m in tables]
        return rows + _rows([standings.Entrant(p) for p in pairs], pair_results, [],
                            competition_settings(competition), "partnership_id", section=PAIRS_SECTION)
    if kind == Competition.INDIVIDUAL:
        players = _players_of(matches)
        results = [_result(m, "side_a_id", "side_b_id", sides=players) for m in matches]
    else:
        results = [_result(m, "side_a_id", "side_b_id") for m in matches]
    return _rows(entrants, results, bye_list, competition_settings(competition), key, absences)


def held_match_ids(competition: Competition) -> set[int]:
    """The matches the standings leave out for now: results still to confirm (or disputed) where the organiser
    set them not to count until agreed (``Competition.unconfirmed_results``)."""
    if not competition.confirm_results or competition.unconfirmed_results != UnconfirmedResults.HELD:
        return set()
    return pending_match_ids(competition.pk)


def _players_of(matches: list[dict]) -> dict[int, tuple[int, ...]]:
    ids = {m["side_a_id"] for m in matches} | {m["side_b_id"] for m in matches}
    return {p["id"]: tuple(filter(None, (p["player_one_id"], p["player_two_id"])))
            for p in Partnership.objects.filter(id__in=ids).values("id", "player_one_id", "player_two_id")}


def _begun(row: dict) -> bool:
    """A match or team match that has begun or has a result: a fixture not yet played counts for nothing, not
    even as a result whose chalks were kept (a season of totals without chalks shows its chalks as "—")."""
    return row["status"] != MatchStatus.SCHEDULED or (row.get("outcome") or Outcome.PLAYED) != Outcome.PLAYED


def _result(row: dict, a: str, b: str, *, bullseyes: bool = False, sides: dict | None = None) -> standings.Result:
    games = ("bullseyes_a", "bullseyes_b") if bullseyes else ("games_a", "games_b")
    return standings.Result(
        a=sides[row[a]] if sides else (row[a],), b=sides[row[b]] if sides else (row[b],),
        complete=row["status"] == MatchStatus.COMPLETE, winner=row.get("winner") or "",
        games_a=row[games[0]], games_b=row[games[1]], chalks_a=row.get("chalks_a", 0), chalks_b=row.get("chalks_b", 0),
        hang_jacks_a=row.get("hang_jacks_a", 0), hang_jacks_b=row.get("hang_jacks_b", 0),
        chalks_known=row.get("chalks_known", True), level=row.get("result_level") or ResultLevel.HAND,
        outcome=row.get("outcome") or Outcome.PLAYED, round=row.get("round_number"))


CHALK_COLUMNS = ("chalks_for", "chalks_against")


def _rows(entrants, results, byes, settings, key: str, absences=(), section: str = "") -> list[dict]:
    rows = []
    for line in standings.compute_standings(entrants, results, byes, settings, absences):
        metrics: Mapping[str, float | None] = line.metrics
        columns: dict[str, Decimal | None] = {name: exact_decimal(line.metrics[name]) for name in COLUMNS}
        if not line.chalks_kept:
            columns.update(dict.fromkeys(CHALK_COLUMNS))
            metrics = {name: None if name.startswith("chalk") else value for name, value in metrics.items()}
        rows.append({
            key: line.entrant, "section": section, "group": line.group, "division": line.division, "rank": line.rank,
            "played": line.played, "won": line.won, "drawn": line.drawn, "lost": line.lost,
            "match_points": exact_decimal(line.match_points), "byes": line.byes, "withdrawn": line.withdrawn,
            "coarse": line.coarse, "metrics": metrics, **columns})
    return rows


def exact_decimal(value: int | float) -> Decimal:
    """A standings figure as its column stores it: exact to four places (halves and quarters exactly)."""
    return Decimal(value).quantize(PLACES) if isinstance(value, float) else Decimal(value)


PLACES = Decimal("0.0001")


def standings_behind_results() -> list[int]:
    """The competitions whose standings were computed from an older results clock than the one ticked last (a
    refresh that died after the tick)."""
    return list(ResultsClock.objects.filter(version__gt=F("competition__standings_version"))
                .values_list("pk", flat=True))


def refresh_standings_after_commit(competition_id: int) -> None:
    """Queue the competition's standings refresh for when the current transaction commits (entries, options
    and team results change the standings outside the settle task); refreshed here when the broker is down."""
    from standings.tasks import refresh_standings_task  # the task module imports this one

    transaction.on_commit(lambda: dispatch.send(refresh_standings_task, competition_id))


def refresh_standings(competition_id: int, wanted: int | None = None) -> int | None:
    """Rewrite the competition's standings rows from its results; returns how many rows.

    With ``wanted`` (a results-clock version), a refresh that began after that version was ticked has
    already covered it: then nothing is computed and None is returned. A burst of settled hands thus costs
    one computation for all the hands that waited on the lock, not one each."""
    if wanted is not None and Competition.objects.filter(pk=competition_id, standings_version__gte=wanted).exists():
        return None  # seen without waiting for the lock that a refresh in progress holds
    with transaction.atomic():
        # no_key: the refresh changes no key of the row; it serialises the refreshes without blocking the key-share
        # locks of foreign-key checks on rows added to the competition
        competition = Competition.objects.select_for_update(no_key=True).get(pk=competition_id)
        if wanted is not None and competition.standings_version >= wanted:
            return None
        # the clock is read before the results, so every change it counts is visible to the computation
        clock = results_clock(competition_id)
        rows = standings_rows(competition_id)  # under the lock, so an older computation never lands last
        _write_rows(competition_id, rows)
        Competition.objects.filter(pk=competition_id).update(standings_version=clock)
        transaction.on_commit(lambda: standings_refreshed.send(sender=None, competition_id=competition_id),
                              robust=True)  # a listener that fails (the live layer down) fails no refresh
    return len(rows)


ROW_KEY = ("section", "partnership_id", "team_id", "player_id")


def _write_rows(competition_id: int, rows: list[dict]) -> None:
    """Bring the stored rows in line with ``rows``, writing only the rows that changed: a settled hand
    usually moves two lines and a few ranks, and rewriting every row would cost most of the refresh."""
    fields = sorted({name for row in rows for name in row} - set(ROW_KEY))
    stored = {tuple(old[k] for k in ROW_KEY): old for old in
              StandingRow.objects.filter(competition_id=competition_id).values("id", *ROW_KEY, *fields)}
    now = timezone.now()
    created, changed = [], []
    for row in rows:
        old = stored.pop(tuple(row.get(k, "" if k == "section" else None) for k in ROW_KEY), None)
        if old is None:
            created.append(StandingRow(competition_id=competition_id, **row))
        elif any(old[name] != row[name] for name in fields):
            changed.append(StandingRow(id=old["id"], competition_id=competition_id, updated_at=now, **row))
    if stored:
        StandingRow.objects.filter(id__in=[old["id"] for old in stored.values()]).delete()
    if changed:
        update_rows(changed, [*fields, "updated_at"])
    if created:
        StandingRow.objects.bulk_create(created)


def check_standings_options(get: Callable[[str], Any]) -> None:
    """The tiebreak order, points and bye score of a competition's options
    (``league.competition_options.check_competition``) as ``standings.metrics`` reads them."""
    match_format, games = get("match_format"), get("match_games")
    games_to_win = 1 if match_format == Competition.SINGLE else (
        games // 2 + 1 if match_format == Competition.BEST_OF else games)
    try:
        standings.StandingsSettings(
            tiebreaks=get("tiebreaks"), points_win=get("points_win"), points_draw=get("points_draw"),
            points_loss=get("points_loss"), bye_policy=get("bye_policy"), bye_score=get("bye_score") or {},
            games_to_win=max(games_to_win, 1))
    except standings.StandingsError as error:  # fields: tiebreaks, points_*, bye_policy, bye_score, bye_score.<key>
        raise SetupError(error.field, error.reason) from None
