"""The ``corner`` command group: Kings Corner, the game for 2 to 4 players."""

from __future__ import annotations

import json
import os
import secrets
import sys
import textwrap
import time
from collections.abc import Callable
from typing import IO, Any

import click

from kcsolve.cli.base import (
    CONTEXT,
    _read_text,
    _source_name,
    _use_colour,
    cli,
    colour_option,
    fail,
    redraws_in_place,
)
from kcsolve.cli.corner_table import run_table
from kcsolve.common.budget import parse_budget
from kcsolve.common.deal import SEED_LIMIT, check_seed
from kcsolve.common.interval import wilson
from kcsolve.common.words import paragraph, plural
from kcsolve.common.workers import MAX_JOBS
from kcsolve.corner.bots import BOTS
from kcsolve.corner.engine import (
    card_text,
    check_players,
    deal_hand,
    parse_move,
    seeded_deck,
)
from kcsolve.corner.openhands import DEFAULT_NODES, solve_open
from kcsolve.corner.record import (
    CornerGame,
    CornerRecord,
    describe_result,
    game_of,
    is_json_lines,
    judge_any,
    judge_corner,
    judge_game,
    parse_corner_file,
    parse_corner_lines,
    parse_position,
    position_to_json,
    replay_corner,
    untested_options,
)
from kcsolve.corner.render import draw_piles, draw_position, hand_text
from kcsolve.corner.rules import DEFAULT, GUIDE, OPTIONS, VARIANTS, parse_corner_rules
from kcsolve.corner.saved import parse_saved
from kcsolve.corner.sim import MATCH_DEALS, check_bots, tournament
from kcsolve.corner.table import Table
from kcsolve.corner.turn import DEFAULT_TURN_NODES, best_turn


