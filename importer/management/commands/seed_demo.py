"""``manage.py seed_demo``: a realistic demo league whose hands were played by the engine's bots.

Three clubs, thirty players, fifteen partnerships, and one event of each kind the app runs:

- a published inter-bar league of eight pairs (best of 3 games to 14), its round-robin schedule from
  the pairing engine, the first rounds played hand by hand by the heuristic bots and stored through
  ``games.services.enter_hand`` exactly as a scorekeeper's entries are, and one match in progress;
- a Swiss open night of all fifteen pairs (pairs of one club kept apart, a bye each round), two rounds
  paired by the pairing task and kept as match totals only, the third round a draft for review;
- a seeded knockout cup (best of 3, third-place match) whose first round is played;
- an inter-club team league (three tables a side racing to 22 bullseyes) with one team match decided
  and one seated;
- everyone's ratings, rebuilt from all those results.

Users: ``organiser`` (runs every demo club), ``scorekeeper`` (given the match in progress) and the
superuser ``admin``.

Idempotent: a second run finds the demo in place and only resets the demo users' passwords;
``--reset`` wipes the demo clubs and everything under them first. Every match is dealt from its
own fixed seed, so the demo is the same on every machine.
"""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta
from datetime import time as clock
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from draw.models import Round
from draw.pairing import pair
from draw.publishing import publish_round
from draw.request import request_pairing
from engine import HandState, Ruleset
from engine.bots import make_bot
from engine.cards import CARD_NAMES
from games import services
from games.models import Hand, Match, TeamMatch
from league import invitations
from league.models import Club, ClubRole, Competition, Entry, Partnership, Player, Team
from league.teams import create_team, edit_team
from standings.ratings import rebuild_ratings

DEMO_PASSWORD = "allfours-demo"
ORGANISER, SCOREKEEPER, ADMIN = "organiser", "scorekeeper", "admin"

# (name, slug, town, [(player, nickname), …], [partnership names, blank = the players' names])
CLUBS: list[tuple[str, str, str, list[tuple[str, str]], list[str]]] = [
    ("Bamboo Corner Bar", "bamboo-corner", "St James", [
        ("Ravi Ramdass", "Doubles"), ("Kwame Alexander", "Scorpio"), ("Anthony Joseph", "Tony Pan"),
        ("Marlon Baptiste", "Bap"), ("Sharon Charles", "Miss Sharon"), ("Dexter Mohammed", "Dex"),
        ("Gerard La Fortune", "Fortune"), ("Kerwin Phillip", "Chalk"), ("Andrea Williams", "Dre"),
        ("Vishnu Persad", "Pundit"),
    ], ["Hang Jack Kings", "Bamboo Bullseye", "Sweet Hand", "Tabanca Two", ""]),
    ("Pelican Sports & Social Club", "pelican-sports-club", "San Fernando", [
        ("Rajesh Maharaj", "Raj"), ("Curtis Francis", "Boss"), ("Lystra Mohammed", "Lys"),
        ("Nigel Sookdeo", "Sookie"), ("Trevor Ali", "Jack Man"), ("Kelvin George", "Kello"),
        ("Indira Rampersad", "Indy"), ("Wendell Roberts", "Tallman"), ("Hayden Noel", "Papa"),
        ("Candice Ramkissoon", "Candy"),
    ], ["Southern Chalk", "Pelican Pride", "Oilfield Aces", "Marabella Movers", ""]),
    ("Crossroads Rumshop", "crossroads-rumshop", "Couva", [
        ("Dinesh Boodram", "Dino"), ("Selwyn Cudjoe", "Sello"), ("Ramesh Seepersad", "Pepper"),
        ("Jason Lewis", "Jiggy"), ("Kamla Baksh", "Auntie Kamla"), ("Roger Edwards", "Rasta"),
        ("Shiva Ramoutar", "Shiv"), ("Patricia Greene", "Patsy"), ("Mukesh Singh", "Mucky"),
        ("Winston Cato", "Ole Dog"),
    ], ["Couva Connection", "Sugar Cane Deuces", "Preysal Pair", "", "Crossroads Hustlers"]),
]
DEMO_CLUB_SLUGS = [slug for _, slug, *_ in CLUBS]
LEAGUE_CLUB, LEAGUE_SLUG = "bamboo-corner", "inter-bar-league-2025"
KNOCKOUT_CLUB, KNOCKOUT_SLUG = "crossroads-rumshop", "christmas-knockout-2025"
SWISS_CLUB, SWISS_SLUG = "pelican-sports-club", "friday-open-swiss"
TEAMS_CLUB, TEAMS_SLUG = "bamboo-corner", "tri-bar-team-challenge"
SWISS_ROUNDS_PLAYED = 2         # Swiss rounds paired, published and played; the next one is a draft
LEAGUE_ENTRANTS = {"bamboo-corner": 3, "pelican-sports-club": 3, "crossroads-rumshop": 2}
ROUNDS_PLAYED = 3               # whole rounds played before the current one
CURRENT_ROUND_COMPLETE = 3      # matches of the current round already finished; the next is in progress
IN_PROGRESS_HANDS = 4           # hands of game 2 entered in the match in progress
CHALK_ROUND = 2                 # this round's hands were chalked on the board rather than recorded card by card


