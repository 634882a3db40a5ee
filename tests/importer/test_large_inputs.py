"""Large and malformed inputs, and the bounds of the numbers in a CSV file.

A CSV import reads its file as a stream (memory does not grow with the file) up to a clear size limit; a file
in an encoding it cannot read as UTF-8 or as the declared one is refused, not stored garbled; an unbalanced
quote, an oversized cell or header, and numbers past what the database holds are line errors, never a 500.
The list pages are paginated (see the tests at the end).
"""

from __future__ import annotations

import io
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from games.models import Match
from importer import csv_io
from league.models import Competition, Entry, Partnership, Player
from tests.factories import make_club, make_organiser, make_player, make_user

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def club():
    club = make_club("Large Club")
    club.organiser = make_organiser(club, make_user("lara"))
    return club


def _players_file(rows: int) -> bytes:
    return ("name,nickname,club\r\n" + "".join(f"Player {n:06d},Nick {n},\r\n" for n in range(rows))).encode()


# ----------------------------------------------------------------------------- size and memory
@pytest.mark.slow  # a 10,000-row file
def test_an_import_reads_its_file_as_a_stream(club):
    data = _players_file(10_000)  # ~250 KB; held whole, a file took ~1.5 KB a row (~60 MB for 40,000 rows)
    tracemalloc.start()
    try:
        report = csv_io.import_csv(club=club, kind="players", data=io.BytesIO(data))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.ok and report.created == {"players": 10_000}
    assert peak < 8 * 1024 * 1024, f"peak {peak / 1024 / 1024:.1f} MB"  # read as a stream: ~3 MB (~6 MB for 40,000)


def test_a_file_over_the_size_limit_is_refused_with_the_limit(club, tmp_path, capsys):
    big = tmp_path / "big.csv"
    with big.open("wb") as out:
        out.write(b"name\r\n")
        out.truncate(csv_io.MAX_IMPORT_BYTES + 1)  # past the limit (its rows never matter)
    with pytest.raises(SystemExit) as exit_:
        call_command("import_csv", "--club", club.slug, "--kind", "players", str(big))
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "line 1, column -: the file is 20.0 MB" in error and "at most 20 MB" in error
    assert not Player.objects.exists()


@pytest.mark.slow  # a large upload
def test_the_import_page_refuses_a_file_over_its_limit_and_streams_a_large_upload(client, club):
    client.force_login(club.organiser)
    url = reverse("club_import", args=[club.slug])
    too_big = SimpleUploadedFile("big.csv", b"name\r\n" + b"x" * (5 * 1024 * 1024), content_type="text/csv")
    response = client.post(url, {"kind": "players", "file": too_big})
    assert response.status_code == 422 and "at most 5 MB can be imported at once" in response.content.decode()
    large = SimpleUploadedFile("players.csv", _players_file(100_000), content_type="text/csv")  # ~3 MB: on disk
    response = client.post(url, {"kind": "players", "file": large})
    assert response.status_code == 200, response.content.decode()[:2000]
    assert Player.objects.filter(home_club=club).count() == 100_000


# ----------------------------------------------------------------------------- encodings
@pytest.mark.parametrize("codec", ["cp1252", "latin-1", "mac_roman"])
def test_a_file_not_in_utf8_is_refused_unless_its_encoding_is_declared(club, codec):
    data = "name,nickname\r\nAnn,\r\nRenée Joseph,Ren\r\n".encode(codec)
    report = csv_io.import_csv(club=club, kind="players", data=data)
    assert report.errors == [{"line": 3, "column": "", "reason": report.errors[0]["reason"]}]
    assert "the file is not UTF-8" in report.errors[0]["reason"] and "choose the encoding" in report.errors[0]["reason"]
    assert not Player.objects.exists()
    report = csv_io.import_csv(club=club, kind="players", data=data, encoding=codec)
    assert report.ok, report.errors
    assert set(Player.objects.values_list("name", flat=True)) == {"Ann", "Renée Joseph"}


