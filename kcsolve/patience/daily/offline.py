"""The files that let a daily site work offline once visited and be added to a home screen.

A web app manifest names the site and its icons (SVG drawn here, nothing
fetched from elsewhere), and a service worker (``sw.js``, written from
``web/worker.js`` with this build's list and version) keeps the site's files
in the browser's cache. Pages register the worker only when served over
http(s) (``web/offline.mjs``): a page opened from a ``file://`` address works
as before.
"""

from __future__ import annotations

import hashlib
import json
import re
from importlib import resources
from typing import Any

MANIFEST = "manifest.webmanifest"
WORKER = "sw.js"
ICON = "icon.svg"
MASKABLE_ICON = "icon-maskable.svg"  # drawn inside the safe circle a home screen's mask keeps
OFFLINE_FILES = (MANIFEST, WORKER, ICON, MASKABLE_ICON)
NAME = "Kings in the Corners \u2014 kcsolve daily"
THEME = "#1f6b45"  # the felt of the board and the favicon (style.css --felt)
BACKGROUND = "#eef1ee"  # the page's own background (style.css --bg), shown while a launched page loads
PRECACHED_DAYS = 7  # the newest dates' pages are kept at once; an older one is kept when it is visited
_DAILY_PAGE = re.compile(r"daily/(\d{4}-\d{2}-\d{2})\.html")


def head_links(root: str) -> str:
    """The <head> lines of a site's page: its manifest and theme colour; ``root`` leads from the page to the site."""
    return f'<link rel="manifest" href="{root}{MANIFEST}">\n<meta name="theme-color" content="{THEME}">\n'


def icon(maskable: bool = False) -> str:
    """The home-screen icon as SVG: a card with a K on the felt, as the favicon draws it."""
    if maskable:  # the whole square is felt; the card keeps inside the middle 80% that every mask shows
        felt, card = '<rect width="512" height="512" fill="#1f6b45"/>', (176, 136, 160, 240, 24, 300, 150)
    else:
        felt, card = '<rect width="512" height="512" rx="96" fill="#1f6b45"/>', (128, 80, 256, 352, 48, 352, 224)
    x, y, width, height, rx, base, size = card
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
        f'{felt}<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="{rx}" fill="#fffdf7"/>'
        f'<text x="256" y="{base}" font-size="{size}" font-weight="700" text-anchor="middle" '
        'font-family="sans-serif" fill="#b0212a">K</text></svg>\n'
    )


def manifest(rules: str) -> dict[str, Any]:
    """The web app manifest: what a home screen shows, and that the site opens as an app at its archive."""
    return {
        "name": NAME,
        "short_name": "kcsolve daily",
        "description": f"One proved-winnable deal of Kings in the Corners a day, rules {rules}; it plays offline.",
        "start_url": "./index.html",
        "scope": "./",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": ICON, "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            {"src": MASKABLE_ICON, "sizes": "any", "type": "image/svg+xml", "purpose": "maskable"},
        ],
    }


def worker(files: dict[str, str]) -> str:
    """``sw.js`` for a site of ``files`` (name: text): the files it keeps at once, the newest date, and a cache
    version that changes whenever any file does, so a rebuilt site replaces the old cache."""
    days = sorted(match.group(1) for name in files if (match := _DAILY_PAGE.fullmatch(name)))
    newest = days[-PRECACHED_DAYS:]
    kept = [name for name in sorted(files) if not name.startswith("daily/")] + [f"daily/{d}.html" for d in newest]
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(f"{name}\0{files[name]}\0".encode())
    first, last = (days[0], days[-1]) if days else (None, None)
    build = {"version": digest.hexdigest()[:16], "precache": kept, "first": first, "last": last}
    source = (resources.files("kcsolve.patience.daily") / "web" / "worker.mjs").read_text(encoding="utf-8")
    return f"const BUILD = {json.dumps(build, indent=1)};\n{source}"


def offline_files(pages: dict[str, str], rules: str) -> dict[str, str]:
    """The manifest, icons and service worker of a site whose other files are ``pages`` (name: text)."""
    made = {
        MANIFEST: json.dumps(manifest(rules), indent=1, ensure_ascii=False) + "\n",
        ICON: icon(),
        MASKABLE_ICON: icon(maskable=True),
    }
    return {**made, WORKER: worker({**pages, **made})}
