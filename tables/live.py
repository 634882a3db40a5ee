"""The live layer of the online tables: who may open a table's socket, what each reader is sent, and when.

Groups of the channel layer (``settings.CHANNEL_LAYERS``):

- ``table.<id>.seat.<n>``: the sockets of seat ``n`` (its player's tabs, or the seat's private link). Only this
  group is ever sent seat ``n``'s view (``reader_views.view_for``): its own cards and legal moves.
- ``table.<id>``: the spectators. They are sent the spectator view (``reader_views.spectator_view``): no hand, no
  legal move, nobody's unplayed card. A seated socket does not join it (it would get every event twice). At an event
  table (``tables.spectators``) the organiser's rule holds: the view a trick behind (``reader_views.trick_behind``:
  no action named, the version the picture's own), or nothing at all while the event is on.
- ``tables.user.<user id>``: every socket a signed-in user opened, closed when the user logs out.

:func:`publish` receives ``tables.signals.table_changed`` (sent after the commit) and sends every group the frame of
its reader (``reader_views.all_views``), versioned: ``{"type": "event", "version", "view", "seats", "table"}`` and,
after an action, ``"seat"``, ``"action"``, ``"by"``. A consumer drops a frame older than the last one it sent (two
commits may publish out of order), so a reader's versions only go up. The receivers are connected in
``config.wiring``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from redis.exceptions import RedisError

from tables import clock, presence, reader_views, seating, spectators
from tables.models import Table, TableAction
from tables.one_seat import SeatElsewhere
from tables.signals import event_table_changed

logger = logging.getLogger(__name__)

FRAME = "table.frame"  # the channel-layer message type of a frame for the readers of a group
CLOCK = "table.clock"  # the channel-layer message type of a turn's clock started again (``turn_shown``)
BEAT = "table.beat"  # a socket's heartbeat, sent through the layer to itself: it comes back while the layer delivers
LOGOUT = "tables.logout"  # the channel-layer message type that closes a user's sockets
PRESENCE = "tables.presence"  # the channel-layer message type that has a socket send its reader the state again


class Refused(Exception):
    """The socket may not be opened: ``code`` is the close code sent (4403 not allowed, 4404 no such table)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def seat_group(table_id: int, seat: int) -> str:
    return f"table.{table_id}.seat.{seat}"


def user_group(user_id: int) -> str:
    return f"tables.user.{user_id}"


# ----------------------------------------------------------------------------- reading the table
def load_table(table_id: int) -> Table | None:
    return Table.objects.filter(pk=table_id).first()


def last_action(table_id: int, version: int) -> dict[str, Any] | None:
    """Who did what to bring the table to ``version`` (``None`` when a seat change or a deal did)."""
    row = TableAction.objects.filter(table_id=table_id, seq=version).values("seat", "action", "by").first()
    return dict(row) if row else None


def seat_for_socket(table_id: int, user: Any, seat_token: str, invite_token: str,
                    session: Any = None) -> int | None:
    """The seat a socket opened on ``table_id`` plays: the one of the seat link's ``seat_token`` if given, else
    the session user's, else ``None`` (a spectator). Raises :class:`Refused` for a table that does not exist or is
    closed, a seat link of another table, and a spectator of a private table without its invite token. An event
    table (``tables.spectators``) needs no invite while its competition is published, but refuses a spectator while
    it is closed to them, and a player of its match or a browser whose ``session`` holds one of its seat links:
    they open their seat."""
    table = load_table(table_id)
    if table is None or table.status == Table.CLOSED:
        raise Refused(4404, "no such table")
    if seat_token:
        try:
            row = seating.seat_by_token(seat_token, user)
        except SeatElsewhere as error:  # one seat per player per event (tables.one_seat)
            raise Refused(4403, error.reason) from None
        if row is None or row.table_id != table.pk:
            raise Refused(4403, "this seat link is not one of this table's")
        return row.index
    seat = seating.seat_of_user(table, user)
    if seat is not None:
        return seat
    rule = spectators.rule_of(table)
    refusal = spectators.why_not_spectator(table, rule, user, _held_links(session))
    if refusal is not None:
        raise Refused(4403, refusal.reason)
    if table.visibility == Table.PRIVATE and invite_token != table.invite_token and not rule.public:
        raise Refused(4403, "a private table: open it with its invite link")
    return None


def _held_links(session: Any) -> dict | None:
    """The seat links the socket's browser opened (``spectators.SEAT_LINKS_KEY`` of its session), read here, in the
    database's thread."""
    if session is None:
        return None
    try:
        return session.get(spectators.SEAT_LINKS_KEY)
    except Exception:  # no session to read (a socket without a cookie, a session store down): no seat link held
        return None


