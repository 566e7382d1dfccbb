"""The files of a web page kept in a package's ``web/`` folder, and its ES modules joined into one inline script.

Both games' pages are single HTML files that fetch nothing when viewed, so
their modules are inlined: an inline module cannot import another file, so
each module's imports of earlier modules are dropped, and any other import is
refused (it would fail in the browser, unseen by the Python tests).
"""

from __future__ import annotations

import re
from importlib import resources

_LOCAL_IMPORT = re.compile(r'^import \{[^}]*\} from "\./([a-z]+\.mjs)";\n', re.MULTILINE)
_ANY_IMPORT = re.compile(r"^import\b", re.MULTILINE)


def web_asset(package: str, name: str) -> str:
    """The text of the file ``name`` of ``package``'s ``web/`` folder."""
    return (resources.files(package) / "web" / name).read_text(encoding="utf-8")


def inline_modules(package: str, modules: tuple[str, ...]) -> str:
    """The ``modules`` of ``package``'s ``web/`` folder as one script, each after every module it imports."""
    texts = []
    for index, name in enumerate(modules):
        text = web_asset(package, name)
        for imported in _LOCAL_IMPORT.findall(text):
            if imported not in modules[:index]:
                raise AssertionError(f"{name} imports {imported}, which is not an earlier module of {modules}")
        text = _LOCAL_IMPORT.sub("", text)
        if _ANY_IMPORT.search(text):
            raise AssertionError(f"{name} imports something that is not one of the page's modules")
        texts.append(text)
    return "\n".join(texts)
