"""Writes that a phone may safely send again: an ``Idempotency-Key`` made on the phone names the request, and the
first request with a key stores its answer under the key in the same transaction as what it stored (a hand, a
game result, the match totals). The same key again with the same body gets that answer back, whatever happened
since (the match moved on, the hand's number is now taken by that very hand), and stores nothing more; the same
key with another body is refused, and so is a second request with a key whose first one is still running.

What is kept under a key is the answer of the service: what it stored, or why it refused (Stripe's rule: an
error is kept and given again once the request was processed). Not kept: a bad key, a caller without the right
to write, input refused before the service ran (the body's shape), and a failure of the server — the
transaction rolls back with it, so that the phone may try again with the same key.

Keys are scoped by caller (``caller``): two scorekeepers who pick the same key each have their own. Keys older
than ``KEPT_FOR`` are cleared daily (``clear_old_requests``, run by celery beat: ``games.tasks``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.common import EntryError, signed_in
from games.models import IdempotentRequest, Match

HEADER = "Idempotency-Key"
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,128}")
KEPT_FOR = timedelta(days=7)
NEW_KEY = "make a new key for each new request"


class IdempotencyConflict(EntryError):
    """The key was used for another request, or its first request is still being answered."""

    conflict = True


@dataclass(frozen=True)
class Answer:
    """An answer to give: its HTTP status and JSON body; ``replayed`` when it is the one stored under the key."""

    status: int
    body: Any
    replayed: bool = False


def check_key(key: Any) -> str:
    """The key when it is 8 to 128 letters, digits, ``-`` or ``_``; else ``EntryError`` naming the header."""
    if not isinstance(key, str) or not KEY_PATTERN.fullmatch(key):
        shown = key if isinstance(key, str) and len(key) <= 40 else f"{str(key)[:40]}…"
        raise EntryError(HEADER, f"must be 8 to 128 letters, digits, '-' or '_' (a UUID will do), got {shown!r}")
    return key


def caller_of(user: Any, match: Match) -> str:
    """Whose keys a request's key is among: the signed-in user's, else those of the match's private link."""
    account = signed_in(user)
    return f"user:{account.pk}" if account is not None else f"link:{match.pk}"


def body_digest(body: Any) -> str:
    """SHA-256 of the body as canonical JSON (keys sorted, no spaces), so that the same entry sent again matches
    however the phone ordered its keys."""
    if hasattr(body, "lists"):  # a form's QueryDict
        body = dict(body.lists())
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def answer_once(*, key: str, user: Any, match: Match, endpoint: str, body: Any,
                run: Callable[[], tuple[int, Any]]) -> Answer:
    """Answer the request named by ``key`` once: ``run`` (which does the work in its own nested transaction and
    returns the answer's status and JSON body) runs only for a key not seen yet, and its answer is stored under the
    key in the same transaction; the key seen before gives the stored answer (``replayed``).

    Two requests with one key at once: the second one's insert of the key waits on the unique constraint until
    the first commits, then finds its answer. An exception out of ``run`` rolls everything back, the key too."""
    caller, digest = caller_of(user, match), body_digest(body)
    with transaction.atomic():
        seen = _stored(caller, key)
        if seen is not None:
            return _replay(seen, match, endpoint, digest)
        try:
            with transaction.atomic():
                request = IdempotentRequest.objects.create(key=key, caller=caller, user=signed_in(user), match=match,
                                                           endpoint=endpoint, body_sha256=digest)
        except IntegrityError:  # the same key committed by a request racing this one
            return _replay(_stored(caller, key), match, endpoint, digest)
        status, answer = run()
        request.status, request.response = status, answer
        request.save(update_fields=["status", "response"])
    return Answer(status, answer)


def _stored(caller: str, key: str) -> IdempotentRequest | None:
    return IdempotentRequest.objects.select_for_update().filter(caller=caller, key=key).first()


def _replay(seen: IdempotentRequest | None, match: Match, endpoint: str, digest: str) -> Answer:
    if seen is None or not seen.status:  # only a request that died with its transaction leaves no answer
        raise IdempotencyConflict(HEADER, "a request with this key is in progress: wait for its answer and send "
                                          "it again")
    when = f"{timezone.localtime(seen.created_at):%Y-%m-%d %H:%M:%S}"
    if seen.match_id != match.pk or seen.endpoint != endpoint:
        raise IdempotencyConflict(HEADER, f"this key was used for a different request: POST "
                                          f"{endpoint_path(seen.match_id, seen.endpoint)} at {when}; {NEW_KEY}")
    if seen.body_sha256 != digest:
        raise IdempotencyConflict(HEADER, f"this key was used for a different request: the same {endpoint} of "
                                          f"this match with another body, at {when}; {NEW_KEY}")
    return Answer(seen.status, seen.response, replayed=True)


PAGE_ENDPOINTS = {"entry": "enter/", "entry-record": "enter/record/", "entry-games": "games/",
                  "entry-totals": "totals/"}
"""The entry pages' JSON modes (their queue, static/js/offline_entry.js), by endpoint name; any other endpoint is
the API's (``/api/matches/<id>/<endpoint>/``)."""


def endpoint_path(match_id: int, endpoint: str) -> str:
    """The path a key's first request was posted to, as the 409 names it: an entry page's (its account route) or
    the API's."""
    if endpoint in PAGE_ENDPOINTS:
        return f"/matches/{match_id}/{PAGE_ENDPOINTS[endpoint]}"
    return f"/api/matches/{match_id}/{endpoint}/"


def clear_old_requests(older_than: timedelta = KEPT_FOR) -> int:
    """Forget the keys older than ``older_than`` (a phone resends within minutes or hours, not weeks); how many."""
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=timezone.now() - older_than).delete()
    return deleted
