"""The web pages in a real browser: headless Chromium (Debian's package) driven by Playwright for Python.

Play the daily deal's winning line by clicks and by keyboard, see the share line, reload and
resume, export and import the games, check that everything needed to play is in view at
320x568, 360x740 and 1280x800, and run axe-core on every kind of page. Screenshots go to
KCSOLVE_SCREENSHOTS (a directory, e.g. docs/screenshots) when it is set, else to a temporary one.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from browsing import need_chromium, serving
from clitools import run

from kcsolve.patience.engine import IllegalMoveError, Place, Position, Remove, cell_index, cell_name
from kcsolve.patience.record import parse_record, replay

# A real browser per page state takes seconds a test: the slow suite runs them (CI runs it too).
pytestmark = pytest.mark.slow

sync_api = need_chromium()
expect = sync_api.expect

DAY = "2027-03-04"
SIZES = [(320, 568), (360, 740), (1280, 800)]
IN_VIEW = [f"#kc-cell-{c}" for c in range(16)] + ["#kc-turned", "#kc-message", "#kc-undo", "#kc-hint", "#kc-remove"]
HOW_TO_PLAY_SEEN = "kcsolve-how-to-play-seen"
SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
NAMED = ["Undo", "Hint", "Still winnable?", "Restart", "Show solution", "Share"]


LOCAL = ("file:", "blob:", "data:", "http://127.0.0.1:")  # what a page may load: the test's own files and server
SERVED: dict[Path, str] = {}  # a built site's folder: its address on the module's server


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The site, built and served over http as players get it.

    Not opened as files: Chromium gives a file: tab, now and then, a localStorage of its
    own that no other tab shares, which a page served over http was never seen to get
    (docs/MEASUREMENTS.md, "Tabs with a store of their own").
    """
    out = tmp_path_factory.mktemp("web") / "site"
    result = run("site", "--from", "2027-03-04", "--days", "2", "--out", str(out), "--include-future")
    assert result.exit_code == 0, result.stderr
    with serving(out) as root:
        SERVED[out] = root
        yield out
        del SERVED[out]