@cli.group("corner", context_settings=CONTEXT, invoke_without_command=True)
@click.pass_context
def corner(ctx: click.Context) -> None:
    """Kings Corner, the game for 2 to 4 players: deal, turn, solve, sim, play, rules, replay, verify.

    Rules are options joined with '+', e.g. 'draw=start+under=yes+scoring=aces'
    ('kcsolve corner rules' lists them; each one's source is in the source
    repository, docs/CORNER.md).
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


def _seed(seed: int | None) -> int:
    """A checked seed, or a random one (printed by the caller)."""
    return secrets.randbelow(SEED_LIMIT) if seed is None else check_seed(seed)


rules_option = click.option(
    "--rules",
    "rules_text",
    default="default",
    show_default=True,
    help="Kings Corner options joined with '+', e.g. draw=start+under=yes.",
)
players_option = click.option("--players", type=int, default=2, show_default=True, help="Players at the table, 2 to 4.")
format_option = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)


def _card_list(cards: tuple[int, ...]) -> list[str]:
    """Cards as JSON strings; an empty hand is an empty list."""
    return [card_text(card) for card in cards]


@corner.command("deal", context_settings=CONTEXT)
@click.option("--seed", type=int, help="Deal number N (default: a random one, shown).")
@players_option
@rules_option
@format_option
def deal_command(seed: int | None, players: int, rules_text: str, fmt: str) -> None:
    """Deal a hand: seven cards each, the four side piles, the stock.

    With --format json the output is also a position file for 'corner turn' (the
    hand in it is player 1's, who plays first).
    """
    rules, players, seed = parse_corner_rules(rules_text), check_players(players), _seed(seed)
    position = deal_hand(seeded_deck(seed), players, rules)
    if fmt == "json":
        data = position_to_json(position)
        data.update(
            {
                "seed": seed,
                "players": players,
                "hands": [_card_list(h) for h in position.hands],
                "stock": _card_list(position.stock),
            }
        )
        click.echo(json.dumps(data))
        return
    click.echo(paragraph(f"Kings Corner, deal {seed}, {players} players, rules {rules}; player 1 plays first."))
    click.echo(draw_position(position))


@corner.command("turn", context_settings=CONTEXT)
@click.argument("position_path", metavar="POSITION.json")
@click.option(
    "--budget",
    "budget_text",
    default=str(DEFAULT_TURN_NODES),
    show_default=True,
    help="Positions (or CPU time, e.g. '2s') the search may use; then the best line seen is shown, "
    "not proven best, and the exit status is 3.",
)
@format_option
def turn_command(position_path: str, budget_text: str, fmt: str) -> None:
    """The best turn for the hand in a position file: most cards shed, then fewest points, then fewest spots.

    Exit status: 0 the best line, 3 the budget ran out (the best line seen), 2 bad input.
    """
    budget = parse_budget(budget_text)
    piles, hand, rules = parse_position(_read_text(position_path), _source_name(position_path))
    turn = best_turn(piles, hand, rules, budget=budget)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "line": [str(m) for m in turn.line],
                    "proven": turn.proven,
                    "shed": turn.shed,
                    "hand_after": _card_list(turn.hand),
                    "points_left": turn.points,
                    "spots_left": turn.spots,
                    "states": turn.states,
                }
            )
        )
        sys.exit(0 if turn.proven else 3)
    if not turn.proven:
        click.echo(f"Undecided: the budget of {budget.describe('positions')} ran out.")
        click.echo("The best line seen follows, not proven best.")
    _print_turn(piles, hand, turn)
    sys.exit(0 if turn.proven else 3)


def _print_turn(piles: Any, hand: tuple[int, ...], turn: Any) -> None:
    """A turn solver's answer in words."""
    click.echo(draw_piles(piles))
    click.echo(paragraph(f"Hand: {hand_text(hand)}"))
    if not turn.line:
        click.echo("Best turn: no play helps; end the turn.")
        return
    title = "Best turn" if turn.proven else "Best turn seen"
    click.echo(
        f"{title} ({plural(len(turn.line), 'move')}, {plural(turn.shed, 'card')} shed, "
        f"{plural(turn.states, 'position')} searched):"
    )
    for number, move in enumerate(turn.line, start=1):
        click.echo(f"  {number}. {move}")
    click.echo(draw_piles(turn.piles))
    if turn.hand:
        click.echo(
            paragraph(
                f"Hand after: {hand_text(turn.hand)} ({turn.points} penalty points, {turn.spots} spots left open)"
            )
        )
    else:
        click.echo("Hand after: (empty): the player goes out.")


@corner.command("solve", context_settings=CONTEXT)
@click.option("--seed", type=int, help="Deal number N (default: a random one, shown).")
@rules_option
@click.option(
    "--budget",
    type=click.IntRange(1, 10**9),
    default=DEFAULT_NODES,
    show_default=True,
    help="Positions and turn endings the search may visit before it answers 'undecided'.",
)
@format_option
def solve_command(seed: int | None, rules_text: str, budget: int, fmt: str) -> None:
    """Two players, both hands and the stock order known: can player 1 force going out first?

    Exit status: 0 yes, 1 no, 3 undecided (the budget ran out), 2 bad input.
    """
    rules, seed = parse_corner_rules(rules_text), _seed(seed)
    verdict = solve_open(deal_hand(seeded_deck(seed), 2, rules), budget)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "seed": seed,
                    "rules": rules.to_json(),
                    "result": verdict.result,
                    "first_turn": [str(m) for m in verdict.line],
                    "nodes": verdict.nodes,
                }
            )
        )
    else:
        answer = {
            "win": "yes: player 1 can force going out first",
            "loss": "no: player 1 cannot force going out first",
            "unknown": f"undecided: the budget of {budget:,} positions ran out",
        }[verdict.result]
        click.echo(paragraph(f"Deal {seed}, open hands: {answer} ({verdict.nodes:,} positions)."))
        if verdict.line:
            click.echo(paragraph("First turn: " + ", ".join(str(m) for m in verdict.line)))
    sys.exit({"win": 0, "loss": 1, "unknown": 3}[verdict.result])


