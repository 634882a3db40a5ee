"""Settings from the environment, read in fresh interpreters (``python -c``) with a controlled environment."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test reads the settings in a fresh interpreter

ROOT = Path(__file__).resolve().parents[2]
OURS = ("DATABASE_URL", "REDIS_URL", "CELERY_VISIBILITY_TIMEOUT", "DJANGO_PRODUCTION", "DJANGO_SECRET_KEY",
        "DJANGO_ALLOWED_HOSTS", "DJANGO_DEBUG", "DJANGO_CSRF_TRUSTED_ORIGINS", "DJANGO_SECURE_SSL_REDIRECT",
        "REQUIRE_SERVICES")
READ_SETTINGS = """
import json, django
django.setup()
from django.conf import settings
from config.celery import app
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST"), "port": db.get("PORT"),
    "user": db.get("USER"), "eager": settings.CELERY_TASK_ALWAYS_EAGER, "broker": settings.CELERY_BROKER_URL,
    "backend": settings.CELERY_RESULT_BACKEND, "cache": settings.CACHES["default"]["BACKEND"],
    "cache_location": settings.CACHES["default"].get("LOCATION"), "debug": settings.DEBUG,
    "visibility_timeout": settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"],
    "app_eager": app.conf.task_always_eager, "app_broker": app.conf.broker_url, "acks_late": app.conf.task_acks_late,
}))
"""
LONG_SECRET = secrets.token_urlsafe(64)


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in OURS}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", PYTHONPATH=str(ROOT), **env)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)


def read_settings(**env: str) -> dict:
    done = run(["-c", READ_SETTINGS], **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_with_no_environment_sqlite_and_tasks_in_process():
    got = read_settings()
    assert got["engine"] == "django.db.backends.sqlite3" and got["name"].endswith("db.sqlite3")
    assert got["eager"] is True and got["app_eager"] is True
    assert got["broker"].startswith("memory://") and got["backend"] is None
    assert got["cache"].endswith("LocMemCache")
    assert got["debug"] is True and got["acks_late"] is True


def test_database_url_switches_to_postgresql():
    got = read_settings(DATABASE_URL="postgres://league:s3cret@db.example:5433/allfours")
    assert (got["engine"], got["name"], got["host"], got["port"], got["user"]) == (
        "django.db.backends.postgresql", "allfours", "db.example", 5433, "league")
    assert got["eager"] is True, "the database alone does not bring a broker"


def test_redis_url_switches_celery_and_the_cache_to_redis():
    url = "redis://cache.example:6379/3"
    got = read_settings(REDIS_URL=url, CELERY_VISIBILITY_TIMEOUT="7")
    assert got["broker"] == got["backend"] == got["app_broker"] == url
    assert got["eager"] is False and got["app_eager"] is False
    assert got["cache"].endswith("RedisCache") and got["cache_location"] == url
    assert got["visibility_timeout"] == 7
    assert got["engine"] == "django.db.backends.sqlite3"


def test_production_passes_the_deploy_check():
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], DJANGO_PRODUCTION="1",
               DJANGO_SECRET_KEY=LONG_SECRET, DJANGO_ALLOWED_HOSTS="league.example.com")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
    got = read_settings(DJANGO_PRODUCTION="1", DJANGO_SECRET_KEY=LONG_SECRET, DJANGO_ALLOWED_HOSTS="league.example.com")
    assert got["debug"] is False


@pytest.mark.parametrize("secret", [None, "too-short"], ids=["missing", "short"])
def test_production_without_a_real_secret_key_fails_clearly(secret):
    env = {"DJANGO_PRODUCTION": "1", "DJANGO_ALLOWED_HOSTS": "league.example.com"}
    if secret is not None:
        env["DJANGO_SECRET_KEY"] = secret
    done = run(["manage.py", "check", "--deploy"], **env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1  # one line, no traceback
    assert "DJANGO_SECRET_KEY" in done.stderr and "50+ characters" in done.stderr


@pytest.mark.parametrize(("variable", "value", "words"), [
    ("TABLES_TICK", "often", "is not a number of seconds"), ("TABLES_TICK", "0", "is not from 0.01 to 5 seconds"),
    ("TABLES_BOT_PACE", "-1", "is not from 0 to 60 seconds"), ("DJANGO_DEBUG", "maybe", "must be true or false")])
def test_a_setting_the_environment_gets_wrong_is_one_line_naming_it_and_exit_2(variable, value, words):
    done = run(["manage.py", "check"], **{variable: value})
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr  # one line, no traceback
    assert done.stderr.startswith(f"manage.py: {variable}: ") and words in done.stderr and repr(value) in done.stderr


def test_a_variable_set_to_nothing_counts_as_not_set():
    got = read_settings(DATABASE_URL="", REDIS_URL="")
    assert got["engine"] == "django.db.backends.sqlite3" and got["eager"] is True


MARKED_TESTS = """
import pytest

@pytest.mark.services
def test_needs_services():
    pass

@pytest.mark.browser
def test_needs_a_browser():
    pass
"""


@pytest.mark.parametrize("required", [False, True], ids=["skipped", "required"])
def test_missing_services_skip_unless_required(tmp_path, required):
    """tests/conftest.py's policy, in a pytest run without DATABASE_URL and REDIS_URL (and with no Chromium
    at a path that cannot exist): skipped with the reason, or failures under REQUIRE_SERVICES=1."""
    (tmp_path / "test_marked.py").write_text(MARKED_TESTS)
    plugin = ("import tests.conftest as policy\nfrom tests.conftest import *  # noqa: F403\n"
              "policy.CHROMIUM = '/nonexistent/chromium'\n")
    (tmp_path / "conftest.py").write_text(plugin)
    env = {"REQUIRE_SERVICES": "1"} if required else {}
    done = run(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-rsE", "-o", "addopts=", "--rootdir", str(tmp_path),
                str(tmp_path)], **env)
    output = done.stdout + done.stderr
    if required:
        assert done.returncode == 1, output
        assert "2 errors" in output and "REQUIRE_SERVICES=1 makes a missing service a failure" in output
        assert "DATABASE_URL is not set" in output and "/nonexistent/chromium is missing" in output
    else:
        assert done.returncode == 0, output
        assert "2 skipped" in output and "DATABASE_URL is not set; REDIS_URL is not set" in output
