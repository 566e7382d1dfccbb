"""Web pages of deals: a line stepped through move by move, and the daily page played in the browser.

Every page is one self-contained HTML file: the rules engine (``web/engine.mjs``),
the page script (``web/page.mjs``) and the style sheet are inlined, so a page
fetches nothing when it is viewed, even from a ``file://`` address.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from typing import Any

from kcsolve.common.webassets import inline_modules, web_asset
from kcsolve.patience.daily.calendar import DailyDeal, attempt_of
from kcsolve.patience.daily.offline import head_links
from kcsolve.patience.daily.words import about_sentences, chance_words, face_up_words
from kcsolve.patience.players.honest import DIFFICULTY_IS
from kcsolve.patience.record import record_from_moves
from kcsolve.patience.rules import Rules
from kcsolve.patience.solve.solution import Solution, Verdict

# The page's modules, each after every module it imports: one inline module holds them all.
MODULES = ("engine.mjs", "help.mjs", "store.mjs", "page.mjs", "offline.mjs")
ARCHIVE_MODULES = ("engine.mjs", "store.mjs", "archive.mjs", "offline.mjs")  # the archive marks each date's result


def asset(name: str) -> str:
    """The text of one file of ``kcsolve/patience/daily/web/``."""
    return web_asset("kcsolve.patience.daily", name)


def inline_script(modules: tuple[str, ...] = MODULES) -> str:
    """Every module of ``modules`` as one script (an inline module cannot import another file)."""
    return inline_modules("kcsolve.patience.daily", modules)


def json_for_script(data: dict[str, Any]) -> str:
    """JSON safe inside a <script> element: with every '<' escaped, no text can close it or open a comment."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def _line_moves(solution: Solution) -> list[dict[str, Any]]:
    """The moves a page steps through: the winning line, or for a loss the best line up to its jam."""
    moves = solution.moves if solution.result is Verdict.WIN else solution.best_line()
    return record_from_moves(solution.deck, solution.rules, list(moves), solution.result).to_json()["moves"]


# The controls of the daily game. The first row (Undo, Hint, Remove) stays in view with the board at every size.
_PLAY_CONTROLS = """<div class="controls play-controls play-only">
<button type="button" id="kc-undo">Undo</button><button type="button" id="kc-hint">Hint</button>
<button type="button" id="kc-remove">Remove</button><button type="button" id="kc-check">Still winnable?</button>
</div>
"""

# The rest of the game's controls and the hint's list: beside the board on a desktop, under it on a phone.
_MORE_CONTROLS = """<div class="controls more play-only">
<button type="button" id="kc-restart">Restart</button><button type="button" id="kc-show">Show solution</button>
<button type="button" id="kc-share">Share</button>
</div>
<section id="kc-hint-box" class="hint play-only" aria-labelledby="kc-hint-title" hidden>
<div class="sheet-head"><h2 id="kc-hint-title">Hint</h2>
<button type="button" id="kc-hint-close" aria-label="Close the hint">Close</button></div>
<ol id="kc-hint-list"></ol><p id="kc-hint-head" class="small"></p>
</section>
"""

_LINE_CONTROLS = """<div class="controls line-controls line-only">
<button type="button" id="kc-first">Start</button><button type="button" id="kc-prev">Prev</button>
<button type="button" id="kc-play">Play</button><button type="button" id="kc-next">Next</button>
<button type="button" id="kc-last">End</button>{back}
</div>
"""

_HOW_TO_PLAY = """<h2 id="kc-howto-title" tabindex="-1" autofocus>How to play</h2>
<p>Turn the cards of the stock one at a time and place each in an empty cell of the 4x4 grid: {courts};
number cards go in any empty cell. When the grid is full, remove cards that sum to 10: {sets}.
{removal} {goal}</p>
<p>Keyboard: Tab to the board, then the arrow keys or a coordinate (a1 to d4) move the focus; Enter or Space
places the card in hand there or chooses the card for removal; R confirms a removal, U undoes.</p>
<p>Help is honest and counted: Undo, Hint, Still winnable?, Restart and Show solution each put a mark on
your share line, and a game finished with help is never called "won". The first finish of a date is the
one your statistics keep.</p>"""

