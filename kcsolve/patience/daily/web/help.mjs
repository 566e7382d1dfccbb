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
export const WINNABLE_NODES = 50000;

// ---- the no-peek view -------------------------------------------------------------------------

// Python orders Card(rank, suit) tuples: by rank, then suit letter (a rank-only deck has none)
const byCard = (a, b) => a.rank - b.rank || ((a.suit || "") < (b.suit || "") ? -1 : (a.suit || "") > (b.suit || "") ? 1 : 0);

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
// A port of kcsolve's dfs method (solve/methods/dfs.py) as peek runs it (no theory): a rank per cell,
// positions equal up to cells of one class searched once, cells held for good by a card nothing left
// can pair off counted against the court cards still to come.

const PARTNER_CELL = new Map(EDGE_PAIRS.flatMap(([a, b]) => [[a, b], [b, a]]));
const HOMES = { [KING]: CORNERS, [QUEEN]: QUEEN_CELLS, [JACK]: JACK_CELLS };
// A multiset of ranks (0 for empty) as one number: the sum of base ** rank, base above any count.
const POWERS_5 = Array.from({ length: KING + 1 }, (_, rank) => 5 ** rank);
const POWERS_13 = Array.from({ length: KING + 1 }, (_, rank) => 13 ** rank);
const fourCells = (g, [a, b, c, d]) => POWERS_5[g[a]] + POWERS_5[g[b]] + POWERS_5[g[c]] + POWERS_5[g[d]];

/** The function giving a rank grid's canonical key under `courts`: cells of one class are interchangeable. */
function canonicalKey(courts) {
  if (courts === "royals") {
    return (g) => `${ROYAL_EDGES.reduce((sum, c) => sum + POWERS_13[g[c]], 0)}.${fourCells(g, CENTRE_CELLS)}`;
  }
  if (courts === "swap") {
    return (g) => {
      const pairs = EDGE_PAIRS.map(([a, b]) => (g[a] <= g[b] ? g[a] * 14 + g[b] : g[b] * 14 + g[a]));
      return `${fourCells(g, CORNERS)}.${fourCells(g, CENTRE_CELLS)}.${pairs.sort((a, b) => a - b).join(".")}`;
    };
  }
  return (g) => `${fourCells(g, CORNERS)}.${fourCells(g, QUEEN_CELLS)}.${fourCells(g, JACK_CELLS)}.${fourCells(g, CENTRE_CELLS)}`;
}

/** Bit s is set when some of the counted values Ace..Nine sum to s (sums above 10 do not matter). */
function reachableSums(counts) {
  let reach = 1;
  for (let v = 1; v < TEN; v += 1) for (let k = 0; k < counts[v]; k += 1) reach = (reach | (reach << v)) & 0x7ff;
  return reach;
}

class OutOfNodes extends Error {}

