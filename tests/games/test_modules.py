"""The shape of the ``games`` app: no module reaches into another's private names, and
``games.services`` is only the surface the other apps call — nothing inside ``games`` imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import games

APP = Path(games.__file__).parent
FACADES = {"services"}


def modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text(), str(path)) for path in sorted(APP.glob("*.py"))}


def imports_from_games(tree: ast.Module) -> list[tuple[str, str]]:
    """``(module, name)`` for every ``from games.<module> import <name>`` and ``from games import <module>``,
    at any depth (imports inside functions count)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games."):
            found += [(node.module.removeprefix("games."), alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "games":
            found += [(alias.name, "") for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name.removeprefix("games."), "") for alias in node.names
                      if alias.name.startswith("games.")]
    return found


def test_no_module_of_games_imports_another_modules_private_names():
    private = [(name, module, imported) for name, tree in modules().items()
               for module, imported in imports_from_games(tree) if imported.startswith("_")]
    assert private == []


def test_no_module_of_games_goes_through_its_public_surface():
    inward = [(name, module) for name, tree in modules().items() if name not in FACADES
              for module, _ in imports_from_games(tree) if module.split(".")[0] in FACADES]
    assert inward == []


def test_the_public_surface_only_re_exports():
    for name in FACADES:
        tree = modules()[name]
        defined = [type(node).__name__ for node in tree.body
                   if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef)]
        assert defined == [], name
        exported = next(node for node in tree.body if isinstance(node, ast.Assign)
                        and getattr(node.targets[0], "id", "") == "__all__")
        imported = {alias.asname or alias.name for node in tree.body if isinstance(node, ast.ImportFrom)
                    for alias in node.names}
        assert set(ast.literal_eval(exported.value)) == imported, name
