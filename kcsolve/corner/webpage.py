"""The Kings Corner page of the site: you and the bots at one table, played in the browser.

One self-contained HTML file: the engine (``web/engine.mjs``), the bots (``web/bots.mjs``), the table
(``web/table.mjs``) and the style sheet are inlined, so the page fetches nothing when it is viewed, even
from a ``file://`` address. ``corner_page()`` returns it; ``kcsolve site`` writes it as ``corner.html``.
"""

from __future__ import annotations

import html
from dataclasses import fields

from kcsolve.common.webassets import inline_modules, web_asset
from kcsolve.corner.bots.bots import BOTS
from kcsolve.corner.game.rules import CHOICES, DEFAULT, FLAGS, NUMBERS, OPTIONS, CornerRules

MODULES = ("engine.mjs", "bots.mjs", "table.mjs")  # each after every module it imports
WEB_BOTS = ("greedy", "turn", "search")  # the bots that decide fast enough in a phone's browser
assert set(WEB_BOTS) <= set(BOTS)

FAVICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E"
    "%3Crect width='32' height='32' rx='6' fill='%231f6b45'/%3E%3Crect x='8' y='5' width='16' height='22' rx='3' "
    "fill='%23fffdf7'/%3E%3Ctext x='16' y='22' font-size='14' font-weight='700' text-anchor='middle' "
    "font-family='sans-serif' fill='%23b0212a'%3EK%3C/text%3E%3C/svg%3E"
)


def asset(name: str) -> str:
    """The text of one file of ``kcsolve/corner/web/``."""
    return web_asset("kcsolve.corner", name)


def inline_script(modules: tuple[str, ...] = MODULES) -> str:
    """Every module of ``modules`` as one script (an inline module cannot import another file)."""
    return inline_modules("kcsolve.corner", modules)


def _pile(name: str) -> str:
    """One pile's button; table.mjs fills it."""
    return f'<button type="button" class="pile" id="kc-pile-{name}" data-pile="{name}">{name}</button>'


def _rule_choice(name: str) -> str:
    """One rule option as a real choice (a select of its values, or a number field), with its rule text."""
    default = getattr(DEFAULT, name)
    help_id = f"kc-rule-{name}-help"
    label = f'<label for="kc-rule-{name}">{html.escape(name.replace("_", " "))}</label> '
    if name in NUMBERS:
        field = (
            f'<input type="number" id="kc-rule-{name}" min="1" max="{NUMBERS[name]}" value="{default}" '
            f'inputmode="numeric" aria-describedby="{help_id}">'
        )
    else:
        values = ("no", "yes") if name in FLAGS else CHOICES[name]
        shown = ("yes" if default else "no") if name in FLAGS else default
        options = "".join(
            f'<option value="{v}"{" selected" if v == shown else ""}>{html.escape(v)}</option>' for v in values
        )
        field = f'<select id="kc-rule-{name}" aria-describedby="{help_id}">{options}</select>'
    words = html.escape(OPTIONS[name])
    return f'<div class="rule">{label}{field}<p id="{help_id}" class="small rule-help">{words}</p></div>\n'


def _setup() -> str:
    """The form that seats the table: how many players, each bot, the rules option by option, one hand or a match."""
    bots = "".join(
        f'<p id="kc-bot-{p}-row"><label for="kc-bot-{p}">Player {p}</label> <select id="kc-bot-{p}"></select></p>'
        for p in (2, 3, 4)
    )
    rules = "".join(_rule_choice(f.name) for f in fields(CornerRules))
    return (
        '<details id="kc-setup-box" class="setup" open><summary>New game</summary>\n'
        '<form id="kc-setup">\n'
        '<p><label for="kc-players">Players</label> <select id="kc-players">'
        '<option value="2" selected>2</option><option value="3">3</option><option value="4">4</option></select></p>\n'
        f"{bots}\n"
        '<fieldset class="rules"><legend>Rules</legend>\n'
        f"{rules}"
        '<p class="small">As a rule text for <code>kcsolve corner</code>: <output id="kc-rules-text" '
        'for="kc-setup">default</output></p>\n</fieldset>\n'
        '<p><input type="checkbox" id="kc-match"> <label for="kc-match">A match: hands until a player reaches the '
        "target</label></p>\n"
        '<p><button type="submit" class="primary">Deal</button></p>\n</form>\n</details>\n'
    )


