"""The web pages in a real browser: headless Chromium (Debian's package) driven by Playwright for Python.

Play the daily deal's winning line by clicks, see the win and the share line, open a
``#step=`` address, and take screenshots at 360 px and 1280 px (set KCSOLVE_SCREENSHOTS
to a directory, e.g. docs/screenshots, to keep them there).
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest
from clitools import run

from kcsolve.patience.engine import IllegalMoveError, Place, Remove, cell_index
from kcsolve.patience.record import parse_record, replay

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("no /usr/bin/chromium: the browser tests need Debian's chromium package", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DAY = "2027-03-04"


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    with sync_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("web") / "site"
    assert run("site", "--from", DAY, "--days", "1", "--out", str(out)).exit_code == 0
    return out


def open_page(browser, url: str, width: int = 1280):  # type: ignore[no-untyped-def]
    """A new page at ``url`` whose script errors and network requests fail the test."""
    context = browser.new_context(viewport={"width": width, "height": 900}, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.on("request", lambda req: page.errors.append(f"fetched {req.url}") if not req.url.startswith("file:") else None)
    page.goto(url)
    return page


def deal_of(built: Path) -> dict:
    return json.loads((built / "daily" / f"{DAY}.json").read_text())


def expected_picture(found: dict) -> list[str]:
    """The share picture of the final grid, worked out in Python: court card, number card or empty."""
    final = replay(parse_record(json.dumps(found["solution"]))).final
    def symbol(cell: int) -> str:
        card = final.card_at(cell)
        return "\u2b1c" if card is None else "\U0001f7e8" if card.is_court else "\U0001f7e6"
    return ["".join(symbol(r * 4 + c) for c in range(4)) for r in range(4)]


def test_play_the_winning_line_by_clicks_and_share(browser, built: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    page = open_page(browser, (built / "daily" / f"{DAY}.html").as_uri())
    assert page.locator("body").get_attribute("data-mode") == "play"
    assert page.locator("#kc-stock").inner_text() == "52"
    for move in found["solution"]["moves"]:
        if "place" in move:
            page.click(f"#kc-cell-{cell_index(move['cell'])}")
        else:
            for cell in move["remove"]:
                page.click(f"#kc-cell-{cell_index(cell)}")
            page.click("#kc-remove")
    assert page.locator("#kc-message").inner_text().startswith("Won: the twelfth court card was placed")
    assert page.locator("#kc-share").is_visible()
    share = page.locator("#kc-share-text").input_value().split("\n")
    assert share[0] == f"kcsolve daily {DAY} ({found['grade']}) won, 12/12 court cards"
    assert share[1:] == expected_picture(found)
    assert not any(card in "".join(share) for card in found["deck"])  # no card names in the share text
    page.screenshot(path=str(Path(os.environ.get("KCSOLVE_SCREENSHOTS", tmp_path)) / "won-1280.png"), full_page=True)
    page.click("#kc-copy")
    page.wait_for_function("document.getElementById('kc-copied').textContent !== ''")
    assert page.locator("#kc-copied").inner_text() == "Copied."
    assert page.evaluate("navigator.clipboard.readText()") == "\n".join(share)
    assert page.errors == []


def test_a_refused_move_says_why_and_undo_takes_it_back(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    page = open_page(browser, (built / "daily" / f"{DAY}.html").as_uri())
    first = found["solution"]["moves"][0]
    page.click(f"#kc-cell-{cell_index(first['cell'])}")
    assert page.locator("#kc-stock").inner_text() == "51"
    page.click(f"#kc-cell-{cell_index(first['cell'])}")
    assert page.locator("#kc-message").inner_text() == (
        f"Refused: remove {first['cell']}: removal opens only when the grid is full.")
    page.click("#kc-undo")
    assert page.locator("#kc-stock").inner_text() == "52"
    page.keyboard.press("1")  # the number keys place the turned card in the numbered cells
    assert page.locator("#kc-stock").inner_text() == "51"
    page.keyboard.press("u")
    assert page.locator("#kc-stock").inner_text() == "52"
    assert found["deck"][0][0] in "A23456789T"  # a number card, so any empty cell takes it
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")  # the arrows move the cursor off the first cell, and Space places the card there
    assert page.locator("#kc-stock").inner_text() == "51"
    assert page.locator(".cell.cursor").count() == 1 and "filled" in page.locator(".cell.cursor").get_attribute("class")
    assert page.errors == []


def test_a_refused_removal_gets_the_engines_reason(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    record = parse_record(json.dumps(found["solution"]))
    played = replay(record)
    first = next(k for k, step in enumerate(played.steps) if isinstance(step.move, Remove))
    grid = played.steps[first - 1].position
    wrong = next((a, b) for a in range(16) for b in range(a + 1, 16)
                 if grid.card_at(a) and grid.card_at(b) and Remove((a, b)) not in grid.legal_moves())
    with pytest.raises(IllegalMoveError) as refused:
        grid.play(Remove(wrong))
    page = open_page(browser, (built / "daily" / f"{DAY}.html").as_uri())
    for move in found["solution"]["moves"][:first]:
        page.click(f"#kc-cell-{cell_index(move['cell'])}")
    assert page.locator("#kc-sets button").count() == len(grid.removable_sets())
    for cell in wrong:
        page.click(f"#kc-cell-{cell}")
    assert page.locator(".cell.selected").count() == 2
    page.click("#kc-remove")
    assert page.locator("#kc-message").inner_text() == f"Refused: {refused.value}."
    page.keyboard.press("1")  # the first listed set goes
    assert page.locator(".cell.filled").count() == 16 - len(grid.removable_sets()[0])
    assert page.errors == []


def test_a_step_address_opens_that_step(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    found = deal_of(built)
    played = replay(parse_record(json.dumps(found["solution"])))
    page = open_page(browser, (built / "daily" / f"{DAY}.html").as_uri() + "#step=17")
    assert page.locator("body").get_attribute("data-mode") == "line"
    text = page.locator("#kc-step-text").inner_text()
    move = played.steps[16].move
    assert text.startswith(f"Step 17 of {len(played.steps)}: ")
    if isinstance(move, Place):
        assert text.endswith(f"place {played.steps[16].card} in {'abcd'[move.cell % 4]}{move.cell // 4 + 1}.")
        assert "placed" in page.locator(f"#kc-cell-{move.cell}").get_attribute("class")
    else:
        assert isinstance(move, Remove)
        assert all("removed" in page.locator(f"#kc-cell-{c}").get_attribute("class") for c in move.cells)
    assert page.locator("#kc-steps li").nth(17).get_attribute("class") == "now"
    page.click("#kc-next")
    assert page.evaluate("location.hash") == "#step=18"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("location.hash") == "#step=16"
    page.click("#kc-last")
    assert page.locator("#kc-message").inner_text().startswith("Won: ")
    page.click("#kc-play")  # from the end, Play starts again at step 0 and moves on by itself
    page.wait_for_function("location.hash === '#step=2'", timeout=5000)
    page.click("#kc-play")
    page.click("#kc-back")
    assert page.locator("body").get_attribute("data-mode") == "play"
    assert page.errors == []


def test_the_archive_links_to_each_date(browser, built: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_page(browser, (built / "index.html").as_uri())
    page.click(f'td[data-date="{DAY}"] a')
    page.wait_for_url(f"**/daily/{DAY}.html")
    assert page.title() == f"kcsolve daily {DAY}"
    assert page.errors == []


def test_a_lost_deal_steps_to_its_jam(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = run("solve", "--seed", "1", "--format", "html")
    assert result.exit_code == 1
    path = tmp_path / "line.html"
    path.write_text(result.stdout)
    page = open_page(browser, path.as_uri() + "#step=9999")
    assert page.evaluate("location.hash") != "#step=9999"  # clamped to the last step
    message = page.locator("#kc-message").inner_text()
    assert message.startswith("Lost: grid full with nothing to remove after card 39.")
    assert "No play wins this deal" in message
    assert page.errors == []


def png_size(path: Path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


@pytest.mark.parametrize("width", [360, 1280])
def test_screenshots_and_no_sideways_scrolling(browser, built: Path, tmp_path: Path, width: int) -> None:  # type: ignore[no-untyped-def]
    keep = Path(os.environ.get("KCSOLVE_SCREENSHOTS", tmp_path))
    keep.mkdir(parents=True, exist_ok=True)
    found = deal_of(built)
    page = open_page(browser, (built / "daily" / f"{DAY}.html").as_uri(), width)
    for move in found["solution"]["moves"][:12]:
        if "place" in move:
            page.click(f"#kc-cell-{cell_index(move['cell'])}")
        else:
            for cell in move["remove"]:
                page.click(f"#kc-cell-{cell_index(cell)}")
            page.click("#kc-remove")
    shots = {"play": page}
    shots["step"] = open_page(browser, (built / "daily" / f"{DAY}.html").as_uri() + "#step=17", width)
    shots["archive"] = open_page(browser, (built / "index.html").as_uri(), width)
    for name, shown in shots.items():
        assert shown.evaluate("document.documentElement.scrollWidth") <= width, f"{name} scrolls sideways"
        target = keep / f"{name}-{width}.png"
        shown.screenshot(path=str(target), full_page=True)
        assert png_size(target)[0] == width
        assert shown.errors == []
    cell = page.locator("#kc-cell-0").bounding_box()
    assert cell and cell["width"] >= 60  # a card stays big enough to read and tap at phone width