class Command(BaseCommand):
    help = "Create a demo league (clubs, players, a league with bot-played matches, demo users). Idempotent."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--reset", action="store_true", help="wipe the demo clubs and everything under them first")
        parser.add_argument("--allow-production", action="store_true",
                            help=f"run even with DJANGO_PRODUCTION=1 (the demo users' password is {DEMO_PASSWORD!r})")

    def handle(self, *args: Any, reset: bool = False, allow_production: bool = False, **options: Any) -> None:
        from celery import current_app as celery_app  # config.celery, loaded with the settings

        if getattr(settings, "PRODUCTION", False) and not allow_production:
            raise CommandError("this is a production site (DJANGO_PRODUCTION=1): the demo users have a published "
                               "password; pass --allow-production to seed it anyway")
        started = time.perf_counter()
        eager = celery_app.conf.task_always_eager
        celery_app.conf.task_always_eager = True  # settle each hand in-process: the next game opens at once
        try:
            if reset:
                self.stdout.write(f"Removed the demo: {wipe_demo()}")
            users = ensure_users()
            if demo_complete():
                self.stdout.write("The demo league is already in place (use --reset to build it again).")
            else:
                if Club.objects.filter(slug__in=DEMO_CLUB_SLUGS).exists():
                    self.stdout.write(f"An unfinished demo was found and removed: {wipe_demo()}")
                summary = build_demo(users, log=self.stdout.write)
                self.stdout.write(self.style.SUCCESS(
                    f"Demo built in {time.perf_counter() - started:.1f} s: {summary}"))
        except ProtectedError as error:
            raise CommandError(f"cannot remove the demo: other data refers to it ({error.args[0]})") from None
        finally:
            celery_app.conf.task_always_eager = eager
        self.stdout.write(login_lines())


def login_lines() -> str:
    return "\n".join([
        "Demo logins:",
        f"  organiser:   {ORGANISER} / {DEMO_PASSWORD}   (runs every demo club's competitions)",
        f"  scorekeeper: {SCOREKEEPER} / {DEMO_PASSWORD}   (enters hands for the match in progress)",
        f"  superuser:   {ADMIN} / {DEMO_PASSWORD}   (/admin/)",
    ])


# ----------------------------------------------------------------------------- users
def ensure_users() -> dict[str, Any]:
    User = get_user_model()
    users = {}
    for username, first, superuser in ((ORGANISER, "Organiser", False), (SCOREKEEPER, "Scorekeeper", False),
                                       (ADMIN, "Admin", True)):
        user, _ = User.objects.get_or_create(username=username, defaults={"first_name": first})
        user.is_staff = user.is_superuser = superuser
        user.is_active = True
        user.set_password(DEMO_PASSWORD)
        user.save()
        users[username] = user
    return users


# ----------------------------------------------------------------------------- state of the demo
def demo_complete() -> bool:
    """The last step of ``build_demo`` is giving the scorekeeper the match in progress."""
    return Match.objects.filter(competition__club__slug=LEAGUE_CLUB, competition__slug=LEAGUE_SLUG,
                                scorekeepers__username=SCOREKEEPER).exists()


def wipe_demo() -> str:
    """Delete the demo clubs and everything under them; says how many rows of each kind went."""
    clubs = Club.objects.filter(slug__in=DEMO_CLUB_SLUGS)
    removed: dict[str, int] = {}
    with transaction.atomic():
        for queryset in (Match.objects.filter(competition__club__in=clubs),
                         TeamMatch.objects.filter(competition__club__in=clubs),
                         Competition.objects.filter(club__in=clubs),
                         Partnership.objects.filter(club__in=clubs), Player.objects.filter(home_club__in=clubs),
                         clubs):
            for label, count in queryset.delete()[1].items():
                removed[label] = removed.get(label, 0) + count
    return ", ".join(f"{count} {label.split('.')[-1]}" for label, count in removed.items() if count) or "nothing"


