// The page's help: what a player who cannot see the deck may be told (viewOf, hints), and whether
// the real deal can still be won (stillWinnable, which alone looks at the deck).
// hints mirrors kcsolve.hints (players/hints.py, strong.py, endgame.py) step for step, its sampler
// included (Python's random.Random seeded with a string: SHA-512, then MT19937), so the page's
// figures equal the terminal's for the same seed; tests/web/test_js_help.py compares them.
import { EMPTY, JACK, KING, QUEEN, TEN, DECK_SIZE, CORNERS, QUEEN_CELLS, JACK_CELLS, Position } from "./engine.mjs";

const CENTRE_CELLS = [5, 6, 9, 10];
const EDGE_PAIRS = [[1, 2], [13, 14], [4, 8], [7, 11]];
const ROYAL_EDGES = [...CORNERS, ...QUEEN_CELLS, ...JACK_CELLS];
const COURT_TOTAL = 12;
export const HINT_PLAYOUTS = 200;
export const WINNABLE_NODES = 20000;

// ---- the no-peek view -------------------------------------------------------------------------

const byCard = (a, b) => a.rank - b.rank || (a.suit || "").localeCompare(b.suit || "");

/** What a player who cannot see the deck knows of `position`: Python's Position.view() (no deck, no order). */
export function viewOf(position) {
  const placeable = !position.removing || position.rules.removal === "optional";
  const inHand = placeable ? position.nextCard : null;
  const after = position.drawn + (inHand === null ? 0 : 1);
  return Object.freeze({
    rules: position.rules,
    grid: position.grid.map((i) => (i === EMPTY ? null : position.deck[i])),
    inHand,
    removing: position.removing,
    seen: position.deck.slice(0, position.drawn),
    unseen: position.deck.slice(after).sort(byCard),
    courtsPlaced: position.courtsPlaced,
  });
}

/** A position with the view's grid and card in hand whose face-down cards lie in sorted order (never looked at). */
function standIn(view) {
  const deck = [...view.seen, ...(view.inHand === null ? [] : [view.inHand]), ...view.unseen];
  const where = new Map(); // a rank-only deck holds equal cards: each cell gets one of its own
  view.seen.forEach((card, k) => {
    if (!where.has(card.text)) where.set(card.text, []);
    where.get(card.text).push(k);
  });
  const grid = view.grid.map((card) => (card === null ? EMPTY : where.get(card.text).pop()));
  return new Position(deck, view.rules, grid, view.seen.length, view.removing, view.courtsPlaced);
}

/** Every legal move of a position, removals first (Python's Position.legal_moves). */
function legalMoves(position) {
  if (position.outcome().status !== "unfinished") return [];
  const moves = position.removing ? position.removableSets().map((cells) => ({ cells })) : [];
  if (position.removing && position.rules.removal === "forced") return moves;
  const card = position.nextCard;
  if (card !== null) for (const cell of position.cellsFor(card)) moves.push({ cell });
  return moves;
}

/** The status of a position whose next card is still face down (Python's Position._assess(next_known=False)). */
function blindStatus(position) {
  const judged = position.outcome(); // every verdict but the next card's fit is reached without it
  if (position.drawn === DECK_SIZE || judged.status !== "lost" || position.isFull) return judged.status;
  return "unfinished";
}

/** The state right after `move`, before a face-down card is turned (Python's PlayerView.after). */
function afterstate(view, move) {
  const child = standIn(view).play(move);
  const keeps = view.inHand !== null && "cells" in move && view.rules.removal === "optional";
  return {
    rules: view.rules,
    grid: child.grid.map((i) => (i === EMPTY ? null : child.deck[i])),
    inHand: keeps ? view.inHand : null,
    removing: child.removing,
    drawn: child.drawn,
    courtsPlaced: child.courtsPlaced,
    unseen: view.unseen,
    status: keeps ? child.outcome().status : blindStatus(child),
  };
}

// ---- still winnable? (sees the deck) ----------------------------------------------------------

const sortedRanks = (grid, cells) => cells.map((c) => grid[c]).sort((a, b) => a - b).join(",");

/** A position up to cells of one class (as kcsolve's dfs method keys them): ranks per class, cards drawn, removal. */
function classKey(position) {
  const grid = position.grid.map((i) => (i === EMPTY ? 0 : position.deck[i].rank));
  const head = `${position.drawn}|${position.removing ? 1 : 0}|${sortedRanks(grid, CENTRE_CELLS)}|`;
  const courts = position.rules.courts;
  if (courts === "royals") return head + sortedRanks(grid, ROYAL_EDGES);
  if (courts === "swap") {
    const pairs = EDGE_PAIRS.map(([a, b]) => (grid[a] <= grid[b] ? `${grid[a]}.${grid[b]}` : `${grid[b]}.${grid[a]}`));
    return `${head}${sortedRanks(grid, CORNERS)}|${pairs.sort().join(",")}`;
  }
  return `${head}${sortedRanks(grid, CORNERS)}|${sortedRanks(grid, QUEEN_CELLS)}|${sortedRanks(grid, JACK_CELLS)}`;
}

/** Move order only (wins are found sooner): centre cells first, then classes with room; removals freeing court cells. */
function preference(position, move) {
  if ("cells" in move) return -move.cells.filter((c) => !CENTRE_CELLS.includes(c)).length;
  if (CENTRE_CELLS.includes(move.cell)) return -10;
  const home = [CORNERS, QUEEN_CELLS, JACK_CELLS].find((cells) => cells.includes(move.cell));
  return -home.filter((c) => position.grid[c] === EMPTY).length;
}

class OutOfNodes extends Error {}

/**
 * Whether the real deal can still be won from `position` with best play: {answer: "win" | "loss" | "unknown", nodes}.
 * An exact depth-first search over the real deck, positions equal up to cells of one class searched once;
 * "unknown" when `nodes` positions were searched without an answer.
 */
export function stillWinnable(position, { nodes = WINNABLE_NODES } = {}) {
  const failed = new Set();
  let searched = 0;
  const search = (here) => {
    const status = here.outcome().status;
    if (status !== "unfinished") return status === "won";
    const key = classKey(here);
    if (failed.has(key)) return false;
    if (searched >= nodes) throw new OutOfNodes();
    searched += 1;
    const children = new Map();
    const moves = legalMoves(here).map((move, k) => [preference(here, move), k, move]);
    moves.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [, , move] of moves) {
      const child = here.play(move);
      const childKey = classKey(child);
      if (!children.has(childKey)) children.set(childKey, child);
    }
    for (const child of children.values()) if (search(child)) return true;
    failed.add(key);
    return false;
  };
  try {
    return { answer: search(position) ? "win" : "loss", nodes: searched };
  } catch (exc) {
    if (!(exc instanceof OutOfNodes)) throw exc;
    return { answer: "unknown", nodes: searched };
  }
}
