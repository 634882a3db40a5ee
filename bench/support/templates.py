"""A benchmark's database copied from a migrated template: migrating takes 10–40 s on a loaded machine, copying a
migrated database (``CREATE DATABASE … TEMPLATE``) a few seconds. The template, ``allfours_bench_tpl_<digest>``, is
named by a digest of every migration file and Django's version, so a new or edited migration makes a new one (and the
older ones are dropped); any benchmark's run may copy it. Two runs at once are harmless: a template being made or
copied by another run cannot be copied, and the run then migrates its database itself."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import django

from bench.support.stores import ROOT, recreate_database, start_django

TEMPLATE_PREFIX = "allfours_bench_tpl_"
logger = logging.getLogger(__name__)


def migrations_digest(root: Path = ROOT) -> str:
    """A digest of every migration file of the project's apps (path and content) and Django's version."""
    digest = hashlib.sha256(django.get_version().encode())
    for path in sorted(root.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def database_url(server_url: str, name: str) -> str:
    return f"{server_url.rstrip('/')}/{name}"


def migrated_database(server_url: str, name: str) -> bool:
    """The database ``name`` dropped and made again, migrated, and Django started on it (``DATABASE_URL`` must
    already name it: ``stores.configure_environment`` with :func:`database_url`): copied from the template of the
    current migrations when there is one, else migrated here and then copied to make the template. Whether the
    template served."""
    import psycopg
    from psycopg import sql

    admin = database_url(server_url, "postgres")
    template = f"{TEMPLATE_PREFIX}{migrations_digest()}"
    with psycopg.connect(admin, autocommit=True) as conn:
        found = {row[0] for row in conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s",
                                                [f"{TEMPLATE_PREFIX}%"])}
        for old in found - {template}:
            _quietly(conn, sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(old)))  # none copying it
        if template in found:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
            if _quietly(conn, sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name),
                                                                                sql.Identifier(template))):
                django.setup()
                return True
    recreate_database(server_url, name)
    start_django()
    from django.db import connections

    connections.close_all()  # a database is copied with no session open on it
    with psycopg.connect(admin, autocommit=True) as conn:
        _quietly(conn, sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(template),
                                                                         sql.Identifier(name)))
    return False


def _quietly(conn, statement) -> bool:
    """Run ``statement``; a refusal (another run is copying or making the database, or made it first) is logged and
    ``False``."""
    import psycopg

    try:
        conn.execute(statement)
    except psycopg.Error as error:
        logger.info("%s: %s", statement.as_string(conn), error)
        return False
    return True
