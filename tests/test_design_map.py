"""docs/DESIGN.md's module map names every module of the package once, and nothing that does not exist."""

from __future__ import annotations

import pkgutil
import re
from collections import Counter
from pathlib import Path

import kcsolve

ROOT = Path(kcsolve.__file__).parent
DESIGN = ROOT.parent / "docs" / "DESIGN.md"
ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|")  # a table row whose first cell is a path in backticks


def package_modules() -> set[str]:
    """Every module under kcsolve/, as a path inside the package (``patience/players/hints.py``)."""
    found = {"__init__.py"}
    for info in pkgutil.walk_packages([str(ROOT)], prefix="kcsolve."):
        parts = info.name.split(".")[1:]
        found.add("/".join([*parts, "__init__.py"]) if info.ispkg else "/".join(parts) + ".py")
    return found


def map_section(text: str) -> str:
    """The text of the "Module map" section, up to the next section."""
    match = re.search(r"^## Module map\n(.*?)(?=^## )", text, re.S | re.M)
    assert match, "docs/DESIGN.md has no '## Module map' section"
    return match.group(1)


def named_paths(section: str) -> list[str]:
    """The paths the map's tables name in their first column (package headings such as `kcsolve/cli/` excluded)."""
    return [
        m.group(1) for line in section.splitlines() if (m := ROW.match(line)) and not m.group(1).startswith("kcsolve/")
    ]


def map_problems(section: str, modules: set[str]) -> list[str]:
    """What is wrong with the map: modules left out, modules named twice, paths that do not exist."""
    named = named_paths(section)
    counts = Counter(named)
    problems = [f"not in the map: {m}" for m in sorted(modules - set(named))]
    problems += [f"named {n} times: {p}" for p, n in sorted(counts.items()) if n > 1]
    problems += [f"in the map but not in the package: {p}" for p in sorted(counts) if not (ROOT / p).exists()]
    return problems


def test_every_module_is_in_the_map_once_and_every_named_path_exists() -> None:
    assert map_problems(map_section(DESIGN.read_text(encoding="utf-8")), package_modules()) == []


def test_the_map_names_the_package_data() -> None:
    named = set(named_paths(map_section(DESIGN.read_text(encoding="utf-8"))))
    data = {
        str(p.relative_to(ROOT))
        for p in ROOT.rglob("*")
        if p.is_file() and p.suffix in {".json", ".mjs", ".css", ".typed"}
    }
    assert data and data <= named, sorted(data - named)


def test_a_missing_module_is_reported() -> None:
    """The check fails for a module the map leaves out, and for a path that is not in the package."""
    section = map_section(DESIGN.read_text(encoding="utf-8"))
    without = "\n".join(line for line in section.splitlines() if not line.startswith("| `patience/players/hints.py`"))
    assert map_problems(without, package_modules()) == ["not in the map: patience/players/hints.py"]
    extra = section + "\n| `patience/players/gone.py` | a module that is not there |\n"
    assert map_problems(extra, package_modules()) == ["in the map but not in the package: patience/players/gone.py"]
    twice = section + "\n| `common/cards.py` | again |\n"
    assert map_problems(twice, package_modules()) == ["named 2 times: common/cards.py"]