# ----------------------------------------------------------------------------- building
def build_demo(users: dict[str, Any], log=print) -> str:
    league, knockout = create_structure(users)
    matches: list[Any] = list(Match.objects.filter(competition=league).select_related("round", "competition")
                              .order_by("round__number", "id"))  # Matches, each with its round
    current = ROUNDS_PLAYED + 1
    played = [m for m in matches if m.round.number <= ROUNDS_PLAYED]
    this_round = [m for m in matches if m.round.number == current]
    hands = 0
    for match in played + this_round[:CURRENT_ROUND_COMPLETE]:
        mode = Hand.CHALK if match.round.number == CHALK_ROUND else Hand.RECORD
        hands += play_match(match, user=users[ORGANISER], mode=mode)
    in_progress = this_round[CURRENT_ROUND_COMPLETE]
    hands += play_match(in_progress, user=users[SCOREKEEPER], mode=Hand.RECORD, stop_after=(2, IN_PROGRESS_HANDS))
    others = [run_knockout(knockout, users[ORGANISER]), run_swiss(users[ORGANISER]), run_team_league(users[ORGANISER])]
    rebuild_ratings()
    in_progress.scorekeepers.add(users[SCOREKEEPER])  # the last step: ``demo_complete`` looks for it
    complete = Match.objects.filter(competition=league, status=Match.COMPLETE).count()
    log(f"In progress: {in_progress} (round {current}, table {in_progress.table}); scorekeeper: {SCOREKEEPER}")
    return (f"{Club.objects.filter(slug__in=DEMO_CLUB_SLUGS).count()} clubs, "
            f"{Player.objects.filter(home_club__slug__in=DEMO_CLUB_SLUGS).count()} players, "
            f"{Partnership.objects.filter(club__slug__in=DEMO_CLUB_SLUGS).count()} partnerships; "
            f"'{league}': {len(matches)} matches in {league.rounds.count()} rounds, {complete} complete, "
            f"1 in progress, {hands} hands played by the heuristic bots; " + "; ".join(others))


def create_structure(users: dict[str, Any]) -> tuple[Competition, Competition]:
    """Clubs, players, partnerships, the league with its rounds and matches, and the draft knockout."""
    with transaction.atomic():
        pairs: dict[str, list[Partnership]] = {}
        clubs: dict[str, Club] = {}
        for name, slug, town, people, pair_names in CLUBS:
            club = clubs[slug] = Club.objects.create(name=name, slug=slug, town=town)
            players = [Player.objects.create(name=p, nickname=n, home_club=club) for p, n in people]
            pairs[slug] = [
                Partnership.objects.create(name=pair_name, player_one=players[2 * i], player_two=players[2 * i + 1],
                                           club=club)
                for i, pair_name in enumerate(pair_names)
            ]
        for club in clubs.values():
            ClubRole.objects.create(club=club, user=users[ORGANISER], role=ClubRole.ORGANISER)

        league = Competition.objects.create(
            club=clubs[LEAGUE_CLUB], name="Inter-Bar League 2025", slug=LEAGUE_SLUG, season="2025", players=4,
            ruleset={"target": 14}, match_format=Competition.BEST_OF, match_games=3, published=True)
        entrants = [p for slug, n in LEAGUE_ENTRANTS.items() for p in pairs[slug][:n]]
        for seed, partnership in enumerate(entrants, start=1):
            Entry.objects.create(competition=league, partnership=partnership, seed=seed)
        schedule_round_robin(league, entrants)

        knockout = Competition.objects.create(
            club=clubs[KNOCKOUT_CLUB], name="Christmas Knockout 2025", slug=KNOCKOUT_SLUG, season="2025", players=4,
            ruleset={}, match_format=Competition.BEST_OF, match_games=3, published=True,
            system=Competition.KNOCKOUT, third_place_match=True, result_level=Competition.MATCH)
        seed = 0
        for slug, n in LEAGUE_ENTRANTS.items():
            for partnership in pairs[slug][n:]:
                seed += 1
                Entry.objects.create(competition=knockout, partnership=partnership, seed=seed)

        swiss = Competition.objects.create(
            club=clubs[SWISS_CLUB], name="Friday Open Swiss", slug=SWISS_SLUG, season="2025", players=4,
            match_format=Competition.BEST_OF, match_games=3, published=True, system=Competition.SWISS,
            planned_rounds=4, avoid_same_club=True, result_level=Competition.MATCH,
            tiebreaks=["match_points", "buchholz", "bullseye_difference", "hang_jacks_for"],
            bye_policy=Competition.BYE_FIXED, bye_score={"bullseyes_for": 2})
        for seed, partnership in enumerate((p for slug in DEMO_CLUB_SLUGS for p in pairs[slug]), start=1):
            Entry.objects.create(competition=swiss, partnership=partnership, seed=seed)

        teams = Competition.objects.create(
            club=clubs[TEAMS_CLUB], name="Tri-Bar Team Challenge", slug=TEAMS_SLUG, season="2025", players=4,
            published=True, system=Competition.ROUND_ROBIN, entrant_kind=Competition.TEAMS,
            result_level=Competition.MATCH, team_tables=3, team_mode=Competition.TEAM_RACE, team_target=22,
            tiebreaks=["wins", "bullseye_difference", "hang_jacks_for"])
        for slug in DEMO_CLUB_SLUGS:
            if slug == TEAMS_CLUB:
                create_team(competition=teams, name=clubs[slug].name, club=clubs[slug],
                            partnerships=pairs[slug][:3])
                continue
            # another club's team enters by invitation; the demo organiser runs every club, so answers it too
            invitation = invitations.invite(competition=teams, by=users[ORGANISER], club=clubs[slug],
                                            team_name=clubs[slug].name)
            entry = invitations.accept(invitation=invitation, by=users[ORGANISER])
            assert entry.team is not None  # a team's entry
            edit_team(team=entry.team, partnerships=pairs[slug][:3])
    return league, knockout


