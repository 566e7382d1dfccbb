"""The package layout: no import circle, the shared card layer imports neither game, the errors import nothing."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

import kcsolve

ROOT = Path(kcsolve.__file__).parent


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {"kcsolve": ROOT / "__init__.py"}
    for info in pkgutil.walk_packages([str(ROOT)], prefix="kcsolve."):
        name = info.name
        path = ROOT.joinpath(*name.split(".")[1:])
        found[name] = path / "__init__.py" if info.ispkg else path.with_suffix(".py")
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules that ``name`` imports, at any depth in its code."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            candidates = [target] + [f"{target}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        out.update(c for c in candidates if c in modules and c != name)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def test_no_import_circle() -> None:
    graph = _graph()
    # a package importing its own submodules (to re-export or register them) is not a circle
    edges = {m: {t for t in ts if not t.startswith(m + ".")} for m, ts in graph.items()}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                raise AssertionError(" -> ".join(trail + [node, nxt]))
            if nxt not in state:
                visit(nxt, trail + [node])
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [])


def test_card_layer_imports_neither_game() -> None:
    graph = _graph()
    for name, targets in graph.items():
        if name.startswith("kcsolve.common"):
            # kcsolve.errors, the root of every error, belongs to no game
            assert not {t for t in targets if not t.startswith("kcsolve.common") and t != "kcsolve.errors"}, name


def test_errors_import_nothing_from_kcsolve() -> None:
    assert _graph()["kcsolve.errors"] == set()


def test_only_cli_imports_click() -> None:
    for name, path in _modules().items():
        if not name.startswith("kcsolve.cli"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
            assert "click" not in names, name


def test_games_do_not_import_each_other() -> None:
    graph = _graph()
    for name, targets in graph.items():
        if name.startswith("kcsolve.patience"):
            assert not any(t.startswith("kcsolve.corner") for t in targets), name
        if name.startswith("kcsolve.corner"):
            assert not any(t.startswith("kcsolve.patience") for t in targets), name
