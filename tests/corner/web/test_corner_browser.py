"""The Kings Corner page in headless Chromium: play by keyboard and drag, records out and in, a match, stats, axe.

Screenshots go to KCSOLVE_SCREENSHOTS when it is set, else to a temporary folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browsing import need_chromium

from kcsolve.corner.webpage import corner_page

pytestmark = pytest.mark.slow

sync_api = need_chromium()

AXE = Path.home() / ".cache" / "kcsolve-axe" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = [(320, 568), (360, 740), (1280, 800)]


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corner") / "corner.html"
    path.write_text(corner_page(), encoding="utf-8")
    return path


def _deal(page: Any, players: int = 2, bots: tuple[str, ...] = ("greedy",)) -> None:
    """Seat the table and deal, at the fastest pace."""
    page.select_option("#kc-players", str(players))
    for p, name in enumerate(bots, start=2):
        page.select_option(f"#kc-bot-{p}", name)
    page.select_option("#kc-pace", "150")
    page.click("#kc-setup button[type=submit]")
    page.wait_for_function(
        "window.kcCorner.state() && (window.kcCorner.state().toMove === 0 || window.kcCorner.state().over)"
    )


def _other_cards(page: Any) -> set[str]:
    """Every card text in the page's player state, besides the hand and the piles' own cards."""
    state = page.evaluate("window.kcCorner.state()")
    text = repr(state)
    piles = {c for pile in state["piles"] for c in pile}
    mine = set(state["hand"])
    from kcsolve.common.cards import RANKS, SUITS

    every = {r + s for r in RANKS for s in SUITS}
    return {c for c in every - piles - mine if f"'{c}'" in text}


def _keyboard_turn(page: Any) -> None:
    """Play player 1's turn by keyboard only: Tab to a card, Enter, Tab to a pile that takes it, Enter; then E."""
    for _ in range(12):
        state = page.evaluate("window.kcCorner.state()")
        if state["over"] or state["toMove"] != 0:
            return
        move = page.evaluate(
            """() => { const s = window.kcCorner.state(); const piles = window.kcCorner.pileNames;
            const rank = (c) => 'A23456789TJQK'.indexOf(c[0]) + 1, red = (c) => 'HD'.includes(c[1]);
            for (const card of s.hand) for (let p = 0; p < 8; p++) { const pile = s.piles[p];
              const top = pile[pile.length - 1];
              if (pile.length ? rank(card) === rank(top) - 1 && red(card) !== red(top) : (p < 4 || rank(card) === 13))
                return [card, piles[p]]; }
            return null; }"""
        )
        if move is None:
            break
        page.focus(f'[data-card="{move[0]}"]')
        page.keyboard.press("Enter")
        page.focus(f"#kc-pile-{move[1]}")
        page.keyboard.press("Enter")
    page.focus("body")
    page.keyboard.press("e")


def test_a_whole_hand_played_by_keyboard_and_no_hidden_card_in_the_state(browser: Any, page_file: Path) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 740})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(page_file.as_uri())
    _deal(page, 3, ("greedy", "turn"))
    for _ in range(200):
        state = page.evaluate("window.kcCorner.state()")
        assert _other_cards(page) == set(), "the state shows another seat's card"
        html = page.content()
        assert all(f'data-card="{c}"' in html for c in state["hand"])
        if state["over"]:
            break
        _keyboard_turn(page)
        page.wait_for_function("window.kcCorner.state().toMove === 0 || window.kcCorner.state().over")
    assert page.evaluate("window.kcCorner.state().over")
    assert "The hand is over" in page.text_content("#kc-message")
    stats = page.evaluate("JSON.parse(localStorage.getItem('kcsolve-corner-stats'))")
    assert stats["3"]["hands"] == 1
    assert errors == []


def test_an_illegal_move_is_refused_with_its_reason(browser: Any, page_file: Path) -> None:
    page = browser.new_page()
    page.goto(page_file.as_uri())
    _deal(page)
    state = page.evaluate("window.kcCorner.state()")
    corner = next(name for name, pile in zip(("NE", "SE", "SW", "NW"), state["piles"][4:]) if not pile)
    card = next((c for c in state["hand"] if c[0] != "K"), None)
    if card is None:
        pytest.skip("a hand of Kings")
    page.click(f'[data-card="{card}"]')
    page.click(f"#kc-pile-{corner}")
    assert "only a King starts a corner pile" in page.text_content("#kc-message")


