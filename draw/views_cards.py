"""A round's table cards, for its organisers to print and put on the tables: one A6 card a table (four to an A4
page) with the table's number and name, the round, the two sides and two QR codes — the scorekeeper's private link
(entering hands at the table without an account) and the public scoresheet."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString

from draw.views import organisers_only
from games.models import Match
from league.qr import qr_svg
from league.venues import names


@dataclass(frozen=True)
class Card:
    match: Match
    table_name: str
    entry_link: str
    entry_qr: SafeString | None
    sheet_link: str
    sheet_qr: SafeString


def _qr(link: str, title: str) -> SafeString:
    return qr_svg(link, title, scale=3)


def table_cards(request: HttpRequest, club_slug: str, competition_slug: str, number: int) -> HttpResponse:
    competition, refusal = organisers_only(request, club_slug, competition_slug)
    if refusal is not None:
        return refusal
    round_ = competition.rounds.filter(number=number).first()
    if round_ is None:
        raise Http404("No such round.")
    table_names = names(competition.club)
    matches = sorted(Match.objects.filter(round=round_).select_related("team_match"),
                     key=lambda m: (not m.table.isdecimal(), int(m.table) if m.table.isdecimal() else 0, m.table,
                                    m.pk))
    cards = []
    for match in matches:
        entry = request.build_absolute_uri(reverse("token_enter", args=[match.entry_token]))
        sheet = request.build_absolute_uri(reverse("match_sheet", args=[match.pk]))
        cards.append(Card(match=match, table_name=table_names.get(match.table, ""), entry_link=entry,
                          entry_qr=None if match.entry_token_revoked else _qr(entry, "Enter the hands"),
                          sheet_link=sheet, sheet_qr=_qr(sheet, "The scoresheet")))
    return render(request, "draw/rounds/cards.html", {"competition": competition, "club": competition.club,
                                                      "round": round_, "cards": cards})