def opened_frame(table_id: int, seat: int | None) -> dict[str, Any]:
    """A socket has opened (and joined its groups): its seat, if it holds one, is counted present
    (``presence.mark_back``), then the full state is read for it — one trip to the database thread, not two."""
    if seat is not None:
        presence.mark_back(table_id, seat)
        tell_event_page_of(table_id)  # a player came to an event table: no longer missing on the event's page
    return state_frame(table_id, seat)


def seat_closed(table_id: int, seat: int) -> None:
    """A socket holding the seat closed: it is counted out (``presence.mark_away``), and the event's page is told
    when the table is an event's (the player may be gone)."""
    presence.mark_away(table_id, seat)
    tell_event_page_of(table_id)


GAP_MAX = 64
"""The most actions a client coming back is sent as its gap (more: the state alone)."""


def state_frame(table_id: int, seat: int | None, since: Any = None) -> dict[str, Any]:
    """The full state for one reader (``seat`` ``None``: a spectator), read now. With ``since`` (the last version
    a client coming back had) and a gap of at most ``GAP_MAX`` actions all in the hand now in play, the frame also
    carries the gap: ``"since"`` and ``"gap"``, the actions it missed in order (``version``, ``seat``, ``action``,
    ``by``: cards played face up, nothing hidden). Otherwise the state alone brings it up to date."""
    table = load_table(table_id)
    if table is None:
        raise Refused(4404, "no such table")
    if seat is not None:
        body = reader_views.view_for(table, seat)
        watching = spectators.Watching.LIVE
    else:
        watching = spectators.rule_of(table).watching
        body = spectators_frame(reader_views.spectator_view(table), watching, table)
    frame = {"type": "state", **body}
    gap = missed_actions(table, since) if watching == spectators.Watching.LIVE else None
    if gap is not None:
        frame.update(since=since, gap=gap)
    return frame


def spectators_frame(frame: dict[str, Any], watching: spectators.Watching,
                     table: Table | None = None) -> dict[str, Any]:
    """The spectators' ``frame`` as the table's rule shows it: live, a trick behind (``reader_views.trick_behind``),
    or — closed to spectators — no hand and no turn at all (a socket opened before the organiser closed the tables
    learns nothing more)."""
    if watching == spectators.Watching.TRICK_BEHIND:
        return reader_views.trick_behind(frame, table)
    if watching == spectators.Watching.CLOSED:
        return {**frame, "view": None,
                "table": dict(frame["table"], turn=None, deadline_at=None, delay=spectators.Watching.CLOSED.value)}
    return frame


def spectator_version(table_id: int) -> int | None:
    """The version a spectator's picture of the table has now (``None``: no such table): the table's own, or the
    one its picture a trick behind shows — what a spectator's heartbeat is answered with."""
    table = load_table(table_id)
    if table is None:
        return None
    watching = spectators.rule_of(table).watching
    if watching == spectators.Watching.TRICK_BEHIND:
        return reader_views.trick_behind(reader_views.spectator_view(table), table)["version"]
    return table.version


def missed_actions(table: Table, since: Any) -> list[dict[str, Any]] | None:
    """The actions after version ``since``, when they can be sent as a gap (see :func:`state_frame`)."""
    if not isinstance(since, int) or isinstance(since, bool) or not 0 <= since <= table.version:
        return None
    hand = table.hands.order_by("-number").values_list("pk", flat=True).first()
    rows = list(TableAction.objects.filter(table=table, seq__gt=since).order_by("seq")
                .values("seq", "seat", "action", "by", "hand_id")[:GAP_MAX + 1])
    if len(rows) > GAP_MAX or any(row["hand_id"] != hand for row in rows):
        return None  # too long, or reaching into a hand before: the state says where things are
    return [{"version": row["seq"], "seat": row["seat"], "action": row["action"], "by": row["by"]} for row in rows]