@corner.command("sim", context_settings=CONTEXT)
@players_option
@click.option(
    "--bots",
    "bot_text",
    default="greedy",
    show_default=True,
    help=f"Bots by name, comma-separated ({', '.join(BOTS)}), at most one a seat; they take turns in the seats.",
)
@click.option("--games", type=click.IntRange(1, 10**7), default=100, show_default=True)
@click.option(
    "--seed",
    type=click.IntRange(0, SEED_LIMIT - 1),
    default=0,
    show_default=True,
    help="Game g is dealt from deal number SEED + g; with --match, its hands from SEED + 10,001 g on.",
)
@click.option("--jobs", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True)
@click.option(
    "--match", is_flag=True, help="Each game is hands up to the target score (the lowest total wins), not one hand."
)
@rules_option
@format_option
def sim_command(
    players: int, bot_text: str, games: int, seed: int, jobs: int, match: bool, rules_text: str, fmt: str
) -> None:
    """A tournament: win rates with 95% intervals, mean penalty points, and each seat's share of wins.

    The bots rotate through the seats from game to game. JSON: one object per
    game (a hand record with its 'index' and 'bots'; with --match, the totals),
    then a summary with 'bot_wins' (by bot) and 'seat_wins' (by seat).
    """
    rules, players = parse_corner_rules(rules_text), check_players(players)
    names = check_bots(tuple(name.strip() for name in bot_text.split(",")), players)
    if seed + games * (MATCH_DEALS if match else 1) > SEED_LIMIT:
        fail(f"--seed {seed} with --games {games} runs past the last deal number")

    def each(result: Any) -> None:
        if fmt == "json" and match:
            first = seed + MATCH_DEALS * result.index
            hands = [tuple(parse_move(m) for m in moves) for moves in result.hand_moves]
            game = game_of(players, rules, [first + h for h in range(len(hands))], hands, result.index, result.bots)
            click.echo(json.dumps(game.to_json()))
        elif fmt == "json":
            deal = seed + result.index
            record = CornerRecord(
                seeded_deck(deal),
                players,
                rules,
                tuple(parse_move(m) for m in result.moves),
                deal,
                {"over": True, "winners": list(result.winners), "penalties": list(result.penalties)},
                result.index,
                result.bots,
            )
            click.echo(json.dumps(record.to_json()))

    progress = Progress(games, "game" if match else "hand", sys.stderr)

    def counted(result: Any) -> None:
        each(result)
        progress.tick(result.index + 1)

    try:
        tally = tournament(players, names, games, seed, rules, jobs, counted, match)
    except KeyboardInterrupt:
        progress.close()
        click.echo("kcsolve: interrupted", err=True)
        sys.exit(130)
    progress.close()
    if fmt == "json":
        click.echo(json.dumps(tally.to_json(match)))
        return
    for line in tally_lines(tally, names, seed, rules, match):
        click.echo(textwrap.fill(line, 80, subsequent_indent="    "))


class Progress:
    """A line on stderr saying how far a long run has got, on a terminal only: shown once ``delay`` seconds have
    passed, redrawn at most twice a second, wiped at the end so that the results stand alone."""

    def __init__(
        self,
        total: int,
        unit: str,
        stream: IO[str],
        clock: Callable[[], float] = time.monotonic,
        delay: float = 3.0,
        terminal: bool | None = None,
    ) -> None:
        self.total, self.unit, self.stream, self.clock, self.delay = total, unit, stream, clock, delay
        self.terminal = stream.isatty() if terminal is None else terminal
        self.start, self.shown_at, self.width = clock(), -1.0, 0

    def tick(self, done: int) -> None:
        """``done`` of the total are finished."""
        now = self.clock()
        if not self.terminal or now - self.start < self.delay or now - self.shown_at < 0.5:
            return
        line = f"{done:,} of {plural(self.total, self.unit)} played ({done / self.total:.0%}), {now - self.start:.0f} s"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.shown_at, self.width = now, len(line)

    def close(self) -> None:
        """Wipe the line, if one was shown."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def _rate(wins: int, count: int) -> str:
    """' (40.0%, 95% 33.1% to 47.2%)' for two or more games; nothing for one, where a rate says nothing."""
    if count < 2:
        return ""
    low, high = wilson(wins, count)
    return f" ({wins / count:.1%}, 95% {low:.1%} to {high:.1%})"


def tally_lines(tally: Any, names: tuple[str, ...], seed: int, rules: Any, match: bool) -> list[str]:
    """A tournament's summary in words: each bot, each seat, and the games nobody won alone."""
    games, players = tally.games, tally.players
    unit = "game" if match else "hand"
    if match:
        head = (
            f"{plural(games, 'game')} to {rules.target} penalty points, {players} players, bots {', '.join(names)}, "
            f"rules {rules}; the hands of game g are deals {seed} + {MATCH_DEALS:,} g on"
        )
    else:
        head = (
            f"{plural(games, 'hand')}, {players} players, bots {', '.join(names)}, rules {rules}, "
            f"deals {seed}..{seed + games - 1}"
        )
    lines = [head]
    distinct = list(dict.fromkeys(names))
    alone = tally.bots_alone  # a bot that sits in two seats of one game wins against itself
    if len(distinct) == 1:
        lines.append(f"  {names[0]} in every seat")
    for name in distinct if len(distinct) > 1 else []:
        seats = tally.bot_seats[name]
        wins, points = tally.bot_wins[name], "mean total" if match else "mean penalty"
        if alone:
            counted = f"{plural(seats, unit)}{_rate(wins, seats)}"
        else:
            counted = f"{plural(seats, 'seat')} ({wins / seats:.1%}; it sat twice at some {unit}s, so no interval)"
        lines.append(f"  {name:<7} won {wins:,} of {counted}; {points} {tally.bot_points[name] / seats:.2f}")
    first = " (leads the first hand)" if match else " (plays first)"
    for seat, wins in enumerate(tally.seat_wins):
        lines.append(
            f"  seat {seat + 1}{first if seat == 0 else ''}: won {wins:,} of {plural(games, unit)}{_rate(wins, games)}"
        )
    if match:
        lines.append(f"  ties (the lowest total shared): {tally.ties:,}")
    elif rules.tie:
        lines.append(f"  ties: {tally.ties:,}")
    return lines


