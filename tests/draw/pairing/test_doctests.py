"""Every module of draw.pairing has examples in its docstrings, and they run (pytest's --doctest-modules runs
them too; this test also refuses a module without any)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import draw.pairing

MODULES = ["draw.pairing"] + [f"draw.pairing.{m.name}" for m in pkgutil.iter_modules(draw.pairing.__path__)
                                if m.name != "__main__"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
    assert tried > 0, f"{name} has no examples"
