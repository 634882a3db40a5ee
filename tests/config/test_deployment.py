"""docker-compose.yml and its proxy (config/Caddyfile) agree with the app: every websocket route goes to the daphne
replicas, everything else to gunicorn, on the ports those servers bind."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from tables.routing import websocket_urlpatterns

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
CADDYFILE = (ROOT / "config" / "Caddyfile").read_text()
SERVICES = COMPOSE["services"]


def test_compose_runs_every_part_of_the_app():
    assert {"db", "redis", "web", "asgi", "worker", "beat", "proxy"} <= set(SERVICES)
    assert "config.asgi:application" in SERVICES["asgi"]["command"]
    assert "config.wsgi:application" in SERVICES["web"]["command"]


def test_several_daphne_replicas_sit_behind_the_proxy_on_one_channel_layer():
    asgi = SERVICES["asgi"]
    assert asgi["deploy"]["replicas"] == "${ASGI_REPLICAS:-2}"
    assert "ports" not in asgi  # replicas cannot share a host port: the proxy is their one address
    assert asgi["environment"]["REDIS_URL"].startswith("redis://redis:")  # the channel layer joins the replicas
    command = asgi["command"]
    port = command[command.index("-p") + 1]
    assert re.search(rf"dynamic a \{{\s*name asgi\s*port {port}\b", CADDYFILE)
    assert "./config/Caddyfile:/etc/caddy/Caddyfile:ro" in SERVICES["proxy"]["volumes"]


def test_every_websocket_route_is_sent_to_daphne_and_the_rest_to_gunicorn():
    matcher = re.search(r"@sockets path (\S+)", CADDYFILE).group(1)
    assert matcher == "/ws/*"
    for route in websocket_urlpatterns:
        assert ("/" + str(route.pattern)).startswith(matcher.rstrip("*"))
    assert re.search(r"^\s*reverse_proxy web:8000\s*$", CADDYFILE, re.MULTILINE)
    assert "0.0.0.0:8000" in (ROOT / "config" / "gunicorn.conf.py").read_text()