def test_a_file_that_does_not_read_in_the_declared_encoding_is_refused(club):
    data = b"name\r\nAnn\r\nBad \x81 byte\r\n"  # 0x81 is no character of Windows-1252
    report = csv_io.import_csv(club=club, kind="players", data=data, encoding="cp1252")
    assert report.errors[0]["line"] == 3 and "cannot be read as Windows-1252" in report.errors[0]["reason"]
    assert not Player.objects.exists()


def test_a_utf8_file_declared_as_windows_1252_is_read_as_utf8_not_garbled(club):
    report = csv_io.import_csv(club=club, kind="players", data="name\r\nJosé Ramírez\r\n".encode(), encoding="cp1252")
    assert report.ok
    assert list(Player.objects.values_list("name", flat=True)) == ["José Ramírez"]
    assert "is UTF-8: it was read as UTF-8" in report.notes[0]


def test_the_import_page_and_command_take_the_encoding(client, club, tmp_path, capsys):
    data = "name\r\nRenée Joseph\r\n".encode("cp1252")
    client.force_login(club.organiser)
    url = reverse("club_import", args=[club.slug])
    refused = client.post(url, {"kind": "players", "file": SimpleUploadedFile("p.csv", data)})
    assert refused.status_code == 422 and "the file is not UTF-8" in refused.content.decode()
    done = client.post(url, {"kind": "players", "encoding": "cp1252", "file": SimpleUploadedFile("p.csv", data)})
    assert done.status_code == 200 and Player.objects.filter(name="Renée Joseph").exists()
    path = tmp_path / "p.csv"
    path.write_bytes("name\r\nRené Two\r\n".encode("cp1252"))
    call_command("import_csv", "--club", club.slug, "--kind", "players", "--encoding", "cp1252", str(path))
    assert Player.objects.filter(name="René Two").exists()


# ----------------------------------------------------------------------------- malformed files
def test_an_unbalanced_quote_is_a_line_error_not_a_name_with_a_newline(club):
    data = 'name,nickname\r\nAnn,"Annie\r\nBob,Bobby\r\nCy,Cee\r\n'
    report = csv_io.import_csv(club=club, kind="players", data=data)
    assert not report.ok
    assert report.errors[0]["line"] == 2 and "quote" in report.errors[0]["reason"]  # where the quote opens
    assert not Player.objects.exists()
    closed_later = 'name,nickname\r\nAnn,"Annie\r\nBob,Bobby"\r\nCy,Cee\r\n'  # the quote runs into line 3
    report = csv_io.import_csv(club=club, kind="players", data=closed_later)
    assert report.errors == [{"line": 2, "column": "", "reason": report.errors[0]["reason"]}]
    assert "not closed on its line" in report.errors[0]["reason"]
    assert not Player.objects.filter(nickname__contains="\n").exists()


def test_an_unbalanced_quote_on_the_last_line_is_a_line_error(club):
    report = csv_io.import_csv(club=club, kind="players", data='name,nickname\r\nAnn,Annie\r\nBob,"Bobby\r\n')
    assert report.errors == [{"line": 3, "column": "", "reason": report.errors[0]["reason"]}]
    assert "never closed" in report.errors[0]["reason"]
    assert not Player.objects.exists()


def test_a_header_line_over_128_kb_is_a_clear_error(club):
    one_cell = "name," + "x" * 140_000 + "\r\nAnn,\r\n"
    report = csv_io.import_csv(club=club, kind="players", data=one_cell.encode())
    assert report.errors[0]["line"] == 1 and "longer than 131,072 characters" in report.errors[0]["reason"]
    many_cells = "name," + ",".join(f"column {n}" for n in range(14_000)) + "\r\nAnn\r\n"
    assert len(many_cells) > 128 * 1024
    report = csv_io.import_csv(club=club, kind="players", data=many_cells.encode())
    assert [(e["line"], e["column"]) for e in report.errors] == [(1, "")]
    assert "14,001 cells" in report.errors[0]["reason"] and "at most 100 columns" in report.errors[0]["reason"]