_HOW = """<details class="how"><summary>How to play</summary>
<p>A card goes on a pile one rank lower and of the other colour; any card starts an empty side pile (N, E, S, W),
only a King starts a corner (NE, SE, SW, NW). A whole side pile moves onto another when its bottom card fits the
other's top card. Make any moves, then end your turn. The first to empty their hand wins the hand; the others
score their cards (King 10, others 1).</p>
<p>Tap a card, then a pile; or drag it there. Tap a side pile, then another pile, to move it. Keyboard: Tab to a
card or pile and press Enter; E ends the turn, U undoes a move of this turn, H asks the search bot for a hint,
S skips the bots' moves, Escape lets go.</p>
</details>
"""


def corner_page(title: str = "Kings Corner") -> str:
    """The whole page: table, setup, stats and records, with the engine, the bots and the table script inlined."""
    piles = {name: _pile(name) for name in ("N", "E", "S", "W", "NE", "SE", "SW", "NW")}
    grid = (
        '<div class="piles" role="group" aria-label="The piles">\n'
        f"{piles['NW']}{piles['N']}{piles['NE']}\n{piles['W']}"
        '<div class="stock" id="kc-stock" aria-live="off">Stock</div>'
        f"{piles['E']}\n{piles['SW']}{piles['S']}{piles['SE']}\n</div>\n"
    )
    stats = "".join(f'<tr><th scope="row">{n} players</th><td id="kc-stats-{n}"></td></tr>' for n in (2, 3, 4))
    body = (
        f'<header><div class="bar"><h1>{html.escape(title)}</h1>'
        '<nav aria-label="Site"><a href="index.html">The daily patience</a></nav></div></header>\n'
        "<noscript><p>Playing needs JavaScript.</p></noscript>\n"
        '<main>\n<section class="table" aria-label="The table">\n'
        '<ol id="kc-seats" class="seats" aria-label="The players"></ol>\n'
        f"{grid}"
        '<p id="kc-message" class="message" role="status">'
        "Choose the players and the rules under New game, then Deal.</p>\n"
        '<div class="turn-log" id="kc-log-box" hidden><h2 id="kc-log-title" class="small">Moves this turn</h2>'
        '<ol id="kc-log" aria-labelledby="kc-log-title"></ol></div>\n'
        '<h2 class="visually-hidden">Your hand</h2>\n'
        '<div id="kc-hand" class="hand" role="group" aria-label="Your hand"></div>\n'
        '<div class="controls"><button type="button" id="kc-end" disabled>End turn</button>'
        '<button type="button" id="kc-undo" disabled>Undo</button>'
        '<button type="button" id="kc-hint" disabled>Hint</button>'
        '<button type="button" id="kc-skip" disabled>Skip bots</button>'
        '<label for="kc-pace">Pace</label> <select id="kc-pace"><option value="900">slow</option>'
        '<option value="450" selected>normal</option><option value="150">fast</option>'
        '<option value="0">instant</option></select>'
        '<button type="button" id="kc-next" hidden>New game</button>'
        '<button type="button" id="kc-export" hidden>Export record</button></div>\n'
        '</section>\n<section class="side" aria-label="Game and records">\n'
        f"{_setup()}{_HOW}"
        '<details class="stats"><summary>Statistics</summary>\n'
        f'<table><caption class="small">Kept in this browser only</caption>{stats}</table></details>\n'
        '<details class="records"><summary>Records</summary>\n'
        '<p class="small">A finished hand or match exports a record that <code>kcsolve corner verify</code> checks; '
        "import one to replay it.</p>\n"
        '<p><label for="kc-import">Import a record (JSON)</label> '
        '<input type="file" id="kc-import" accept=".json,application/json"></p>\n'
        '<p id="kc-import-note" role="status"></p>\n'
        '<p><label for="kc-record-text">The last record exported</label><br>'
        '<textarea id="kc-record-text" rows="4" readonly></textarea></p>\n'
        "</details>\n</section>\n</main>\n"
    )
    options = html.escape(", ".join(OPTIONS))
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f'<meta name="description" content="Kings Corner for 2 to 4 players against bots; options: {options}">\n'
        f'<link rel="icon" href="{FAVICON}">\n'
        f"<title>{html.escape(title)}</title>\n<style>\n{asset('style.css')}</style>\n</head>\n"
        f'<body>\n{body}<script type="module">\n{inline_script()}</script>\n</body>\n</html>\n'
    )
