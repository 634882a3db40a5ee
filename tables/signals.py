"""What ``tables`` announces to the layers above it and to its own live layer (``tables.live``)."""

from __future__ import annotations

from django.dispatch import Signal

table_changed = Signal()
"""``table_id``, ``version``: the table's state changed and the change is committed (an accepted action, a seat
taken or left, a bot added, a start, a rematch, a close). Sent after the commit, never inside it: the live layer
listens and sends each seat its own view."""

presence_changed = Signal()
"""``table_id``, ``players``, ``seat``: the seat's player went away or came back (the table's version is unchanged).
Sent after the commit: the live layer has the table's other readers read their state again, so no page shows a
player away who is there (or present who is gone) until the next move."""

event_table_changed = Signal()
"""``competition_id``, ``match_id``: a table of a match of a competition played online changed (a move, a seat, a
start, a finish) or its players came or went. Sent after the commit by ``tables.live``: the live layer has the
competition's event page render again (``config.wiring``)."""