@corner.command("play", context_settings=CONTEXT)
@click.argument("saved_path", metavar="[SAVED.json]", required=False)
@click.option(
    "--seed", type=int, help="Deal number N (default: a random one, shown); hand h of a match is deal N + h - 1."
)
@click.option("--players", type=int, help="Players at the table, 2 to 4.  [default: 2]")
@click.option(
    "--bots",
    "bot_name",
    help=f"The bot in every other seat ({', '.join(BOTS)}), or one a seat from "
    "player 2 on, comma-separated (greedy,search,turn seats three).  "
    "[default: greedy]",
)
@click.option(
    "--match",
    is_flag=True,
    help="Play hands until a player reaches the target score (rules option target, default 50); the lowest total wins.",
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Write each hand's record to this file (hand 2 to FILE-2.json, ...) when it ends or you leave.",
)
@click.option("--rules", "rules_text", help="Kings Corner options joined with '+'.  [default: default]")
@click.option("--plain", is_flag=True, help="Print line by line instead of redrawing the screen (always so in a pipe).")
@colour_option
def play_command(
    saved_path: str | None,
    seed: int | None,
    players: int | None,
    bot_name: str | None,
    match: bool,
    record_path: str | None,
    rules_text: str | None,
    plain: bool,
    colour: bool | None,
) -> None:
    """Play Kings Corner in the terminal against bots: you are player 1 and lead the first hand.

    Type a move ('play QH N' or 'QH N', 'merge S N' or 'S N', 'under 9H W'),
    'end' to end your turn, or: moves, undo, hint, scores, save FILE, help,
    quit; case does not matter. Giving a file saved with 'save' resumes it.

    Exit status: 0 after quit, the end of the game or the end of input (the
    record of the hand so far is written); 130 on Ctrl-C (nothing is written
    but records of hands already ended); 2 for bad input, a damaged save or a
    record that cannot be written (the game stops there).
    """
    if record_path is not None and not os.path.basename(record_path):  # a folder's path, never writable
        fail(f"--record needs a file name, not {record_path!r}")
    if record_path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(record_path))):
        fail(f"cannot write the record to {record_path!r}: its folder does not exist")  # said before, not after, a game
    if saved_path is not None:
        given = [
            name
            for name, value in (
                ("--seed", seed),
                ("--players", players),
                ("--bots", bot_name),
                ("--rules", rules_text),
                ("--match", match or None),
            )
            if value is not None
        ]
        if given:
            fail(f"a saved game keeps its own deal, players, bots and rules: leave out {given[0]}")
        source = _source_name(saved_path)
        table = Table.resume(parse_saved(_read_text(saved_path), source), source)
    else:
        rules = parse_corner_rules(rules_text or "default")
        if bot_name is not None and not bot_name.strip():
            fail(f"--bots needs a bot name ({', '.join(BOTS)}), not {bot_name!r}")
        named = len((bot_name or "greedy").split(","))
        default_players = named + 1 if named > 1 else 2  # one name a seat says how many sit at the table
        table = Table(
            _seed(seed),
            check_players(default_players if players is None else players),
            bot_name or "greedy",
            rules,
            match,
        )
    run_table(table, record_path, redraws_in_place(plain), _use_colour(colour))