/** The search over one deck and rules; `nodes` bounds the positions it may look at. */
function winnableSearch(ranks, rules, nodes) {
  const key = canonicalKey(rules.courts);
  const forced = rules.removal === "forced";
  const groups = rules.sets === "groups";
  const failed = new Set();
  let searched = 0;
  const tick = () => {
    if (searched >= nodes) throw new OutOfNodes();
    searched += 1;
  };
  const toCome = [];
  const inStock = [];
  for (let i = 0; i <= DECK_SIZE; i += 1) {
    const left = new Array(KING + 1).fill(0);
    for (const rank of ranks.slice(i)) left[rank] += 1;
    toCome.push(left);
    inStock.push(left.slice(0, TEN + 1));
  }

  const stuck = (rank, available) => {
    if (!groups) return available[TEN - rank] < (TEN - rank === rank ? 2 : 1);
    const others = available.slice();
    others[rank] -= 1;
    others[TEN] = 0;
    return !((reachableSums(others) >> (TEN - rank)) & 1);
  };

  const hopeless = (grid, drawn) => {
    const available = inStock[drawn].slice();
    for (const rank of grid) if (rank > 0 && rank <= TEN) available[rank] += 1;
    const stuckCells = [];
    grid.forEach((rank, cell) => { if (rank > 0 && rank < TEN && stuck(rank, available)) stuckCells.push(cell); });
    if (!stuckCells.length) return false;
    if (rules.goal === "clear") return true;
    const come = toCome[drawn];
    let kinds;
    if (rules.courts === "royals") kinds = [[ROYAL_EDGES, [KING, QUEEN, JACK]]];
    else if (rules.courts === "swap") kinds = [[CORNERS, [KING]], [[...QUEEN_CELLS, ...JACK_CELLS], [QUEEN, JACK]]];
    else kinds = [KING, QUEEN, JACK].map((kind) => [HOMES[kind], [kind]]);
    return kinds.some(([cells, courts]) => {
      const held = cells.filter((c) => courts.includes(grid[c])).length + stuckCells.filter((c) => cells.includes(c)).length;
      return held + courts.reduce((sum, k) => sum + come[k], 0) > cells.length;
    });
  };

  const cellsInOrder = (grid, rank, drawn) => {
    if (rank > TEN) {
      let cells;
      if (rules.courts === "royals") cells = ROYAL_EDGES.filter((c) => grid[c] === 0);
      else if (rank === KING || rules.courts === "fixed") cells = HOMES[rank].filter((c) => grid[c] === 0);
      else {
        const other = QUEEN + JACK - rank;
        cells = [...QUEEN_CELLS, ...JACK_CELLS].filter((c) => grid[c] === 0 && grid[PARTNER_CELL.get(c)] !== other);
      }
      const apart = (c) => (grid[PARTNER_CELL.has(c) ? PARTNER_CELL.get(c) : c] !== rank ? 1 : 0);
      return cells.map((c, k) => [apart(c), k, c]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , c]) => c);
    }
    const order = new Array(16).fill(99);
    for (const kind of [KING, QUEEN, JACK]) {
      const slack = HOMES[kind].filter((c) => grid[c] === 0).length - toCome[drawn][kind];
      for (const c of HOMES[kind]) order[c] = slack;
    }
    return [...Array(16).keys()].filter((c) => grid[c] === 0).sort((a, b) => order[b] - order[a] || a - b);
  };

  const setsIn = (grid) => {
    const placed = [];
    grid.forEach((rank, cell) => { if (rank > 0 && rank <= TEN) placed.push([cell, rank]); });
    const found = placed.filter(([, r]) => r === TEN).map(([c]) => [c]);
    const small = placed.filter(([, r]) => r < TEN);
    const extend = (start, chosen, total) => {
      for (let k = start; k < small.length; k += 1) {
        const [cell, rank] = small[k];
        if (total + rank === TEN && chosen.length) found.push([...chosen, cell]);
        else if (total + rank < TEN && (groups || !chosen.length)) extend(k + 1, [...chosen, cell], total + rank);
      }
    };
    extend(0, [], 0);
    return found;
  };

  // Every distinct grid a sequence of removals can leave, most cards removed first; `stopAnywhere`
  // (optional removal): any grid after at least one removal, else only grids where nothing more can go.
  const removalOutcomes = (grid, stopAnywhere) => {
    const outcomes = [];
    const seen = new Set([key(grid)]);
    const walk = (current, gone, freed) => {
      tick();
      const available = setsIn(current);
      if (gone && (stopAnywhere || !available.length)) outcomes.push([-(gone * 16 + freed), outcomes.length, current]);
      for (const chosen of available) {
        const after = current.map((r, c) => (chosen.includes(c) ? 0 : r));
        const afterKey = key(after);
        if (seen.has(afterKey)) continue;
        seen.add(afterKey);
        walk(after, gone + chosen.length, freed + chosen.filter((c) => !CENTRE_CELLS.includes(c)).length);
      }
    };
    walk(grid, 0, 0);
    return outcomes.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , after]) => after);
  };

  // Forced pair removal: the values that go are fixed (Lemma 1); only which cells give them up is a choice.
  const forcedPairOutcomes = (grid) => {
    const cellsOf = Array.from({ length: TEN + 1 }, () => []);
    grid.forEach((rank, cell) => { if (rank > 0 && rank <= TEN) cellsOf[rank].push(cell); });
    const takes = forcedTakes(cellsOf.map((cells) => cells.length));
    if (!takes.some(Boolean)) return [];
    const ranked = [];
    const seen = new Set();
    const pick = (rank, after, freed) => {
      if (rank > TEN) {
        const afterKey = key(after);
        if (!seen.has(afterKey)) {
          seen.add(afterKey);
          ranked.push([-freed, ranked.length, after]);
        }
        return;
      }
      const holders = cellsOf[rank];
      const choose = (start, need, current, more) => {
        if (!need) {
          pick(rank + 1, current, more);
          return;
        }
        for (let k = start; k <= holders.length - need; k += 1) {
          const next = current.slice();
          next[holders[k]] = 0;
          choose(k + 1, need - 1, next, more + (CENTRE_CELLS.includes(holders[k]) ? 0 : 1));
        }
      };
      choose(0, takes[rank], after, freed);
    };
    tick();
    pick(1, grid, 0);
    return ranked.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , after]) => after);
  };

  const cleared = (grid) => grid.every((rank) => rank === 0 || rank > TEN);

  const fill = (grid, drawn, courts) => {
    if (rules.goal === "courts" && courts === COURT_TOTAL) return true;
    if (drawn === DECK_SIZE) return rules.goal !== "clear" || removalOutcomes(grid, false).some(cleared) || cleared(grid);
    if (!grid.includes(0)) return remove(grid, drawn, courts);
    const state = `${drawn}/${key(grid)}`;
    if (failed.has(state)) return false;
    tick();
    if (!hopeless(grid, drawn)) {
      const rank = ranks[drawn];
      const seen = new Set();
      for (const cell of cellsInOrder(grid, rank, drawn)) {
        const after = grid.slice();
        after[cell] = rank;
        const afterKey = key(after);
        if (seen.has(afterKey)) continue;
        seen.add(afterKey);
        if (fill(after, drawn + 1, courts + (rank > TEN ? 1 : 0))) return true;
      }
    }
    failed.add(state);
    return false;
  };

  const remove = (grid, drawn, courts) => {
    const state = `${drawn}/${key(grid)}`;
    if (failed.has(state)) return false;
    tick();
    const outcomes = forced && !groups ? forcedPairOutcomes(grid) : removalOutcomes(grid, !forced);
    for (const after of outcomes) if (fill(after, drawn, courts)) return true;
    failed.add(state);
    return false;
  };

  return {
    get nodes() { return searched; },
    /** Whether the game can be won from this grid, `drawn` cards drawn, a removal open or not. */
    wins(grid, drawn, removing) {
      const courts = grid.filter((rank) => rank > TEN).length;
      if (!removing || !grid.includes(0)) return fill(grid, drawn, courts);
      const ends = removalOutcomes(grid, !forced);
      if (!forced || !ends.length) ends.push(grid);
      return ends.some((after) => fill(after, drawn, courts));
    },
  };
}

