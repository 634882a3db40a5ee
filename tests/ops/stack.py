"""docker-compose.yml's stack run natively (there is no Docker engine on the test machine): each service's own
command and environment read from the compose file itself, with the .env that ops/scripts/make-env writes, so the two
cannot drift. Only the addresses change: each service listens on a free port of 127.0.0.1 instead of its compose
name (``db:5432`` → a private PostgreSQL cluster, ``redis:6379`` → a private redis-server, ``pgbouncer:6432``,
``web:8000``, the daphne replicas), and Debian's caddy and pgbouncer stand in for their images."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import requests
import yaml

from tests.postgres_server import PrivatePostgres
from tests.redis_server import PrivateRedis, free_port
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
VARIABLE = re.compile(r"\$\{(?P<name>[A-Z0-9_]+)(?::(?P<kind>[-?])(?P<default>[^}]*))?\}")
APP_SERVICES = ("web", "asgi", "worker", "beat")


def interpolated(value: str, dotenv: dict[str, str]) -> str:
    """Compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?message}`` with the .env's values."""
    def one(match: re.Match) -> str:
        found = dotenv.get(match["name"], "")
        if match["kind"] == "?" and not found:
            raise AssertionError(f"{match['name']}: {match['default']}")
        return found or (match["default"] if match["kind"] == "-" else "")

    return VARIABLE.sub(one, value)


def read_dotenv(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if line.strip() and not line.startswith("#"))


