"""Long lists on pages: Django's ``Paginator`` with page links that keep the rest of the query string, and a
search box's filter.

    page = paginate(request, queryset, per_page=50)            # ?page=N; a wrong N gives the nearest page
    page = paginate(request, rows, per_page=100, param="unrated_page")
    queryset = search(queryset, request, "name", "nickname")   # ?q=…, case-insensitive, any of the fields

Templates draw ``page.links`` with ``{% include "_pagination.html" with page=page %}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.http import HttpRequest

PAGE_SIZE = 50
SEARCH_MAX = 100  # characters of a search that are used


@dataclass(frozen=True)
class PageLink:
    number: int | None  # None: the "…" between distant pages
    url: str
    current: bool = False


def paginate(request: HttpRequest, items: QuerySet | Sequence[Any], *, per_page: int = PAGE_SIZE,
             param: str = "page", path: str = "") -> Page:
    """The page of ``items`` that ``?<param>=`` asks for (the first when absent, the nearest one when out of
    range or not a number), with ``links`` to its neighbours, ``previous_url`` and ``next_url`` (on ``path``
    when given: a page shown again after a form's POST to another URL links to the page's own)."""
    paginator = Paginator(items, per_page)
    page: Any = paginator.get_page(request.GET.get(param, "")[:12])  # a Page, given the attributes set below

    def url(number: int) -> str:
        query = request.GET.copy()
        query[param] = str(number)
        return f"{path}?{query.urlencode()}"

    page.param = param
    page.links = [PageLink(number, url(number), number == page.number) if isinstance(number, int)
                  else PageLink(None, "")  # Paginator.ELLIPSIS
                  for number in paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1)]
    page.previous_url = url(page.previous_page_number()) if page.has_previous() else ""
    page.next_url = url(page.next_page_number()) if page.has_next() else ""
    return page


def search_text(request: HttpRequest, param: str = "q") -> str:
    return " ".join(request.GET.get(param, "").split())[:SEARCH_MAX]


def search(queryset: QuerySet, text: str, *fields: str) -> QuerySet:
    """The rows where any of ``fields`` contains ``text`` (case-insensitive); all rows for an empty text."""
    if not text:
        return queryset
    return queryset.filter(reduce(or_, (Q(**{f"{name}__icontains": text}) for name in fields)))
