"""What the lower layers announce to the upper ones, which they never import (``docs/architecture.md``).

``league`` and ``games`` change what the standings and the ratings are computed from; ``standings`` listens
(``standings.receivers``) and refreshes them. Each ``*_after_commit`` helper sends its signal once the current
transaction has committed, so a listener never reads a change that may yet be rolled back.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

standings_stale = Signal()
"""``competition_id``: an entry, an option or a result the competition's standings count changed."""

ratings_stale = Signal()
"""A rated result appeared, changed or went away, or what is public changed (a publication): the players'
ratings are to be rebuilt (the rebuild is debounced by its listener)."""


publication_changed = Signal()
"""``competition_id``: what visitors may see of the competition changed (it or one of its rounds was published or
taken back to a draft), committed. The live pages re-render for their readers (a page a reader may no longer see
tells them so)."""


round_clock_changed = Signal()
"""``competition_id``: a round's clock was set, started, paused, resumed or extended, committed. Every live page of
the competition renders again (the scoresheets and the big screen show the clock)."""


def round_clock_changed_after_commit(competition_id: int) -> None:
    transaction.on_commit(lambda: round_clock_changed.send(sender=None, competition_id=competition_id), robust=True)


check_ins_changed = Signal()
"""``competition_id``: someone checked in or out, or a round's check-in was required, closed or dropped, committed.
The check-in pages (the projector's list) render again."""


def check_ins_changed_after_commit(competition_id: int) -> None:
    transaction.on_commit(lambda: check_ins_changed.send(sender=None, competition_id=competition_id), robust=True)


def publication_changed_after_commit(competition_id: int) -> None:
    transaction.on_commit(lambda: publication_changed.send(sender=None, competition_id=competition_id), robust=True)


def standings_stale_after_commit(competition_id: int) -> None:
    transaction.on_commit(lambda: standings_stale.send(sender=None, competition_id=competition_id))


def ratings_stale_after_commit() -> None:
    transaction.on_commit(lambda: ratings_stale.send(sender=None))


round_published = Signal()
"""``round_id``: a draft round was published, committed: its players are told their table, opponents and time
(``notify``). With ``match_ids``: only these matches are new — ties that joined a knockout round published tie by
tie."""


def round_published_after_commit(round_id: int, match_ids: list[int] | None = None) -> None:
    extra = {} if match_ids is None else {"match_ids": list(match_ids)}
    transaction.on_commit(lambda: round_published.send(sender=None, round_id=round_id, **extra), robust=True)


attention_needed = Signal()
"""``user_id``, ``title``, ``body``, ``url``, ``key``: something waits for this person (a partner to confirm an
entry, a claim to approve, a claim answered), committed. The e-mail that says so is the action's own; ``notify``
also tells their phones, once per ``key``, as the person chose."""


def attention_needed_after_commit(*, user_id: int, title: str, body: str, url: str, key: str) -> None:
    transaction.on_commit(lambda: attention_needed.send(sender=None, user_id=user_id, title=title, body=body,
                                                        url=url, key=key), robust=True)