def _axe(page: Any) -> list[Any]:
    """axe-core's violations on the page as it stands, target-size on; none checked when axe is not installed."""
    if not AXE.exists():
        return []
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text())
    found: list[Any] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations'],
        rules: {'target-size': {enabled: true}}})).violations
        .map(v => [v.id, v.nodes.length, v.nodes[0].html])"""
    )
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_and_axe(browser: Any, page_file: Path, scheme: str, tmp_path: Path) -> None:
    keep = Path(os.environ.get("KCSOLVE_SCREENSHOTS") or tmp_path)
    for width, height in SIZES:
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
        page = context.new_page()
        page.goto(page_file.as_uri())
        page.click("#kc-setup-box summary")  # closed, so the table is in view, then open for the form's turn
        page.click("#kc-setup-box summary")
        page.locator("#kc-setup").scroll_into_view_if_needed()
        page.screenshot(path=str(keep / f"corner-setup-{width}x{height}-{scheme}.png"))
        assert _axe(page) == []  # the setup form open: every rule's control and text
        _deal(page, 4, ("greedy", "turn", "greedy"))
        page.screenshot(path=str(keep / f"corner-{width}x{height}-{scheme}.png"))
        box = page.locator("#kc-end").bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
        piles = page.locator(".piles").bounding_box()
        assert piles is not None and piles["y"] >= 0 and piles["y"] + piles["height"] <= height
        assert _axe(page) == []
        context.close()


def _play_out(page: Any, hands: int = 1) -> None:
    """Play player 1's turns by keyboard until ``hands`` hands are over (the bots at the instant pace)."""
    for _ in range(400):
        state = page.evaluate("window.kcCorner.state()")
        if state["over"]:
            hands -= 1
            if hands == 0:
                return
            page.click("#kc-next")
            page.wait_for_function("window.kcCorner.state().toMove === 0 || window.kcCorner.state().over")
            continue
        _keyboard_turn(page)
        page.wait_for_function("window.kcCorner.state().toMove === 0 || window.kcCorner.state().over")
    raise AssertionError("the hands did not end")


def _set_rules(page: Any, **options: str) -> None:
    """Choose rule options in the setup form, each by its own control."""
    for name, value in options.items():
        control = f"#kc-rule-{name}"
        if page.get_attribute(control, "type") == "number":
            page.fill(control, value)
            page.dispatch_event(control, "change")
        else:
            page.select_option(control, value)


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    """What `kcsolve corner verify` says of a record file."""
    command = [sys.executable, "-m", "kcsolve", "corner", "verify", str(path)]
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)


def _export(page: Any, folder: Path) -> tuple[Path, str]:
    """Click Export: the downloaded file, and the record text the page shows under Records."""
    with page.expect_download() as download:
        page.click("#kc-export")
    path = folder / download.value.suggested_filename
    download.value.save_as(path)
    return path, page.input_value("#kc-record-text")


def test_an_exported_hand_is_verified_and_an_imported_one_replayed(
    browser: Any, page_file: Path, tmp_path: Path
) -> None:
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    page.goto(page_file.as_uri())
    _set_rules(page, under="yes", hand_size="5")
    page.select_option("#kc-pace", "0")
    _deal(page, 3, ("greedy", "search"))
    page.select_option("#kc-pace", "0")
    _play_out(page)
    path, text = _export(page, tmp_path)
    assert json.loads(path.read_text()) == json.loads(text)
    record = json.loads(text)
    assert record["format"].startswith("kcsolve-corner-record/") and record["rules"]["under"] == "yes"
    done = _verify(path)
    assert done.returncode == 0, done.stdout + done.stderr
    (tmp_path / "text.json").write_text(text)
    assert _verify(tmp_path / "text.json").returncode == 0
    # Import it into a fresh page and replay it at the instant pace: the same end, the same penalties.
    fresh = context.new_page()
    fresh.goto(page_file.as_uri())
    fresh.select_option("#kc-pace", "0")
    fresh.set_input_files("#kc-import", str(path))
    fresh.wait_for_function("/Replay over/.test(document.getElementById('kc-message').textContent)")
    state = fresh.evaluate("window.kcCorner.state()")
    assert state["over"] and state["replaying"]
    assert state["totals"] == record["result"]["penalties"]
    assert "Replaying 1 hand" in fresh.text_content("#kc-import-note")
    broken = tmp_path / "broken.json"
    broken.write_text(text.replace('"players": 3', '"players": 7'))
    fresh.set_input_files("#kc-import", str(broken))
    fresh.wait_for_function("/players/.test(document.getElementById('kc-import-note').textContent)")
    context.close()