def frames(table_id: int, views: dict[int | None, dict[str, Any]] | None = None,
           action: dict[str, Any] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Each group of the table with its readers' frame: a seat's own view to its group only. ``views``
    (``reader_views.all_views``' answer) and ``action`` (who did what, ``None``: no action) when the change that
    publishes built them; else read now."""
    return event_frames(table_id, views, action)[0]


def event_frames(table_id: int, views: dict[int | None, dict[str, Any]] | None = None,
                 action: dict[str, Any] | None = None) -> tuple[list[tuple[str, dict[str, Any]]],
                                                                 spectators.SpectatorRule]:
    """:func:`frames`, and the table's spectator rule they were made under (``tables.spectators``): at an event
    table the spectators' frame is a trick behind and names no action, or is not sent while the event is on."""
    table = None
    if views is None:
        table = load_table(table_id)
        if table is None:
            return [], spectators.NOT_AN_EVENT
        action = last_action(table_id, table.version)
        views = reader_views.all_views(table)  # every seat's frame and the spectators', from one read of the table
    action = action or {}
    info = views[None]["table"]
    rule = spectators.rule_for(info.get("match_id") if info.get("kind") == Table.FIXTURE else None)
    out = []
    if rule.watching == spectators.Watching.LIVE:
        out.append((table_group(table_id), {"type": "event", **action, **views[None]}))
    elif rule.watching == spectators.Watching.TRICK_BEHIND:
        out.append((table_group(table_id), {"type": "event", **spectators_frame(views[None], rule.watching, table)}))
    out += [(seat_group(table_id, seat), {"type": "event", **action, **views[seat]})
            for seat in sorted(reader for reader in views if reader is not None)]
    return out, rule


# ----------------------------------------------------------------------------- sending
async def _send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Each ``(group, message)`` to its group: in one round trip when the layer can (``group_send_many``,
    ``config.channel_layers``), else one ``group_send`` each, side by side."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    many = getattr(layer, "group_send_many", None)
    if many is not None:
        await many(messages)
    else:
        await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))


_batches: dict[asyncio.AbstractEventLoop, list[tuple[list[tuple[str, dict[str, Any]]], str]]] = {}
"""Per event loop: the sends handed over by database threads and not sent yet (``_enqueue``)."""


def _enqueue(loop: asyncio.AbstractEventLoop, messages: list[tuple[str, dict[str, Any]]], what: str) -> None:
    """On the loop: queue ``messages``; the loop's flusher, started unless it runs, sends what is queued."""
    batch = _batches.get(loop)
    if batch is not None:  # a flusher runs: it takes these with the next batch
        batch.append((messages, what))
        return
    _batches[loop] = [(messages, what)]
    loop.create_task(_flush(loop))


async def _flush(loop: asyncio.AbstractEventLoop) -> None:
    """Send the queued messages, a batch at a time (everything queued while the batch before was on its way), in
    the order queued, until none is left: under load many tables' changes share a round trip to Redis."""
    try:
        while _batches.get(loop):
            batch, _batches[loop] = _batches[loop], []
            try:
                await _send_all([message for messages, _ in batch for message in messages])
            except (ConnectionError, OSError, TimeoutError, RedisError) as error:  # the layer down: pages resync
                logger.warning("sending %s failed: %s", ", ".join(what for _, what in batch), error)
            except Exception:
                logger.exception("sending %s failed", ", ".join(what for _, what in batch))
    finally:
        _batches.pop(loop, None)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the ASGI server this thread works for (a ``sync_to_async`` thread of it), if it runs."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or not loop.is_running() or loop.is_closed():
        return None
    with contextlib.suppress(RuntimeError):
        if asyncio.get_running_loop() is loop:
            return None
    return loop


def send(messages: list[tuple[str, dict[str, Any]]], what: str) -> None:
    """Send ``messages`` (``(group, message)``) through the channel layer. From a database thread of the ASGI
    server the sends are handed to its event loop and not waited for: the thread (and the table's actions waiting
    for it) is not held up by the round trips to Redis, and the loop sends them in the order they were handed
    over, in batches (``_flush``). Elsewhere (a view, a worker, a test) they are sent before this returns."""
    loop = _server_loop()
    if loop is not None:
        loop.call_soon_threadsafe(_enqueue, loop, messages, what)
    else:
        async_to_sync(_send_all)(messages)


def current_version(table_id: int) -> int | None:
    """The table's version now (``None``: no such table): what a heartbeat tells a page, which catches up if it is
    behind."""
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


def clock_messages(table_id: int, version: int, seat: int, deadline_at: Any, players: int) -> list[tuple[str, dict]]:
    """The turn's new deadline for every group of the table (``turn_shown``: the turn reached its player late and
    its clock started then). Not a new version: a reader applies it to the version it has, if the same."""
    message = {"type": CLOCK, "version": version, "turn": seat,
               "deadline_at": deadline_at.isoformat() if deadline_at else None}
    return [(table_group(table_id), message)] + [(seat_group(table_id, index), message) for index in range(players)]


