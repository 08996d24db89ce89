"""The app knows the games only through the registry, and its modules import each other without a circle.

A game's package (`games/<slug>/`) is reached through `games.REGISTRY` and the contract of `games.core`, so
that adding a game touches nothing in `app/`. An import circle makes the order of imports matter and hides
which layer depends on which.
"""

from __future__ import annotations

import ast
from pathlib import Path

from games import ALL_GAMES

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module this file imports (at any depth of the file: a late import is an import too)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def app_modules() -> dict[str, set[str]]:
    return {module_name(p): imports(p) for p in sorted(APP.rglob("*.py"))}


def test_the_app_imports_no_game_package():
    game_packages = {f"games.{slug}" for slug in ALL_GAMES}
    offending = {module: sorted(m for m in imported if m in game_packages or m.rpartition(".")[0] in game_packages
                                or any(m.startswith(p + ".") for p in game_packages))
                 for module, imported in app_modules().items()}
    assert not {m: i for m, i in offending.items() if i}, "app/ reaches a game only through games.REGISTRY"


def test_no_import_circle_in_the_app():
    graph = app_modules()
    edges = {module: {m for m in imported if m in graph and m != module} for module, imported in graph.items()}
    # A package's __init__ importing its own submodules is the package, not a circle.
    circles = []
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for nxt in sorted(edges[module]):
            if state.get(nxt) == 1:
                circles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module)
    assert not circles, "import circles in app/: " + "; ".join(" -> ".join(c) for c in circles)
