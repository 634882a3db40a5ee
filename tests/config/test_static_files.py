"""Static files are served whenever DEBUG is off, in production or not (WhiteNoise), read in fresh interpreters."""

from __future__ import annotations

import json

from tests.league.test_settings import LONG_SECRET, run

FETCH_STATIC = """
import json, django
django.setup()
from django.test import Client
answers = {}
for path in ("/static/css/app.css", "/static/js/table.js"):
    response = Client().get(path)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    answers[path] = [response.status_code, response.get("Content-Type", ""), len(body)]
print(json.dumps(answers))
"""


def fetch_static(**env: str) -> dict:
    done = run(["-c", FETCH_STATIC], **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_static_files_are_served_with_debug_off_outside_production():
    for path, (status, content_type, size) in fetch_static(DJANGO_DEBUG="0").items():
        assert status == 200, path
        assert content_type.startswith(("text/css", "text/javascript", "application/javascript")), path
        assert size > 0, path


def test_static_files_are_served_with_debug_on():
    for path, (status, _, size) in fetch_static(DJANGO_DEBUG="1").items():
        assert status == 200 and size > 0, path


def test_production_serves_only_what_collectstatic_gathered(tmp_path):
    """In production WhiteNoise does not look in the source folders: the static files are collectstatic's."""
    env = {"DJANGO_PRODUCTION": "1", "DJANGO_SECRET_KEY": LONG_SECRET, "DJANGO_ALLOWED_HOSTS": "testserver",
           "DJANGO_SECURE_SSL_REDIRECT": "0"}
    done = run(["-c", "import django; django.setup(); from django.conf import settings; "
                      "print(settings.WHITENOISE_USE_FINDERS, 'whitenoise.middleware.WhiteNoiseMiddleware' in "
                      "settings.MIDDLEWARE)"], **env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]