def round_robin(entrants: list) -> list[list[tuple]]:
    """The league's schedule from the pairing engine (circle method, sides balanced over the season)."""
    by_id = {str(index): entrant for index, entrant in enumerate(entrants)}
    schedule = pair({"system": "round_robin", "entrants": [{"id": key} for key in by_id]})
    return [[(by_id[p["a"]], by_id[p["b"]]) for p in pairings] for pairings in schedule["rounds"]]


def schedule_round_robin(league: Competition, entrants: list[Partnership]) -> None:
    """Weekly Friday rounds; the current round (``ROUNDS_PLAYED + 1``) is this week's."""
    today = timezone.localdate()
    this_friday = today + timedelta(days=(4 - today.weekday()) % 7)
    for number, pairs in enumerate(round_robin(entrants), start=1):
        day = this_friday + timedelta(weeks=number - ROUNDS_PLAYED - 1)
        round_ = Round.objects.create(competition=league, number=number, name=f"Round {number}", starts_on=day)
        for table, (a, b) in enumerate(pairs, start=1):
            rng = random.Random(f"{LEAGUE_SLUG}/{number}/{table}")
            Match.objects.create(
                competition=league, round=round_, side_a=a, side_b=b, side_a_name=a.display_name,
                side_b_name=b.display_name, table=str(table), first_dealer=rng.randrange(4),
                scheduled_at=timezone.make_aware(datetime.combine(day, clock(19, 30))))


# ----------------------------------------------------------------------------- the other events
def pair_and_publish(competition: Competition, organiser) -> Round:
    """Pair the next round by the pairing task (in-process here) and publish it."""
    round_ = request_pairing(competition, user=organiser)
    round_.refresh_from_db()
    if round_.pairing_state != Round.DONE:
        raise CommandError(f"pairing {round_} of {competition} failed: {round_.pairing_message}")
    return publish_round(round_, organiser)


def record_totals(match: Match, rng: random.Random, organiser) -> None:
    """A best-of-3 result as a club that keeps only totals writes it: games and hang jacks per side."""
    loser_games = rng.choice((0, 1, 1))
    winner = "a" if rng.random() < 0.5 else "b"
    games = {winner: 2, "b" if winner == "a" else "a": loser_games}
    services.record_match_totals(match, games_a=games["a"], games_b=games["b"], hang_jacks_a=rng.choice((0, 0, 1)),
                                 hang_jacks_b=rng.choice((0, 0, 1)), user=organiser)


def run_knockout(knockout: Competition, organiser) -> str:
    rng = random.Random(KNOCKOUT_SLUG)
    first = pair_and_publish(knockout, organiser)
    for match in Match.objects.filter(round=first).select_related("competition").order_by("bracket_position"):
        record_totals(match, rng, organiser)
    semi_finals = knockout.rounds.order_by("-number").first()  # drafted by the pairing task as their ties were decided
    assert semi_finals is not None  # round 1 at least
    if semi_finals.number == first.number:
        pair_and_publish(knockout, organiser)
    else:
        publish_round(semi_finals, organiser)
    return f"'{knockout}': round 1 played, the semi-finals paired"


