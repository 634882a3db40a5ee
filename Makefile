# Quick start: `make run` and `make test` from a fresh clone; both set up .venv themselves.
# No services needed: with no DATABASE_URL / REDIS_URL the app uses db.sqlite3 and runs tasks in-process.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers: one more than the cores, as a good part of the suite waits on servers, workers and Chromium
# (the whole suite on 2 cores: 3 workers 11:42, 2 workers 12:26, 4 workers 12:34). --dist loadgroup keeps each test
# file, and its module-scoped fixtures such as the browser tests' served sites, in one worker, unless a test names a
# group of its own. The groups are handed out in the order tests/conftest.py gives them (--no-loadscope-reorder):
# those with a slow test first, then the larger before the smaller, so that no long test is left to run on alone.
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
PYTEST := $(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup --no-loadscope-reorder
# Python's compiled modules go to the virtualenv, not beside the sources, and are written even where
# PYTHONDONTWRITEBYTECODE is set: every process of a run (each xdist worker, each server and worker a test starts)
# then compiles the code and rewrites the tests' asserts once, not each time (collecting took 19 s of a core, 6 s so).
export PYTHONPYCACHEPREFIX := $(CURDIR)/$(VENV)/pycache
unexport PYTHONDONTWRITEBYTECODE
# What the edit loop leaves out: the browser, the services (PostgreSQL, Redis, Celery workers) and the slow tests.
FAST := not browser and not services and not slow

.PHONY: run demo test test-fast lint typecheck bench play clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The web app with a demo league (idempotent: a second run keeps the demo as it is).
run: demo
	@echo ""
	@echo "  All Fours League: http://$(HOST):$(PORT)/   (admin: http://$(HOST):$(PORT)/admin/)"
	@echo "  Demo organiser login: organiser / allfours-demo"
	@echo ""
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

demo: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(PYTEST) --durations=25

# The edit loop: SQLite, tasks in-process, no browser and no slow test (`make test` runs everything).
test-fast: $(STAMP)
	env -u DATABASE_URL -u REDIS_URL -u REQUIRE_SERVICES $(PYTEST) -m "$(FAST)"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache

# mypy with pyproject's [tool.mypy]: --strict on the engine, the default checks on the apps (django-stubs).
typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/bench_engine.py

# A game in the terminal against three bots.
play: $(STAMP)
	$(BIN)/python -m engine play

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