_DIALOGS = """<dialog id="kc-howto-dialog" aria-labelledby="kc-howto-title">
{howto}
<form method="dialog"><button>Close</button></form>
</dialog>
<dialog id="kc-restart-dialog" aria-labelledby="kc-restart-title">
<h2 id="kc-restart-title" tabindex="-1" autofocus>Restart this deal?</h2>
<p>Your moves so far are lost, and the restart counts as help on your share line.</p>
<form method="dialog"><button value="yes">Restart</button> <button value="no">Keep playing</button></form>
</dialog>
<dialog id="kc-show-dialog" aria-labelledby="kc-show-title">
<h2 id="kc-show-title" tabindex="-1" autofocus>Show the solution?</h2>
<p>Today's game then counts as "solution shown", not won, even if you play on to the end.</p>
<form method="dialog"><button value="yes">Show solution</button> <button value="no">Keep playing</button></form>
</dialog>
<dialog id="kc-stats-dialog" class="panel" aria-labelledby="kc-end-title">
<form method="dialog" class="panel-head"><h2 id="kc-end-title" tabindex="-1" autofocus></h2>
<button>Close</button></form>
<div class="result-row"><div id="kc-share-grid" class="share-grid" aria-hidden="true"></div>
<p class="share-do"><button type="button" id="kc-copy" class="primary">Share</button>
<span id="kc-copied" role="status"></span></p></div>
<div id="kc-end-lost" class="end-lost" hidden><p id="kc-end-why"></p>
<p><button type="button" id="kc-see-line">See how it could have been won</button></p></div>
<p id="kc-end-next" class="next-deal"></p>
<h3 id="kc-stats-title">Statistics, rules {rules}, <span id="kc-stats-mode">face-down games</span></h3>
<div class="stats">
<p><b id="kc-stat-played"></b> played</p><p><b id="kc-stat-won"></b> won</p><p><b id="kc-stat-percent"></b> win rate</p>
<p><b id="kc-stat-current"></b> current streak</p><p><b id="kc-stat-best"></b> best streak</p>
</div>
<table class="by-help"><caption>How your dates ended</caption>
{rows}
</table>
<p class="small">Played: dates whose game has ended. Won: the first finish of the date was a win with no help; a
win with help is "finished with help", counted in each kind of help it used, and with Show solution first it is
never a win. A streak is a run of consecutive days each won on its own day (UTC); a date played later, or a game
imported from a file, counts in played and won but not in streaks. Face-up and face-down games are counted apart.
Kept in this browser only.</p>
<details id="kc-share-more"><summary>The share line</summary>
<label for="kc-share-text">The share line, with a picture of the grid by kind of card only:</label>
<textarea id="kc-share-text" rows="8" readonly></textarea>
<p id="kc-share-legend" class="small"></p></details>
<h3>Your games as files</h3>
<p class="small">Game records that <code>kcsolve verify</code> checks: one date, or every date as a list.</p>
<p><button type="button" id="kc-export-one">Export this date</button> \
<button type="button" id="kc-export-all">Export all</button></p>
<p><label for="kc-import">Import games (JSON, at most 4 MB, deals of this site only):</label>
<input type="file" id="kc-import" accept=".json,application/json"></p>
<p id="kc-import-note" role="status"></p>
</dialog>
"""

# The rows of the end panel's bars: how the dates ended (a win with help, not a win, counts under each kind used).
_ENDINGS = (
    ("none", "won, no help"),
    ("undo", "finished with undo"),
    ("hint", "finished with hint"),
    ("check", "finished with still winnable?"),
    ("restart", "finished with restart"),
    ("shown", "solution shown"),
    ("lost", "lost"),
)
_ENDING_ROWS = "\n".join(
    f'<tr id="kc-row-{key}"><th scope="row">{words}</th><td id="kc-by-{key}"></td>'
    '<td class="bar-cell" aria-hidden="true"><span></span></td></tr>'
    for key, words in _ENDINGS
)

