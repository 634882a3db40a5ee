"""A CSV import goes through the same services as the pages, so no rule is written twice.

Entries through ``league.entries.enter`` (late entries, a player in one partnership of a competition, seeds,
groups, sizes), teams through ``create_team``, partnerships through ``new_partnership``, results through
``games.services`` — and the importer still reports every bad row by line and column and stores nothing
from a file with any error.
"""

from __future__ import annotations

import inspect
import pkgutil
from importlib import import_module

import pytest

from draw.forms_entries import EntryForm, TeamForm
from draw.models import Round
from games import services
from games.models import Match
from importer import csv_io
from league import entries as setup
from league import invitations, partnerships
from league.models import Competition, Entry, InvitationState, Partnership, Player, Team
from league.partnerships import PARTNERSHIP_NAME_MAX
from league.seeding import GROUP_MAX
from league.setup_errors import SetupError
from standings.models import StandingRow
from tests.factories import make_club, make_match, make_organiser, make_partnership, make_player, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club = make_club("Service Club")
    club.organiser = make_organiser(club, make_user("olga"))
    return club


@pytest.fixture
def imported(django_capture_on_commit_callbacks):
    def run(**kwargs):
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            report = csv_io.import_csv(**kwargs)
        run.callbacks = callbacks
        return report

    return run


def _pair(club, one: str, two: str, name: str = "") -> Partnership:
    return Partnership.objects.create(club=club, name=name, player_one=make_player(one, club=club),
                                      player_two=make_player(two, club=club))


def _league_after_round_one(club) -> Competition:
    """A league whose round 1 is published with a match: an entry made now is a late one."""
    league = Competition.objects.create(club=club, name="Late League", slug="late-league", published=True)
    first, second = make_partnership(club=club), make_partnership(club=club)
    for side in (first, second):
        Entry.objects.create(competition=league, partnership=side)
    round_one = Round.objects.create(competition=league, number=1, status=Round.PUBLISHED)
    match = make_match(league, side_a=first, side_b=second)
    match.round = round_one
    match.save(update_fields=["round"])
    return league


def test_entries_imported_after_round_one_join_round_two_as_on_the_page(club, imported):
    league = _league_after_round_one(club)
    by_page = setup.enter(competition=league, partnership=_pair(club, "Page One", "Page Two", "By Page"))
    _pair(club, "Csv One", "Csv Two", "By File")
    report = imported(club=club, kind="entries", competition=league, data="partnership,seed\r\nBy File,\r\n")
    assert report.ok, report.errors
    by_file = Entry.objects.get(competition=league, partnership__name="By File")
    assert by_page.joined_round == 2
    assert by_file.joined_round == by_page.joined_round == setup.first_unpaired_round(league)


def test_two_partnerships_sharing_a_player_are_not_both_entered(club, imported):
    league = Competition.objects.create(club=club, name="Share League", slug="share-league")
    ann = make_player("Ann Share", club=club)
    Partnership.objects.create(club=club, name="Ann and Bob", player_one=ann, player_two=make_player("Bob", club=club))
    Partnership.objects.create(club=club, name="Ann and Cy", player_one=ann, player_two=make_player("Cy", club=club))
    report = imported(club=club, kind="entries", competition=league,
                      data="partnership\r\nAnn and Bob\r\nAnn and Cy\r\n")
    assert report.errors == [{"line": 3, "column": "partnership",
                              "reason": "Ann Share already plays in Ann and Bob (on line 2)"}]  # as the page says
    assert not Entry.objects.filter(competition=league).exists()


def test_every_bad_entry_row_is_reported_by_the_service_and_nothing_is_stored(club, imported):
    league = Competition.objects.create(club=club, name="Bad League", slug="bad-league", group_count=2)
    solo = Partnership.objects.create(club=club, name="Solo", player_one=make_player("Solo Sam", club=club))
    _pair(club, "Dee", "Eve", "Dee and Eve")
    _pair(club, "Fay", "Gus", "Fay and Gus")
    _pair(club, "Hal", "Ida", "Hal and Ida")
    _pair(club, "Jo", "Kim", "Jo and Kim")
    data = ("partnership,seed,group\r\n"
            "Dee and Eve,1,A\r\n"
            "Solo,,\r\n"                 # a one-player side in a 4-player game
            "Dee and Eve,,\r\n"           # entered twice
            "Fay and Gus,1,B\r\n"         # seed 1 is taken (so group B is not used)
            "Hal and Ida,,C\r\n"
            "Jo and Kim,,B\r\n")          # a third group of two: A, C and B
    before = Entry.objects.count()
    report = imported(club=club, kind="entries", competition=league, data=data)
    reasons = {(e["line"], e["column"]): e["reason"] for e in report.errors}
    assert sorted(reasons) == [(3, "partnership"), (4, "partnership"), (5, "seed"), (7, "group")]
    assert solo.display_name in reasons[(3, "partnership")] and "4-player game" in reasons[(3, "partnership")]
    assert reasons[(4, "partnership")] == "Dee and Eve is already entered (on line 2)"
    assert reasons[(5, "seed")] == "seed 1 is already Dee and Eve's (on line 2)"
    assert "has 2 groups, not 3" in reasons[(7, "group")]
    assert report.created == {} and Entry.objects.count() == before