/**
 * Whether the real deal can still be won from `position` with best play: {answer: "win" | "loss" | "unknown", nodes}.
 * Exact, from the real deck: "unknown" when `nodes` positions were searched without an answer.
 */
export function stillWinnable(position, { nodes = WINNABLE_NODES } = {}) {
  const status = position.outcome().status;
  if (status !== "unfinished") return { answer: status === "won" ? "win" : "loss", nodes: 0 };
  const search = winnableSearch(position.deck.map((card) => card.rank), position.rules, nodes);
  const grid = position.grid.map((i) => (i === EMPTY ? 0 : position.deck[i].rank));
  try {
    return { answer: search.wins(grid, position.drawn, position.removing) ? "win" : "loss", nodes: search.nodes };
  } catch (exc) {
    if (!(exc instanceof OutOfNodes)) throw exc;
    return { answer: "unknown", nodes: search.nodes };
  }
}

// ---- Python's random.Random(text), exactly ----------------------------------------------------

const MASK64 = (1n << 64n) - 1n;
let sha512Constants = null;

/** floor(x ** (1 / power)) for a BigInt x, by Newton's method. */
function integerRoot(x, power) {
  let guess = 1n << BigInt(Math.ceil(x.toString(2).length / Number(power)) + 1);
  for (;;) {
    const next = ((power - 1n) * guess + x / guess ** (power - 1n)) / power;
    if (next >= guess) return guess;
    guess = next;
  }
}

/** SHA-512's constants (FIPS 180-4): the fractional bits of the square and cube roots of the first primes. */
function sha512Tables() {
  if (sha512Constants === null) {
    const primes = [];
    for (let n = 2; primes.length < 80; n += 1) if (primes.every((p) => n % p)) primes.push(n);
    const fraction = (p, power) => integerRoot(BigInt(p) << (64n * power), power) & MASK64;
    sha512Constants = { h: primes.slice(0, 8).map((p) => fraction(p, 2n)), k: primes.map((p) => fraction(p, 3n)) };
  }
  return sha512Constants;
}

const rotate64 = (x, n) => ((x >> n) | (x << (64n - n))) & MASK64;

