# Quick start: `make run` and `make test` from a fresh clone; both set up .venv themselves.
# No services needed: with no DATABASE_URL / REDIS_URL the app uses db.sqlite3 and runs tasks in-process.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run demo test lint typecheck bench play clean

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
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest

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
