"""What this process knows of the services it talks to over the network (Redis as task broker, cache and channel
layer): one warning when a service stops answering and one line when it answers again, however many requests
meet the outage in between — never a traceback per request.

Each :class:`Outage` is per process and thread-safe. The code that talks to the service calls
:meth:`Outage.failed` with the error when a call fails and :meth:`Outage.answered` when one succeeds; it decides
itself what to do instead (run the work here, miss the cache, drop a notice the pages catch up on).

>>> import logging
>>> outage = Outage("the cache", while_down="pages are rendered without it")
>>> outage.failed("reading the cache", ConnectionError("refused"))
>>> outage.down, outage.failed("reading the cache", ConnectionError("refused"))
(True, None)
>>> outage.answered()
>>> outage.down
False
"""

from __future__ import annotations

import logging
import threading
import time

logger = logging.getLogger(__name__)


class Outage:
    """One service's reachability as this process sees it. ``retry_after`` > 0: while it is down, callers that ask
    :meth:`may_try` skip it for that many seconds after each failure (no wait on a dead host in every request)."""

    def __init__(self, service: str, *, while_down: str, retry_after: float = 0.0,
                 log: logging.Logger | None = None) -> None:
        self.service, self.while_down, self.retry_after = service, while_down, retry_after
        self.log = log or logger
        self.lock = threading.Lock()
        self.down_since: float | None = None
        self.next_try = 0.0

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def may_try(self) -> bool:
        with self.lock:
            return self.down_since is None or time.monotonic() >= self.next_try

    def failed(self, doing: str, error: BaseException) -> None:
        """A call failed with ``error`` while ``doing`` something: the first failure of an outage logs a warning."""
        with self.lock:
            now = time.monotonic()
            first = self.down_since is None
            if first:
                self.down_since = now
            self.next_try = now + self.retry_after
        if first:
            self.log.warning(self.down_message(doing, error))

    def answered(self) -> None:
        """A call succeeded: the first success after an outage logs that the service is back."""
        if self.down_since is None:  # the common case: no lock taken
            return
        with self.lock:
            down_since, self.down_since = self.down_since, None
        if down_since is not None:
            self.log.warning(self.back_message(time.monotonic() - down_since))

    def down_message(self, doing: str, error: BaseException) -> str:
        return (f"{self.service} cannot be reached ({error.__class__.__name__} {doing}): {self.while_down}, "
                f"until it answers again")

    def back_message(self, seconds: float) -> str:
        return f"{self.service} is reachable again, after {seconds:.0f} s"


channel_layer = Outage("the channel layer (Redis)", while_down="live pages and online tables get no notices and "
                       "catch up when their sockets reconnect")
"""The channel layer as the synchronous code of this process sends to it (``live.notices``, ``tables``)."""

cache = Outage("the cache (Redis)", while_down="every read misses and nothing is kept")
"""The shared cache (``config.cache``)."""
