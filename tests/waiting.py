"""Waiting for something to happen, with a deadline: never a bare sleep that hopes it happened meanwhile."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float, what: str, interval: float = 0.05) -> T:
    """``condition()``'s first truthy value, asked every ``interval`` seconds; an ``AssertionError`` naming ``what``
    when ``timeout`` seconds pass first. The deadline is in seconds, not in tries: a loaded machine that answers
    each try slowly still gets the whole time."""
    deadline = time.monotonic() + timeout
    while not (value := _asked(condition)):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(interval)
    return value


def _asked(condition: Callable[[], T]) -> T | None:
    """``condition()``; a read of the in-memory SQLite database the browser tests share with their live server,
    refused while the server writes ("database table is locked"), is "not yet": the next try reads it."""
    from django.db.utils import OperationalError

    try:
        return condition()
    except OperationalError as error:
        if "locked" not in str(error):
            raise
        return None


async def until(condition: Callable[[], T], timeout: float, what: str, interval: float = 0.02) -> T:
    """``wait_until`` on an event loop: the loop runs on between the tries."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(interval)
    return value
