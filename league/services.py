"""Business operations on clubs and competitions: creating them, entries, and the standings."""

from __future__ import annotations

from datetime import timedelta

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.text import slugify

from league import dispatch, standings
from league.bulk import update_rows
from league.models import Bye, Club, Competition, Entry, Partnership, ResultsClock, Round, StandingRow

COLUMNS = ("bullseyes_for", "bullseyes_against", "chalks_for", "chalks_against", "hang_jacks_for",
           "hang_jacks_against")
PAIRS_SECTION = "pairs"


def standings_settings(competition: Competition, *, team_ranking: bool = False) -> standings.StandingsSettings:
    """The competition's standings rules as the standings module takes them (raises StandingsError naming the
    field when an organiser stored a bad tiebreak or bye score)."""
    return standings.StandingsSettings(
        tiebreaks=tuple(competition.tiebreaks or ()) or standings.DEFAULT_SETTINGS.tiebreaks,
        points_win=competition.points_win, points_draw=competition.points_draw,
        points_loss=competition.points_loss, bye_policy=competition.bye_policy,
        bye_score=competition.bye_score or {},
        games_to_win=competition.team_target if team_ranking else competition.games_to_win())


def compute_standings(competition_id: int) -> list[dict]:
    """The competition's standings rows (fields of ``StandingRow``) from its entries, results and byes, by
    ``league.standings``: partnerships, teams (then per-pair statistics of the tables), or players. Matches and
    byes of draft rounds are not counted: the rows are the same for the organisers and the public."""
    from games.selectors import results_for_standings, team_results_for_standings

    competition = Competition.objects.get(pk=competition_id)
    entries = list(Entry.objects.filter(competition_id=competition_id)
                   .values("id", "partnership_id", "team_id", "player_id", "withdrawn", "group"))
    kind = competition.entrant_kind
    matches = results_for_standings(competition_id)
    if competition.system == Competition.GROUPS_KNOCKOUT:
        matches = [m for m in matches if m.get("group")]  # the group stage ranks; the knockout is a bracket
    byes = list(Bye.objects.filter(round__competition_id=competition_id, round__status=Round.PUBLISHED)
                .values("entry_id", "round__number"))  # a draft's byes (and matches) count once it is published
    key = {Competition.PAIRS: "partnership_id", Competition.TEAMS: "team_id",
           Competition.INDIVIDUAL: "player_id"}[kind]
    entrant_of_entry = {entry["id"]: entry[key] for entry in entries}
    entrants = [standings.Entrant(entry[key], entry["withdrawn"], entry["group"]) for entry in entries]
    bye_list = [standings.Bye(entrant_of_entry[b["entry_id"]], b["round__number"]) for b in byes
                if b["entry_id"] in entrant_of_entry]
    if kind == Competition.TEAMS:
        teams = [_result(row, "team_a_id", "team_b_id", bullseyes=True)
                 for row in team_results_for_standings(competition_id)]
        rows = _rows(entrants, teams, bye_list, standings_settings(competition, team_ranking=True), key)
        tables = [m for m in matches if m.get("team_match_id")]
        pairs = sorted({m["side_a_id"] for m in tables} | {m["side_b_id"] for m in tables})
        pair_results = [_result(m, "side_a_id", "side_b_id") for m in tables]
        return rows + _rows([standings.Entrant(p) for p in pairs], pair_results, [],
                            standings_settings(competition), "partnership_id", section=PAIRS_SECTION)
    if kind == Competition.INDIVIDUAL:
        players = _players_of(matches)
        results = [_result(m, "side_a_id", "side_b_id", sides=players) for m in matches]
    else:
        results = [_result(m, "side_a_id", "side_b_id") for m in matches]
    return _rows(entrants, results, bye_list, standings_settings(competition), key)


def _players_of(matches: list[dict]) -> dict[int, tuple[int, ...]]:
    ids = {m["side_a_id"] for m in matches} | {m["side_b_id"] for m in matches}
    return {p["id"]: tuple(filter(None, (p["player_one_id"], p["player_two_id"])))
            for p in Partnership.objects.filter(id__in=ids).values("id", "player_one_id", "player_two_id")}


def _result(row: dict, a: str, b: str, *, bullseyes: bool = False, sides: dict | None = None) -> standings.Result:
    games = ("bullseyes_a", "bullseyes_b") if bullseyes else ("games_a", "games_b")
    return standings.Result(
        a=sides[row[a]] if sides else (row[a],), b=sides[row[b]] if sides else (row[b],),
        complete=row["status"] == "complete", winner=row.get("winner") or "",
        games_a=row[games[0]], games_b=row[games[1]], chalks_a=row.get("chalks_a", 0), chalks_b=row.get("chalks_b", 0),
        hang_jacks_a=row.get("hang_jacks_a", 0), hang_jacks_b=row.get("hang_jacks_b", 0),
        chalks_known=row.get("chalks_known", True), level=row.get("result_level") or "hand",
        outcome=row.get("outcome") or "played", round=row.get("round_number"))


