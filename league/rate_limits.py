"""A sliding-window limit on events, for the sockets of the upper layers (the online tables' and the live pages'):
each socket holds its own, so that one noisy page can flood neither its process nor the database."""

from __future__ import annotations

import time
from collections import deque


class RateLimit:
    """At most ``limit`` events in any ``window`` seconds.

    >>> limit = RateLimit(2, 10.0)
    >>> limit.allow(0.0), limit.allow(1.0), limit.allow(2.0), limit.allow(10.5)
    (True, True, False, True)
    """

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self.times: deque[float] = deque()

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        while self.times and self.times[0] <= now - self.window:
            self.times.popleft()
        if len(self.times) >= self.limit:
            return False
        self.times.append(now)
        return True