/** The SHA-512 digest of some bytes, as bytes (synchronous: the browser's own digest is asynchronous). */
export function sha512(bytes) {
  const { h: initial, k } = sha512Tables();
  const length = bytes.length;
  const padded = new Uint8Array(Math.ceil((length + 17) / 128) * 128);
  padded.set(bytes);
  padded[length] = 0x80;
  const bits = BigInt(length) * 8n;
  for (let b = 0; b < 16; b += 1) padded[padded.length - 1 - b] = Number((bits >> BigInt(8 * b)) & 0xffn);
  const h = initial.slice();
  const w = new Array(80);
  for (let block = 0; block < padded.length; block += 128) {
    for (let t = 0; t < 16; t += 1) {
      let word = 0n;
      for (let b = 0; b < 8; b += 1) word = (word << 8n) | BigInt(padded[block + 8 * t + b]);
      w[t] = word;
    }
    for (let t = 16; t < 80; t += 1) {
      const s0 = rotate64(w[t - 15], 1n) ^ rotate64(w[t - 15], 8n) ^ (w[t - 15] >> 7n);
      const s1 = rotate64(w[t - 2], 19n) ^ rotate64(w[t - 2], 61n) ^ (w[t - 2] >> 6n);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) & MASK64;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let t = 0; t < 80; t += 1) {
      const t1 = (hh + (rotate64(e, 14n) ^ rotate64(e, 18n) ^ rotate64(e, 41n)) + ((e & f) ^ (~e & MASK64 & g)) + k[t] + w[t]) & MASK64;
      const t2 = ((rotate64(a, 28n) ^ rotate64(a, 34n) ^ rotate64(a, 39n)) + ((a & b) ^ (a & c) ^ (b & c))) & MASK64;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) & MASK64, c, b, a, (t1 + t2) & MASK64];
    }
    [a, b, c, d, e, f, g, hh].forEach((x, i) => { h[i] = (h[i] + x) & MASK64; });
  }
  const digest = new Uint8Array(64);
  h.forEach((word, i) => { for (let b = 0; b < 8; b += 1) digest[8 * i + b] = Number((word >> BigInt(56 - 8 * b)) & 0xffn); });
  return digest;
}

const MT_SIZE = 624;

/** Python's random.Random seeded with a str: MT19937, its getrandbits, _randbelow and shuffle. */
export class PythonRandom {
  constructor(text) {
    // random.seed(str): the int whose big-endian bytes are the UTF-8 text followed by its SHA-512 digest
    const utf8 = new TextEncoder().encode(text);
    let number = 0n;
    for (const byte of [...utf8, ...sha512(utf8)]) number = (number << 8n) | BigInt(byte);
    const key = []; // its 32-bit words, least significant first, as CPython's init_by_array takes them
    do {
      key.push(Number(number & 0xffffffffn));
      number >>= 32n;
    } while (number > 0n);
    this.initByArray(key);
  }

  initGenrand(seed) {
    const mt = new Uint32Array(MT_SIZE);
    mt[0] = seed;
    for (let i = 1; i < MT_SIZE; i += 1) mt[i] = Math.imul(1812433253, mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
    this.mt = mt;
    this.index = MT_SIZE;
  }

  initByArray(key) {
    this.initGenrand(19650218);
    const mt = this.mt;
    let i = 1;
    let j = 0;
    for (let k = Math.max(MT_SIZE, key.length); k > 0; k -= 1) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1664525)) + key[j] + j;
      i += 1;
      j += 1;
      if (i >= MT_SIZE) { mt[0] = mt[MT_SIZE - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = MT_SIZE - 1; k > 0; k -= 1) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1566083941)) - i;
      i += 1;
      if (i >= MT_SIZE) { mt[0] = mt[MT_SIZE - 1]; i = 1; }
    }
    mt[0] = 0x80000000;
  }

  uint32() {
    const mt = this.mt;
    if (this.index >= MT_SIZE) {
      for (let k = 0; k < MT_SIZE; k += 1) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % MT_SIZE] & 0x7fffffff);
        mt[k] = mt[(k + 397) % MT_SIZE] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index];
    this.index += 1;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A random integer in [0, n) for 0 < n < 2 ** 32, as Python's _randbelow_with_getrandbits draws it. */
  below(n) {
    const bits = 32 - Math.clz32(n);
    for (;;) {
      const r = this.uint32() >>> (32 - bits);
      if (r < n) return r;
    }
  }

  /** Shuffle a list in place, as Python's Random.shuffle does. */
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
  }
}

// ---- hints: the options of a view, ranked (players/hints.py, strong.py, endgame.py) -----------

const CLASSES = [CENTRE_CELLS, CORNERS, QUEEN_CELLS, JACK_CELLS]; // class 0 is the centre, then each court's home
const KIND_CLASS = { [KING]: 1, [QUEEN]: 2, [JACK]: 3 };
const ROYAL_CLASS = { [KING]: 1, [QUEEN]: 1, [JACK]: 1 };
/** The class each kind of court card takes and the sizes of classes 0..3, by the courts rule (strong.py's LAYOUTS). */
const layoutOf = (courts) => (courts === "royals" ? [ROYAL_CLASS, [4, 12, 0, 0]] : [KIND_CLASS, [4, 4, 4, 4]]);
const NEVER = 1 << 30; // the deadline of a cell no court card will take; the departure of a card that stays
const EXACT_STOCK = 10; // with this many unseen cards or fewer (forced pairs, courts at home), chances are exact
export const EXACT_MEANING = "exact chance of winning with best play";
export const SAMPLED_MEANING = "share of sampled orders in which the deal stays winnable for a player who then sees them";
const Z95 = 1.959963984540054;