@corner.command("rules", context_settings=CONTEXT)
@click.option("--how", is_flag=True, help="How the game is played: a short guide for someone new to it.")
def rules_command(how: bool) -> None:
    """List every option of --rules: its values, its default, what it changes, and which variant it follows.

    With --how: how to play, from the deal to the scoring of a game.
    """
    if how:
        for line in GUIDE:
            click.echo(line)
        return
    click.echo("Options: name=value, joined with '+' (--rules draw=start+under=yes).")
    for name, effect in OPTIONS.items():
        default = DEFAULT.to_json()[name]
        shown = ("yes" if default else "no") if isinstance(default, bool) else default
        click.echo(f"  {name} (default {shown})")
        click.echo(textwrap.fill(effect, 80, initial_indent=" " * 6, subsequent_indent=" " * 8))
        click.echo(textwrap.fill(f"Variant: {VARIANTS[name]}.", 80, initial_indent=" " * 6, subsequent_indent=" " * 8))
    click.echo("How to play: kcsolve corner rules --how")


@corner.command("replay", context_settings=CONTEXT)
@click.argument("record_path", metavar="RECORD.json")
def replay_command(record_path: str) -> None:
    """Tell a recorded hand move by move, or each hand of a game from 'sim --match' in turn.

    Exit status: 0 for a legal, finished hand (for a game, one that 'corner verify'
    finds good), 1 otherwise, 2 for bad input.
    """
    record = parse_corner_file(_read_text(record_path), _source_name(record_path))
    if isinstance(record, CornerRecord):
        sys.exit(0 if _tell_hand(record) else 1)
    for number, hand in enumerate(record.hands, start=1):
        click.echo(f"Hand {number}, deal {hand.seed}, led by player {(hand.lead or 0) + 1}:")
        if not _tell_hand(hand):
            sys.exit(1)
    good, summary = judge_game(record)
    click.echo(paragraph(summary))
    sys.exit(0 if good else 1)


def _tell_hand(record: CornerRecord) -> bool:
    """Tell one hand move by move and how it ended; whether it was legal and finished."""
    played = replay_corner(record)
    click.echo(draw_position(played.positions[0]))
    for number, (move, after) in enumerate(zip(record.moves, played.positions[1:]), start=1):
        mover = played.positions[number - 1].player
        click.echo(f"{number}. player {record.person(mover) + 1}: {move}")
        if str(move) == "end" or after.over:
            click.echo(draw_position(after))
    if played.error:
        click.echo(paragraph(f"Illegal {played.error}."))
        return False
    click.echo(
        paragraph(describe_result(played.final, record.lead or 0)) if played.final.over else "The hand is not finished."
    )
    return played.final.over


@corner.command("verify", context_settings=CONTEXT)
@click.argument("record_path", metavar="RECORD.json")
def verify_command(record_path: str) -> None:
    """Check a record (a hand, or a game of hands from 'sim --match') against the schema, then replay it.

    The schema is in the source repository (docs/CORNER.md).

    Exit status: 0 when its deal number gives its deck, every move is legal, the
    hand is over and any claimed result is what happened; 1 when one of these is
    wrong (named in one line); 2 when the record is malformed (a field missing,
    of the wrong type or unknown). A good record's options that its moves never
    put to the test (under=yes with no card put under a pile, say) are named.
    RECORD.json may also be records one a line, as 'sim --format json' writes
    them: a verdict line each, then a count; exit 0 only when every one is good.
    """
    text, source = _read_text(record_path), _source_name(record_path)
    if is_json_lines(text):
        judged = [(name, *judge_any(record)) for name, record in parse_corner_lines(text, source)]
        for name, _, line in judged:
            click.echo(paragraph(f"{name}: {line}"))
        good_ones = sum(1 for _, good, _ in judged if good)
        click.echo(f"{plural(len(judged), 'record')}: {good_ones:,} good")
        sys.exit(0 if good_ones == len(judged) else 1)
    record = parse_corner_file(text, source)
    if isinstance(record, CornerGame):
        good, summary = judge_game(record)
        click.echo(paragraph(summary))
        sys.exit(0 if good else 1)
    good, summary = judge_corner(record)
    click.echo(paragraph(summary))
    untested = untested_options(record, replay_corner(record)) if good else []
    if untested:
        click.echo(paragraph(f"Options these moves did not put to the test: {', '.join(untested)}."))
    sys.exit(0 if good else 1)