def run_swiss(organiser) -> str:
    swiss = Competition.objects.get(club__slug=SWISS_CLUB, slug=SWISS_SLUG)
    rng = random.Random(SWISS_SLUG)
    for _ in range(SWISS_ROUNDS_PLAYED):
        round_ = pair_and_publish(swiss, organiser)
        for match in Match.objects.filter(round=round_).select_related("competition").order_by("id"):
            record_totals(match, rng, organiser)
    request_pairing(swiss, user=organiser)  # a draft for the organiser to review and publish
    return f"'{swiss}': {SWISS_ROUNDS_PLAYED} rounds played, round {SWISS_ROUNDS_PLAYED + 1} a draft"


def run_team_league(organiser) -> str:
    """Round 1 of the team league: one team match decided overall (22 bullseyes to 17), one seated."""
    teams = Competition.objects.get(club__slug=TEAMS_CLUB, slug=TEAMS_SLUG)
    by_club = {team.club.slug: team for team in Team.objects.filter(competition=teams).select_related("club")
               if team.club is not None}
    bamboo, pelican, crossroads = (by_club[slug] for slug in DEMO_CLUB_SLUGS)
    round_ = Round.objects.create(competition=teams, number=1, name="Round 1", status=Round.PUBLISHED,
                                  published_at=timezone.now())
    decided = services.create_team_match(teams, bamboo, pelican, round=round_)
    services.record_team_totals(decided, 22, 17, hang_jacks_a=3, hang_jacks_b=2, user=organiser)
    seated = services.create_team_match(teams, crossroads, bamboo, round=round_)
    services.set_team_tables(seated, list(zip(crossroads.partnerships.order_by("id"),
                                                   bamboo.partnerships.order_by("id"), strict=True)))
    return f"'{teams}': {decided} decided, {seated} seated at 3 tables"


# ----------------------------------------------------------------------------- playing
def play_hand(players: int, dealer: int, score_before: tuple[int, int] | list[int], ruleset: Ruleset,
              rng: random.Random, bots: list | None = None) -> HandState:
    """Deal a hand and let the heuristic bots play it out."""
    bots = bots or [make_bot("heuristic")] * players
    hand = HandState.deal(players, dealer, rng, ruleset, tuple(score_before))
    while not hand.is_over:
        seat = hand.turn
        hand.apply(bots[seat].choose(hand.view(seat), rng))
    return hand


def record_entry(hand: HandState) -> dict[str, Any]:
    """The hand record minus what the match fills in (players, dealer, score before, ruleset)."""
    return {k: v for k, v in hand.to_record().items() if k not in services.FILLED_FIELDS}


def chalk_entry(hand: HandState) -> dict[str, Any]:
    """What a scorekeeper chalks on the board for the hand: kicks, beg, High, Low, Jack, Game."""
    result = hand.result()
    entry: dict[str, Any] = {"kicks": [CARD_NAMES[k] for k in hand.kicks]}
    if hand.beg is not None:
        entry["beg"] = hand.beg
    for key in ("high", "low"):  # null: no trump in play, said as the scorekeeper says it
        entry[key] = {"team": result[key]["team"], "card": result[key]["card"]} if result[key] else None
    if result["jack"]:
        entry["jack"] = {"team": result["jack"]["team"], "hang": result["jack"]["hang"]}
    if result["game"]:
        entry["game"] = {"team": result["game"]["team"], "counts": result["game"]["counts"]}
    return entry


def play_match(match: Match, *, user=None, mode: str = Hand.RECORD, stop_after: tuple[int, int] | None = None,
               seed: str | None = None) -> int:
    """Play the match hand by hand with the bots, each hand stored through ``enter_hand`` (and settled by
    the task). ``stop_after=(game, hands)`` leaves the match in progress; returns the hands entered."""
    competition = match.competition
    ruleset = competition.engine_ruleset()
    rng = random.Random(seed or f"match/{competition.slug}/{match.round.number if match.round else 0}/{match.table}")
    entered = 0
    while True:
        match.refresh_from_db(fields=["status"])
        if match.status == Match.COMPLETE:
            return entered
        target = services.next_hand(match)
        if stop_after and target.game.number == stop_after[0] and target.number > stop_after[1]:
            return entered
        hand = play_hand(competition.players, target.dealer, target.score_before, ruleset, rng)
        entry = chalk_entry(hand) if mode == Hand.CHALK else record_entry(hand)
        services.enter_hand(match=match, number=target.number, mode=mode, entry=entry, user=user)
        entered += 1