def test_a_cell_over_the_limit_is_a_line_error(club):
    data = "name,nickname\r\nAnn,Annie\r\nBob," + "y" * 140_000 + "\r\n"
    report = csv_io.import_csv(club=club, kind="players", data=data)
    assert report.errors[0]["line"] == 3 and "longer than 131,072 characters" in report.errors[0]["reason"]
    assert not Player.objects.exists()


def test_thousands_of_bad_rows_are_counted_past_the_listed_ones(club):
    data = "name,nickname\r\n" + ",nobody\r\n" * (csv_io.MAX_LISTED_ERRORS + 250)
    report = csv_io.import_csv(club=club, kind="players", data=data)
    assert len(report.errors) == csv_io.MAX_LISTED_ERRORS and report.unlisted_errors == 250
    assert report.error_lines()[-1].startswith("… and 250 more error(s)")


# ----------------------------------------------------------------------------- numbers past the database's range
@pytest.fixture
def league(club):
    league = Competition.objects.create(club=club, name="Big League", slug="big-league", published=True,
                                        match_format=Competition.BEST_OF, match_games=3)
    for name in ("Aces", "Kings"):
        pair = Partnership.objects.create(club=club, name=name, player_one=make_player(club=club),
                                          player_two=make_player(club=club))
        Entry.objects.create(competition=league, partnership=pair)
    return league


@pytest.mark.parametrize(("row", "column", "reason"), [
    ("1,Aces,Kings,2,1,40000,0", "hang_jacks_a", "a side has at most 5 a game"),  # the engine's bound
    ("99999999999,Aces,Kings,2,1,0,0", "round", "must be a round number of at most 32,767, got '99999999999'"),
    ("1,Aces,Kings,99999999999999999999999,1,0,0", "games_a", "must be at most 32,767"),
    ("1,Aces,Kings," + "9" * 5000 + ",1,0,0", "games_a", "must be a whole number"),
])
def test_csv_results_past_the_database_range_are_line_errors(league, row, column, reason):
    data = f"round,side_a,side_b,games_a,games_b,hang_jacks_a,hang_jacks_b\r\n{row}\r\n"
    report = csv_io.import_csv(club=league.club, kind="results", competition=league, data=data)
    assert [(e["line"], e["column"]) for e in report.errors] == [(2, column)]
    assert reason in report.errors[0]["reason"]
    assert len(report.errors[0]["reason"]) < 200
    assert not Match.objects.exists()


def test_csv_game_results_with_more_hang_jacks_than_a_game_can_have_are_refused(league):
    data = ("match,side_a,side_b,game,winner,hang_jacks_a\r\nm1,Aces,Kings,1,A,30000\r\n"
            "m1,Aces,Kings,2,A,30000\r\n")
    report = csv_io.import_csv(club=league.club, kind="results", competition=league, data=data)
    assert (report.errors[0]["line"], report.errors[0]["column"]) == (2, "hang_jacks_a")
    assert "hang jacks in one game: a side has at most 5" in report.errors[0]["reason"]  # the engine's bound (R21, R24)
    assert not Match.objects.exists()


def test_csv_hang_jacks_worth_more_than_the_chalks_are_refused_by_the_services(league):
    data = "round,side_a,side_b,games_a,games_b,chalks_a,chalks_b,hang_jacks_a\r\n1,Aces,Kings,2,1,40,30,14\r\n"
    report = csv_io.import_csv(club=league.club, kind="results", competition=league, data=data)
    assert [(e["line"], e["column"]) for e in report.errors] == [(2, "hang_jacks_a")]
    assert "14 hang jacks are worth 42 chalks, more than the side's 40" in report.errors[0]["reason"]