GAME = "Kings in the Corners"  # what the daily pages are called: the game, never the tool

# The favicon, an inline SVG: no request for /favicon.ico.
FAVICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E"
    "%3Crect width='32' height='32' rx='6' fill='%231f6b45'/%3E%3Crect x='8' y='5' width='16' height='22' rx='3' "
    "fill='%23fffdf7'/%3E%3Ctext x='16' y='22' font-size='14' font-weight='700' text-anchor='middle' "
    "font-family='sans-serif' fill='%23b0212a'%3EK%3C/text%3E%3C/svg%3E"
)


# The card in hand beside the grid, as large as a grid card, with the next action in large type under it (the
# message line says it in full, so the short words are not read twice); the grid's columns a-d and rows 1-4 are
# labelled on the felt, as the cell names of hints and steps use them.
_TABLE = (
    '<div class="table"><div class="hand"><p class="label" id="kc-hand">Card in hand</p>'
    '<div id="kc-turned" class="turned" role="img"></div>'
    '<p id="kc-action" class="action" aria-hidden="true"></p>'
    '<p class="counts">Stock <b id="kc-stock"></b><br>Courts <b id="kc-placed"></b>'
    '<span class="to-come"><br>To come <b id="kc-courts"></b></span></p></div>\n'
    '<div id="kc-grid" class="grid" role="group" aria-label="The grid, columns a to d, rows 1 to 4, a1 top left: '
    'arrow keys or a coordinate move the focus"></div></div>\n'
)


# The switch between the two puzzles of a date, beside the face-up grade: toggle buttons, the pressed one the mode.
_STOCK_SWITCH = (
    '<div class="controls stock-switch" role="group" aria-labelledby="kc-stock-switch-label">'
    '<span id="kc-stock-switch-label">Stock</span>'
    '<button type="button" id="kc-face-down" aria-pressed="true">Face down</button>'
    '<button type="button" id="kc-face-up" aria-pressed="false">Face up</button></div>\n'
)

# Face up, the cards after the one in hand, in order: the words are for a screen reader, the cards for the eye.
_STOCK_ORDER = (
    '<div id="kc-stock-order" class="stock-order" hidden><p id="kc-stock-words" class="visually-hidden"></p>'
    '<div id="kc-stock-cards" class="stock-cards" aria-hidden="true"></div></div>\n'
)


def _how_to_play(rules: Rules) -> str:
    """The how-to-play text for one rule set."""
    courts = {
        "fixed": "Kings go in the corners, Queens in the middle of the top and bottom edges, Jacks in the middle "
        "of the left and right edges",
        "swap": "Kings go in the corners, Queens and Jacks in the middle of any edge, but never a Queen and a Jack "
        "together on one edge",
        "royals": "court cards go in any of the twelve cells around the edge",
    }[rules.courts.value]
    sets = "a Ten alone, or " + ("a pair" if rules.sets.value == "pairs" else "two or more cards Ace to Nine")
    removal = (
        "Removal is forced: while a set can go you must remove it."
        if rules.removal.value == "forced"
        else "Removal is optional: you may remove sets or place the next card instead."
    )
    goal = {
        "courts": "You win when all twelve court cards are placed.",
        "deplete": "You win when the stock is used up with all twelve court cards placed.",
        "clear": "You win when the stock is used up and every number card has been removed.",
    }[rules.goal.value]
    return _HOW_TO_PLAY.format(courts=courts, sets=sets, removal=removal, goal=goal)


