"""Find and write the named decks in puzzles/ (standard rules).

    python scripts/tools/make_puzzles.py            # writes puzzles/*.txt, prints what it found

- sample-game.txt: the sample game's 40 known cards, then the 12 unseen ones in a
  winnable order; counts the winnable orders among all distinct orders of the 12.
- jam-at-once.txt: the first seed whose grid is full with nothing to remove after card 16.
- hardest-to-decide.txt: the winnable seed (of 0..1999) on which the search without
  theory needs the most positions to find a win.
- counter-intuitive.txt: a winnable seed that a natural player (centre first,
  then the court class with most room to spare; removals freeing court cells
  first) loses, and the first decision where that player goes wrong.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from itertools import pairwise, permutations
from pathlib import Path

from kcsolve.common.cards import Card, format_deck, parse_card
from kcsolve.common.deal import deal
from kcsolve.patience.engine import (
    CENTRE_CELLS,
    CORNERS,
    JACK_CELLS,
    QUEEN_CELLS,
    Place,
    Position,
    Remove,
    Status,
    cell_name,
)
from kcsolve.patience.rules import STANDARD
from kcsolve.patience.solve.methods.dfs import DepthFirstSearch, rank_grid
from kcsolve.patience.solve.route import Budget, Verdict, solve
from kcsolve.patience.solve.theory import count_winning_orders, trajectory

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
HOMES = {13: CORNERS, 12: QUEEN_CELLS, 11: JACK_CELLS}
KIND = {13: "corner", 12: "Queen cell", 11: "Jack cell"}


def sample_game() -> str:
    """The sample game puzzle: how many orders of the unseen cards win, and one that does."""
    record = json.loads((ROOT / "tests" / "golden" / "sample_game.json").read_text())
    deck = [parse_card(t) for t in record["deck"]]
    known = [c.rank for c in deck[:40]]
    unseen = sorted(c.rank for c in deck[40:])
    wins, total = count_winning_orders(known, unseen, STANDARD)
    order = next(o for o in _permutations_in_order(unseen) if trajectory(known + o, STANDARD).won)
    cards = deck[:40] + [Card(r) for r in order]
    lines = [
        "# The sample game, the worked game of the rules (standard rules), rank only.",
        "# Cards 1-40 are the ones the sample game shows, in an order that fills each",
        "# deal's drawn cells; card 40 is the King that found no free corner. The 12",
        "# cards never seen follow, here in a winnable order.",
        f"# Of all {total:,} distinct orders of those 12 cards (every one counted, by",
        f"# dynamic programming over the forced course), {wins:,} ({wins / total:.2%}) let the",
        "# game be won from the start: by Theorem 2 (docs/THEORY.md) a deal is winnable",
        "# exactly when its forced course does not jam. The sample game itself was lost",
        "# by placement: with these 40 cards best play still had a free corner for card 40.",
        "#   kcsolve solve puzzles/sample-game.txt     prints a winning line",
    ]
    return "\n".join(lines) + "\n" + format_deck(cards)


def _permutations_in_order(ranks: list[int]) -> Iterator[list[int]]:
    """Distinct orders of a multiset of ranks, in lexicographic order."""
    seen = set()
    for order in permutations(ranks):
        if order not in seen:
            seen.add(order)
            yield list(order)


def jam_at_once() -> str:
    """The first seed whose first full grid has nothing to remove."""
    seed = next(s for s in range(10**6) if trajectory([c.rank for c in deal(s)], STANDARD).end == 16)
    return (
        "\n".join(
            [
                f"# Deal {seed} (standard rules): lost by a full grid at once.",
                "# The first 16 cards hold no Ten and no two cards summing to 10, so after the first",
                "# deal nothing can be removed: the deck decides this whatever the play.",
                f"#   kcsolve solve puzzles/jam-at-once.txt     (the same as: kcsolve solve --seed {seed})",
            ]
        )
        + "\n"
        + format_deck(deal(seed))
    )


def hardest_to_decide(seeds: range = range(2000)) -> str:
    """The winnable seed on which the search without theory works longest."""
    worst = (0, -1, "")
    for seed in seeds:
        deck = deal(seed)
        if solve(deck).result is not Verdict.WIN:
            continue
        search = DepthFirstSearch(tuple(c.rank for c in deck), STANDARD, Budget(nodes=400_000), use_theory=False)
        result, _, _ = search.run()
        worst = max(worst, (search.nodes, seed, result))
    nodes, seed, result = worst
    found = (
        f"finds a win after {nodes:,} positions" if result == "win" else f"is still searching after {nodes:,} positions"
    )
    return (
        "\n".join(
            [
                (
                    f"# Deal {seed} (standard rules): the hardest of seeds {seeds.start}..{seeds.stop - 1} "
                    "to decide by plain search."
                ),
                "# It is winnable, but the card-by-card search without the theory of docs/THEORY.md",
                f"# {found}, the most of any winnable deal in that range:",
                "# early placements that look harmless only fail many deals later. The default",
                "# route (the forced course and a built line) decides it in about a millisecond.",
                "#   kcsolve solve puzzles/hardest-to-decide.txt --method dfs",
            ]
        )
        + "\n"
        + format_deck(deal(seed))
    )


def natural_move(position: Position) -> Place | Remove:
    """What a natural player does: centre first, else the class with most room to spare."""
    moves = position.legal_moves()
    if position.removing:
        return max(moves, key=lambda m: sum(1 for c in m.cells if c not in CENTRE_CELLS))
    card = position.next_card
    to_come = Counter(c.rank for c in position.deck[position.drawn + 1 :] if c.is_court)

    def room(move: Place) -> float:
        if move.cell in CENTRE_CELLS:
            return 99
        rank = next(r for r, h in HOMES.items() if move.cell in h)
        return sum(1 for c in HOMES[rank] if position.card_at(c) is None) - to_come[rank]

    return moves[0] if card.is_court else max(moves, key=room)


def counter_intuitive(seeds: range = range(3000)) -> str:
    """A winnable seed the natural player loses, with the first decision it gets wrong."""
    for seed in seeds:
        deck = deal(seed)
        if solve(deck).result is not Verdict.WIN:
            continue
        position = Position.start(deck, STANDARD)
        history = [position]
        while position.outcome().status is Status.UNFINISHED:
            position = position.play(natural_move(position))
            history.append(position)
        if position.outcome().status is Status.WON:
            continue
        ranks = tuple(c.rank for c in deck)
        for before, after in pairwise(history):
            if before.removing or after.removing or after.drawn == before.drawn:
                continue
            verdict = DepthFirstSearch(ranks, STANDARD, Budget(nodes=200_000), use_theory=False).run_from(
                rank_grid(after), after.drawn
            )
            if verdict == "loss":
                return _describe_mistake(seed, deck, before, after, position)
    raise SystemExit("no counter-intuitive deal found")


def _class_name(cell: int) -> str:
    """The class of a cell, in words."""
    if cell in CENTRE_CELLS:
        return "the centre"
    return f"a {KIND[next(r for r, h in HOMES.items() if cell in h)]}"


def _where(cell: int) -> str:
    """A cell and its class, in words."""
    return f"{_class_name(cell)} ({cell_name(cell)})"


def _describe_mistake(seed: int, deck: tuple[Card, ...], before: Position, after: Position, end: Position) -> str:
    """The puzzle text for a natural player's first fatal placement, with the moves that win instead."""
    ranks = tuple(c.rank for c in deck)
    cell = next(c for c in range(16) if before.grid[c] != after.grid[c])
    winning: dict[str, list[str]] = {}
    for move in before.legal_moves():
        option = before.play(move)
        search = DepthFirstSearch(ranks, STANDARD, Budget(nodes=200_000), use_theory=False)
        if search.run_from(rank_grid(option), option.drawn) == "win":
            winning.setdefault(_class_name(move.cell), []).append(cell_name(move.cell))
    free_centre = [cell_name(c) for c in CENTRE_CELLS if before.card_at(c) is None]
    return (
        "\n".join(
            [
                f"# Deal {seed} (standard rules): winnable, but the natural play loses it.",
                "# A natural player puts number cards in the centre first, then where the",
                "# court class has most room to spare, and removes cards from court cells first.",
                f"# Its first fatal choice: card {before.drawn + 1}, the {deck[before.drawn]}, into {_where(cell)}"
                + (", with the centre full." if not free_centre else "."),
                f"# From there no line wins (exhaustive search); the game ends: {end.outcome().reason}.",
                "# The placements that still win: "
                + " or ".join(f"{kind} ({', '.join(cells)})" for kind, cells in winning.items())
                + ".",
                "#   kcsolve solve puzzles/counter-intuitive.txt",
            ]
        )
        + "\n"
        + format_deck(deck)
    )


def main() -> None:
    """Write every puzzle file."""
    PUZZLES.mkdir(exist_ok=True)
    for name, make in [
        ("sample-game", sample_game),
        ("jam-at-once", jam_at_once),
        ("hardest-to-decide", hardest_to_decide),
        ("counter-intuitive", counter_intuitive),
    ]:
        text = make()
        (PUZZLES / f"{name}.txt").write_text(text)
        print(f"puzzles/{name}.txt:")
        print("\n".join(line for line in text.splitlines() if line.startswith("#")))


if __name__ == "__main__":
    main()