@pytest.mark.slow  # a benchmark in a subprocess
def test_the_benchmark_runs_and_prints_its_figures(tmp_path):
    done = subprocess.run([sys.executable, "bench/bench_import.py", "--mb", "0.05", "--entries", "5"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "(a) peak memory" in done.stdout and "PASS" in done.stdout and "all targets met" in done.stdout


# ----------------------------------------------------------------------------- list pages
def _many_players(club, count: int, prefix: str = "Many") -> list[Player]:
    return Player.objects.bulk_create(Player(name=f"{prefix} {n:05d}", home_club=club) for n in range(count))


def test_the_players_page_is_paginated_and_searchable(client, club):
    from standings.models import PlayerRating

    rated = _many_players(club, 60, "Rated")
    PlayerRating.objects.bulk_create(PlayerRating(player=p, mu=25, sigma=8, ordinal=2000 - n, matches=1)
                                     for n, p in enumerate(rated))
    _many_players(club, 5_000)
    first = client.get(reverse("players"))
    html = first.content.decode()
    assert first.status_code == 200
    assert len(first.content) < 150_000  # a page, not 5,060 players (22 MB after a big import)
    assert html.count('class="num rank"') == 50 and html.count('class="card-item"') == 100
    assert "1–50 of 60" in html and "1–100 of 5000" in html and 'rel="next"' in html
    second = client.get(reverse("players"), {"page": 2}).content.decode()
    assert second.count('class="num rank"') == 10
    assert 'class="num rank">51</td>' in second  # places in the whole table, not in the page
    found = client.get(reverse("players"), {"q": "rated 0005"}).content.decode()
    assert found.count('class="num rank"') == 10  # Rated 00050 … 00059
    assert 'class="num rank">51</td>' in found and "Not yet rated" not in found
    odd = client.get(reverse("players"), {"page": "99999999999999999999", "unrated_page": "x"})
    assert odd.status_code == 200  # the nearest page, never a 500


def test_home_and_club_pages_are_paginated(client, club):
    Competition.objects.bulk_create(Competition(club=club, name=f"Cup {n:03d}", slug=f"cup-{n:03d}", published=True)
                                    for n in range(45))
    for url in (reverse("home"), reverse("club", args=[club.slug])):
        html = client.get(url).content.decode()
        assert "1–30 of 45" in html and 'rel="next"' in html, url
        assert "16–45 of 45" not in html
        assert "31–45 of 45" in client.get(url, {"page": 2}).content.decode()


def test_the_entries_page_is_paginated_searchable_and_types_names_past_a_long_list(client, club):
    league = Competition.objects.create(club=club, name="Long League", slug="long-league")
    players = _many_players(club, 400, "Entrant")
    pairs = Partnership.objects.bulk_create(
        Partnership(club=club, name=f"Pair {n:03d}", player_one=players[2 * n], player_two=players[2 * n + 1])
        for n in range(120))
    Entry.objects.bulk_create(Entry(competition=league, partnership=pair) for pair in pairs)
    client.force_login(club.organiser)
    url = reverse("competition_entries", args=[club.slug, league.slug])
    html = client.get(url).content.decode()
    assert html.count('<tr id="entry-') == 50 and "1–50 of 120" in html
    add = html.split('id="add"')[1].split("</section>")[0]
    assert add.count("<option") < 10 and 'type="text" name="player_one"' in add  # names typed, not 400 options
    assert len(html) < 200_000
    assert client.get(url, {"q": "Pair 11"}).content.decode().count('<tr id="entry-') == 10  # Pair 110 … 119
    add = reverse("competition_entry_add", args=[club.slug, league.slug])
    response = client.post(add, {"player_one": "Entrant 00300", "player_two": "entrant 00301",
                                 "pair_name": "Typed Pair"})
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert Entry.objects.filter(competition=league, partnership__name="Typed Pair").exists()
    wrong = client.post(add, {"player_one": "Nobody At All", "player_two": "Entrant 00302"})
    assert wrong.status_code == 422 and "no player called “Nobody At All”" in wrong.content.decode()


def test_fixtures_and_results_are_paginated_by_round(client, club):
    from tests.factories import make_match

    league = Competition.objects.create(club=club, name="Round League", slug="round-league", published=True)
    for number in range(1, 16):
        round_ = league.rounds.create(number=number)
        match = make_match(league)
        match.round = round_
        match.save(update_fields=["round"])
    for name in ("competition", "competition_rounds"):
        url = reverse(name, args=[club.slug, league.slug])
        html = client.get(url).content.decode()
        assert "Round 10" in html and "Round 11" not in html and "1–10 of 15" in html, name
        assert "Round 11" in client.get(url, {"rounds_page": 2}).content.decode()
