"""The package layout: the import contracts hold, no import circle, and the game package keeps to the game.

Which way imports run is stated as import-linter contracts in pyproject.toml;
these tests add what the contracts cannot say.
"""

from __future__ import annotations

import ast
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
                raise AssertionError(" -> ".join([*trail, node, nxt]))
            if nxt not in state:
                visit(nxt, [*trail, node])
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [])


def test_import_contracts_hold() -> None:
    """The import-linter contracts of pyproject.toml (layers, the two games apart, click only in cli)."""
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    if lint is None:
        pytest.skip("import-linter is not installed (it comes with the test extra)")
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT.parent, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]


def test_the_game_package_keeps_few_modules() -> None:
    """Roles live in sub-packages: at most 10 modules stay directly in kcsolve/patience/."""
    direct = sorted(p.name for p in (ROOT / "patience").glob("*.py"))
    assert len(direct) <= 10, direct
