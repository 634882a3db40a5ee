"""daphne, as the ASGI replicas run it (``python -m config.daphne_server`` with daphne's own arguments; see
docker-compose.yml), with the private entry links' tokens and the online tables' seat and invite links redacted
from its access log (``config/log_redaction.py``), as gunicorn's are (``config/gunicorn.conf.py``).

daphne writes its access log itself, not through :mod:`logging`, so the logging filter of the settings never
sees those lines: the access log's writer is replaced by one that redacts the request line first.
"""

from __future__ import annotations

import sys

from daphne import cli
from daphne.access import AccessLogGenerator

from config.log_redaction import redact


class RedactingAccessLog(AccessLogGenerator):
    def write_entry(self, host, date, request, status=None, length=None, ident=None, user=None) -> None:
        super().write_entry(host, date, redact(request), status, length, ident, user)


def main(argv: list[str] | None = None) -> None:
    cli.AccessLogGenerator = RedactingAccessLog  # the name daphne's command line builds its access log with
    cli.CommandLineInterface().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