def _no_script(deck: list[str], moves: list[dict[str, Any]], solution_link: str) -> str:
    """What a browser without JavaScript shows: the deal, and a link to its solution."""
    words = [f"{m['place']} to {m['cell']}" if "place" in m else "remove " + " ".join(m["remove"]) for m in moves]
    steps = "".join(f"<li>{html.escape(w)}</li>" for w in words)
    return (
        f'<noscript><section class="nojs"><p>Playing needs JavaScript. The deal, top of the stock first: '
        f'<span class="deck">{html.escape(" ".join(deck))}</span>.</p>'
        f'<p><a href="{solution_link}">The solution</a>'
        f"{'' if solution_link.startswith('#') else ' (a game record)'}.</p>"
        f'<ol id="kc-nojs-line">{steps}</ol></section></noscript>\n'
    )


def _page(
    title: str,
    facts: str,
    data: dict[str, Any],
    rules: Rules,
    nav: str = "",
    solution_link: str = "#kc-nojs-line",
    before: str = "",
    after: str = "",
    heading: str = "",
) -> str:
    """A whole page: head, body, the deal's JSON and the inlined scripts; ``heading`` is the h1's HTML (the title's
    words by default)."""
    daily = data["kind"] == "daily"
    tools = (
        '<div class="tools"><button type="button" id="kc-howto-open">How to play</button>'
        + ('<button type="button" id="kc-stats-open">Stats</button>' if daily else "")
        + "</div>"
    )
    back = '<button type="button" id="kc-back">Back to my game</button>' if daily else ""
    dialogs = _DIALOGS.format(howto=_how_to_play(rules), rules=html.escape(str(rules)), rows=_ENDING_ROWS)
    if not daily:
        dialogs = dialogs[: dialogs.index('<dialog id="kc-restart-dialog"')]
    body = (
        f'<header>\n<div class="bar">{before}<h1>{heading or html.escape(title)}</h1>{after}{nav}{tools}</div>\n'
        "</header>\n"
        f"{_no_script(data['deck'], data['line'], solution_link)}"
        '<p id="kc-storage-note" class="note" role="status" hidden></p>\n'
        '<main>\n<section class="board" aria-label="The game">\n'
        f"{_STOCK_ORDER if daily else ''}"
        f"{_TABLE}"
        '<p id="kc-message" class="message" role="status"></p>\n'
        f"{_PLAY_CONTROLS if daily else ''}{_LINE_CONTROLS.format(back=back)}"
        '</section>\n<section class="side">\n'
        f"{facts}{_MORE_CONTROLS if daily else ''}"
        '<div class="line-only"><h2>The line, step by step</h2><ol id="kc-steps" start="0"></ol>\n'
        '<p class="small">Left and right arrows step, Space plays. The address names the step (#step=N), '
        "so a link opens it.</p></div>\n</section>\n</main>\n"
    )
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f'<link rel="icon" href="{FAVICON}">\n'
        f"{head_links('../') if daily else ''}"  # a daily page is in the site's daily/: its manifest, offline play
        f"<title>{html.escape(title)}</title>\n<style>\n{asset('style.css')}</style>\n"
        "<noscript><style>main, .tools { display: none; }</style></noscript>\n</head>\n"
        f'<body data-mode="{"play" if daily else "line"}">\n{body}{dialogs}'
        f'<script type="application/json" id="kc-data">{json_for_script(data)}</script>\n'
        f'<script type="module">\n{inline_script()}</script>\n</body>\n</html>\n'
    )


def solution_page(solution: Solution, title: str) -> str:
    """One self-contained page stepping through a solved deal: the winning line, or best play to the jam."""
    data = {
        "kind": "line",
        "deck": [str(c) for c in solution.deck],
        "rules": str(solution.rules),
        "line": _line_moves(solution),
        "result": solution.result,
        "reason": solution.reason,
    }
    verdict = {"win": "winnable", "loss": "not winnable", "unknown": "undecided"}[solution.result]
    facts = f"rules {html.escape(str(solution.rules))} &middot; {verdict}: {html.escape(solution.reason)}"
    return _page(title, f'<p class="facts">{facts}</p>\n', data, solution.rules)


