"""Count the new tabs that Chromium leaves with a localStorage of their own, by when a tab first touches it.

    python scripts/tools/storage_race.py                       # 100 contexts of 8 new tabs, each way
    python scripts/tools/storage_race.py --contexts 25 --page /tmp/site/daily/2027-03-04.html
    python scripts/tools/storage_race.py --http --marks start   # the bare page served from 127.0.0.1

Each browser context opens a first tab that writes a key, then opens new tabs,
one after another, at a page (a bare page of its own, or --page), and asks
each, once loaded, whether it sees the key. A new tab may touch the store
before its page does, as the browser tests once marked How to play as seen: at
document start (an init script, --marks start), or once the document is parsed
(readyState "interactive", --marks parsed); with --marks loaded it does not,
and the page's own script touches the store first, as in a player's browser
(and the tests' mark now comes after the load). A tab that does not see the key
has a store no other tab shares, and keeps it for good. With --reloads, one tab
writes a value and reloads, again and again, and reads the value back each
time. Needs Debian's chromium and Playwright, as the browser tests do.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from browsing import ARGS, CHROMIUM, serving

MARKS = {
    "loaded": "",
    "start": "try { localStorage.setItem('mark', '1'); } catch (e) {}",
    "parsed": (
        "document.addEventListener('readystatechange', () => { if (document.readyState === 'interactive') "
        "try { localStorage.setItem('mark', '1'); } catch (e) {} });"
    ),
}
BARE = "<!doctype html><title>tab</title><p>tab</p><script>window.seen = localStorage.getItem('key');</script>\n"


def lone_tabs(browser, page: str, first: str, mark: str, contexts: int, tabs: int) -> int:  # type: ignore[no-untyped-def]
    """How many of ``contexts`` x ``tabs`` new tabs at ``page`` do not see the key their context's first tab wrote."""
    lone = 0
    for _ in range(contexts):
        context = browser.new_context()
        writer = context.new_page()
        writer.goto(first)
        writer.evaluate("localStorage.setItem('key', 'written')")
        for _ in range(tabs):
            tab = context.new_page()
            if MARKS[mark]:
                tab.add_init_script(MARKS[mark])
            tab.goto(page)
            lone += tab.evaluate("localStorage.getItem('key')") != "written"
        context.close()
    return lone


def lost_reloads(browser, page: str, mark: str, reloads: int) -> int:  # type: ignore[no-untyped-def]
    """How many of ``reloads`` reloads of one tab at ``page`` do not read back the value written just before."""
    context = browser.new_context()
    tab = context.new_page()
    if MARKS[mark]:
        tab.add_init_script(MARKS[mark])
    tab.goto(page)
    lost = 0
    for k in range(reloads):
        tab.evaluate("(k) => localStorage.setItem('key', String(k))", k)
        tab.reload()
        lost += tab.evaluate("localStorage.getItem('key')") != str(k)
    context.close()
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--contexts", type=int, default=100)
    parser.add_argument("--tabs", type=int, default=8, help="new tabs per context")
    parser.add_argument("--reloads", type=int, default=0, help="then reload one tab this many times, each way")
    parser.add_argument("--page", type=Path, help="the page the new tabs open (default: a bare page)")
    parser.add_argument("--http", action="store_true", help="serve the page from 127.0.0.1, not as a file: address")
    parser.add_argument("--marks", default="start,parsed,loaded", help="when a new tab first touches the store")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as driver, ExitStack() as stack:
        bare = Path(folder) / "tab.html"
        bare.write_text(BARE, encoding="utf-8")
        path = (args.page or bare).resolve()
        if args.http:  # the first tab writes at the page's own address: one origin
            page = first = stack.enter_context(serving(path.parent)) + path.name
        else:  # every file: address shares one store
            page, first = path.as_uri(), bare.as_uri()
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        print(f"{browser.version}; new tabs at {page}")
        for mark in args.marks.split(",") if args.contexts else ():
            began = time.monotonic()
            lone = lone_tabs(browser, page, first, mark, args.contexts, args.tabs)
            opened = args.contexts * args.tabs
            print(
                f"first touch at {mark:>6}: {lone} of {opened} new tabs with a store of their own "
                f"({lone / opened:.2%}; {time.monotonic() - began:.0f} s)",
                flush=True,
            )
        for mark in args.marks.split(",") if args.reloads else ():
            began = time.monotonic()
            lost = lost_reloads(browser, page, mark, args.reloads)
            print(
                f"first touch at {mark:>6}: {lost} of {args.reloads} reloads read back an older store "
                f"({lost / args.reloads:.2%}; {time.monotonic() - began:.0f} s)",
                flush=True,
            )
        browser.close()


if __name__ == "__main__":
    main()
