"""docker-compose.yml, its proxy (config/Caddyfile), PgBouncer (config/pgbouncer.ini) and the .env that
ops/scripts/make-env writes agree with the app and with a deployer's safety: only the proxy is published, no secret is
written in the compose file, every health check asks with a Host the site allows, everything waits for the one-shot
migration, every websocket route goes to the daphne replicas and everything else to gunicorn."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml
from django.http.request import validate_host

from tables.routing import websocket_urlpatterns

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
CADDYFILE = (ROOT / "config" / "Caddyfile").read_text()
SERVICES = COMPOSE["services"]
APP_SERVICES = ("web", "asgi", "worker", "beat")
SECRET_NAME = re.compile(r"SECRET|PASSWORD|TOKEN|_KEY$")


def script(name: str) -> ModuleType:
    """One of ops/scripts (standard-library Python without a .py suffix), imported."""
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), str(ROOT / "ops" / "scripts" / name))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def environment(service: str) -> dict[str, str]:
    return {key: str(value) for key, value in (SERVICES[service].get("environment") or {}).items()}


def test_compose_runs_every_part_of_the_app():
    assert {"db", "pgbouncer", "redis", "migrate", "web", "asgi", "worker", "beat", "backup", "proxy"} <= set(SERVICES)
    assert "config.asgi:application" in SERVICES["asgi"]["command"]
    assert "config.wsgi:application" in SERVICES["web"]["command"]


def test_only_the_proxy_publishes_a_port_and_it_maps_80_and_443():
    assert [name for name, service in SERVICES.items() if service.get("ports")] == ["proxy"]
    assert SERVICES["proxy"]["ports"] == ["${HTTP_PORT:-80}:80", "${HTTPS_PORT:-443}:443"]  # http:// is redirected


def test_no_secret_is_written_in_the_compose_file():
    for name in SERVICES:
        for key, value in environment(name).items():
            if SECRET_NAME.search(key):
                assert re.fullmatch(r"\$\{[A-Z_]+(:\?[^}]*)?\}", value), f"{name}: {key} is written in the file"
            if "://" in value and "@" in value:  # a URL with credentials: its password comes from .env
                password = value.split("://", 1)[1].split("@", 1)[0].split(":", 1)[1]
                assert password.startswith("${POSTGRES_PASSWORD"), f"{name}: {key} holds a password"
    assert "POSTGRES_PASSWORD" in script("make-env").settings("league.example.org", 80, [])


@pytest.mark.parametrize("allowed", ["league.example.org", "league.example.org,www.example.org", "localhost,127.0.0.1",
                                     ".example.org", "*", ""])
def test_the_health_checks_ask_with_a_host_the_site_allows(allowed):
    hosts = [host for host in allowed.split(",") if host] or ["localhost", "127.0.0.1"]  # the compose file's default
    host = script("healthcheck").allowed_host(allowed)
    assert validate_host(host, hosts), (host, hosts)
    for name in ("web", "asgi"):
        test = SERVICES[name]["healthcheck"]["test"]
        assert test[:3] == ["CMD", "python", "ops/scripts/healthcheck"] and test[3].endswith("/readyz")
        assert "Host" not in " ".join(test)
    assert environment("web")["DJANGO_ALLOWED_HOSTS"] == "${DJANGO_ALLOWED_HOSTS:-localhost,127.0.0.1}"


def test_every_app_service_waits_for_the_migration_which_runs_under_a_lock_straight_to_postgresql():
    for name in APP_SERVICES:
        assert SERVICES[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
        assert environment(name)["DATABASE_URL"].endswith("@pgbouncer:6432/allfours")
        assert environment(name)["DATABASE_POOLER"] == "pgbouncer"
    migrate = SERVICES["migrate"]
    assert migrate["command"] == ["python", "manage.py", "migrate_locked"] and migrate["restart"] == "no"
    assert environment("migrate")["DATABASE_URL"].endswith("@db:5432/allfours")  # a session's lock: no pooler
    assert "migrate" not in " ".join(SERVICES["web"]["command"])


def test_pgbouncer_pools_by_transaction_and_the_app_is_set_for_it():
    ini = (ROOT / "config" / "pgbouncer.ini").read_text()
    assert re.search(r"^pool_mode = transaction$", ini, re.MULTILINE)
    pool = int(re.search(r"^max_db_connections = (\d+)$", ini, re.MULTILINE).group(1))
    assert pool + 10 <= 100  # PostgreSQL's default max_connections, with room for migrate, backups and psql
    done = subprocess.run([sys.executable, "-c", "from django.conf import settings; import json; "
                           "print(json.dumps(settings.DATABASES['default'], default=str))"],
                          env={"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin",
                               "DATABASE_URL": "postgres://u:p@pgbouncer:6432/allfours",
                               "DATABASE_POOLER": "pgbouncer"},
                          cwd=ROOT, capture_output=True, text=True, check=True)
    assert '"DISABLE_SERVER_SIDE_CURSORS": true' in done.stdout and '"prepare_threshold": null' in done.stdout


def test_several_daphne_replicas_sit_behind_the_proxy_on_one_channel_layer():
    asgi = SERVICES["asgi"]
    assert asgi["deploy"]["replicas"] == "${ASGI_REPLICAS:-2}"
    assert environment("asgi")["REDIS_URL"].startswith("redis://redis:")  # the channel layer joins the replicas
    command = asgi["command"]
    port = command[command.index("-p") + 1]
    assert environment("proxy")["ASGI_DISCOVERY"] == f"dynamic a asgi {port}"
    assert "./config/Caddyfile:/etc/caddy/Caddyfile:ro" in SERVICES["proxy"]["volumes"]


def test_every_websocket_route_is_sent_to_daphne_and_the_rest_to_gunicorn():
    matcher = re.search(r"@sockets path (\S+)", CADDYFILE).group(1)
    assert matcher == "/ws/*"
    for route in websocket_urlpatterns:
        assert ("/" + str(route.pattern)).startswith(matcher.rstrip("*"))
    assert re.search(r"^\s*reverse_proxy \{\$WEB_UPSTREAM:web:8000\}\s*$", CADDYFILE, re.MULTILINE)
    assert environment("proxy")["WEB_UPSTREAM"] == "web:8000"
    assert "0.0.0.0:8000" in (ROOT / "config" / "gunicorn.conf.py").read_text()


def make_env(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "ops" / "scripts" / "make-env"), *args], capture_output=True,
                          text=True, timeout=30)


def parsed(output: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in output.splitlines() if line and not line.startswith("#"))


def test_make_env_writes_fresh_secrets_for_a_domain_served_over_https():
    first, second = parsed(make_env("--domain", "league.example.org").stdout), parsed(make_env("--domain",
                                                                                               "league.example.org").stdout)
    assert first["DJANGO_SECRET_KEY"] != second["DJANGO_SECRET_KEY"] and len(first["DJANGO_SECRET_KEY"]) >= 50
    assert first["POSTGRES_PASSWORD"] != second["POSTGRES_PASSWORD"] and re.fullmatch(r"[0-9a-f]{48}",
                                                                                       first["POSTGRES_PASSWORD"])
    assert first["SITE_ADDRESS"] == "league.example.org" and first["DJANGO_SECURE_SSL_REDIRECT"] == "1"
    assert first["DJANGO_ALLOWED_HOSTS"] == "league.example.org"
    assert first["DJANGO_CSRF_TRUSTED_ORIGINS"] == "https://league.example.org"
    assert (first["HTTP_PORT"], first["HTTPS_PORT"]) == ("80", "443")


def test_make_env_writes_a_plain_http_site_on_a_port():
    env = parsed(make_env("--http-port", "8080", "--host", "192.168.1.20").stdout)
    assert env["SITE_ADDRESS"] == ":80" and env["HTTP_PORT"] == "8080" and env["DJANGO_SECURE_SSL_REDIRECT"] == "0"
    assert env["DJANGO_ALLOWED_HOSTS"] == "localhost,127.0.0.1,192.168.1.20"
    assert "http://192.168.1.20:8080" in env["DJANGO_CSRF_TRUSTED_ORIGINS"].split(",")


@pytest.mark.parametrize(("args", "named"), [
    (["--domain", "not a domain"], "--domain"), (["--http-port", "99999"], "--http-port"), ([], "--domain"),
    (["--domain", "a.org", "--http-port", "80"], "--http-port"),
])
def test_make_env_refuses_bad_input_naming_the_option(args, named):
    done = make_env(*args)
    assert done.returncode == 2 and named in done.stderr and "Traceback" not in done.stderr and not done.stdout
