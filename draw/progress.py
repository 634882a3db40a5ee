"""The pairing task's progress bar: what the engine reports, written to the round (and a sign of life for
the sweep)."""

from __future__ import annotations

import time
from typing import Any

from django.utils import timezone

from draw.models import Round

PROGRESS_INTERVAL = 0.3  # seconds: at most about three progress writes a second


class Progress:
    """The progress callback handed to the engine: writes ``pairing_progress``/``pairing_message`` of the round
    with a short update of its own (visible to the page while the task runs), at most every
    ``PROGRESS_INTERVAL`` seconds. ``part(start, span)`` maps a sub-task's 0..1 onto a part of the bar."""
    def __init__(self, round_id: int, version: int, start: float = 0.0, span: float = 1.0,
                 parent: Progress | None = None) -> None:
        self.round_id, self.version, self.start, self.span = round_id, version, start, span
        self.root: Progress = parent.root if parent else self
        self.last = 0.0
        self.label = ""

    def part(self, start: float, span: float, label: str = "") -> Progress:
        child = Progress(self.round_id, self.version, self.start + start * self.span, span * self.span, self)
        child.label = label
        return child

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        fraction, message = _progress_args(args, kwargs)
        if self.label:
            message = f"{self.label}: {message}" if message else self.label
        self.write(fraction, message)

    def write(self, fraction: float | None, message: str = "", force: bool = False) -> None:
        now = time.monotonic()
        root = self.root
        if not force and now - root.last < PROGRESS_INTERVAL:
            return
        root.last = now
        fields: dict[str, Any] = {}
        if fraction is not None:
            fields["pairing_progress"] = round(min(1.0, max(0.0, self.start + self.span * fraction)), 4)
        if message:
            fields["pairing_message"] = message[:300]
        if fields:  # a sign of life too: a pairing that reports progress is not taken for lost (the sweep)
            Round.objects.filter(pk=self.round_id, pairing_version=self.version).update(
                **fields, pairing_heartbeat_at=timezone.now())


def _progress_args(args: tuple, kwargs: dict) -> tuple[float | None, str]:
    """Accepts ``(fraction)``, ``(done, total)``, either with a message, or the same as keywords."""
    numbers = [a for a in args if isinstance(a, int | float) and not isinstance(a, bool)]
    texts = [a for a in args if isinstance(a, str)]
    message = str(kwargs.get("message") or (texts[0] if texts else ""))
    done = kwargs.get("done", kwargs.get("fraction", numbers[0] if numbers else None))
    total = kwargs.get("total", numbers[1] if len(numbers) > 1 else None)
    if done is None:
        return None, message
    try:
        fraction = float(done) / float(total) if total else float(done)
    except (TypeError, ValueError, ZeroDivisionError):
        return None, message
    return fraction, message