def address(built: Path, name: str) -> str:
    """The address of the site's file ``name`` on the module's server."""
    return SERVED[built] + name


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    keep = Path(os.environ.get("KCSOLVE_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    keep.mkdir(parents=True, exist_ok=True)
    return keep


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script: from KCSOLVE_AXE, else npm's package installed once into a cache directory."""
    given = os.environ.get("KCSOLVE_AXE")
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kcsolve-axe"
    path = Path(given) if given else cache / "node_modules" / "axe-core" / "axe.min.js"
    if not path.exists() and not given and shutil.which("npm"):
        cache.mkdir(parents=True, exist_ok=True)
        with open(cache / ".installing", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # pytest-xdist workers: one installs, the others wait and find it there
            if not path.exists():
                subprocess.run(
                    ["npm", "install", "--prefix", str(cache), "--no-audit", "--no-fund", "--silent", "axe-core@4"],
                    capture_output=True,
                    timeout=300,
                    check=False,
                )
    if not path.exists():
        pytest.skip(f"no axe-core at {path} (npm install axe-core, or set KCSOLVE_AXE to axe.min.js)")
    return path.read_text(encoding="utf-8")


def open_page(browser, url: str, width: int = 1280, height: int = 900, context=None, first_visit: bool = False):  # type: ignore[no-untyped-def]
    """A new page at ``url`` whose script errors and network requests fail the test.

    How to play opens by itself on a first visit: unless ``first_visit``, it is passed as already seen.
    """
    context = context or browser.new_context(
        viewport={"width": width, "height": height},
        permissions=["clipboard-read", "clipboard-write"],
        accept_downloads=True,
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.on(
        "request",
        lambda req: page.errors.append(f"fetched {req.url}") if not req.url.startswith(LOCAL) else None,
    )
    page.goto(url)
    if not first_visit:
        pass_how_to_play(page)
    return page


def pass_how_to_play(page) -> None:  # type: ignore[no-untyped-def]
    """Mark How to play as seen, once the page has loaded, and close it where it opened: the tests take it as read.

    Not earlier: Chromium 150 now and then leaves a tab whose first touch of localStorage
    comes before its page's own (at document start, as an init script did, and even once
    the document is parsed) with a store of its own for good, bound to nothing the other
    tabs see (docs/MEASUREMENTS.md, "Tabs with a store of their own").
    """
    page.evaluate(f"() => {{ try {{ localStorage.setItem('{HOW_TO_PLAY_SEEN}', '1'); }} catch (e) {{}} }}")
    page.evaluate("() => document.getElementById('kc-howto-dialog')?.close()")


def deal_of(built: Path, day: str = DAY) -> dict:
    return json.loads((built / "daily" / f"{day}.json").read_text())


def archive_url(built: Path) -> str:
    """The archive's own address: the site's address (index.html) opens today's deal when the site has it."""
    return address(built, "index.html#all")


def page_url(built: Path, day: str = DAY) -> str:
    return address(built, f"daily/{day}.html")


def play(page, moves: list[dict]) -> None:  # type: ignore[no-untyped-def]
    """Play record moves by taps: a placement is one tap, a removal taps its cells and then Remove."""
    for move in moves:
        if "place" in move:
            page.click(f"#kc-cell-{cell_index(move['cell'])}")
        else:
            for cell in move["remove"]:
                page.click(f"#kc-cell-{cell_index(cell)}")
            page.click("#kc-remove")


def play_quickly(page, moves: list[dict]) -> None:  # type: ignore[no-untyped-def]
    """Play record moves by the cells' own click(), for tests about what is shown rather than how it is tapped."""
    page.evaluate(
        """(moves) => { for (const m of moves) {
        for (const cell of m.remove || [m.cell]) document.querySelector(`[data-cell="${cell}"]`).click();
        if (m.remove) document.getElementById("kc-remove").click(); } }""",
        moves,
    )


def board_terms(text: str) -> str:
    """The engine's words as the page says them: every card as the board draws it ("10\u2660", not "TS")."""
    return re.sub(r"\b([A2-9TJQK])([SHDC])\b", lambda m: ("10" if m[1] == "T" else m[1]) + SUIT_SIGNS[m[2]], text)


def expected_picture(moves: list[dict], lost: bool = False) -> list[str]:
    """The share picture worked out in Python: a row per quarter of the stock, its courts placed and sets removed."""
    rows: list[list[str]] = [[], [], [], []]
    placed = 0
    for move in moves:
        if "place" in move:
            if move["place"][0] in "JQK":
                rows[placed // 13].append("\U0001f7e8")
            placed += 1
        else:
            rows[max(0, placed - 1) // 13].append("\U0001f7e6")
    reached = max(0, placed - 1) // 13
    if lost:
        rows[reached].append("\U0001f7e5")
    return ["\u2b1b" if k > reached else "".join(row) or "\u2b1c" for k, row in enumerate(rows)]


def share_lines(page) -> list[str]:  # type: ignore[no-untyped-def]
    if not page.locator("#kc-stats-dialog").is_visible():
        page.click("#kc-share")
    lines = page.locator("#kc-share-text").input_value().split("\n")
    close_panel(page)
    return lines


def close_panel(page) -> None:  # type: ignore[no-untyped-def]
    """Close the end panel (the panel of Share and Stats too) by its Close button."""
    page.locator("#kc-stats-dialog").get_by_role("button", name="Close", exact=True).click()


def kept_text(page, day: str) -> str | None:  # type: ignore[no-untyped-def]
    """The stored text of ``day``'s game as the page reads it, or None."""
    return page.evaluate(
        """(day) => { for (let k = 0; k < localStorage.length; k += 1) {
        const key = localStorage.key(k);
        if (key.endsWith(`/${day}`)) return localStorage.getItem(key); } return null; }""",
        day,
    )


def saved_entry(page, day: str) -> dict:  # type: ignore[no-untyped-def]
    """The game of ``day`` as the page's browser keeps it, read by the page itself."""
    found = kept_text(page, day)
    assert found is not None, f"nothing kept for {day}"
    return json.loads(found)


def reload_kept(page, day: str = DAY) -> None:  # type: ignore[no-untyped-def]
    """Reload, and require the new page to read the game of ``day`` as the old one kept it."""
    kept = kept_text(page, day)
    page.reload()
    assert kept_text(page, day) == kept, f"the reload does not hand back the game of {day} as the page kept it"


def back_to_the_archive(page) -> None:  # type: ignore[no-untyped-def]
    """Leave a daily page as a player does, by its link to all the dates."""
    page.get_by_role("link", name="All dates").click()
    page.wait_for_url("**/index.html#all")


def say_yes_to_the_solution(page) -> None:  # type: ignore[no-untyped-def]
    page.locator("#kc-show-dialog").get_by_role("button", name="Show solution").click()
    expect(page.locator("body")).to_have_attribute("data-mode", "line")


def assert_in_view(page, width: int, height: int, where: str) -> None:  # type: ignore[no-untyped-def]
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{where}: sideways overflow"
    hand, cell = page.locator("#kc-turned").bounding_box(), page.locator("#kc-cell-0").bounding_box()
    assert hand and cell and hand["width"] >= cell["width"] - 0.5, f"{where}: the card in hand is smaller than a cell"
    for selector in IN_VIEW:
        box = page.locator(selector).bounding_box()
        assert box, f"{where}: {selector} is not shown"
        assert box["x"] >= 0 and box["y"] >= 0, f"{where}: {selector} at {box}"
        assert box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5, (
            f"{where}: {selector} at {box}"
        )


def test_play_the_winning_line_share_resume_and_export(browser, built: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"], accept_downloads=True)
    context.clock.set_fixed_time(f"{DAY}T12:00:00Z")  # played on its own day: a streak (issue 54 item 10)
    page = open_page(browser, page_url(built), context=context)
    assert page.locator("body").get_attribute("data-mode") == "play"
    assert page.locator("#kc-stock").inner_text() == "52"
    play(page, found["solution"]["moves"])
    assert page.locator("#kc-message").inner_text().startswith("Won: the twelfth court card was placed")
    moves = len(found["solution"]["moves"])
    # One end panel at once: the result, the statistics with this date counted, the next deal, and Share.
    assert page.locator("#kc-stats-dialog").is_visible()
    assert page.evaluate("document.activeElement.id") == "kc-end-title"
    assert page.locator("#kc-end-title").inner_text() == f"Won in {moves} moves"
    shown = {name: page.locator(f"#kc-stat-{name}").inner_text() for name in ("played", "won", "percent", "best")}
    assert shown == {"played": "1", "won": "1", "percent": "100%", "best": "1"}
    assert page.locator("tr.mine").all_inner_texts() == ["won, no help\t1\t"]
    assert re.fullmatch(
        # the hours are left out in the last hour before midnight UTC
        r"Next deal in (\d+ h )?\d+ min, at .+ your time \(midnight UTC\)\.",
        page.locator("#kc-end-next").inner_text(),
    )
    share = page.locator("#kc-share-text").input_value().split("\n")
    assert share[0] == f"kcsolve daily {DAY} \u00b7 standard \u00b7 {found['grade']}"
    assert share[1] == f"won \u00b7 {moves} moves \u00b7 no help"
    assert share[2:6] == expected_picture(found["solution"]["moves"])
    assert share[6] == page_url(built)
    assert not any(card in "".join(share[:6]) for card in found["deck"])  # no card names in the share text
    page.click("#kc-copy")
    page.wait_for_function("document.getElementById('kc-copied').textContent !== ''")
    assert page.evaluate("navigator.clipboard.readText()") == "\n".join(share)
    reload_kept(page)  # the finished game is kept: it comes back as it ended
    assert page.locator("#kc-message").inner_text().startswith("Won: ")
    final = replay(parse_record(json.dumps(found["solution"]))).final
    assert page.locator(".cell.filled").count() == sum(final.card_at(c) is not None for c in range(16))
    page.click("#kc-stats-open")
    shown = {name: page.locator(f"#kc-stat-{name}").inner_text() for name in ("played", "won", "percent", "best")}
    assert shown == {"played": "1", "won": "1", "percent": "100%", "best": "1"}
    assert page.locator("#kc-by-none").inner_text() == "1" and page.locator("#kc-by-undo").inner_text() == "0"
    assert page.locator("#kc-end-title").inner_text() == f"Won in {moves} moves"
    with page.expect_download() as download:
        page.click("#kc-export-one")
    saved = tmp_path / "one.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    assert record["seed"] == found["seed"] and record["daily"]["seed"] == str(found["seed"])  # exact past 2**53
    verdict = run("verify", str(saved))
    assert verdict.exit_code == 0 and verdict.stdout.startswith("won: ")
    with page.expect_download() as download:
        page.click("#kc-export-all")
    download.value.save_as(tmp_path / "all.json")
    listed = json.loads((tmp_path / "all.json").read_text())
    assert [r["daily"]["date"] for r in listed] == [DAY]
    verdicts = run("verify", str(tmp_path / "all.json"))
    assert verdicts.exit_code == 0 and verdicts.stdout.splitlines()[-1] == "1 game: 1 won"
    assert page.errors == []
    page.context.close()
    # Another browser takes the file in: the statistics and the finished game come with it.
    fresh = open_page(browser, page_url(built))
    fresh.click("#kc-stats-open")
    assert fresh.locator("#kc-stat-played").inner_text() == "0"
    fresh.keyboard.press("Escape")
    play(fresh, found["solution"]["moves"][:1])  # a game begun here gives way to the finished one imported
    fresh.click("#kc-stats-open")
    fresh.set_input_files("#kc-import", str(saved))
    expect(fresh.locator("#kc-import-note")).to_have_text("Imported 1 game; kept 0 already here.")
    assert fresh.locator("#kc-stat-won").inner_text() == "1"
    fresh.keyboard.press("Escape")
    assert fresh.locator("#kc-message").inner_text().startswith("Won: ")
    reload_kept(fresh)
    assert fresh.locator("#kc-message").inner_text().startswith("Won: ")
    assert fresh.errors == []


def test_undo_is_help_and_a_game_in_progress_survives_a_reload(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    moves = found["solution"]["moves"]
    page = open_page(browser, page_url(built))
    play(page, moves[:1])
    assert page.locator("#kc-stock").inner_text() == "51"
    page.click(f"#kc-cell-{cell_index(moves[0]['cell'])}")
    assert page.locator("#kc-message").inner_text() == (
        f"Refused: remove {moves[0]['cell']}: removal opens only when the grid is full."
    )
    page.click("#kc-undo")
    assert page.locator("#kc-stock").inner_text() == "52"
    play(page, moves[:10])
    assert len(saved_entry(page, DAY)["moves"]) == 10
    reload_kept(page)
    assert page.locator("#kc-stock").inner_text() == str(52 - sum("place" in m for m in moves[:10]))
    assert page.locator(".cell.filled").count() == 10 - sum(len(m.get("remove", [])) for m in moves[:10])
    play_quickly(page, moves[10:])
    # One wording everywhere: the board, the card-in-hand line, the panel and the share line.
    assert page.locator("#kc-message").inner_text().startswith("Finished with help: the twelfth court card")
    assert page.locator("#kc-end-title").inner_text() == f"Finished with help in {len(moves)} moves"
    assert page.locator("#kc-hand").inner_text() == "Finished with help"
    assert page.locator("#kc-turned svg").count() == 0  # no card in hand is left showing after the end
    share = share_lines(page)
    assert share[1] == f"finished with help \u00b7 {len(moves)} moves \u00b7 \u21a9\ufe0f"  # never "won" after an undo
    # An undo after the end is practice: the result, the share line and its picture stay as they were.
    page.click("#kc-undo")
    assert (
        page.locator("#kc-message")
        .inner_text()
        .startswith("Practice: this replay does not count, and your result stays: finished with help")
    )
    assert page.locator("#kc-hand").inner_text() == "Practice \u00b7 Card in hand"
    assert share_lines(page) == share
    play_quickly(page, moves[-1:])
    assert page.locator("#kc-message").inner_text().startswith("Practice over (won: ")
    assert not page.locator("#kc-stats-dialog").is_visible()  # practice opens no panel
    page.click("#kc-restart")  # no question: a restart after the end is practice too
    assert page.locator("#kc-stock").inner_text() == "52" and share_lines(page) == share
    page.click("#kc-stats-open")
    assert page.locator("#kc-by-undo").inner_text() == "1" and page.locator("#kc-by-none").inner_text() == "0"
    close_panel(page)
    assert saved_entry(page, DAY)["daily"]["first"]["moves"] == len(moves)  # practice kept nothing
    reload_kept(page)  # the finished game comes back as it ended
    assert page.locator("#kc-message").inner_text().startswith("Finished with help: ")
    assert share_lines(page) == share
    assert page.errors == []


def test_removal_is_chosen_on_the_board_and_refusals_say_why(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    record = parse_record(json.dumps(found["solution"]))
    played = replay(record)
    first = next(k for k, step in enumerate(played.steps) if isinstance(step.move, Remove))
    grid = played.steps[first - 1].position
    wrong = next(
        (a, b)
        for a in range(16)
        for b in range(a + 1, 16)
        if grid.card_at(a) and grid.card_at(b) and Remove((a, b)) not in grid.legal_moves()
    )
    with pytest.raises(IllegalMoveError) as refused:
        grid.play(Remove(wrong))
    page = open_page(browser, page_url(built))
    play(page, found["solution"]["moves"][:first])
    assert page.locator("#kc-remove").is_enabled()
    assert page.locator("#kc-sets button").count() == 0  # no list of every set: the cells are the choice
    for cell in wrong:
        page.click(f"#kc-cell-{cell}")
    assert page.locator(".cell.selected").count() == 2
    page.click("#kc-remove")
    assert page.locator("#kc-message").inner_text() == f"Refused: {board_terms(str(refused.value))}."
    right = played.steps[first].move.cells
    for cell in right:
        page.click(f"#kc-cell-{cell}")
    assert page.locator("#kc-remove").inner_text() == "Remove " + " ".join(found["solution"]["moves"][first]["remove"])
    page.click("#kc-remove")
    assert page.locator(".cell.filled").count() == 16 - len(right)
    assert page.errors == []


def test_keyboard_play_focus_is_the_cursor(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    moves = found["solution"]["moves"]
    page = open_page(browser, page_url(built))
    active = lambda: page.evaluate("document.activeElement.id")  # noqa: E731
    for _ in range(12):  # Tab reaches the board like any control: one stop, the cursor cell
        page.keyboard.press("Tab")
        if active().startswith("kc-cell-"):
            break
    assert active() == "kc-cell-5"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    assert active() == "kc-cell-0"
    label = page.locator("#kc-cell-0").get_attribute("aria-label")
    assert label.startswith("a1, empty, for a King")
    page.keyboard.press("1")  # a digit alone is bound to nothing (it was the clash under camelot)
    assert page.locator("#kc-stock").inner_text() == "52"
    for move, key in zip(moves[:2], ["Enter", " "]):
        assert "place" in move
        page.keyboard.type(move["cell"])  # a coordinate moves the focus there
        assert active() == f"kc-cell-{cell_index(move['cell'])}"
        page.keyboard.press(key)
    assert page.locator("#kc-stock").inner_text() == "50"
    assert (
        page.locator(f"#kc-cell-{cell_index(moves[0]['cell'])}")
        .get_attribute("aria-label")
        .startswith(f"{moves[0]['cell']}, ")
    )
    page.keyboard.press("u")
    assert page.locator("#kc-stock").inner_text() == "51"
    page.focus("#kc-undo")
    page.keyboard.press("Enter")  # Enter on a button is the button's, not the board's
    assert page.locator("#kc-stock").inner_text() == "52"
    for name in NAMED:
        assert page.get_by_role("button", name=name, exact=True).count() == 1, name
    assert page.locator("#kc-message").get_attribute("role") == "status"
    page.focus('a[href="../index.html#all"]')
    page.keyboard.press("Enter")  # and on a link it follows the link
    page.wait_for_url("**/index.html#all")
    assert page.errors == []


def test_removals_by_keyboard_alone(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    moves = deal_of(built)["solution"]["moves"]
    first = next(k for k, m in enumerate(moves) if "remove" in m)
    after = next(k for k in range(first, len(moves)) if "place" in moves[k])
    page = open_page(browser, page_url(built))
    play_quickly(page, moves[:first])
    page.focus("#kc-cell-5")
    removed = 0
    for move in moves[first:after]:
        for cell in move["remove"]:
            page.keyboard.type(cell)
            page.keyboard.press("Enter")  # chooses the card: it lifts
        assert page.locator(".cell.selected").count() == len(move["remove"])
        assert page.locator("#kc-remove").inner_text() == "Remove " + " ".join(move["remove"])
        page.keyboard.press("r")  # R confirms, as How to play says
        removed += len(move["remove"])
        assert page.locator(".cell.filled").count() == 16 - removed
        assert page.evaluate("document.activeElement.id").startswith("kc-cell-")  # the focus stays on the board
    page.keyboard.type(moves[after]["cell"])
    page.keyboard.press(" ")
    assert page.locator(".cell.filled").count() == 17 - removed
    label = page.locator(f"#kc-cell-{cell_index(moves[after]['cell'])}").get_attribute("aria-label")
    assert label.startswith(f"{moves[after]['cell']}, ") and "empty" not in label
    assert page.errors == []


def test_how_to_play_tells_the_rules_of_the_page(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_page(browser, page_url(built))
    page.get_by_role("button", name="How to play", exact=True).click()
    dialog = page.locator("#kc-howto-dialog")
    assert dialog.is_visible() and page.evaluate("document.activeElement.id") == "kc-howto-title"
    text = dialog.inner_text()
    assert "Kings go in the corners, Queens in the middle of the top and bottom edges" in text
    assert "Removal is forced" in text and "all twelve court cards are placed" in text
    assert 'a game finished with help is never called "won"' in text
    page.keyboard.press("Escape")
    assert not dialog.is_visible() and page.locator("#kc-stock").inner_text() == "52"
    assert page.errors == []


def test_restart_and_show_solution_ask_first_and_count(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    page = open_page(browser, page_url(built))
    play(page, found["solution"]["moves"][:3])
    page.click("#kc-restart")
    assert page.locator("#kc-restart-dialog").is_visible()
    page.get_by_role("button", name="Keep playing").click()
    assert page.locator("#kc-stock").inner_text() == "49"
    page.click("#kc-restart")
    page.locator("#kc-restart-dialog").get_by_role("button", name="Restart").click()
    expect(page.locator("#kc-stock")).to_have_text("52")
    play(page, found["solution"]["moves"][:2])
    assert share_lines(page)[1] == "in progress \u00b7 2 moves \u00b7 \U0001f501"
    page.click("#kc-show")
    say_yes_to_the_solution(page)
    assert page.locator("#kc-steps li").count() == 1  # one step at a time: only what has been shown is listed
    page.click("#kc-next")
    page.click("#kc-next")
    assert page.locator("#kc-steps li").count() == 3
    assert page.locator("#kc-message").inner_text().startswith(f"Step 2 of {len(found['solution']['moves'])}: ")
    page.click("#kc-back")
    play_quickly(page, found["solution"]["moves"][2:])
    share = share_lines(page)
    assert share[1].startswith("solution shown, not won \u00b7 2 moves") and "\U0001f4d6" in share[1]
    assert "does not count as a win" in page.locator("#kc-message").inner_text()
    page.click("#kc-stats-open")
    assert (page.locator("#kc-stat-played").inner_text(), page.locator("#kc-stat-won").inner_text()) == ("1", "0")
    assert page.errors == []


def test_still_winnable_and_hint_are_help(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_page(browser, page_url(built, "2027-03-05"))
    page.click("#kc-check")
    page.wait_for_function("document.getElementById('kc-message').textContent.startsWith('Still winnable: ')")
    message = page.locator("#kc-message").inner_text()
    assert message.startswith(("Still winnable: yes", "Still winnable: unknown")), message  # a proved-winnable deal
    assert "\u2753" in share_lines(page)[1]
    page.click("#kc-hint")
    page.wait_for_function(
        "document.getElementById('kc-message').textContent.startsWith('Hint: ') && "
        "!document.getElementById('kc-message').textContent.includes('weighing')"
    )
    items = page.locator("#kc-hint-list li").all_inner_texts()
    option = r"place in [a-d][1-4](?: \(or [^)]+\))?: (\d+%) \((?:exact|95% interval (\d+%) to (\d+%))\)"
    assert items and all(re.fullmatch(option, i) for i in items), items
    assert (
        "above your own chances" in page.locator("#kc-hint-head").inner_text()
        or "Exact" in page.locator("#kc-hint-head").inner_text()
    )
    said = page.locator(
        "#kc-message"
    ).inner_text()  # at the start the figures are sampled: the message has the interval
    first = re.fullmatch(option, items[0])
    assert first and said.endswith(
        f": {first[1]} of 200 sampled orders stay winnable "
        f"(above your own chances; 95% interval {first[2]} to {first[3]})."
    ), said
    assert page.locator(".cell.hinted").count() == 1
    assert "\U0001f4a1" in share_lines(page)[1]
    assert page.errors == []


def test_an_imported_file_is_checked_and_never_html(browser, built: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = "<img src=x onerror=window.pwned=1>"
    hostile = {
        "format": bad,
        "deck": [bad] * 52,
        "rules": bad,
        "result": bad,
        "moves": [{"place": bad, "cell": bad}],
        "daily": {"date": bad, "seed": bad, "help": {"undo": bad}, "first": {"status": bad}},
        "name": bad,
    }
    path = tmp_path / "hostile.json"
    page = open_page(browser, page_url(built))
    page.click("#kc-stats-open")
    for key in list(hostile)[:-1]:  # each field in turn is the first bad one the check meets
        for earlier in list(hostile)[: list(hostile).index(key)]:
            if earlier != "format":
                hostile[earlier] = deal_of(built)["solution"].get(earlier, hostile[earlier])
        path.write_text(json.dumps(hostile))
        page.evaluate("document.getElementById('kc-import-note').textContent = ''")
        page.set_input_files("#kc-import", str(path))
        expect(page.locator("#kc-import-note")).to_have_text(re.compile(r"^Refused: "))
        hostile["format"] = "kcsolve-record/1"
    assert page.locator("img").count() == 0 and page.evaluate("window.pwned") is None
    huge = tmp_path / "huge.json"
    huge.write_text("[" + " " * (10 * 1024 * 1024) + "]")
    page.set_input_files("#kc-import", str(huge))
    expect(page.locator("#kc-import-note")).to_have_text("Refused: the file is 10,485,762 bytes, more than 4,194,304.")
    solution = deal_of(built)["solution"]
    moved = tmp_path / "moved.json"  # a won game of this date put on the next one: that date's deal is another deck
    moved.write_text(
        json.dumps(
            {
                **solution,
                "daily": {
                    "date": "2027-03-05",
                    "first": {"status": "won", "moves": len(solution["moves"]), "help": {}},
                },
            }
        )
    )
    page.set_input_files("#kc-import", str(moved))
    expect(page.locator("#kc-import-note")).to_have_text("Refused: the game: the deck is not the deal of 2027-03-05.")
    assert page.locator("#kc-stat-won").inner_text() == "0"
    assert page.errors == []


@pytest.mark.parametrize("width, height", SIZES)
def test_everything_to_play_is_in_view(browser, built: Path, shots: Path, width: int, height: int) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    moves = found["solution"]["moves"]
    first_removal = next(k for k, m in enumerate(moves) if "remove" in m)
    page = open_page(browser, page_url(built), width, height)
    assert_in_view(page, width, height, "fresh")
    page.screenshot(path=str(shots / f"fresh-{width}.png"))
    play_quickly(page, moves[:10])
    page.evaluate("document.activeElement.blur()")  # photographed as a tapping player sees it, with no keyboard ring
    assert_in_view(page, width, height, "mid-game")
    page.screenshot(path=str(shots / f"mid-{width}.png"))
    play_quickly(page, moves[10:first_removal])
    assert page.locator("#kc-message").inner_text().startswith("Removal is due")
    page.click(f"#kc-cell-{cell_index(moves[first_removal]['remove'][0])}")
    assert_in_view(page, width, height, "removal due")
    page.screenshot(path=str(shots / f"removal-{width}.png"))
    page.click(f"#kc-cell-{cell_index(moves[first_removal]['remove'][0])}")
    play_quickly(page, moves[first_removal:])
    panel = page.locator("#kc-stats-dialog")
    for selector in ("#kc-end-title", "#kc-copy", "#kc-stat-best", "#kc-end-next"):  # the end panel's first screen
        box = page.locator(selector).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, f"end panel: {selector} at {box}"
    page.screenshot(path=str(shots / f"end-{width}.png"))
    close_panel(page)
    assert not panel.is_visible()
    assert_in_view(page, width, height, "won")
    page.screenshot(path=str(shots / f"won-{width}.png"))
    page.goto(archive_url(built))  # the archive marks the date just won, in the same browser
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator(f'td[data-date="{DAY}"] .r-mark').inner_text() == "won"
    page.screenshot(path=str(shots / f"archive-{width}.png"), full_page=True)
    for_a_finger(page, "archive")
    assert page.errors == []


def for_a_finger(page, where: str) -> None:  # type: ignore[no-untyped-def]
    """Every link and button outside running text is at least 24x24 px (WCAG 2.2 target size)."""
    targets = "header a, header button, .controls button:visible, .calendar a, .sheet-head button:visible"
    for target in page.locator(targets).all():
        box = target.bounding_box()
        assert box and box["width"] >= 24 and box["height"] >= 24, f"{where}: {target.evaluate('e => e.outerHTML')}"


@pytest.mark.parametrize("width, height", SIZES)
def test_the_hint_sheet_and_the_step_through_are_in_view(
    browser, built: Path, shots: Path, width: int, height: int
) -> None:  # type: ignore[no-untyped-def]
    """The hint's options stay in view (a sheet on a phone); Show solution brings the board's top into view."""
    moves = deal_of(built)["solution"]["moves"]
    page = open_page(browser, page_url(built), width, height)
    for_a_finger(page, "daily page")
    play_quickly(page, moves[:5])
    page.click("#kc-hint")
    page.wait_for_function("!document.getElementById('kc-hint-box').hidden")
    page.evaluate("document.activeElement.blur()")
    for item in page.locator("#kc-hint-list li").all():
        box = item.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"hint option at {box}"
    hinted = page.locator(".cell.hinted").bounding_box()
    sheet = page.locator("#kc-hint-box").bounding_box()["y"] if width < 900 else height  # beside the board on a desktop
    assert hinted["y"] >= 0 and hinted["y"] + hinted["height"] <= sheet + 1
    board = page.locator("#kc-grid").bounding_box()  # every option the hint names can be seen, and tapped
    assert board["y"] >= 0 and board["y"] + board["height"] <= sheet + 1, f"the board at {board}, the sheet at {sheet}"
    page.screenshot(path=str(shots / f"hint-{width}.png"))
    for_a_finger(page, "hint")
    page.click("#kc-hint-close")
    assert page.locator("#kc-hint-box").is_hidden() and page.locator(".cell.hinted").count() == 0
    assert_in_view(page, width, height, "hint closed")
    page.locator("#kc-show").scroll_into_view_if_needed()
    page.click("#kc-show")
    say_yes_to_the_solution(page)
    assert page.evaluate("window.scrollY") == 0 and page.locator("#kc-cell-0").bounding_box()["y"] >= 0
    assert page.locator(".line-controls").bounding_box()["y"] + 40 <= height
    page.click("#kc-next")
    assert page.evaluate("window.scrollY") == 0 and page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(shots / f"step-{width}.png"))
    assert page.errors == []


def test_dark_theme_follows_the_system(browser, built: Path, shots: Path) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme="dark")
    page = open_page(browser, page_url(built), context=context)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 21, 19)"
    page.screenshot(path=str(shots / "fresh-360-dark.png"))
    assert page.errors == []


def contrast(fore: tuple[float, ...], back: tuple[float, ...]) -> float:
    """WCAG's contrast ratio of two sRGB colours (0..255)."""

    def luminance(rgb: tuple[float, ...]) -> float:
        lin = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    dark, light = sorted([luminance(fore), luminance(back)])
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_letters_drawn_on_the_board_meet_wcag_aa(browser, built: Path, scheme: str) -> None:  # type: ignore[no-untyped-def]
    """axe-core reads no SVG text, so the court letters on empty cells and the card inks are measured here."""
    page = open_page(browser, page_url(built), context=browser.new_context(color_scheme=scheme))
    play_quickly(page, deal_of(built)["solution"]["moves"][:12])
    colours = page.evaluate("""() => {
        const rgba = (text) => text.match(/[\\d.]+/g).map(Number);
        const fill = (selector) => rgba(getComputedStyle(document.querySelector(selector)).fill);
        return {felt: rgba(getComputedStyle(document.getElementById("kc-grid")).backgroundColor),
                mark: fill(".slot.court + .mark"), slot: fill(".slot.court"), paper: fill(".paper"),
                red: fill("text.red"), black: fill("text.black"), faces: [...document.querySelectorAll(".face")].map(
                  (f) => rgba(getComputedStyle(f).fill))};
    }""")
    alpha = colours["slot"][3] if len(colours["slot"]) > 3 else 1
    slot = tuple(f + (s - f) * alpha for f, s in zip(colours["felt"][:3], colours["slot"][:3]))
    assert contrast(colours["mark"][:3], slot) >= 4.5
    for back in [colours["paper"], *colours["faces"]]:
        assert contrast(colours["red"][:3], back[:3]) >= 4.5 and contrast(colours["black"][:3], back[:3]) >= 4.5
    assert colours["faces"] and page.errors == []


def test_without_javascript_the_deal_and_its_solution_are_shown(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    page = open_page(browser, page_url(built), context=browser.new_context(java_script_enabled=False))
    assert page.locator(".nojs .deck").inner_text() == " ".join(found["deck"])
    assert not page.locator("#kc-grid").is_visible()  # no board that cannot be played
    page.get_by_role("link", name="The solution").click()
    page.wait_for_url(f"**/daily/{DAY}.json")


def serious_violations(page, axe_source: str) -> list[dict]:  # type: ignore[no-untyped-def]
    page.add_script_tag(content=axe_source)
    # target-size (WCAG 2.2's 24x24 px) is off in axe by default: it is turned on here.
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ["violations"],
        rules: {"target-size": {enabled: true}}})).violations
        .map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}))""")
    return [v for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious(browser, built: Path, axe_source: str, scheme: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme=scheme)
    daily = open_page(browser, page_url(built), context=context)
    assert serious_violations(daily, axe_source) == []
    play_quickly(daily, found["solution"]["moves"][:20])
    daily.click("#kc-hint")
    daily.wait_for_function("!document.getElementById('kc-hint-box').hidden")
    assert serious_violations(daily, axe_source) == []  # mid-game, with the hint's sheet open
    play_quickly(daily, found["solution"]["moves"][20:])
    assert daily.locator("#kc-stats-dialog").is_visible()
    assert serious_violations(daily, axe_source) == []  # the end panel
    step = open_page(browser, page_url(built, "2027-03-05") + "#step=17", context=context)
    assert step.locator("#kc-show-dialog").is_visible()
    assert serious_violations(step, axe_source) == []  # the question an address asks
    say_yes_to_the_solution(step)
    assert serious_violations(step, axe_source) == []
    archive = open_page(browser, archive_url(built), context=context)
    # The step page's save reaches the archive's copy of the store as a storage event, which may come after it loads.
    expect(archive.locator(".calendar .r-mark")).to_have_count(2)  # won and solution shown
    assert serious_violations(archive, axe_source) == []
    solved = tmp_path / "line.html"  # the step-through `kcsolve solve --format html` writes
    solved.write_text(run("solve", "--seed", "1", "--format", "html").stdout)
    line = open_page(browser, solved.as_uri(), context=context)
    assert serious_violations(line, axe_source) == []


def viewed_on(browser, url: str, day: str):  # type: ignore[no-untyped-def]
    """The page at ``url`` as viewed on ``day`` (UTC), whatever the machine's clock says."""
    context = browser.new_context()
    context.add_init_script(f"Date.prototype.toISOString = function () {{ return '{day}T12:00:00.000Z'; }};")
    return open_page(browser, url, context=context)


def test_the_archive_finds_today_when_viewed(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    """Today is the viewer's clock's: before the site's dates, on one, after them (it holds 2027-03-04 and 05)."""
    page = open_page(browser, archive_url(built))
    today = page.evaluate("new Date().toISOString().slice(0, 10)")
    shown = page.locator("#kc-today").inner_text()
    page.close()
    assert shown == (
        f"Today (UTC) is {today}; no deal here is that old yet."
        if today < DAY
        else f"Today (UTC): the deal of {today}."
        if today <= "2027-03-05"
        else f"Today (UTC) is {today}; the latest deal here is the deal of 2027-03-05."
    )
    page = viewed_on(browser, archive_url(built), "2027-03-01")
    assert page.locator("#kc-today").inner_text() == "Today (UTC) is 2027-03-01; no deal here is that old yet."
    assert page.locator("td.today").count() == 0
    page.close()
    page = viewed_on(browser, archive_url(built), "2027-03-09")
    assert (
        page.locator("#kc-today").inner_text()
        == "Today (UTC) is 2027-03-09; the latest deal here is the deal of 2027-03-05."
    )
    assert page.locator("td.today").count() == 0
    page.close()
    page = viewed_on(browser, address(built, "index.html"), DAY)  # the site's address opens today's deal
    page.wait_for_url(f"**/daily/{DAY}.html")
    page.close()
    page = viewed_on(browser, archive_url(built), DAY)  # the archive, as "All dates" links it
    assert page.locator("#kc-today").inner_text() == "Today (UTC): the deal of 2027-03-04."
    assert page.locator("td.today").get_attribute("data-date") == "2027-03-04"
    page.click("#kc-today a")
    page.wait_for_url(f"**/daily/{DAY}.html")
    assert page.title() == f"Kings in the Corners, {DAY}"  # the game is named, with the date
    assert page.locator("h1").inner_text().split() == ["Kings", "in", "the", "Corners", DAY]
    assert page.get_by_role("link", name="Today").count() == 0  # this is today's page
    page.click('a[rel="next"]')
    page.wait_for_url("**/daily/2027-03-05.html")
    assert page.get_by_role("link", name="Today").get_attribute("href") == "2027-03-04.html"
    assert page.errors == []


def test_a_lost_deal_steps_to_its_jam(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = run("solve", "--seed", "1", "--format", "html")
    assert result.exit_code == 1
    path = tmp_path / "line.html"
    path.write_text(result.stdout)
    page = open_page(browser, path.as_uri() + "#step=9999")
    assert page.evaluate("location.hash") != "#step=9999"  # clamped to the last step
    message = page.locator("#kc-message").inner_text()
    assert "Lost: grid full with nothing to remove after card 39." in message
    assert "No play wins this deal" in message
    page.click("#kc-first")
    assert page.locator("#kc-message").inner_text().startswith("Step 0 of ")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowRight")  # with no control focused, the arrows step and Space plays
    assert page.evaluate("location.hash") == "#step=1"
    page.keyboard.press(" ")
    assert page.locator("#kc-play").inner_text() == "Pause"
    page.keyboard.press(" ")
    assert page.locator("#kc-play").inner_text() == "Play"
    page.click("#kc-first")
    page.click("#kc-play")  # Play moves on by itself
    page.wait_for_function("location.hash === '#step=2'", timeout=5000)
    page.click("#kc-play")
    assert page.errors == []


def wait_for_hint(page) -> list[str]:  # type: ignore[no-untyped-def]
    page.click("#kc-hint")
    page.wait_for_function("!document.getElementById('kc-hint-box').hidden")
    return page.locator("#kc-hint-list li").all_inner_texts()


# The cells a hint's "(or any empty ...)" stands for, under fixed courts.
ALIKE = {
    "centre cell": ["b2", "c2", "b3", "c3"],
    "corner": ["a1", "d1", "a4", "d4"],
    "cell marked Q": ["b1", "c1", "b4", "c4"],
    "cell marked J": ["a2", "d2", "a3", "d3"],
}


def named_cells(item: str, framed: set[str]) -> set[str]:
    """The cells a placement option names: its own, the ones listed after 'or', or a whole class of framed cells."""
    cells = r"[a-d][1-4](?:, [a-d][1-4])*"
    found = re.fullmatch(rf"place in ([a-d][1-4])(?: \(or (?:any empty (.+)|({cells}))\))?: .*", item)
    assert found, item
    own, kind, listed = found.groups()
    return {own} | ({c for c in ALIKE[kind] if c in framed} if kind else set(listed.split(", ")) if listed else set())


def no_hint(page) -> None:  # type: ignore[no-untyped-def]
    """No hint is shown: no sheet or box, no option listed, no cell framed as hinted (a dialog closes a task later)."""
    expect(page.locator("#kc-hint-box")).to_be_hidden()
    expect(page.locator("#kc-hint-list li")).to_have_count(0)
    expect(page.locator(".cell.hinted")).to_have_count(0)


def test_a_hint_names_every_cell_and_goes_with_its_position(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    """Equal cells are named, not merged silently; a move, an undo and a restart each take the hint away."""
    moves = deal_of(built)["solution"]["moves"]
    page = open_page(browser, page_url(built))
    play_quickly(page, moves[:5])
    items = wait_for_hint(page)
    framed = {
        page.locator(f"#kc-cell-{c}").get_attribute("data-cell")
        for c in range(16)
        if "target" in (page.locator(f"#kc-cell-{c}").get_attribute("class") or "")
    }
    covered = [named_cells(item, framed) for item in items]
    assert set().union(*covered) == framed and sum(map(len, covered)) == len(framed)  # each framed cell once
    assert any("(or any empty " in item for item in items), items
    play_quickly(page, moves[5:6])
    no_hint(page)
    wait_for_hint(page)
    page.click("#kc-undo")
    no_hint(page)
    wait_for_hint(page)
    page.click("#kc-restart")
    page.locator("#kc-restart-dialog").get_by_role("button", name="Restart").click()
    no_hint(page)
    page.click("#kc-hint")
    play_quickly(page, moves[:1])  # a move made while the hint is worked out: the answer is dropped when it comes
    page.evaluate("new Promise((done) => setTimeout(done, 100))")  # after the hint's own 30 ms timer has run
    no_hint(page)
    assert page.errors == []


def test_an_address_naming_a_step_asks_first(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_page(browser, page_url(built) + "#step=3")
    assert page.locator("#kc-show-dialog").is_visible()  # nothing counted until the player says yes
    assert page.locator("body").get_attribute("data-mode") == "play"
    page.locator("#kc-show-dialog").get_by_role("button", name="Keep playing").click()
    assert page.evaluate("location.hash") == "" and page.locator("body").get_attribute("data-mode") == "play"
    page.click("#kc-stats-open")
    assert page.locator("#kc-stat-played").inner_text() == "0"
    assert page.locator("#kc-end-title").inner_text() == "Not played yet"
    close_panel(page)
    page.reload()
    assert page.locator("#kc-show-dialog").is_hidden() and share_lines(page)[1].startswith("in progress \u00b7 0 moves")
    page.evaluate("location.hash = '#step=3'")  # a link followed from the page itself asks too
    expect(page.locator("#kc-show-dialog")).to_be_visible()
    say_yes_to_the_solution(page)
    assert page.evaluate("location.hash") == "#step=3"
    assert page.locator("#kc-message").inner_text().startswith("Step 3 of ")
    page.click("#kc-back")
    assert share_lines(page)[1].startswith("solution shown, not won \u00b7 0 moves")
    assert page.errors == []


def test_on_a_phone_share_uses_the_share_sheet_and_the_next_deal_is_in_local_time(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, timezone_id="America/New_York"
    )
    context.add_init_script("navigator.share = async (data) => { window.shared = data; };")
    page = context.new_page()
    page.clock.set_fixed_time("2027-03-04T20:30:00Z")
    page.goto(page_url(built))
    # Midnight UTC is 7 pm in New York (before summer time): said on the page, and in the end panel.
    assert page.locator("#kc-next-deal").inner_text() == (
        "A new deal comes every day at 7:00 PM your time (midnight UTC); the next in 3 h 30 min."
    )
    play_quickly(page, deal_of(built)["solution"]["moves"])
    assert page.locator("#kc-end-next").inner_text() == "Next deal in 3 h 30 min, at 7:00 PM your time (midnight UTC)."
    assert page.locator("#kc-stat-current").inner_text() == "1"  # today (UTC) is this date: a streak of one
    page.locator("#kc-copy").tap()
    expect(page.locator("#kc-copied")).to_have_text("Shared.")
    assert page.evaluate("window.shared") == {"text": page.locator("#kc-share-text").input_value()}
    page.goto(archive_url(built))
    assert "the day changes at midnight UTC (7:00 PM your time)." in page.locator("main p").first.inner_text()
    context.close()


def test_blocked_storage_is_said_once_and_the_game_still_counts(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    context.add_init_script(
        "Object.defineProperty(window, 'localStorage', "
        "{get() { throw new DOMException('blocked', 'SecurityError'); }});"
    )
    page = open_page(browser, page_url(built), context=context)
    note = page.locator("#kc-storage-note")
    assert note.is_visible() and note.inner_text().startswith("This browser is not keeping your progress")
    play_quickly(page, deal_of(built)["solution"]["moves"])
    assert page.locator("#kc-storage-note").count() == 1 and note.is_visible()
    assert (page.locator("#kc-stat-played").inner_text(), page.locator("#kc-stat-won").inner_text()) == ("1", "1")
    assert page.errors == []
    context.close()


def test_the_archive_marks_your_results_and_the_first_date_not_played(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    context.clock.set_fixed_time("2027-03-05T12:00:00Z")
    page = open_page(browser, archive_url(built), context=context)
    assert page.locator(".r-mark:visible").count() == 0 and page.locator("#kc-legend").is_hidden()
    assert page.locator("#kc-unplayed").inner_text() == f"First date you have not played: {DAY}."
    page.goto(page_url(built))
    play_quickly(page, deal_of(built)["solution"]["moves"][:3])
    assert len(saved_entry(page, DAY)["moves"]) == 3  # kept on every move, before the player leaves
    back_to_the_archive(page)
    cell = page.locator(f'td[data-date="{DAY}"]')
    mark = cell.locator(".r-mark")
    assert mark.inner_text() == "begun" and "r-playing" in mark.get_attribute("class")
    assert cell.get_by_role("link").get_attribute("href") == f"daily/{DAY}.html"
    assert cell.locator(".visually-hidden").text_content() == ", in progress"  # heard with the link
    page.click("#kc-unplayed a")
    page.wait_for_url("**/daily/2027-03-05.html")
    page.click("#kc-show")
    say_yes_to_the_solution(page)
    assert saved_entry(page, "2027-03-05")["daily"]["first"]["status"] == "shown"
    back_to_the_archive(page)
    assert page.locator('td[data-date="2027-03-05"] .r-mark').inner_text() == "shown"
    assert page.locator("#kc-unplayed").inner_text() == "You have played every date here so far."
    assert page.locator("#kc-legend").is_visible()
    assert page.errors == []
    context.close()


def test_the_archive_finds_today_again_when_shown_from_the_cache(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    """A page kept in the back-forward cache past UTC midnight moves today on (pageshow, dispatched here)."""
    context = browser.new_context()
    context.clock.set_fixed_time(f"{DAY}T23:59:00Z")
    archive = open_page(browser, archive_url(built), context=context)
    assert archive.locator("#kc-today").inner_text() == f"Today (UTC): the deal of {DAY}."
    context.clock.set_fixed_time("2027-03-05T00:01:00Z")
    archive.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }))")
    assert archive.locator("#kc-today").inner_text() == "Today (UTC): the deal of 2027-03-05."
    assert [td.get_attribute("data-date") for td in archive.locator("td.today").all()] == ["2027-03-05"]
    assert archive.locator("#kc-unplayed").inner_text() == f"First date you have not played: {DAY}."
    assert archive.errors == []
    context.close()


def test_the_archive_follows_a_game_saved_in_another_tab(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    context.clock.set_fixed_time("2027-03-05T12:00:00Z")
    archive = open_page(browser, archive_url(built), context=context)
    assert archive.locator("td .r-mark").count() == 0 and archive.locator("#kc-legend .r-mark").count() == 5
    tab = open_page(browser, page_url(built), context=context)
    play_quickly(tab, deal_of(built)["solution"]["moves"][:3])
    expect(archive.locator(f'td[data-date="{DAY}"] .r-mark')).to_have_text("begun")
    tab.click("#kc-show")
    say_yes_to_the_solution(tab)
    expect(archive.locator(f'td[data-date="{DAY}"] .r-mark')).to_have_text("shown")
    assert archive.locator(f'td[data-date="{DAY}"] .r-words').count() == 1  # marked again, not twice
    assert archive.locator("#kc-legend .r-mark").count() == 5  # the legend's samples stay
    assert archive.locator("#kc-unplayed").inner_text() == "First date you have not played: 2027-03-05."
    assert archive.errors == [] and tab.errors == []
    context.close()


# ---- face up: the whole stock shown in order, the solver's hints, a game of its own --------------------------

SOLVER_OPTION = (
    r"(?:place in [a-d][1-4](?: \(or [^)]+\))?|remove (?:10|[A2-9JQK])[\u2660-\u2667]? [a-d][1-4]"
    r"(?: \+ (?:10|[A2-9JQK])[\u2660-\u2667]? [a-d][1-4])*(?: \(or [^)]+\))?): "
    r"(keeps the deal winnable|loses the deal|undecided \(the search stopped at its budget\))"
)


def face_up_url(built: Path, day: str = DAY) -> str:
    return page_url(built, day) + "?face-up"


def stock_order(page) -> list[str]:  # type: ignore[no-untyped-def]
    """The cards the face-up stock shows, in the order shown."""
    return page.evaluate("[...document.querySelectorAll('#kc-stock-cards [data-card]')].map((e) => e.dataset.card)")


def page_deck(page) -> list[str]:  # type: ignore[no-untyped-def]
    """The deal's deck as the page carries it (kc-data), top of the stock first."""
    return page.evaluate("JSON.parse(document.getElementById('kc-data').textContent).deck")


def kept_of_mode(page, day: str, prefix: str) -> dict | None:  # type: ignore[no-untyped-def]
    """The stored game of ``day`` under a key prefix (kcsolve-daily/ or kcsolve-daily-face-up/), or None."""
    text = page.evaluate(
        """([day, prefix]) => { for (let k = 0; k < localStorage.length; k += 1) {
        const key = localStorage.key(k);
        if (key.startsWith(prefix) && key.endsWith(`/${day}`)) return localStorage.getItem(key); } return null; }""",
        [day, prefix],
    )
    return None if text is None else json.loads(text)


def solver_hint(page) -> list[str]:  # type: ignore[no-untyped-def]
    """Ask for a face-up hint and wait for its options."""
    page.click("#kc-hint")
    page.wait_for_function(
        "!document.getElementById('kc-hint-box').hidden || "
        "document.getElementById('kc-message').textContent.includes('no choice')"
    )
    return page.locator("#kc-hint-list li").all_inner_texts()


def test_face_up_shows_the_stock_hints_exactly_and_keeps_its_own_game(browser, built: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    moves = found["solution"]["moves"]
    page = open_page(browser, page_url(built))
    assert page.locator("#kc-stock-order").is_hidden()  # face down is the default: no stock shown
    assert page.locator("#kc-face-down").get_attribute("aria-pressed") == "true"
    play_quickly(page, moves[:3])
    down_before = kept_of_mode(page, DAY, "kcsolve-daily/")
    page.click("#kc-face-up")
    assert page.url.endswith("?face-up")
    assert page.locator("#kc-face-up").get_attribute("aria-pressed") == "true"
    assert page.locator("#kc-face-down").get_attribute("aria-pressed") == "false"
    assert page.locator(".cell.filled").count() == 0 and page.locator("#kc-stock").inner_text() == "52"
    deck = page_deck(page)
    assert stock_order(page) == deck[1:]  # every card after the one in hand, in order
    words = page.locator("#kc-stock-words").text_content()
    assert words.startswith("Stock in order: Jack of Spades, 10 of Clubs, ") and words.endswith(
        ", after the card in hand."
    )
    assert page.locator("#kc-stock-cards .next-card").count() == 4
    assert page.locator(".headline").inner_text().splitlines()[-1].startswith("Face up: plan ")
    play_quickly(page, moves[:5])
    assert stock_order(page) == deck[6:]
    hints = 0
    played = 5
    for at in (5, 20, len(moves) - 3):  # the solution line, asking the solver at three points on the way
        play_quickly(page, moves[played:at])
        played = at
        items = solver_hint(page)
        assert items and all(re.fullmatch(SOLVER_OPTION, item) for item in items), items
        verdicts = [re.fullmatch(SOLVER_OPTION, item)[1] for item in items]
        order = ["keeps the deal winnable", "loses the deal", "undecided (the search stopped at its budget)"]
        assert verdicts == sorted(verdicts, key=order.index)  # grouped: winning first, then losing, then undecided
        assert verdicts[0] == "keeps the deal winnable"  # the solution line is still winnable here
        shown = page.locator("#kc-hint-box").inner_text() + page.locator("#kc-message").inner_text()
        assert "%" not in shown, shown  # never a chance face up: the stock is known
        said = page.locator("#kc-message").inner_text()
        assert said.startswith("Hint: ") and said.endswith(
            " first: it keeps the deal winnable (exact, with the stock you see)."
        )
        assert page.locator(".cell.hinted").count() >= 1
        hints += 1
    play_quickly(page, moves[len(moves) - 3 :])
    message = page.locator("#kc-message").inner_text()
    assert message.startswith("Finished with help: the twelfth court card was placed"), message  # a win, with help
    share = page.locator("#kc-share-text").input_value().split("\n")
    assert share[0] == f"kcsolve daily {DAY} \u00b7 standard \u00b7 {found['grade']} \u00b7 face up"
    assert share[1] == f"finished with help \u00b7 {len(moves)} moves \u00b7 \U0001f4a1{hints}"
    assert share[-1] == face_up_url(built)
    assert page.locator("#kc-stats-mode").inner_text() == "face-up games"
    # Finished with help is not a win (issue 54 item 8): played, not won.
    assert page.locator("#kc-stat-played").inner_text() == "1" and page.locator("#kc-stat-won").inner_text() == "0"
    with page.expect_download() as download:
        page.click("#kc-export-one")
    saved = tmp_path / "face-up.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    assert record["mode"] == "face-up" and record["daily"]["help"]["hint"] == hints
    verdict = run("verify", str(saved))
    assert verdict.exit_code == 0 and verdict.stdout.startswith("won: ")
    close_panel(page)
    # Back to face down: its game of the date is where it was left, untouched by the face-up game.
    page.click("#kc-face-down")
    assert not page.url.endswith("?face-up") and page.locator("#kc-stock-order").is_hidden()
    assert page.locator(".cell.filled").count() == 3 and page.locator("#kc-stock").inner_text() == "49"
    assert kept_of_mode(page, DAY, "kcsolve-daily/") == down_before and "mode" not in down_before
    assert share_lines(page)[0] == f"kcsolve daily {DAY} \u00b7 standard \u00b7 {found['grade']}"
    page.click("#kc-stats-open")
    assert page.locator("#kc-stats-mode").inner_text() == "face-down games"
    # The face-down game is begun, not ended: not played yet (issue 54 item 9).
    assert page.locator("#kc-stat-played").inner_text() == "0" and page.locator("#kc-stat-won").inner_text() == "0"
    close_panel(page)
    # A link to the face-up puzzle opens it, finished as it was.
    page.goto(face_up_url(built))
    assert page.locator("#kc-face-up").get_attribute("aria-pressed") == "true"
    assert page.locator("#kc-message").inner_text().startswith("Finished with help: ")
    assert kept_of_mode(page, DAY, "kcsolve-daily-face-up/")["mode"] == "face-up"
    assert page.errors == []


@pytest.mark.parametrize("width, height", SIZES)
def test_face_up_is_in_view(browser, built: Path, shots: Path, width: int, height: int) -> None:  # type: ignore[no-untyped-def]
    moves = deal_of(built)["solution"]["moves"]
    page = open_page(browser, face_up_url(built), width, height)
    assert_in_view(page, width, height, "face up, fresh")
    page.screenshot(path=str(shots / f"face-up-fresh-{width}.png"))
    play_quickly(page, moves[:10])
    page.evaluate("document.activeElement.blur()")
    assert_in_view(page, width, height, "face up, mid-game")
    page.screenshot(path=str(shots / f"face-up-mid-{width}.png"))
    for_a_finger(page, "face up")
    solver_hint(page)
    page.evaluate("document.activeElement.blur()")
    sheet = page.locator("#kc-hint-box").bounding_box()["y"] if width < 900 else height
    board = page.locator("#kc-grid").bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= sheet + 1, f"the board at {board}, the sheet at {sheet}"
    page.screenshot(path=str(shots / f"face-up-hint-{width}.png"))
    page.locator("#kc-face-up").scroll_into_view_if_needed()
    box = page.locator("#kc-face-up").bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24
    page.screenshot(path=str(shots / f"face-up-switch-{width}.png"))
    assert page.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_face_up(browser, built: Path, axe_source: str, scheme: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme=scheme)
    page = open_page(browser, face_up_url(built), context=context)
    assert serious_violations(page, axe_source) == []
    play_quickly(page, deal_of(built)["solution"]["moves"][:12])
    solver_hint(page)
    assert serious_violations(page, axe_source) == []  # the stock shown, the solver's hint open
    page.keyboard.press("Escape")
    page.click("#kc-stats-open")
    assert serious_violations(page, axe_source) == []
    assert page.errors == []


# ---- issue 54 items 8-13: what the page counts, as players mean it ------------------------------------------------


def on_day(browser, url: str, when: str, **options):  # type: ignore[no-untyped-def]
    """A page at ``url`` in a fresh browser whose clock reads ``when`` (UTC); the returned page's context moves it."""
    context = browser.new_context(accept_downloads=True, **options)
    context.clock.set_fixed_time(when)
    return open_page(browser, url, context=context)


def test_a_win_with_help_is_not_a_win_anywhere(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    """Item 8: one meaning of won (Lichess's, not Wordle's): board, panel, statistics, streaks, share line, archive."""
    moves = deal_of(built)["solution"]["moves"]
    page = on_day(browser, page_url(built), f"{DAY}T12:00:00Z")
    play_quickly(page, moves[:1])
    page.click("#kc-undo")
    play_quickly(page, moves)
    assert page.locator("#kc-message").inner_text().endswith("Help was used, so it does not count as a win.")
    assert page.locator("#kc-end-title").inner_text() == f"Finished with help in {len(moves)} moves"
    shown = {n: page.locator(f"#kc-stat-{n}").inner_text() for n in ("played", "won", "percent", "current", "best")}
    assert shown == {"played": "1", "won": "0", "percent": "0%", "current": "0", "best": "0"}
    assert page.locator("tr.mine").all_inner_texts() == ["finished with undo\t1\t"]
    assert page.locator("#kc-share-text").input_value().split("\n")[1].startswith("finished with help \u00b7 ")
    close_panel(page)
    back_to_the_archive(page)
    assert page.locator(f'td[data-date="{DAY}"] .r-mark').inner_text() == "help"
    assert page.errors == []
    page.context.close()


def test_a_game_counts_as_played_when_it_ends(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    """Item 9: a game begun is not played yet, so the win rate does not fall while it goes on."""
    page = on_day(browser, page_url(built), f"{DAY}T12:00:00Z")
    play_quickly(page, deal_of(built)["solution"]["moves"][:3])
    page.click("#kc-stats-open")
    assert (page.locator("#kc-stat-played").inner_text(), page.locator("#kc-stat-percent").inner_text()) == ("0", "0%")
    assert page.locator("#kc-end-title").inner_text() == "In progress: 3 moves"
    assert page.errors == []
    page.context.close()


def test_a_past_date_counts_but_builds_no_streak(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    """Item 10: DAY won the next day (from the archive) is won, but no streak; the next date won on its day is one."""
    page = on_day(browser, page_url(built), "2027-03-05T12:00:00Z")
    play_quickly(page, deal_of(built)["solution"]["moves"])
    assert saved_entry(page, DAY)["daily"]["first"]["on"] == "2027-03-05"
    shown = {n: page.locator(f"#kc-stat-{n}").inner_text() for n in ("played", "won", "current", "best")}
    assert shown == {"played": "1", "won": "1", "current": "0", "best": "0"}
    close_panel(page)
    page.goto(page_url(built, "2027-03-05"))
    play_quickly(page, deal_of(built, "2027-03-05")["solution"]["moves"])
    shown = {n: page.locator(f"#kc-stat-{n}").inner_text() for n in ("played", "won", "current", "best")}
    assert shown == {"played": "2", "won": "2", "current": "1", "best": "1"}
    assert page.errors == []
    page.context.close()


def test_a_page_left_open_past_midnight_links_the_new_deal(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    """Item 11: at midnight UTC the page says the new deal is out and links it; the archive moves today on."""
    page = on_day(browser, page_url(built), f"{DAY}T23:59:30Z", timezone_id="UTC")
    archive = open_page(browser, archive_url(built), context=page.context)
    play_quickly(page, deal_of(built)["solution"]["moves"][:2])
    assert page.locator("#kc-next-deal").inner_text().endswith("the next in 1 min.")
    assert archive.locator("td.today").get_attribute("data-date") == DAY
    page.context.clock.set_fixed_time("2027-03-05T00:00:30Z")
    for shown in (page, archive):  # as when a tab comes back into view (the 20 s timer does the same)
        shown.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("#kc-next-deal")).to_have_text(
        "Today's deal is out: the deal of 2027-03-05. New deals come every day at 12:00 AM your time (midnight UTC)."
    )
    assert page.locator("#kc-next-deal a").get_attribute("href") == "2027-03-05.html"
    assert page.get_by_role("link", name="Today", exact=True).get_attribute("href") == "2027-03-05.html"
    page.click("#kc-stats-open")
    assert page.locator("#kc-end-next a").get_attribute("href") == "2027-03-05.html"
    assert archive.locator("#kc-today").inner_text() == "Today (UTC): the deal of 2027-03-05."
    assert [td.get_attribute("data-date") for td in archive.locator("td.today").all()] == ["2027-03-05"]
    # The other tab's save reaches the archive's copy of the store as a storage event, which may come after the
    # day change: the line is right once it has come.
    expect(archive.locator("#kc-unplayed")).to_have_text("First date you have not played: 2027-03-05.")
    assert page.errors == [] and archive.errors == []
    page.context.close()


def spoil(page, change: str) -> None:  # type: ignore[no-untyped-def]
    """Change the kept game of DAY by hand: ``change`` is JavaScript on ``entry``."""
    page.evaluate(
        f"""() => {{ const key = Object.keys(localStorage).find((k) => k.endsWith("/{DAY}"));
        const entry = JSON.parse(localStorage.getItem(key)); {change};
        localStorage.setItem(key, JSON.stringify(entry)); }}"""
    )


def test_a_hand_edited_save_is_repaired_and_said_once(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    """Item 12: the moves are the truth; a save cut short offers no fresh win."""
    moves = deal_of(built)["solution"]["moves"]
    page = on_day(browser, page_url(built), f"{DAY}T12:00:00Z")
    play_quickly(page, moves)
    close_panel(page)
    spoil(page, 'entry.result = "lost"; entry.daily.first.status = "lost"')
    page.reload()
    note = page.locator("#kc-save-note")
    assert note.inner_text() == (
        "A saved game of this date (face down) could not be read as it was: its moves are kept, and they end it: won."
    )
    assert page.locator("#kc-message").inner_text().startswith("Won: ")
    page.click("#kc-stats-open")
    assert page.locator("#kc-stat-won").inner_text() == "1" and page.locator("#kc-stat-current").inner_text() == "1"
    page.reload()  # said once: the repaired game was kept
    assert page.locator("#kc-save-note").count() == 0
    spoil(page, 'entry.moves = entry.moves.slice(0, 5).concat([{ place: "XX", cell: "a1" }]); entry.result = "win"')
    page.reload()
    assert (
        page.locator("#kc-save-note")
        .inner_text()
        .endswith(
            "5 moves of it could be kept. Play on from there counts as a restart (help), "
            "so this date cannot become a fresh win."
        )
    )
    assert page.locator("#kc-stock").inner_text() == str(52 - sum("place" in m for m in moves[:5]))
    play_quickly(page, moves[5:])
    assert page.locator("#kc-end-title").inner_text() == f"Finished with help in {len(moves)} moves"
    assert page.locator("#kc-stat-won").inner_text() == "0"
    assert page.errors == []
    page.context.close()


def test_an_imported_game_is_marked_wherever_it_shows(browser, built: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Item 13: the board, the end panel, the share line and the archive say imported; it counts, but no streak."""
    solution = deal_of(built)["solution"]
    first = {"status": "won", "moves": len(solution["moves"]), "help": {}, "on": DAY}
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**solution, "daily": {"date": DAY, "first": first}}))
    page = on_day(browser, page_url(built), f"{DAY}T12:00:00Z")
    page.click("#kc-stats-open")
    page.set_input_files("#kc-import", str(path))
    expect(page.locator("#kc-import-note")).to_have_text("Imported 1 game; kept 0 already here.")
    assert (page.locator("#kc-stat-won").inner_text(), page.locator("#kc-stat-current").inner_text()) == ("1", "0")
    close_panel(page)
    assert (
        page.locator("#kc-message")
        .inner_text()
        .endswith("Imported from a file: it counts in played and won, not in streaks.")
    )
    assert page.locator("#kc-hand").inner_text() == "Won (imported)"
    assert saved_entry(page, DAY)["daily"]["imported"] is True
    assert share_lines(page)[1] == f"won \u00b7 {len(solution['moves'])} moves \u00b7 no help \u00b7 imported"
    page.click("#kc-stats-open")
    assert page.locator("#kc-end-title").inner_text() == f"Won in {len(solution['moves'])} moves (imported)"
    close_panel(page)
    back_to_the_archive(page)
    cell = page.locator(f'td[data-date="{DAY}"]')
    assert cell.locator(".r-imported").inner_text() == "imported"
    assert cell.locator(".r-words").text_content() == ", won, imported"
    assert page.errors == []
    page.context.close()


def test_a_first_visit_shows_how_to_play_once(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_page(browser, page_url(built), 360, 740, first_visit=True)
    dialog = page.locator("#kc-howto-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    page.reload()
    assert not dialog.is_visible()  # remembered: not shown again
    page.goto(page_url(built, "2027-03-05"))
    assert not dialog.is_visible()
    assert page.errors == []


def test_the_board_is_labelled_and_names_cards_as_drawn(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    """Columns a-d and rows 1-4 on the felt; the step list says 10\u2660, never TS, and points at its cells."""
    page = open_page(browser, page_url(built), 360, 740)
    assert page.locator("#kc-grid .axis").all_inner_texts() == ["", "a", "b", "c", "d", "1", "2", "3", "4"]
    assert page.locator("#kc-action").inner_text() == "Place it"
    page.click("#kc-show")
    say_yes_to_the_solution(page)
    for _ in range(20):
        page.click("#kc-next")
    card = r"(?:10|[A2-9JQK])[\u2660\u2665\u2666\u2663]"
    items = page.locator("#kc-steps li").all_inner_texts()
    assert items[0] == "start" and len(items) == 21
    for item in items[1:]:
        assert re.fullmatch(rf"{card} to [a-d][1-4]|remove {card} [a-d][1-4](?: \+ {card} [a-d][1-4])*", item), item
    moves = deal_of(built)["solution"]["moves"]
    page.locator("#kc-steps li a").nth(1).hover()
    assert page.locator(".cell.pointed").evaluate_all("cells => cells.map((c) => c.dataset.cell)") == [moves[0]["cell"]]
    assert page.errors == []


def a_losing_game(found: dict) -> list[dict]:
    """Record moves that lose the deal: each card in the last cell that takes it, a removal only when one is due."""
    record = parse_record(json.dumps(found["solution"]))
    position, moves = Position.start(record.deck, record.rules), []
    while position.outcome().status.value == "unfinished":
        legal = position.legal_moves()
        move = next((m for m in reversed(legal) if isinstance(m, Place)), legal[0])
        if isinstance(move, Place):
            moves.append({"place": str(position.next_card), "cell": cell_name(move.cell)})
        else:
            moves.append({"remove": [cell_name(c) for c in move.cells]})
        position = position.play(move)
    assert position.outcome().status.value == "lost"
    return moves


def test_a_loss_says_why_and_shows_how_it_could_have_been_won(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_page(browser, page_url(built, "2027-03-05"), 360, 740)
    play_quickly(page, a_losing_game(deal_of(built, "2027-03-05")))
    expect(page.locator("#kc-stats-dialog")).to_be_visible()
    assert page.locator("#kc-end-title").inner_text().startswith("Lost after ")
    reason = page.locator("#kc-message").inner_text().split(": ", 1)[1]
    why = page.locator("#kc-end-why").inner_text()
    assert why.startswith(f"Why: {reason}"), (why, reason)  # the board's reason, said in the panel
    page.click("#kc-see-line")
    expect(page.locator("body")).to_have_attribute("data-mode", "line")
    step = int(re.search(r"from step (\d+)", why)[1]) if "from step" in why else 0
    assert page.locator("#kc-message").inner_text().startswith(f"Step {step} of ")
    share = page.locator("#kc-share-text").input_value().split("\n")
    assert share[1].startswith("lost") and "\U0001f7e5" in "".join(share[2:6])  # the jam is in the picture
    assert page.errors == []


def test_the_site_address_opens_todays_deal(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    page = viewed_on(browser, address(built, "index.html"), "2027-03-05")
    page.wait_for_url("**/daily/2027-03-05.html")
    page.get_by_role("link", name="All dates").click()  # the archive is one tap away, and stays
    page.wait_for_url("**/index.html#all")
    assert page.locator("td.today").get_attribute("data-date") == "2027-03-05"
    page.close()
    page = open_page(browser, archive_url(built), context=browser.new_context(java_script_enabled=False))
    assert page.locator(".calendar").count() >= 1  # without script the archive shows, its dates linked
