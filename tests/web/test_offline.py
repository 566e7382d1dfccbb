"""Offline play in a real browser: a site served over http keeps itself once a page is visited, and plays offline.

The site is served by a ``http.server`` thread on 127.0.0.1 (a secure context for
service workers); the browser is Debian's Chromium, driven by Playwright, as in
test_browser.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from browsing import need_chromium, serving
from clitools import run

pytestmark = pytest.mark.slow  # a real browser: seconds a test

sync_api = need_chromium()

DAY = "2027-03-04"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("offline") / "site"
    result = run("site", "--from", DAY, "--days", "2", "--out", str(out), "--include-future")
    assert result.exit_code == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def served(built: Path) -> Iterator[str]:
    """The site's address on a local server, under a folder as a real host would put it."""
    (built.parent / "kc").mkdir()
    (built.parent / "kc" / "site").symlink_to(built)
    with serving(built.parent) as root:
        yield f"{root}kc/site/"


def watched(context, url: str):  # type: ignore[no-untyped-def]
    """A page of ``context`` at ``url`` whose script and console errors are kept in ``page.errors``."""
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(f"{msg.text} {msg.location}") if msg.type == "error" else None)
    page.on("requestfailed", lambda req: page.errors.append(f"failed {req.url}"))
    page.goto(url)
    return page


def wait_until(page, script: str, arg: object = None) -> None:  # type: ignore[no-untyped-def]
    """Evaluate the async ``script`` until it gives true, for 30 s at most (wait_for_function takes a promise for
    true at once)."""
    for _ in range(300):
        if page.evaluate(script, arg):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {script}")


# The names of the caches and every address kept in them, sorted.
KEPT = """async () => { const names = await caches.keys();
  const found = await Promise.all(names.map(async (n) => (await (await caches.open(n)).keys()).map((r) => r.url)));
  return [names, found.flat().sort()]; }"""


def test_a_visited_site_plays_offline(browser, built: Path, served: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    page = watched(context, f"{served}daily/{DAY}.html?face-up")
    wait_until(page, "() => navigator.serviceWorker.ready.then(() => true)")
    names, urls = page.evaluate(KEPT)
    assert len(names) == 1 and names[0].startswith(f"kcsolve-daily {served} ")
    listed = json.loads((built / "sw.js").read_text().split("const BUILD = ", 1)[1].split(";\n", 1)[0])["precache"]
    assert urls == sorted(served + name for name in listed)  # the page visited is among the newest dates
    # Offline, the page (with its query) and the archive still load, and the game plays to its win.
    context.set_offline(True)
    page.goto(f"{served}daily/{DAY}.html")
    assert page.locator("#kc-stock").inner_text() == "52"
    moves = json.loads((built / "daily" / f"{DAY}.json").read_text())["solution"]["moves"]
    page.evaluate(
        """(moves) => { for (const m of moves) {
        for (const cell of m.remove || [m.cell]) document.querySelector(`[data-cell="${cell}"]`).click();
        if (m.remove) document.getElementById("kc-remove").click(); } }""",
        moves,
    )
    assert page.locator("#kc-message").inner_text().startswith("Won: ")
    page.goto(served)
    assert page.locator("h1").inner_text() == "kcsolve daily deals"
    assert page.locator(f'td[data-date="{DAY}"]').count() == 1
    manifest = page.evaluate("fetch('manifest.webmanifest').then((r) => r.json())")
    assert manifest["name"] == "Kings in the Corners \u2014 kcsolve daily"
    assert page.errors == []
    context.close()


def test_a_rebuilt_site_replaces_the_cache(browser, built: Path, served: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    page = watched(context, served)
    wait_until(page, "() => navigator.serviceWorker.ready.then(() => true)")
    before = page.evaluate("caches.keys()")
    assert run("site", "--from", DAY, "--days", "3", "--out", str(built), "--include-future", "--force").exit_code == 0
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    # Done when the new build's worker is active and has deleted the old cache.
    done = """(before) => navigator.serviceWorker.getRegistration().then(async (r) => {
      const names = await caches.keys();
      return r.active.state === "activated" && names.length === 1 && names[0] !== before; })"""
    wait_until(page, done, before[0])
    names, urls = page.evaluate(KEPT)
    assert len(names) == 1 and names[0] != before[0]  # the old build's cache is gone
    assert f"{served}daily/2027-03-06.html" in urls
    context.set_offline(True)
    page.goto(f"{served}daily/2027-03-06.html")  # a date of the new build, kept at once
    assert page.locator("#kc-stock").inner_text() == "52"
    assert page.errors == []
    context.close()


def test_a_page_from_a_file_registers_nothing(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    for url in ((built / "daily" / f"{DAY}.html").as_uri(), (built / "index.html").as_uri()):
        page = watched(context, url)
        page.wait_for_timeout(300)
        assert page.evaluate("navigator.serviceWorker === undefined || navigator.serviceWorker.controller === null")
        assert page.errors == []
    context.close()
