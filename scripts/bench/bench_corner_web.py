"""The browser's Kings Corner bots: time per turn on a phone-class CPU, and strength against Python's bots.

    python scripts/bench/bench_corner_web.py                       # both parts, small runs
    python scripts/bench/bench_corner_web.py --time-hands 40 --rate 4
    python scripts/bench/bench_corner_web.py --skip-time --match-hands 400 --full

Time: the bots of kcsolve/corner/web/bots.mjs play whole hands inside headless Chromium (/usr/bin/chromium,
Playwright) with the CPU slowed by CDP's Emulation.setCPUThrottlingRate (rate 4: a phone-class CPU, as
Lighthouse's mobile setting). Every decision is timed with performance.now(), and a turn is the sum of one
seat's decisions from its first move to the end of its turn: what a player waits for. The figures are the
median, the 95th percentile and the worst, in milliseconds, for greedy, turn and search.

Strength: the same deals (deal numbers 0, 1, ...) at a table of two, the bot under test against greedy,
seats swapped every hand so neither leads more often. The browser's search (its work budget, in node), and
with --full the browser's search without the budget, against Python's search on the same deals; each line is
the share of hands the bot under test wins, with its 95% Wilson interval. Ties (rule tie=yes) count as wins
for each player who went out. Figures depend on the machine's load: rerun on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kcsolve.common.interval import wilson
from kcsolve.corner.bots.bots import make_bot, view_of
from kcsolve.corner.game.engine import deal_hand, seeded_deck
from kcsolve.corner.game.rules import parse_corner_rules
from kcsolve.corner.webpage import inline_script

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "kcsolve" / "corner" / "web"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
WEB_BOTS = ("greedy", "turn", "search")

# Plays `hands` hands, bots at every seat, timing each decision and each seat's turn (milliseconds).
TIMING = """
window.kcBench = (hands, rules) => {
  const decisions = { greedy: [], turn: [], search: [] };
  const turns = { greedy: [], turn: [], search: [] };
  for (let h = 0; h < hands; h++) {
    const players = 2 + (h % 3);
    const names = Array.from({ length: players }, (_, s) => ["search", "turn", "greedy"][(s + h) % 3]);
    const seats = names.map((name, s) => makeBot(name, h * 10 + s));
    let position = dealHand(seededDeck(BigInt(h)), players, parseRules(rules[h % rules.length]));
    let turn = 0;
    while (!position.over) {
      const seat = position.player;
      const start = performance.now();
      const move = seats[seat].choose(viewOf(position, seat));
      const spent = performance.now() - start;
      decisions[names[seat]].push(spent);
      turn += spent;
      position = playMove(position, move);
      if (position.over || position.player !== seat) {
        turns[names[seat]].push(turn);
        turn = 0;
      }
    }
  }
  return { decisions, turns };
};
"""

# Node: hands at a table of two, `bot` (with `options`) against greedy, seats swapped every hand.
MATCH = """
const e = await import(ENGINE);
const b = await import(BOTS);
const [hands, bot, options, rules] = JSON.parse(process.argv[2]);
const out = [];
for (let h = 0; h < hands; h++) {
  const seat = h % 2;
  const seats = [0, 1].map((s) => (s === seat ? b.makeBot(bot, h, options) : b.makeBot("greedy")));
  let p = e.dealHand(e.seededDeck(BigInt(h)), 2, e.parseRules(rules));
  while (!p.over) p = e.playMove(p, seats[p.player].choose(b.viewOf(p)));
  out.push(p.winners.includes(seat) ? 1 : 0);
}
console.log(JSON.stringify(out));
"""


def timing_page() -> str:
    """A blank page with the engine, the bots and the timing loop inlined, as the site's page inlines them."""
    script = inline_script(("engine.mjs", "bots.mjs")) + TIMING
    head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head><body>\n'
    return f'{head}<script type="module">\n{script}</script></body></html>\n'