def _rows(entrants, results, byes, settings, key: str, section: str = "") -> list[dict]:
    rows = []
    for line in standings.compute_standings(entrants, results, byes, settings):
        metrics = line.metrics
        rows.append({
            key: line.entrant, "section": section, "group": line.group, "rank": line.rank,
            "played": line.played, "won": line.won, "drawn": line.drawn, "lost": line.lost,
            "match_points": round(line.match_points), "byes": line.byes, "withdrawn": line.withdrawn,
            "coarse": line.coarse, "metrics": metrics, **{name: round(metrics[name]) for name in COLUMNS}})
    return rows


def tick_results_clock(competition_id: int) -> int:
    """Note that the competition's results changed (call it once the change has committed); returns the
    clock's new version, which ``refresh_standings(..., wanted=version)`` is asked to cover."""
    table = ResultsClock._meta.db_table
    with connection.cursor() as cursor:  # one statement: the ORM's update cannot return the new value
        cursor.execute(f"UPDATE {table} SET version = version + 1 WHERE competition_id = %s RETURNING version",
                       [competition_id])
        row = cursor.fetchone()
    if row is not None:
        return row[0]
    with transaction.atomic():  # the competition's first result
        ResultsClock.objects.get_or_create(competition_id=competition_id)
        ResultsClock.objects.filter(pk=competition_id).update(version=F("version") + 1)
        return ResultsClock.objects.values_list("version", flat=True).get(pk=competition_id)


SETTLE_REQUEST_STALE = 30  # s: a request older than this is taken for a lost task: a commit queues another, and the
# workers' sweep settles the competition itself


def request_settle(competition_id: int) -> bool:
    """Note that the competition has committed results to settle; True when no settle task is queued for it yet
    and the caller must queue one. Call it after the commit: the queued task clears the note as it starts
    (``take_settle_request``) and only then reads the results, so a commit that finds the note set is seen by
    the task that set it."""
    now = timezone.now()
    stale = now - timedelta(seconds=SETTLE_REQUEST_STALE)
    pending = Q(settle_requested_at__isnull=True) | Q(settle_requested_at__lt=stale)
    if ResultsClock.objects.filter(pending, pk=competition_id).update(settle_requested_at=now):
        return True
    _, created = ResultsClock.objects.get_or_create(competition_id=competition_id,
                                                    defaults={"settle_requested_at": now})
    # created by someone else just now (without a request): ask again
    return created or bool(ResultsClock.objects.filter(pending, pk=competition_id).update(settle_requested_at=now))


def take_settle_request(competition_id: int) -> None:
    """The settle task starts: from now on a commit queues a new task (this one may already have read past it)."""
    ResultsClock.objects.filter(pk=competition_id).update(settle_requested_at=None)


def results_clock(competition_id: int) -> int:
    """The competition's results-clock version (0 before its first result)."""
    return ResultsClock.objects.filter(pk=competition_id).values_list("version", flat=True).first() or 0


def stale_settle_requests(older_than: float) -> list[int]:
    """The competitions whose settle request is older than ``older_than`` seconds (its task may be lost)."""
    since = timezone.now() - timedelta(seconds=older_than)
    return list(ResultsClock.objects.filter(settle_requested_at__lte=since).values_list("pk", flat=True))


def standings_behind_results() -> list[int]:
    """The competitions whose standings were computed from an older results clock than the one ticked last (a
    refresh that died after the tick)."""
    return list(ResultsClock.objects.filter(version__gt=F("competition__standings_version"))
                .values_list("pk", flat=True))


def refresh_standings_after_commit(competition_id: int) -> None:
    """Queue the competition's standings refresh for when the current transaction commits (entries, options
    and team results change the standings outside the settle task); refreshed here when the broker is down."""
    from league.tasks import refresh_standings_task

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
        rows = compute_standings(competition_id)  # under the lock, so an older computation never lands last
        _write_rows(competition_id, rows)
        Competition.objects.filter(pk=competition_id).update(standings_version=clock)
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


# ----------------------------------------------------------------------------- creating (API and pages)
RESERVED_SLUGS = frozenset({"import", "competitions", "new", "edit", "manage", "players", "teams", "entries",
                            "rounds", "bracket", "standings", "results", "setup"})  # words the page URLs use


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


def enter_partnership(*, competition: Competition, partnership: Partnership, seed: int | None = None) -> Entry:
    """Enter a partnership in a competition (again, if it had withdrawn)."""
    entry, _ = Entry.objects.update_or_create(competition=competition, partnership=partnership,
                                              defaults={"seed": seed, "withdrawn": False})
    return entry
