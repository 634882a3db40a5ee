"""Private entry tokens kept out of logs.

A match's private link is ``/enter/<token>/…`` (a club's invitation ``/join/<token>/``), and the API also takes
the token as ``?token=``; whoever reads a log line with either could enter that match's hands (or take the role).
:func:`redact` blanks both out of a text — also percent-encoded, as in a login page's ``?next=%2Fenter%2F<token>%2F``
— and :class:`RedactEntryTokens` is the logging filter that applies it to every record (``django.server``'s access
lines, ``django.request``'s "Not Found: /enter/…"); ``config/gunicorn.conf.py`` applies it to gunicorn's access log.

>>> redact('"GET /enter/Xy-12_ab/record/?x=1 HTTP/1.1" 200')
'"GET /enter/[redacted]/record/?x=1 HTTP/1.1" 200'
>>> redact("/api/matches/3/hands/?limit=5&token=s3cr3t&x=1")
'/api/matches/3/hands/?limit=5&token=[redacted]&x=1'
>>> redact("/ws/tables/4/?seat=s3at&invite=1nv")  # an online table's seat link and invite
'/ws/tables/4/?seat=[redacted]&invite=[redacted]'
>>> redact("/accounts/login/?next=%2Fenter%2Fs3cr3t%2F")
'/accounts/login/?next=%2Fenter%2F[redacted]%2F'
>>> redact('"POST /join/1nv1te/ HTTP/1.1" 302 /accounts/login/?next=/join/1nv1te/')  # a club's invitation
'"POST /join/[redacted]/ HTTP/1.1" 302 /accounts/login/?next=/join/[redacted]/'
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"
_PATTERNS = (
    re.compile(r"(/(?:enter|join)/)[^/?#\s\"'&]+"),
    re.compile(r"(%2[Ff](?:enter|join)%2[Ff])(?:(?!%2[Ff])[^/?#\s\"'&])+"),
    re.compile(r"((?:^|[?&;\s])(?:token|seat|invite)=)[^&#\s\"']*", flags=re.IGNORECASE),
    re.compile(r"((?:%3[Ff]|%26)(?:token|seat|invite)%3[Dd])(?:(?!%26)[^&#\s\"'])*", flags=re.IGNORECASE),
)


def redact(text: str) -> str:
    """``text`` with every entry token replaced by ``[redacted]``."""
    lowered = text.lower()
    if ("enter" not in text and "join" not in text and "token" not in lowered and "seat" not in lowered
            and "invite" not in lowered):
        return text  # the common case, cheaply
    for pattern in _PATTERNS:
        text = pattern.sub(rf"\g<1>{REDACTED}", text)
    return text


class RedactEntryTokens(logging.Filter):
    """A logging filter that redacts entry tokens from the record's message (and keeps every record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format: leave it to the handler
            return True
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True
