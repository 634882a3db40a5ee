"""The layering of docs/architecture.md is a contract (``[tool.importlinter]`` in pyproject.toml), checked by
``lint-imports`` in ``make test``: here it holds on the tree, and an upward import planted in a copy of the tree —
even one inside a function — fails it with import-linter's own message."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(tree: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--config", str(tree / "pyproject.toml")], cwd=tree,
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def tree_copy(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_tree_keeps_every_contract(tree_copy: Path) -> None:
    result = lint_imports(tree_copy)
    assert result.returncode == 0, result.stdout
    assert "3 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(("module", "planted", "message"), [
    ("league/entries.py", "    from standings import services  # noqa\n", "league is not allowed to import standings"),
    ("games/services.py", "    from draw import publishing  # noqa\n", "games is not allowed to import draw"),
    ("importer/views.py", "    from pages import views_setup  # noqa\n", "importer is not allowed to import pages"),
    ("engine/chalk.py", "    import django  # noqa\n", "engine is not allowed to import django"),
    ("draw/pairing/swiss.py", "    from league import models  # noqa\n",
     "draw.pairing is not allowed to import league"),
])
def test_an_upward_import_inside_a_function_fails_the_contract(tree_copy: Path, module: str, planted: str,
                                                               message: str) -> None:
    path = tree_copy / module
    path.write_text(path.read_text() + "\n\ndef _planted():\n" + planted)
    result = lint_imports(tree_copy)
    assert result.returncode != 0
    assert message in result.stdout, result.stdout