def test_an_entries_import_refreshes_the_standings_once(club, imported):
    league = Competition.objects.create(club=club, name="Fresh League", slug="fresh-league", published=True)
    names = [f"Pair {n}" for n in range(6)]
    for n, name in enumerate(names):
        _pair(club, f"P{n}a", f"P{n}b", name)
    report = imported(club=club, kind="entries", competition=league, data="partnership\r\n" + "\r\n".join(names))
    assert report.ok and report.created == {"entries": 6}
    refreshes = [c for c in imported.callbacks if c.__qualname__.startswith("refresh_standings_after_commit")]
    assert len(refreshes) == 1  # one standings refresh for the file, not one an entry (then its live notice)
    assert StandingRow.objects.filter(competition=league).count() == 6


def test_imported_teams_go_through_create_team_and_its_size_rule(club, imported):
    league = _league_after_round_one(club)
    league.entrant_kind = Competition.TEAMS
    league.save(update_fields=["entrant_kind"])
    Entry.objects.filter(competition=league).delete()
    _pair(club, "Tam", "Uma", "Tam and Uma")
    _pair(club, "Val", "Wes", "Val and Wes")
    Partnership.objects.create(club=club, name="Lone", player_one=make_player("Lone Lou", club=club))
    data = ("competition,team,partnership\r\nlate-league,Reds,Tam and Uma\r\nlate-league,Reds,Val and Wes\r\n"
            "late-league,Blues,Lone\r\n")
    report = imported(club=club, kind="teams", data=data)
    assert [(e["line"], e["column"]) for e in report.errors] == [(4, "partnership")]
    assert "Lone has 1 player(s)" in report.errors[0]["reason"]  # the service's size rule
    assert not Team.objects.filter(competition=league).exists()
    report = imported(club=club, kind="teams", data=data.rsplit("late-league,Blues", 1)[0])
    assert report.ok, report.errors
    reds = Team.objects.get(competition=league, name="Reds")
    assert Entry.objects.get(team=reds).joined_round == 2  # a late entry, as create_team makes it


def test_partnerships_go_through_new_partnership(club, imported):
    for name in ("Ann Part", "Bob Part", "Cy Part"):
        make_player(name, club=club)
    data = ("player_one,player_two,name\r\nAnn Part,Bob Part,The Parts\r\nBob Part,Ann Part,\r\n"
            "Cy Part,Cy Part,\r\nCy Part,Ann Part,the parts\r\n")
    report = imported(club=club, kind="partnerships", data=data)
    refused = report.sorted_errors()
    assert [(e["line"], e["column"]) for e in refused] == [(3, "player_one"), (4, "player_two"), (5, "name")]
    assert "already the partnership The Parts (on line 2)" in refused[0]["reason"]
    assert refused[1]["reason"] == "the partners must be two different players"
    assert "already has a partnership called 'the parts' (on line 2)" in refused[2]["reason"]
    assert not Partnership.objects.filter(club=club).exists()
    assert imported(club=club, kind="partnerships", data=data.split("\r\nBob Part")[0] + "\r\n").ok
    with pytest.raises(SetupError, match="already the partnership The Parts"):  # the same rule, by the service
        partnerships.new_partnership(club=club, player_one=Player.objects.get(name="Bob Part"),
                                     player_two=Player.objects.get(name="Ann Part"))


def test_results_refused_by_the_services_are_line_errors(club, imported):
    league = Competition.objects.create(club=club, name="Res League", slug="res-league", published=True,
                                        match_format=Competition.BEST_OF, match_games=3)
    for name, one, two in (("Aces", "A1", "A2"), ("Kings", "K1", "K2")):
        Entry.objects.create(competition=league, partnership=_pair(club, one, two, name))
    outsider = _pair(club, "O1", "O2", "Outsiders")
    data = ("round,side_a,side_b,games_a,games_b,winner\r\n1,Aces,Kings,2,1,Kings\r\n2,Aces,Outsiders,2,0,\r\n"
            "3,Aces,Aces,2,0,\r\n4,Aces,Kings,3,0,\r\n")
    report = imported(club=club, kind="results", competition=league, data=data)
    reasons = {(e["line"], e["column"]): e["reason"] for e in report.errors}
    assert reasons[(2, "winner")] == "says Kings won, but the games are 2–1"
    assert reasons[(3, "side_b")] == f"{outsider.display_name} is not entered in Res League"  # create_match's
    assert reasons[(4, "side_b")] == "a side cannot play itself"
    assert "is not a result of best of 3 games" in reasons[(5, "games_a")]
    assert not Match.objects.filter(competition=league).exists()


