r"""The first published Kings Corner figures: seat advantage, the bot ladder, and first-turn go-outs.

    python scripts/tools/corner_figures.py --seat-games 20000 --ladder-games 2000 \
        --search-games 300 --deals 10000 --jobs 2

Every figure is a seeded run of the library (the same code as ``kcsolve corner sim``), so
each line states the command that reproduces it. Markdown tables go to standard output.
"""

from __future__ import annotations

import argparse
import time

from kcsolve.corner.bots.sim import tournament, wilson
from kcsolve.corner.game.engine import deal_hand, seeded_deck
from kcsolve.corner.game.rules import DEFAULT
from kcsolve.corner.solvers.turn import best_turn

LADDER = [("greedy", "random"), ("turn", "random"), ("turn", "greedy"), ("search", "greedy"), ("search", "turn")]


def percent(wins: int, games: int) -> str:
    """A share with its 95% Wilson interval."""
    low, high = wilson(wins, games)
    return f"{wins / games:.1%} ({low:.1%} to {high:.1%})"


def seat_advantage(games: int, jobs: int) -> None:
    """Greedy bots in every seat: each seat's share of the hands won."""
    print("| players | games | seat 1 (plays first) | seat 2 | seat 3 | seat 4 | command |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for players in (2, 3, 4):
        tally = tournament(players, ("greedy",), games, 0, DEFAULT, jobs)
        seats = [percent(w, games) for w in tally.seat_wins] + ["-"] * (4 - players)
        command = f"`kcsolve corner sim --players {players} --bots greedy --games {games} --jobs {jobs}`"
        print(f"| {players} | {games:,} | {' | '.join(seats)} | {command} |")


def ladder(games: int, search_games: int, jobs: int) -> None:
    """Two-player matches, each bot in each seat equally often."""
    print("| match | games | first bot wins | second bot wins | mean penalty (first, second) | command |")
    print("| --- | --- | --- | --- | --- | --- |")
    for first, second in LADDER:
        n = search_games if "search" in (first, second) else games
        tally = tournament(2, (first, second), n, 0, DEFAULT, jobs)
        points = f"{tally.bot_points[first] / n:.2f}, {tally.bot_points[second] / n:.2f}"
        command = f"`kcsolve corner sim --bots {first},{second} --games {n} --jobs {jobs}`"
        print(
            f"| {first} v {second} | {n:,} | {percent(tally.bot_wins[first], n)} | "
            f"{percent(tally.bot_wins[second], n)} | {points} | {command} |"
        )


def first_turn(deals: int) -> None:
    """How often the first player can shed the whole hand on the first turn (the turn solver, exact)."""
    print("| players | deals | first turn goes out | mean cards shed on the first turn |")
    print("| --- | --- | --- | --- |")
    for players in (2, 3, 4):
        out = shed = 0
        for seed in range(deals):
            position = deal_hand(seeded_deck(seed), players, DEFAULT)
            turn = best_turn(position.piles, position.hand, position.rules)
            out += not turn.hand
            shed += turn.shed
        print(f"| {players} | {deals:,} | {percent(out, deals)} | {shed / deals:.2f} |")


def main() -> None:
    """Print the three tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seat-games", type=int, default=20_000)
    parser.add_argument("--ladder-games", type=int, default=2_000)
    parser.add_argument("--search-games", type=int, default=300)  # the figure docs/MEASUREMENTS.md gives
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for title, job in (
        ("Seat advantage (greedy bots, default rules)", lambda: seat_advantage(args.seat_games, args.jobs)),
        ("Bot ladder (two players, default rules)", lambda: ladder(args.ladder_games, args.search_games, args.jobs)),
        ("The first turn (turn solver, default rules)", lambda: first_turn(args.deals)),
    ):
        started = time.perf_counter()
        print(f"\n### {title}\n")
        job()
        print(f"\n({time.perf_counter() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
