"""Production sends the Content-Security-Policy (django-csp): scripts and styles from the site only. The pages'
compliance is shown in Chromium by tests/browser/test_content_security_policy.py."""

from __future__ import annotations

import json

from tests.league.test_settings import LONG_SECRET, run

HEADER_OF_A_PAGE = """
import json, django
django.setup()
from django.test import Client
response = Client().get("/api/", secure=True, HTTP_HOST="league.example.com")
print(json.dumps([response.status_code, response.get("Content-Security-Policy")]))
"""


def header(**env: str) -> tuple[int, str | None]:
    done = run(["-c", HEADER_OF_A_PAGE], **env)
    assert done.returncode == 0, done.stderr
    return tuple(json.loads(done.stdout.strip().splitlines()[-1]))


def test_production_sends_a_policy_of_scripts_and_styles_from_the_site_only():
    status, policy = header(DJANGO_PRODUCTION="1", DJANGO_SECRET_KEY=LONG_SECRET,
                            DJANGO_ALLOWED_HOSTS="league.example.com")
    assert status == 200 and policy
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'" and directives["object-src"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