def test_the_importer_writes_no_entry_team_or_partnership_itself():
    import importer

    modules = [import_module(f"importer.{info.name}") for info in pkgutil.iter_modules(importer.__path__)
               if not info.ispkg]
    assert csv_io in modules and len(modules) > 5  # every module of the importer, not the thin surface alone
    for module in modules:
        source = inspect.getsource(module)
        for write in ("Entry.objects.create", "Entry(", "Team.objects.create", "Partnership(",
                      "Partnership.objects.create", "Match.objects.create", "Game.objects", "Hand.objects"):
            assert write not in source, (module.__name__, write)


# ----------------------------------------------------------------------------- one rule, one reason
def _service_reason(call) -> tuple[str, str]:
    with pytest.raises((SetupError, services.EntryError)) as raised:
        call()
    return raised.value.field, raised.value.reason


@pytest.mark.parametrize("seed", ["0", "first", "10001", "9" * 50])
def test_a_seed_the_page_refuses_is_refused_with_the_pages_reason(club, imported, seed):
    league = Competition.objects.create(club=club, name="Seed League", slug="seed-league")
    pair = _pair(club, "Sid One", "Sid Two", "Seeders")
    report = imported(club=club, kind="entries", competition=league, data=f"partnership,seed\r\nSeeders,{seed}\r\n")
    form = EntryForm({"partnership": pair.pk, "seed": seed}, competition=league)
    assert not form.is_valid()
    assert report.errors == [{"line": 2, "column": "seed", "reason": form.errors["seed"][0]}]
    assert _service_reason(lambda: setup.enter(competition=league, partnership=pair, seed=int(seed) if
                                               seed.isdigit() else seed)) == ("seed", form.errors["seed"][0])


def test_names_and_groups_are_measured_by_the_services(club, imported):
    league = Competition.objects.create(club=club, name="Long League", slug="long-league")
    pair = _pair(club, "Lou One", "Lou Two", "Longs")
    long_group, long_name = "G" * (GROUP_MAX + 1), "N" * (PARTNERSHIP_NAME_MAX + 1)
    report = imported(club=club, kind="entries", competition=league,
                      data=f"partnership,group\r\nLongs,{long_group}\r\n")
    assert report.errors == [{"line": 2, "column": "group", "reason": _service_reason(
        lambda: setup.enter(competition=league, partnership=pair, group=long_group))[1]}]
    make_player("Ned One", club=club)
    make_player("Ned Two", club=club)
    report = imported(club=club, kind="partnerships",
                      data=f"player_one,player_two,name\r\nNed One,Ned Two,{long_name}\r\n")
    one, two = Player.objects.get(name="Ned One"), Player.objects.get(name="Ned Two")
    assert report.errors == [{"line": 2, "column": "name", "reason": _service_reason(
        lambda: partnerships.new_partnership(club=club, player_one=one, player_two=two, name=long_name))[1]}]


def test_results_the_services_refuse_carry_the_services_reasons(club, imported):
    league = Competition.objects.create(club=club, name="Chalk League", slug="chalk-league", published=True,
                                        match_format=Competition.BEST_OF, match_games=3)
    for name, one, two in (("Aces", "A1", "A2"), ("Kings", "K1", "K2")):
        Entry.objects.create(competition=league, partnership=_pair(club, one, two, name))
    totals = imported(club=club, kind="results", competition=league,
                      data="round,side_a,side_b,games_a,games_b,chalks_a,chalks_b\r\n1,Aces,Kings,2,0,28,\r\n")
    games = imported(club=club, kind="results", competition=league,
                     data="round,side_a,side_b,game,winner\r\n2,Aces,Kings,0,A\r\n")
    assert not Match.objects.filter(competition=league).exists()
    match = services.create_match(competition=league, side_a=Partnership.objects.get(name="Aces"),
                                  side_b=Partnership.objects.get(name="Kings"))
    assert totals.errors == [{"line": 2, "column": "chalks_b", "reason": _service_reason(
        lambda: services.record_match_totals(match, games_a=2, games_b=0, chalks_a=28, chalks_b=None))[1]}]
    assert games.errors == [{"line": 2, "column": "game", "reason": _service_reason(
        lambda: services.enter_game_result(match, number=0, winner="a"))[1]}]