/** The number values and the count of court cards in each class of cells. */
function classView(grid) {
  const cells = [[], [], [], []];
  const courts = [0, 0, 0, 0];
  CLASSES.forEach((home, c) => {
    for (const cell of home) {
      const card = grid[cell];
      if (card === null) continue;
      if (card.rank > TEN) courts[c] += 1;
      else cells[c].push(card.rank);
    }
  });
  return { cells, courts };
}

const sortedCopy = (values) => values.slice().sort((a, b) => a - b);

/** An afterstate up to cells of one class, for merging equivalent options (under swap and royals, the search's key). */
function optionKey(after) {
  if (after.rules.courts !== "fixed") {
    const ranks = after.grid.map((card) => (card === null ? 0 : card.rank));
    return `${canonicalKey(after.rules.courts)(ranks)}/${after.drawn}/${after.removing}`;
  }
  const { cells, courts } = classView(after.grid);
  return `${cells.map((c) => sortedCopy(c).join(",")).join("|")}/${courts.join(",")}/${after.drawn}/${after.removing}`;
}

/** The legal moves of a view, one for each distinct afterstate: [[move, afterstate], ...]. */
export function distinctOptions(view) {
  const seen = new Map();
  for (const move of legalMoves(standIn(view))) {
    const after = afterstate(view, move);
    const key = optionKey(after);
    if (!seen.has(key)) seen.set(key, [move, after]);
  }
  return [...seen.values()];
}

/** Every legal move of a view that leads where `move` does (cells of one class merged): the options a hint lists as one. */
export function alikeMoves(view, move) {
  const key = optionKey(afterstate(view, move));
  return legalMoves(standIn(view)).filter((other) => optionKey(afterstate(view, other)) === key);
}

/** How many cards of each value forced pair removal takes from a grid holding count[v] of each (Lemma 1). */
function forcedTakes(count) {
  const take = new Array(TEN + 1).fill(0);
  take[TEN] = count[TEN];
  for (let low = 1; low < 5; low += 1) take[low] = take[TEN - low] = Math.min(count[low], count[TEN - low]);
  take[5] = Math.floor(count[5] / 2) * 2;
  return take;
}

/** `size` values from `low` up, within `count`, summing to `total` (empty if none). */
function groupFrom(count, size, low, total) {
  if (size === 1) return low <= total && total < TEN && count[total] ? [total] : [];
  for (let value = low; value < Math.min(total, TEN); value += 1) {
    if (!count[value]) continue;
    count[value] -= 1;
    const rest = groupFrom(count, size - 1, value, total - value);
    count[value] += 1;
    if (rest.length) return [value, ...rest];
  }
  return [];
}

/** One removable set of values: a Ten, else a pair, else (under groups) the group with fewest cards. */
function aSet(count, sets) {
  if (count[TEN]) return [TEN];
  for (let low = 1; low < 6; low += 1) if (count[low] && count[TEN - low] > (low === 5 ? 1 : 0)) return [low, TEN - low];
  if (sets === "pairs") return [];
  for (let size = 3; size < 11; size += 1) {
    const found = groupFrom(count, size, 1, TEN);
    if (found.length) return found;
  }
  return [];
}

const groupTakes = new Map(); // the same grids come back across sampled orders (strong.py remembers them too)

/** How many cards of each value a removal to exhaustion takes: forced pairs exactly, else Tens and pairs first. */
function removalTakes(count, sets) {
  if (sets === "pairs") return forcedTakes(count);
  const key = count.join(",");
  if (!groupTakes.has(key)) {
    if (groupTakes.size >= 100000) groupTakes.clear();
    groupTakes.set(key, takeGroups(count));
  }
  return groupTakes.get(key);
}

/** removalTakes under groups: Tens, then pairs, then the groups with fewest cards, until none is left. */
function takeGroups(count) {
  const left = count.slice();
  const take = new Array(TEN + 1).fill(0);
  for (let found = aSet(left, "groups"); found.length; found = aSet(left, "groups")) {
    for (const value of found) {
      left[value] -= 1;
      take[value] += 1;
    }
  }
  return take;
}