def turn_shown(table_id: int, seat: int, version: int) -> dict[str, Any] | None:
    """A socket of ``seat`` was sent its turn at ``version`` (``clock.turn_shown``). When the turn's clock
    started again (it reached the player late), every reader is sent the new deadline, and it is returned as the
    ``clock`` frame for the socket itself (which gets it even when the layer does not deliver)."""
    table = clock.turn_shown(table_id, seat, version)
    if table is None:
        return None
    messages = clock_messages(table.pk, version, seat, table.deadline_at, table.players)
    try:
        send(messages, f"table {table_id}'s clock at version {version}")
    except Exception:  # the layer is down: each reader's heartbeat brings the state once it is back
        logger.exception("sending table %s's clock at version %s failed", table_id, version)
    return {**messages[0][1], "type": "clock"}


def frame_message(frame: dict[str, Any]) -> dict[str, Any]:
    """A group's frame as the channel layer carries it: its JSON text, made once here, and its version. Each socket
    of the group sends the text as it is — no decoding and encoding again in every reader's consumer (measured by
    ``bench/bench_tables.py``: packing the frames' dicts for Redis, unpacking them and encoding each again as JSON
    were a sixth of the server's CPU)."""
    return {"type": FRAME, "version": frame.get("version", -1), "turn": turn_of(frame),
            "text": json.dumps(frame, separators=(",", ":"))}


def turn_of(frame: dict[str, Any]) -> int | None:
    """The seat to move in a frame of a table in play (``None``: nobody, or the table is not playing)."""
    table = frame.get("table") or {}
    return table.get("turn") if table.get("status") == Table.PLAYING else None


def publish(sender: Any = None, table_id: int | None = None, version: int | None = None,
            views: dict[int | None, dict[str, Any]] | None = None, action: dict[str, Any] | None = None,
            **kwargs: Any) -> None:
    """``table_changed``'s receiver: every reader of the table gets its frame (built from ``views`` and ``action``
    when the change sends them, else read now). Never raises: the change is committed whatever the sockets do, and
    a reader that missed a frame resyncs."""
    if table_id is None:
        return
    try:
        made, rule = event_frames(table_id, views, action)
        messages = [(group, frame_message(frame)) for group, frame in made]
        send(messages, f"table {table_id} at version {version}")
    except Exception:
        logger.exception("publishing table %s at version %s failed", table_id, version)
        return
    tell_event_page(rule)


def tell_event_page(rule: spectators.SpectatorRule) -> None:
    """An event table changed (a move, a start, a seat's player coming or going): its competition's live pages
    that show its tables (the event's page) render again (``tables.signals.event_table_changed``). Never raises."""
    if not rule.is_event:
        return
    try:
        event_table_changed.send(sender=Table, competition_id=rule.competition_id, match_id=rule.match_id)
    except Exception:
        logger.exception("telling the event page of competition %s failed", rule.competition_id)


def announce_presence(sender: Any = None, table_id: int | None = None, players: int = 0, seat: int | None = None,
                      **kwargs: Any) -> None:
    """``presence_changed``'s receiver: every socket of the table but ``seat``'s own (the seat whose player went
    away or came back) sends its reader the state again; the version is the same, so no frame of it would pass.
    Never raises."""
    if table_id is None:
        return
    groups = [table_group(table_id)] + [seat_group(table_id, other) for other in range(players) if other != seat]
    try:
        send([(group, {"type": PRESENCE}) for group in groups], f"table {table_id}'s presence")
    except Exception:
        logger.exception("announcing the presence at table %s failed", table_id)
    tell_event_page_of(table_id)


def tell_event_page_of(table_id: int) -> None:
    """:func:`tell_event_page` for the table ``table_id`` (a casual table, or a fixture's not of an event: nothing).
    Never raises."""
    try:
        match_id = Table.objects.filter(pk=table_id, kind=Table.FIXTURE).values_list("match_id", flat=True).first()
        rule = spectators.rule_for(match_id)
    except Exception:
        logger.exception("reading the spectator rule of table %s failed", table_id)
        return
    tell_event_page(rule)


def close_user_sockets(sender: Any = None, user: Any = None, **kwargs: Any) -> None:
    """``user_logged_out``'s receiver: the user's open sockets are closed (their seat stays theirs)."""
    if user is None or getattr(user, "pk", None) is None:
        return
    try:
        async_to_sync(_send_all)([(user_group(user.pk), {"type": LOGOUT})])
    except Exception:
        logger.exception("closing the sockets of user %s failed", user.pk)