def test_a_team_cannot_take_another_clubs_partnership_that_its_team_page_does_not_offer(club, imported):
    """The bug: the teams import looked a team's pairs up among all the partnerships of the team's club, so an
    organiser could put into a team another club's partnership that only that club's drafts know, which the team
    page (``partnerships_for``) never offers them; once the competition is published it would have been public."""
    league = Competition.objects.create(club=club, name="Inter-bar League", slug="inter-bar",
                                        entrant_kind=Competition.TEAMS)
    other = make_club("Crossroads Bar")
    private = _pair(other, "Pri One", "Pri Two", "Crossroads Secret")  # no entry, no match: their draft's alone
    public = _pair(other, "Pub One", "Pub Two", "Crossroads Known")
    shown = Competition.objects.create(club=other, name="Open Cup", slug="open-cup", published=True)
    Entry.objects.create(competition=shown, partnership=public)
    offered = set(TeamForm(competition=league).fields["partnerships"].queryset)
    assert public in offered and private not in offered  # what the team page lets the organiser choose
    report = imported(club=club, kind="teams", competition=league, user=club.organiser,
                      data="team,club,partnership\r\nVisitors,Crossroads Bar,Crossroads Secret\r\n"
                           "Visitors,Crossroads Bar,Crossroads Known\r\n")
    assert report.errors[0] == {"line": 2, "column": "partnership",
                                "reason": "no partnership 'Crossroads Secret' of Crossroads Bar"}
    assert not Team.objects.filter(competition=league).exists()
    known = "team,club,partnership\r\nVisitors,Crossroads Bar,Crossroads Known\r\n"
    report = imported(club=club, kind="teams", competition=league, user=club.organiser, data=known)
    refusals = [(error["column"], "invite Crossroads Bar" in error["reason"]) for error in report.errors]
    assert refusals == [("club", True)]
    invitation = invitations.invite(competition=league, by=club.organiser, club=other, team_name="Visitors")
    invitation.state = InvitationState.ACCEPTED  # Crossroads Bar said yes: the team is theirs to make
    invitation.save(update_fields=["state"])
    report = imported(club=club, kind="teams", competition=league, user=club.organiser, data=known)
    assert report.ok, report.errors
    assert list(Team.objects.get(competition=league).partnerships.all()) == [public]


def test_a_row_naming_a_partnership_and_other_players_is_refused(club, imported):
    """As the entries page refuses a partnership together with the players of another: the row's players are
    those of the partnership it names, or the row is an error (it used to enter the partnership, players unread)."""
    league = Competition.objects.create(club=club, name="Both League", slug="both-league")
    _pair(club, "Ann Both", "Bob Both", "Ann and Bob")
    _pair(club, "Cy Both", "Di Both", "Cy and Di")
    report = imported(club=club, kind="entries", competition=league,
                      data="partnership,player_one,player_two\r\nAnn and Bob,Bob Both,Ann Both\r\n"
                           "Cy and Di,Ann Both,Bob Both\r\n")
    assert [(e["line"], e["column"]) for e in report.errors] == [(3, "player_one")]
    assert "Ann Both & Bob Both are not Cy and Di" in report.errors[0]["reason"]
    assert not Entry.objects.filter(competition=league).exists()
    assert imported(club=club, kind="entries", competition=league,
                    data="partnership,player_one,player_two\r\nAnn and Bob,Bob Both,Ann Both\r\n").ok


def test_a_forfeits_winner_is_the_side_that_played(club, imported):
    """A forfeit row's winner cell was not read: "forfeit_a, won by side A" stored side B as the winner without a
    word. It is checked against the winner the services give a forfeit (``games.services.FORFEIT_WINNER``)."""
    league = Competition.objects.create(club=club, name="No-show League", slug="no-show")
    for name, one, two in (("Aces", "A1", "A2"), ("Kings", "K1", "K2")):
        Entry.objects.create(competition=league, partnership=_pair(club, one, two, name))
    data = ("round,side_a,side_b,games_a,games_b,outcome,winner\r\n1,Aces,Kings,,,forfeit_a,Aces\r\n"
            "2,Aces,Kings,,,double_forfeit,B\r\n3,Aces,Kings,,,forfeit_b,Aces\r\n")
    report = imported(club=club, kind="results", competition=league, data=data)
    refused = report.sorted_errors()
    assert [(e["line"], e["column"]) for e in refused] == [(2, "winner"), (3, "winner")]
    assert "Aces did not play (forfeit_a), so Kings won" in refused[0]["reason"]
    assert "neither side played (double_forfeit), so nobody won" in refused[1]["reason"]
    assert not Match.objects.filter(competition=league).exists()
    assert imported(club=club, kind="results", competition=league, data=data.replace("forfeit_a,Aces", "forfeit_a,B")
                    .replace("double_forfeit,B", "double_forfeit,")).ok
    assert list(Match.objects.order_by("round__number").values_list("winner", flat=True)) == ["b", "", "a"]