/** The value-level course of a known order from a class-level position (strong.py's course). */
function valueCourse(countIn, placedIn, order, removalDue, rules, lastFirst) {
  const kindClass = layoutOf(rules.courts)[0];
  const stopAtCourts = rules.goal === "courts";
  const clear = rules.goal === "clear";
  const count = countIn.slice();
  let placed = placedIn;
  const pools = Array.from({ length: TEN + 1 }, () => []); // card ids by value, oldest first
  const leaves = [];
  for (let value = 1; value <= TEN; value += 1) {
    for (let k = 0; k < count[value]; k += 1) {
      pools[value].push(leaves.length);
      leaves.push(NEVER);
    }
  }
  const heldIds = pools.map((pool) => pool.slice());
  let numbers = count.reduce((a, b) => a + b, 0);
  const arrivals = [];
  const courts = [[], [], [], []];
  let t = 0;
  let due = removalDue;
  let jams = false;
  for (;;) {
    if (due) {
      const take = removalTakes(count, rules.sets);
      if (!take.some(Boolean)) {
        jams = true;
        break;
      }
      for (let value = 1; value <= TEN; value += 1) {
        for (let k = 0; k < take[value]; k += 1) {
          const id = lastFirst ? pools[value].pop() : pools[value].shift();
          leaves[id] = t;
        }
        count[value] -= take[value];
      }
      numbers -= take.reduce((a, b) => a + b, 0);
    }
    while (placed + numbers < 16 && t < order.length) {
      const rank = order[t];
      if (rank > TEN) {
        courts[kindClass[rank]].push(t);
        placed += 1;
        if (stopAtCourts && placed === 12) break;
      } else {
        arrivals.push([t, leaves.length]);
        pools[rank].push(leaves.length);
        leaves.push(NEVER);
        count[rank] += 1;
        numbers += 1;
      }
      t += 1;
    }
    if (stopAtCourts && placed === 12) break;
    if (t === order.length) {
      const take = removalTakes(count, rules.sets);
      jams = clear && count.some((v, i) => v !== take[i]);
      break;
    }
    due = true;
  }
  return {
    jams,
    held: heldIds.map((ids) => sortedCopy(ids.map((i) => leaves[i]))),
    arrivals: arrivals.map(([a, i]) => [a, leaves[i]]),
    courts,
  };
}

/** Whether a player who knows the order can seat every card so that each court card finds room (seen_order_wins). */
function seenOrderWins(cells, courts, run, sizes = [4, 4, 4, 4]) {
  if (run.jams) return false;
  const deadlines = [[NEVER, NEVER, NEVER, NEVER]];
  for (let c = 1; c <= 3; c += 1) {
    const free = sizes[c] - courts[c];
    const comes = run.courts[c];
    if (comes.length > free) return false;
    deadlines.push([...comes, ...new Array(free - comes.length).fill(NEVER)]);
  }
  const held = [[], [], [], []];
  const nextOut = new Array(TEN + 1).fill(0);
  for (const c of [3, 2, 1, 0]) {
    for (const value of cells[c]) {
      held[c].push(run.held[value][nextOut[value]]);
      nextOut[value] += 1;
    }
  }
  const busy = deadlines.map((d) => new Array(d.length).fill(-1)); // when each cell is free again (-1: free)
  for (let c = 0; c < 4; c += 1) {
    for (const gone of held[c].slice().sort((a, b) => b - a)) {
      let best = -1;
      deadlines[c].forEach((deadline, m) => {
        if (busy[c][m] < 0 && deadline >= gone && (best < 0 || deadline < deadlines[c][best])) best = m;
      });
      if (best < 0) return false;
      busy[c][best] = gone;
    }
  }
  for (const [t, gone] of run.arrivals) {
    let bestC = -1;
    let bestM = -1;
    let bestDeadline = NEVER + 1;
    for (let c = 0; c < 4; c += 1) {
      const row = deadlines[c];
      for (let m = 0; m < row.length; m += 1) {
        if (busy[c][m] <= t && gone <= row[m] && row[m] < bestDeadline) [bestC, bestM, bestDeadline] = [c, m, row[m]];
      }
    }
    if (bestC < 0) return false;
    busy[bestC][bestM] = gone;
  }
  return true;
}

/** Whether `after` goes on to a win when the face-down cards come in `order`, for a player who then knew it. */
function winsInOrder(after, order, courses) {
  if (after.status !== "unfinished") return after.status === "won";
  const sizes = layoutOf(after.rules.courts)[1];
  const views = pooledViews(after.grid, after.rules.courts);
  if (!views.length) return false; // Queens (or Jacks) on three edges: the other kind will lack room
  const { cells, courts } = views[0];
  const count = new Array(TEN + 1).fill(0);
  for (const held of cells) for (const value of held) count[value] += 1;
  const heldCard = after.inHand !== null;
  const coming = heldCard ? [after.inHand.rank, ...order] : order;
  for (const lastFirst of [true, false]) {
    const key = `${count.join(",")}|${after.removing}|${heldCard}|${lastFirst}`;
    let run = courses.get(key);
    if (run === undefined) {
      run = valueCourse(count, courts.reduce((a, b) => a + b, 0), coming, after.removing, after.rules, lastFirst);
      courses.set(key, run);
    }
    if (run.jams) return false;
    if (views.some((view) => seenOrderWins(view.cells, view.courts, run, sizes))) return true;
  }
  return false;
}

