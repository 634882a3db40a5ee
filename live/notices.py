"""The notices that make live pages render again, sent to a competition's group once a change is committed.

``live.competition.<id>``: the hub of each process with open live pages of the competition (``live.hub``: one
subscription per process, which tells the pages concerned). A notice is
``{"type": "live.notice", "competition": <id>, "version": <ns>, "matches": [ids] | None, "wide": bool,
"tables": [ids]}``: ``matches`` names the matches whose scoresheets changed (``None``: all of them), ``wide`` whether
the competition's own pages (standings, fixtures and results, rounds, bracket, team matches) did, ``tables`` the
matches whose online tables changed (a move, a start, a player coming or going: only the event's page shows them).
A hand's commit changes its scoresheet (``[id]``, not wide: the standings follow once the settle task has refreshed
them); the settle task names the matches it recomputed; a standings refresh is wide (``[]``); a publication changes
everything (``None``, wide).
A notice carries nothing of the competition itself: each page renders what its reader may see.
``live.user.<id>``: the pages a signed-in reader has open with their own rendering (an organiser's, a
scorekeeper's), closed when the reader logs out (``{"type": "live.logout"}``): what their login showed does not
go on arriving on a shared phone.

Sent from wherever the change commits — a request, the settle task in a worker, an online table's action — by
``send_or_note_outage``: a notice that cannot be sent (the channel layer down) is lost, and never fails the
change; an open page then catches up at the next notice or when its socket reconnects. The outage is logged once
(``league.outages.channel_layer``: one warning when it goes, one line when it is back), not once a notice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from redis.exceptions import RedisError

from league import outages

logger = logging.getLogger(__name__)
NOTICE = "live.notice"
BROKEN_LAYER = (RedisError, OSError, asyncio.TimeoutError)  # the layer's Redis did not answer (OSError: refused)


LOGOUT = "live.logout"


def competition_group(competition_id: int) -> str:
    return f"live.competition.{competition_id}"


def user_group(user_id: int) -> str:
    """The live pages a signed-in reader has open with their own rendering: closed when they log out."""
    return f"live.user.{user_id}"


def notify(competition_id: int, matches: list[int] | None = None, *, wide: bool = True,
           tables: list[int] | None = None) -> None:
    """Tell the competition's open pages what changed: the scoresheets of ``matches`` (``None``: all), when
    ``wide`` the competition's own pages, and the online tables of the matches ``tables`` (the event's page)."""
    if matches == [] and not wide and not tables:
        return
    message = {"type": NOTICE, "competition": competition_id, "version": time.time_ns(), "matches": matches,
               "wide": wide, "tables": list(tables or [])}
    send_or_note_outage(competition_group(competition_id), message, f"a live notice of competition {competition_id}")


def send_or_note_outage(group: str, message: dict[str, Any], what: str) -> bool:
    """``send_to_group``, never raising: a layer that cannot be reached is noted as an outage (one warning for it,
    one line when it answers again: ``league.outages``) and the message is lost — the change it tells of is
    committed and stays, and the pages catch up. Any other failure is logged with its traceback."""
    try:
        send_to_group(group, message)
    except BROKEN_LAYER as error:
        outages.channel_layer.failed(f"sending {what}", error)
        return False
    except Exception:
        logger.exception("%s not sent", what)
        return False
    outages.channel_layer.answered()
    return True


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """``group_send`` from synchronous code: by the layer's own synchronous send when it has one (the Redis layer,
    ``config.channel_layers``: no event loop and connection made for each message), else through ``async_to_sync``."""
    layer = get_channel_layer()
    send_now = getattr(layer, "group_send_sync", None)
    if send_now is not None:
        send_now(group, message)
    else:
        async_to_sync(layer.group_send)(group, message)


# ----------------------------------------------------------------------------- listeners (connected in config.wiring)
def notify_hands_changed(sender: Any, *, match: Any, **kwargs: Any) -> None:
    """``games.signals.results_changing``: after the commit, the match's open scoresheets render again."""
    competition_id, match_id = match.competition_id, match.pk
    transaction.on_commit(lambda: notify(competition_id, [match_id], wide=False), robust=True)


def notify_matches_settled(sender: Any, *, competition_id: int, matches: list[int] | None = None,
                           **kwargs: Any) -> None:
    """``games.signals.results_settled``: the scoresheets of the matches the settle task recomputed."""
    notify(competition_id, list(matches or []), wide=False)


def notify_event_table_changed(sender: Any, *, competition_id: int, match_id: int, **kwargs: Any) -> None:
    """``tables.signals.event_table_changed``: the event's page, which shows the match's table (its score, clocks
    and who is there)."""
    notify(competition_id, [], wide=False, tables=[match_id])


def notify_standings_refreshed(sender: Any, *, competition_id: int, **kwargs: Any) -> None:
    """``standings.signals.standings_refreshed``: the competition's own pages."""
    notify(competition_id, [], wide=True)


def notify_check_ins_changed(sender: Any, *, competition_id: int, **kwargs: Any) -> None:
    """``league.signals.check_ins_changed``: the competition's own pages (the check-in lists)."""
    notify(competition_id, [], wide=True)


def notify_round_clock_changed(sender: Any, *, competition_id: int, **kwargs: Any) -> None:
    """``league.signals.round_clock_changed``: every page of the competition (the scoresheets show the clock)."""
    notify(competition_id, None, wide=True)


def notify_publication_changed(sender: Any, *, competition_id: int, **kwargs: Any) -> None:
    """``league.signals.publication_changed``: every page of the competition."""
    notify(competition_id, None, wide=True)


def close_user_pages(sender: Any, *, user: Any = None, **kwargs: Any) -> None:
    """``user_logged_out``: the live pages the user had open with their own rendering are closed."""
    if user is None or getattr(user, "pk", None) is None:
        return
    send_or_note_outage(user_group(user.pk), {"type": LOGOUT}, f"the closing of user {user.pk}'s live pages")
