"""PostgreSQL databases of a test's own on ``DATABASE_URL``'s server, and ``manage.py`` run as the services run
it: in a subprocess, on the database named in its environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent.parent


def maintenance_url() -> str:
    return urlsplit(os.environ["DATABASE_URL"])._replace(path="/postgres").geturl()


def create_database(name: str) -> None:
    import psycopg

    with psycopg.connect(maintenance_url(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(maintenance_url(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage_env(database_url: str) -> dict[str, str]:
    """The environment of a ``manage.py`` subprocess on ``database_url``: tasks in-process (no broker)."""
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "DJANGO_PRODUCTION")}
    return {**env, "DATABASE_URL": database_url, "PYTHONUNBUFFERED": "1"}


def manage(database_url: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=manage_env(database_url),
                          capture_output=True, text=True, timeout=timeout)


def database_url_named(name: str) -> str:
    return urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}").geturl()