class Stack:
    """The services started one after the other as compose orders them; ``proxy`` is the one address to use."""

    def __init__(self, replicas: int = 2) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="allfours-stack-"))
        self.folder.chmod(0o755)  # pgbouncer, dropped to the postgres user, writes its files in a folder of its own
        made = subprocess.run([sys.executable, str(ROOT / "ops" / "scripts" / "make-env"), "--http-port", "8080"],
                              capture_output=True, text=True, check=True)
        self.dotenv = read_dotenv(made.stdout)
        self.postgres = PrivatePostgres()
        self.redis = PrivateRedis(self.folder)
        self.ports = {"pgbouncer": free_port(), "web": free_port(), "proxy": free_port(),
                      "asgi": [free_port() for _ in range(replicas)]}
        self.processes: dict[str, subprocess.Popen] = {}

    # ------------------------------------------------------------------ what compose says
    def environment(self, service: str) -> dict[str, str]:
        """The service's environment as compose gives it, with this machine's addresses."""
        given = COMPOSE["services"][service].get("environment") or {}
        addresses = {"pgbouncer:6432": f"127.0.0.1:{self.ports['pgbouncer']}",
                     "db:5432": f"127.0.0.1:{self.postgres.port}", "redis:6379": f"127.0.0.1:{self.redis.port}"}
        out = {}
        for key, value in given.items():
            value = interpolated(str(value), self.dotenv)
            for name, address in addresses.items():
                value = value.replace(f"@{name}/", f"@{address}/").replace(f"//{name}/", f"//{address}/")
            out[key] = value
        # the image's python, gunicorn and celery: this virtual environment's
        path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}{os.pathsep}/usr/sbin"
        # the image gathers the static files at its build (Dockerfile): here into the stack's folder
        return {"PATH": path, "HOME": str(self.folder), "LANG": "C.UTF-8",
                "DJANGO_STATIC_ROOT": str(self.folder / "staticfiles"), **out}

    def command(self, service: str) -> list[str]:
        command = COMPOSE["services"][service]["command"]
        return [str(ROOT / part.removeprefix("/app/")) if part.startswith("/app/") else part for part in command]

    # ------------------------------------------------------------------ starting
    def spawn(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen:
        log = (self.folder / f"{name}.log").open("ab")
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.processes[name] = process
        return process

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self) -> Stack:
        self.postgres.start()
        password = self.dotenv["POSTGRES_PASSWORD"]
        self.postgres.sql(f"CREATE ROLE allfours LOGIN PASSWORD '{password}'")  # what the postgres image does
        self.postgres.sql("CREATE DATABASE allfours OWNER allfours")
        self.redis.start()
        self.start_pgbouncer()
        gathering = subprocess.Popen([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT,
                                     env=self.environment("web"), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True)  # the image's build step, beside the migrate service
        migrate = subprocess.run(self.command("migrate"), cwd=ROOT, env=self.environment("migrate"),
                                 capture_output=True, text=True, timeout=300)
        assert migrate.returncode == 0, migrate.stderr[-3000:]
        assert gathering.wait(300) == 0, gathering.stderr.read()[-3000:] if gathering.stderr else ""
        web = self.environment("web") | {"GUNICORN_BIND": f"127.0.0.1:{self.ports['web']}", "WEB_CONCURRENCY": "2"}
        self.spawn("web", self.command("web"), web)
        for number, port in enumerate(self.ports["asgi"], start=1):
            command = self.command("asgi")
            command[command.index("-b") + 1], command[command.index("-p") + 1] = "127.0.0.1", str(port)
            self.spawn(f"asgi-{number}", command, self.environment("asgi"))
        self.spawn("worker", self.command("worker"), self.environment("worker"))
        beat = self.command("beat")
        beat[beat.index("--schedule") + 1] = str(self.folder / "celerybeat-schedule")
        self.spawn("beat", beat, self.environment("beat"))
        self.start_proxy()
        wait_until(self.ready, 120, "the stack answering /readyz through the proxy", interval=0.5)
        return self

    def start_pgbouncer(self) -> None:
        env = self.environment("pgbouncer") | {
            "POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": str(self.postgres.port),
            "PGBOUNCER_PORT": str(self.ports["pgbouncer"]), "PGBOUNCER_RUN_DIR": str(self.folder / "pgbouncer")}
        if os.geteuid() == 0:
            env["PGBOUNCER_USER"] = "postgres"  # PgBouncer refuses to run as root
        self.spawn("pgbouncer", self.command("pgbouncer"), env)
        wait_until(lambda: self.listening(self.ports["pgbouncer"]), 30, "pgbouncer listening", interval=0.1)

    def start_proxy(self) -> None:
        env = self.environment("proxy") | {
            "SITE_ADDRESS": f":{self.ports['proxy']}", "CADDY_ADMIN": "off",
            "WEB_UPSTREAM": f"127.0.0.1:{self.ports['web']}", "ASGI_DISCOVERY": "",
            "ASGI_UPSTREAMS": " ".join(f"127.0.0.1:{port}" for port in self.ports["asgi"]),
            "XDG_DATA_HOME": str(self.folder / "caddy-data"), "XDG_CONFIG_HOME": str(self.folder / "caddy-config")}
        # the caddy image's own command, with the repository's Caddyfile where compose mounts it
        self.spawn("proxy", ["caddy", "run", "--config", str(ROOT / "config" / "Caddyfile"), "--adapter", "caddyfile"],
                   env)

    # ------------------------------------------------------------------ asking
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.ports['proxy']}"

    @staticmethod
    def listening(port: int) -> bool:
        import socket

        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        except OSError:
            return False
        return True

    def ready(self) -> bool:
        for name, process in self.processes.items():
            assert process.poll() is None, f"{name} exited: {self.log(name)[-3000:]}"
        try:
            return requests.get(f"{self.url}/readyz", timeout=5).status_code == 200
        except requests.RequestException:
            return False

    def manage(self, *args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.environment("web"),
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    def health_check(self, service: str, port: int) -> subprocess.CompletedProcess:
        """The service's docker health check (its compose ``test`` command) against the process on ``port``."""
        test = COMPOSE["services"][service]["healthcheck"]["test"]
        assert test[0] == "CMD", test
        command = [re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{port}", part) for part in test[1:]]
        return subprocess.run(command, cwd=ROOT, env=self.environment(service), capture_output=True, text=True,
                              timeout=30)

    def running(self) -> dict[str, int]:
        """Each process still running, by name, with its PID."""
        return {name: process.pid for name, process in self.processes.items() if process.poll() is None}

    def connections_to_pgbouncer(self) -> dict[str, int]:
        """Each service's open connections to PgBouncer now (its process and the children it forked), read off
        ``ss``: what docs/running.md's sizing counts."""
        listing = subprocess.run(["ss", "-tnpH", "state", "established", "dst", f"127.0.0.1:{self.ports['pgbouncer']}"],
                                 capture_output=True, text=True, check=True).stdout
        owners = [int(pid) for pid in re.findall(r"pid=(\d+)", listing)]
        counts = dict.fromkeys(self.processes, 0)
        for pid in owners:
            name = self.service_of(pid)
            if name:
                counts[name] += 1
        return counts

    def service_of(self, pid: int) -> str | None:
        roots = {process.pid: name for name, process in self.processes.items()}
        while pid > 1:
            if pid in roots:
                return roots[pid]
            try:
                pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                return None
        return None

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        self.redis.stop()
        self.postgres.remove()
        shutil.rmtree(self.folder, ignore_errors=True)
