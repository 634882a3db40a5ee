"""gunicorn's settings for the web app (``gunicorn -c config/gunicorn.conf.py config.wsgi:application``, as the
Dockerfile and docker-compose.yml run it; flags on the command line override these).

The access log is gunicorn's usual line, with the private entry links' tokens redacted from the request line,
the query string, the Referer and every other field (``config/log_redaction.py``): whoever reads the log cannot
enter a match's hands with what it shows.
"""

import os

from gunicorn.glogging import Logger

from config.log_redaction import redact

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
accesslog = "-"  # stdout, for the container's log
errorlog = "-"


class RedactingLogger(Logger):
    """gunicorn's logger, with entry tokens redacted from the access log's fields and the error log's lines."""

    def atoms(self, resp, req, environ, request_time):
        return {key: redact(value) if isinstance(value, str) else value
                for key, value in super().atoms(resp, req, environ, request_time).items()}

    def error(self, msg, *args, **kwargs):
        super().error(redact(str(msg)), *args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        super().warning(redact(str(msg)), *args, **kwargs)


logger_class = RedactingLogger