def _day_link(day: dt.date | None, rel: str, words: str) -> str:
    """A link to the page of another date of the site, or nothing when the site has no such date."""
    if day is None:
        return ""
    arrow = "&lsaquo;" if rel == "prev" else "&rsaquo;"
    return f'<a href="{day.isoformat()}.html" rel="{rel}" aria-label="{words}, {day.isoformat()}">{arrow}</a>'


def deal_runs(deals: list[DailyDeal]) -> list[list[Any]]:
    """The site's deals as runs of consecutive days, [[first date, [candidate k, ...]], ...], for checking imports."""
    runs: list[list[Any]] = []
    last: dt.date | None = None
    for found in sorted(deals, key=lambda d: d.date):
        if last is None or found.date != last + dt.timedelta(days=1):
            runs.append([found.date.isoformat(), []])
        runs[-1][1].append(attempt_of(found.date, found.rules, found.seed))
        last = found.date
    return runs


def _deal_words(found: DailyDeal) -> str:
    """The daily page's words on its deal: the chance in words and the face-up grade, then how each was found."""
    day = found.date.isoformat()
    about = about_sentences(found)  # the last names the deal, and the spoiler's link follows it
    return (
        f'<p class="facts">{found.date.strftime("%A")} &middot; rules {html.escape(str(found.rules))} &middot; '
        f"grade <b>{found.grade}</b></p>\n"
        f'<p class="headline"><strong>{html.escape(chance_words(found.difficulty))}</strong><br>'
        f"{html.escape(face_up_words(found.face_up_lookahead))}</p>\n"
        f"{_STOCK_SWITCH}"
        '<p id="kc-next-deal" class="small">A new deal comes every day at midnight UTC.</p>\n'
        '<details class="about"><summary>About this deal</summary>\n'
        + "".join(f"<p>{html.escape(sentence)}</p>\n" for sentence in about[:-1])
        + f'<p>{html.escape(about[-1])} <a href="{day}.json">{day}.json</a>: '
        "the deck and a winning line (a spoiler).</p>\n</details>\n"
    )


def daily_page(
    found: DailyDeal,
    before: dt.date | None = None,
    after: dt.date | None = None,
    span: tuple[dt.date, dt.date] | None = None,
    deals: list[list[Any]] | None = None,
    games: tuple[tuple[str, str], ...] = (),
) -> str:
    """The page of one date: the deal to play, its grade and difficulty, the winning line, links to its neighbours.

    ``span``: the site's first and last dates, so the page links today's page (found when viewed) when the site has it.
    ``deals``: the site's dates and candidate numbers (site.deal_runs), which an imported game is held to; by
    default this date's alone. ``games``: the site's other games, (file name beside index.html, link text).
    """
    day = found.date.isoformat()
    data = {
        "span": [d.isoformat() for d in span or (found.date, found.date)],
        "kind": "daily",
        "date": day,
        "grade": found.grade,
        "difficulty": found.difficulty.chance,
        "difficulty_interval": list(found.difficulty.interval()),
        "difficulty_is": DIFFICULTY_IS,
        "seed": str(found.seed),
        "deck": [str(c) for c in found.deck],
        "rules": str(found.rules),
        "line": _line_moves(found.solution),
        "result": "win",
        "reason": found.solution.reason,
        "deals": deals if deals is not None else deal_runs([found]),
    }
    # The archive's own address (#all): index.html without it opens today's page.
    others = "".join(f' <a href="../{html.escape(name)}">{html.escape(text)}</a>' for name, text in games)
    nav = f'<nav aria-label="Site"><a href="../index.html#all">All dates</a>{others}</nav>'
    return _page(
        f"{GAME}, {day}",
        _deal_words(found),
        data,
        found.rules,
        nav,
        f"{day}.json",
        _day_link(before, "prev", "Previous day"),
        _day_link(after, "next", "Next day"),
        f'{GAME} <span class="day">{day}</span>',
    )
