"""Web pages of deals: a line stepped through move by move, and the daily page played in the browser.

Every page is one self-contained HTML file: the rules engine (``web/engine.mjs``),
the page script (``web/page.mjs``) and the style sheet are inlined, so a page
fetches nothing when it is viewed, even from a ``file://`` address.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any

from kcsolve.patience.daily.calendar import DailyDeal
from kcsolve.patience.record import record_from_moves
from kcsolve.patience.solve.solution import Solution, Verdict

# The page's modules, each after every module it imports: one inline module holds them all.
MODULES = ("engine.mjs", "help.mjs", "page.mjs")
_LOCAL_IMPORT = re.compile(r'^import \{[^}]*\} from "\./([a-z]+\.mjs)";\n', re.MULTILINE)
_ANY_IMPORT = re.compile(r"^import\b", re.MULTILINE)


def asset(name: str) -> str:
    """The text of one file of ``kcsolve/patience/daily/web/``."""
    return (resources.files("kcsolve.patience.daily") / "web" / name).read_text(encoding="utf-8")


def inline_script() -> str:
    """Every module of ``MODULES`` as one script (an inline module cannot import another file)."""
    texts = []
    for index, name in enumerate(MODULES):
        text = asset(name)
        for imported in _LOCAL_IMPORT.findall(text):
            if imported not in MODULES[:index]:
                raise AssertionError(f"{name} imports {imported}, which is not an earlier module of MODULES")
        text = _LOCAL_IMPORT.sub("", text)
        if _ANY_IMPORT.search(text):
            raise AssertionError(f"{name} imports something that is not one of the page's modules")
        texts.append(text)
    return "\n".join(texts)


def _json_for_script(data: dict[str, Any]) -> str:
    """JSON safe inside a <script> element: with every '<' escaped, no text can close it or open a comment."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def _line_moves(solution: Solution) -> list[dict[str, Any]]:
    """The moves a page steps through: the winning line, or for a loss the best line up to its jam."""
    moves = solution.moves if solution.result is Verdict.WIN else solution.best_line()
    return record_from_moves(solution.deck, solution.rules, list(moves), solution.result).to_json()["moves"]


_BODY = """<header>
<h1>{title}</h1>
<p>{facts}</p>{nav}
</header>
<main>
<section class="board">
<div class="info"><span>Stock <b id="kc-stock"></b></span><span class="turned">Turned card <span id="kc-turned"></span></span>
<span>Court cards to come <b id="kc-courts"></b></span><span>Placed <b id="kc-placed"></b></span></div>
<div id="kc-grid" class="grid" aria-label="the 4x4 grid, a1 top left to d4 bottom right"></div>
<p id="kc-message" class="message" role="status" aria-live="polite"></p>
</section>
<section class="side">
<div class="play-only">
<div class="controls"><button type="button" id="kc-remove">Remove</button><button type="button" id="kc-undo">Undo</button>
<button type="button" id="kc-restart">Restart</button><button type="button" id="kc-show">Show solution</button></div>
<div id="kc-sets" aria-label="sets that can be removed"></div>
<div id="kc-share" class="share" hidden><p><b>Share your result</b></p>
<div id="kc-share-grid" class="share-grid" aria-hidden="true"></div>
<textarea id="kc-share-text" rows="6" readonly></textarea>
<button type="button" id="kc-copy">Copy</button> <span id="kc-copied" role="status"></span></div>
<p class="help">Click a framed cell to place the turned card, or press the number shown on it. When removal opens,
click the cards of a set and press Remove (or Enter), or press the set's number. Arrow keys move the dashed
cursor and Space clicks it; U undoes.</p>
</div>
<div class="line-only">
<p id="kc-step-text"></p>
<div class="buttons"><button type="button" id="kc-first">Start</button><button type="button" id="kc-prev">Prev</button>
<button type="button" id="kc-play">Play</button><button type="button" id="kc-next">Next</button>
<button type="button" id="kc-last">End</button>{back}</div>
<ol id="kc-steps" start="0"></ol>
<p class="help">Left and right arrows step, Space plays. The address names the step (#step=N), so a link opens it.</p>
</div>
</section>
</main>
"""


def _page(title: str, facts: str, data: dict[str, Any], nav: str = "", back: str = "") -> str:
    """A whole page: head, body, the deal's JSON and the inlined scripts."""
    body = _BODY.format(title=html.escape(title), facts=facts, nav=nav, back=back)
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>\n{asset('style.css')}</style>\n</head>\n"
        f'<body data-mode="{"play" if data["kind"] == "daily" else "line"}">\n{body}'
        f'<script type="application/json" id="kc-data">{_json_for_script(data)}</script>\n'
        f'<script type="module">\n{inline_script()}</script>\n</body>\n</html>\n'
    )


def solution_page(solution: Solution, title: str) -> str:
    """One self-contained page stepping through a solved deal: the winning line, or best play to the jam."""
    data = {
        "kind": "line", "deck": [str(c) for c in solution.deck], "rules": str(solution.rules),
        "line": _line_moves(solution), "result": solution.result, "reason": solution.reason,
    }
    verdict = {"win": "winnable", "loss": "not winnable", "unknown": "undecided"}[solution.result]
    facts = f"rules {html.escape(str(solution.rules))} &middot; {verdict}: {html.escape(solution.reason)}"
    return _page(title, facts, data)


def daily_page(found: DailyDeal) -> str:
    """The page of one date: the deal to play, its grade and difficulty, and the proved winning line."""
    day = found.date.isoformat()
    data = {
        "kind": "daily", "date": day, "grade": found.grade, "difficulty": found.difficulty.chance,
        "seed": found.seed, "deck": [str(c) for c in found.deck], "rules": str(found.rules),
        "line": _line_moves(found.solution), "result": "win", "reason": found.solution.reason,
    }
    facts = (f"{found.date.strftime('%A')} &middot; rules {html.escape(str(found.rules))} &middot; grade "
             f"<b>{found.grade}</b> &middot; the strong player wins {found.difficulty.describe()} &middot; deal {found.seed}")
    nav = f'\n<p><a href="../index.html">All dates</a> &middot; <a href="{day}.json">{day}.json</a></p>'
    back = '<button type="button" id="kc-back">Back to my game</button>'
    return _page(f"kcsolve daily {day}", facts, data, nav, back)