/**
 * The grid as the classes of cells court cards take under `courtsRule` (strong.py's pooled_views): under royals one
 * class of twelve; under swap one view per share of the edges between Queens (two edges) and Jacks (the other two)
 * that agrees with the court cards placed, since each edge ends with two of one kind.
 */
function pooledViews(grid, courtsRule) {
  const { cells, courts } = classView(grid);
  if (courtsRule === "royals") {
    return [{ cells: [cells[0], [...cells[1], ...cells[2], ...cells[3]], [], []], courts: [0, courts[1] + courts[2] + courts[3], 0, 0] }];
  }
  if (courtsRule !== "swap") return [{ cells, courts }];
  const views = [];
  for (let a = 0; a < EDGE_PAIRS.length; a += 1) {
    for (let b = a + 1; b < EDGE_PAIRS.length; b += 1) {
      const shares = [[], []];
      const held = [0, 0];
      let agrees = true;
      EDGE_PAIRS.forEach((edge, e) => {
        const share = e === a || e === b ? 0 : 1;
        for (const cell of edge) {
          const card = grid[cell];
          if (card === null) continue;
          if (card.rank <= TEN) shares[share].push(card.rank);
          else if (card.rank === [QUEEN, JACK][share]) held[share] += 1;
          else agrees = false;
        }
      });
      if (agrees) views.push({ cells: [cells[0], cells[1], ...shares], courts: [0, courts[1], ...held] });
    }
  }
  return views;
}

/** `samples` random orders of the unseen ranks, from the seed and what the player has seen only. */
function sampledOrders(unseen, samples, seed, view) {
  const seen = view.grid.filter((card) => card !== null).length;
  const rng = new PythonRandom(`kcsolve-strong|${seed}|${view.seen.length}|${view.removing ? 1 : 0}|${seen}`);
  const pool = sortedCopy(unseen);
  const orders = [];
  for (let s = 0; s < samples; s += 1) {
    rng.shuffle(pool);
    orders.push(pool.slice());
  }
  return orders;
}

/** For each option, how many of the same sampled orders of the face-down cards it wins. */
function optionWins(options, samples, seed, view) {
  const wins = new Array(options.length).fill(0);
  for (const order of sampledOrders(view.unseen.map((card) => card.rank), samples, seed, view)) {
    const courses = new Map();
    options.forEach(([, child], k) => { if (winsInOrder(child, order, courses)) wins[k] += 1; });
  }
  return wins;
}

const exactFeasible = (after) => after.rules.removal === "forced" && after.rules.sets === "pairs"
  && after.rules.courts === "fixed" && DECK_SIZE - after.drawn <= EXACT_STOCK;

/** The class contents with `rank` added to class `c`. */
const withRank = (cells, c, rank) => cells.map((held, k) => (k === c ? sortedCopy([...held, rank]) : held));

/** Every distinct class content forced pair removal can leave (the values that go are fixed). */
function removalOutcomes(cells) {
  const count = new Array(TEN + 1).fill(0);
  for (const held of cells) for (const value of held) count[value] += 1;
  const take = forcedTakes(count);
  if (!take.some(Boolean)) return [];
  const outcomes = new Map();
  const pick = (value, left) => {
    if (value > TEN) {
      outcomes.set(left.map((held) => held.join(",")).join("|"), left);
      return;
    }
    const holders = [];
    left.forEach((held, c) => { for (const v of held) if (v === value) holders.push(c); });
    const choose = (start, need, chosen) => {
      if (!need) {
        const after = left.map((held) => held.slice());
        for (const c of chosen) after[c].splice(after[c].indexOf(value), 1);
        pick(value + 1, after);
        return;
      }
      for (let k = start; k <= holders.length - need; k += 1) choose(k + 1, need - 1, [...chosen, holders[k]]);
    };
    choose(0, take[value], []);
  };
  pick(1, cells);
  return [...outcomes.values()];
}