def test_a_match_to_the_target_exports_a_game_that_verifies(browser: Any, page_file: Path, tmp_path: Path) -> None:
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    page.goto(page_file.as_uri())
    _set_rules(page, target="6", hand_size="4")
    assert page.text_content("#kc-rules-text") == "target=6+hand_size=4"
    page.check("#kc-match")
    page.select_option("#kc-pace", "0")
    _deal(page, 2, ("greedy",))
    page.select_option("#kc-pace", "0")
    for _ in range(30):
        _play_out(page)
        if "The game is over" in page.text_content("#kc-message"):
            break
        page.click("#kc-next")
        page.wait_for_function("window.kcCorner.state().toMove === 0 || window.kcCorner.state().over")
    else:
        raise AssertionError("the match did not reach its target")
    assert max(page.evaluate("window.kcCorner.state().totals")) >= 6
    path, text = _export(page, tmp_path)
    game = json.loads(text)
    assert game["format"].startswith("kcsolve-corner-game/") and len(game["hands"]) >= 1
    done = _verify(path)
    assert done.returncode == 0, done.stdout + done.stderr
    stats = page.evaluate("JSON.parse(localStorage.getItem('kcsolve-corner-stats'))")
    assert stats["2"]["games"] == 1 and stats["2"]["hands"] == len(game["hands"])
    context.close()


def test_a_card_dragged_onto_a_pile_is_played(browser: Any, page_file: Path) -> None:
    page = browser.new_page()
    page.goto(page_file.as_uri())
    _deal(page)
    for _ in range(20):  # deals until player 1 holds a card that goes on a pile
        found = page.evaluate(
            """() => { const s = window.kcCorner.state(); const piles = window.kcCorner.pileNames;
            const rank = (c) => 'A23456789TJQK'.indexOf(c[0]) + 1, red = (c) => 'HD'.includes(c[1]);
            for (const card of s.hand) for (let p = 0; p < 8; p++) { const pile = s.piles[p];
              const top = pile[pile.length - 1];
              if (pile.length && rank(card) === rank(top) - 1 && red(card) !== red(top)) return [card, piles[p], p]; }
            return null; }"""
        )
        if found and page.evaluate("window.kcCorner.state().toMove") == 0:
            break
        page.click("#kc-setup-box summary")
        _deal(page)
    else:
        pytest.skip("no deal with a card that goes on a pile")
    card, pile, index = found
    page.drag_and_drop(f'[data-card="{card}"]', f"#kc-pile-{pile}")
    state = page.evaluate("window.kcCorner.state()")
    assert state["piles"][index][-1] == card and card not in state["hand"]
    assert "plays" in page.text_content("#kc-log")
    assert page.text_content("#kc-log-title") == "Your moves this turn"


def test_stats_by_table_size_are_shown_and_kept_across_a_reload(browser: Any, page_file: Path) -> None:
    page = browser.new_page()
    page.goto(page_file.as_uri())
    page.evaluate("localStorage.removeItem('kcsolve-corner-stats')")
    page.reload()
    _set_rules(page, hand_size="3")
    page.select_option("#kc-pace", "0")
    _deal(page, 3, ("greedy", "greedy"))
    page.select_option("#kc-pace", "0")
    _play_out(page)
    shown = page.text_content("#kc-stats-3")
    assert "of 1 hands won" in shown and "of 1 games won" in shown  # one hand alone is a game
    page.reload()
    assert page.text_content("#kc-stats-3") == shown
    assert "of 0 hands won" in page.text_content("#kc-stats-2")
    assert "of 0 hands won" in page.text_content("#kc-stats-4")


def test_the_rule_options_are_choices_with_their_rule_text(browser: Any, page_file: Path) -> None:
    from kcsolve.corner.game.rules import OPTIONS

    page = browser.new_page(viewport={"width": 320, "height": 568})
    page.goto(page_file.as_uri())
    for name, words in OPTIONS.items():
        tag = page.evaluate(f"document.getElementById('kc-rule-{name}').tagName")
        assert tag in ("SELECT", "INPUT")
        assert page.text_content(f"#kc-rule-{name}-help") == words
    _set_rules(page, draw="start", until_play="yes")
    assert page.text_content("#kc-rules-text").startswith("not playable: draw=start never acts")
    page.click("#kc-setup button[type=submit]")
    assert "draw=start never acts" in page.text_content("#kc-message")
    _set_rules(page, until_play="no", under="strict", tie="yes")
    assert page.text_content("#kc-rules-text") == "draw=start+under=strict+tie=yes"
    _deal(page, 2, ("turn",))
    assert page.evaluate("window.kcCorner.state().rules") == "draw=start+under=strict+tie=yes"
    box = page.locator(".piles").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 568, "the piles are out of view"
