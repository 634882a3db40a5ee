"""The events benchmark's servers, started side by side (each one waits seconds for its process to listen or
answer; one after the other they took 12 s on a loaded machine): ``count`` daphne processes for the sockets,
gunicorn with ``web`` workers for the pages, and a Celery worker (solo) for the settle, the standings and the
pairing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bench.support.processes import Services, free_port
from bench.support.readings import family


@dataclass
class Started:
    socket_ports: list[int]
    web_port: int
    pids: dict[str, list[int]]  # "daphne", "gunicorn" (its master and workers), "worker"


def start_servers(services: Services, count: int, web: int) -> Started:
    ports = [free_port() for _ in range(count)]
    web_port = free_port()
    with ThreadPoolExecutor(max_workers=count + 2) as pool:
        daphnes = [pool.submit(services.start_daphne, port, f"daphne{index}") for index, port in enumerate(ports)]
        gunicorn = pool.submit(services.start_production_gunicorn, web_port, web)
        worker = pool.submit(services.start_worker)
        pids = {"daphne": [started.result().pid for started in daphnes],
                "gunicorn": family(gunicorn.result().pid), "worker": [worker.result().pid]}
    return Started(ports, web_port, pids)