/** Best-play win chance from a class-level state with this multiset of unseen ranks (endgame.py's _expectimax). */
function expectimax(cells, courts, stock, removalDue, stopAtCourts, memo) {
  const key = `${cells.map((held) => held.join(",")).join("|")}/${courts.join(",")}/${stock.join(",")}/${removalDue}`;
  if (memo.has(key)) return memo.get(key);
  const placed = courts.reduce((a, b) => a + b, 0);
  let chance;
  const free = [0, 1, 2, 3].map((c) => 4 - cells[c].length - courts[c]);
  if (stopAtCourts && placed === 12) {
    chance = 1.0;
  } else if (removalDue || !free.some(Boolean)) {
    const outcomes = removalOutcomes(cells);
    chance = outcomes.length
      ? Math.max(...outcomes.map((after) => expectimax(after, courts, stock, false, stopAtCourts, memo)))
      : (!stock.some(Boolean) && placed === 12 ? 1.0 : 0.0);
  } else {
    const total = stock.reduce((a, b) => a + b, 0);
    chance = 0.0;
    if (!total) {
      chance = placed === 12 ? 1.0 : 0.0;
    } else {
      stock.forEach((count, rank) => {
        if (!count) return;
        const rest = stock.slice();
        rest[rank] -= 1;
        let best;
        if (rank > TEN) {
          const home = KIND_CLASS[rank];
          if (!free[home]) return;
          const now = courts.slice();
          now[home] += 1;
          best = expectimax(cells, now, rest, false, stopAtCourts, memo);
        } else {
          best = -Infinity;
          for (let c = 0; c < 4; c += 1) {
            if (free[c]) best = Math.max(best, expectimax(withRank(cells, c, rank), courts, rest, false, stopAtCourts, memo));
          }
        }
        chance += count / total * best;
      });
    }
  }
  memo.set(key, chance);
  return chance;
}

/** The chance of winning with best play from `after` when the unseen cards come in a uniformly random order. */
function exactChance(after, memo) {
  if (after.status !== "unfinished") return after.status === "won" ? 1.0 : 0.0;
  const { cells, courts } = classView(after.grid);
  const stock = new Array(14).fill(0);
  for (const card of after.unseen) stock[card.rank] += 1;
  return expectimax(cells.map(sortedCopy), courts, stock, after.removing, after.rules.goal === "courts", memo);
}

/** The Wilson score interval for a binomial proportion (common/interval.py). */
export function wilson(successes, trials, z = Z95) {
  if (trials === 0) return [0.0, 1.0];
  const p = successes / trials;
  const centre = (p + z * z / (2 * trials)) / (1 + z * z / trials);
  const half = z / (1 + z * z / trials) * Math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials));
  return [Math.max(0.0, centre - half), Math.min(1.0, centre + half)];
}

/** One ranked option: its figure, what the figure is, and its 95% interval (the figure itself when exact). */
function rankedHint(move, chance, playouts, wins) {
  const exact = playouts === 0;
  let [low, high] = [chance, chance];
  if (!exact) {
    const [a, b] = wilson(wins, playouts);
    [low, high] = [Math.min(a, chance), Math.max(b, chance)];
  }
  return { move, chance, playouts, wins, exact, meaning: exact ? EXACT_MEANING : SAMPLED_MEANING, low, high };
}

/**
 * Every distinct legal option of a no-peek view, best first, each with its figure: kcsolve.hints(view, playouts, seed).
 * `seed` may be a number, a BigInt or a decimal string (seeds above 2 ** 53 keep every digit as a string or BigInt).
 */
export function hints(view, { playouts = HINT_PLAYOUTS, seed = 0 } = {}) {
  if ("deck" in view) throw new TypeError("hints are given a view (viewOf), never a position with its deck");
  const options = distinctOptions(view);
  if (!options.length) return [];
  let ranked;
  if (exactFeasible(options[0][1])) {
    const memo = new Map();
    ranked = options.map(([move, child]) => rankedHint(move, exactChance(child, memo), 0, null));
  } else {
    const wins = optionWins(options, playouts, BigInt(seed).toString(), view);
    ranked = options.map(([move], k) => rankedHint(move, wins[k] / playouts, playouts, wins[k]));
  }
  const tiebreak = (move) => ("cell" in move && CENTRE_CELLS.includes(move.cell) ? 0 : 1);
  return ranked.sort((a, b) => b.chance - a.chance || tiebreak(a.move) - tiebreak(b.move));
}

/** The lines that say what the figures of a hint are (hints.py's heading). */
export function hintHeading(ranked) {
  if (ranked.length && ranked[0].exact) {
    return ["Exact chance of winning with best play after each option (expectimax over every",
      "order of the unseen cards, none of them seen):"];
  }
  const playouts = ranked.length ? ranked[0].playouts : HINT_PLAYOUTS;
  return [`After each option, the share of ${playouts} sampled orders of the unseen cards where`,
    "the deal stays winnable for one who then sees them (above your own chances):"];
}