def time_in_chromium(hands: int, rate: float, rules: list[str]) -> dict[str, Any]:
    """Decision and turn times in milliseconds, per bot, in headless Chromium throttled by ``rate``."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as driver:
        path = Path(folder) / "bench.html"
        path.write_text(timing_page(), encoding="utf-8")
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.goto(path.as_uri())
        page.wait_for_function("typeof window.kcBench === 'function'")
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        found: dict[str, Any] = page.evaluate("([hands, rules]) => window.kcBench(hands, rules)", [hands, rules])
        browser.close()
    return found


def spread(times: list[float]) -> str:
    """Median, 95th percentile and worst of a list of milliseconds."""
    if not times:
        return "no decisions"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"{statistics.median(ordered):8.1f} {p95:8.1f} {ordered[-1]:8.1f}   ({len(ordered)})"


def js_match(hands: int, bot: str, options: dict[str, Any], rules: str) -> list[int]:
    """1 for each hand the browser's ``bot`` wins against greedy, 0 otherwise, played in node."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is not installed")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "match.mjs"
        text = MATCH.replace("ENGINE", json.dumps((WEB / "engine.mjs").as_uri()))
        script.write_text(text.replace("BOTS", json.dumps((WEB / "bots.mjs").as_uri())), encoding="utf-8")
        done = subprocess.run(
            [node, str(script), json.dumps([hands, bot, options, rules])], check=True, capture_output=True, text=True
        )
    return list(json.loads(done.stdout))


def py_match(hands: int, bot: str, rules: str) -> list[int]:
    """1 for each hand Python's ``bot`` wins against greedy on the same deals and seats as js_match."""
    parsed = parse_corner_rules(rules)
    out = []
    for h in range(hands):
        seat = h % 2
        seats = [make_bot(bot, h) if s == seat else make_bot("greedy") for s in (0, 1)]
        position = deal_hand(seeded_deck(h), 2, parsed)
        while not position.over:
            position = position.play(seats[position.player].choose(view_of(position)))
        out.append(1 if seat in position.winners else 0)
    return out


def share(wins: list[int]) -> str:
    """Wins of hands with the 95% Wilson interval."""
    low, high = wilson(sum(wins), len(wins))
    return f"{sum(wins):5d}/{len(wins):<5d} {sum(wins) / max(1, len(wins)):6.1%}  [{low:6.1%}, {high:6.1%}]"


def main(argv: list[str] | None = None) -> None:
    """Print the timing table and the strength table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-hands", type=int, default=12, help="hands played in Chromium for the timing")
    parser.add_argument("--rate", type=float, default=4.0, help="CDP CPU throttling rate (1: none)")
    parser.add_argument("--match-hands", type=int, default=40, help="hands of each strength match")
    parser.add_argument("--rules", default="default", help="rule texts joined with ',' (timing cycles through them)")
    parser.add_argument("--full", action="store_true", help="also the browser's search without its budget")
    parser.add_argument("--skip-time", action="store_true")
    parser.add_argument("--skip-match", action="store_true")
    args = parser.parse_args(argv)
    rules = args.rules.split(",")
    if not args.skip_time:
        found = time_in_chromium(args.time_hands, args.rate, rules)
        print(f"Chromium, CPU throttling rate {args.rate:g}, {args.time_hands} hands, rules {args.rules}")
        print(f"{'ms':<16} {'median':>8} {'95th':>8} {'worst':>8}   (count)")
        for name in WEB_BOTS:
            print(f"{name + ' decision':<16} {spread(found['decisions'][name])}")
            print(f"{name + ' turn':<16} {spread(found['turns'][name])}")
    if not args.skip_match:
        print(f"\nAgainst greedy at a table of two, {args.match_hands} deals, rules {rules[0]}: hands won")
        lines = [("browser search (budget)", lambda: js_match(args.match_hands, "search", {}, rules[0]))]
        if args.full:
            full = {"outcomes": 20000, "playoutMoves": 1e12, "minSamples": 24}
            lines.append(("browser search (full)", lambda: js_match(args.match_hands, "search", full, rules[0])))
        lines += [
            ("python search", lambda: py_match(args.match_hands, "search", rules[0])),
            ("browser turn", lambda: js_match(args.match_hands, "turn", {}, rules[0])),
            ("python turn", lambda: py_match(args.match_hands, "turn", rules[0])),
        ]
        for label, run in lines:
            start = time.perf_counter()
            wins = run()
            print(f"{label:<24} {share(wins)}  {time.perf_counter() - start:7.1f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
