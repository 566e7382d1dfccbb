// Kings Corner bots in the browser, mirroring kcsolve/corner/bots/bots.py and solvers/turn.py. A bot sees only its
// seat's view (viewOf): the piles, its own hand, the other hands' sizes, the stock's size and the hidden cards as one
// sorted list). greedy and turn choose exactly as Python's do; search follows bots.py's method within a work budget
// (see SearchBot) and draws its samples from its own generator, so it is compared with Python in strength, not moves.
import {
  END, KING, NO_MARKS, boardMoves, endingAllowed, makePosition, penalties, playMove, points, rank, step,
} from "./engine.mjs";

export const SEARCH_SAMPLES = 24;
export const SEARCH_CANDIDATES = 6;
export const PLAYOUT_MOVES = 2000;
export const TURN_NODES = 20000; // turn.py's DEFAULT_TURN_NODES
export const WEB_BOTS = ["greedy", "turn", "search"];
// The browser's search budget (see SearchBot); FULL_SEARCH is Python's, for comparing the two.
export const WEB_SEARCH = Object.freeze({ samples: SEARCH_SAMPLES, candidates: SEARCH_CANDIDATES, outcomes: 2000, playoutMoves: 3000, minSamples: 4 });
export const FULL_SEARCH = Object.freeze({ samples: SEARCH_SAMPLES, candidates: SEARCH_CANDIDATES, outcomes: 20000, playoutMoves: Infinity, minSamples: SEARCH_SAMPLES });

/** What `seat` may see of a position: never another seat's card, nor the stock's order. */
export function viewOf(position, seat = position.player) {
  const hidden = [];
  position.hands.forEach((hand, i) => { if (i !== seat) hidden.push(...hand); });
  hidden.push(...position.stock);
  return {
    rules: position.rules,
    seat,
    piles: position.piles,
    hand: position.hands[seat],
    handSizes: position.hands.map((h) => h.length),
    stockSize: position.stock.length,
    hidden: hidden.sort((a, b) => a - b),
    toMove: position.player,
    moved: position.moved,
    marks: position.marks,
    winners: position.winners,
    over: position.over,
  };
}

/** The stock is empty and no move has been made this turn. */
export function viewMustMove(view) {
  return !view.stockSize && !view.moved;
}

/** The moves open to the seat when it is to move, the end of the turn last when allowed. */
export function viewLegalMoves(view) {
  if (view.over || view.seat !== view.toMove) return [];
  const moves = boardMoves(view.piles, view.hand, view.rules, view.marks);
  if (endingAllowed(view.rules, view.marks) && (view.stockSize || view.moved || !moves.length)) moves.push(END);
  return moves;
}

/** The first of `items` with the greatest key (Python's max keeps the first). */
function firstMax(items, key) {
  let best = null;
  let bestKey = null;
  for (const item of items) {
    const k = key(item);
    if (best === null || compare(k, bestKey) > 0) {
      best = item;
      bestKey = k;
    }
  }
  return best;
}

/** Python's ordering of tuples of numbers. */
function compare(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length;
}

/** The greedy rule order: a King to a corner, a pile move, a play onto a pile, then filling a side spot. */
export function greedyMove(piles, hand, rules, marks = NO_MARKS) {
  const moves = boardMoves(piles, hand, rules, marks);
  const king = moves.find((m) => m.kind === "play" && !piles[m.pile].length && rank(m.card) === KING && m.pile >= 4);
  if (king) return king;
  const mergeMove = moves.find((m) => m.kind === "merge");
  if (mergeMove) return mergeMove;
  const onto = moves.filter((m) => m.kind !== "merge" && piles[m.pile].length);
  if (onto.length) return firstMax(onto, (m) => [rank(m.card), m.kind === "play" ? 1 : 0]);
  const fills = moves.filter((m) => m.kind === "play" && m.pile < 4);
  if (fills.length) return firstMax(fills, (m) => [rank(m.card)]);
  return END;
}

// ---- the turn solver (turn.py) ----

/** Places an opponent might play on: non-Ace exposed cards, empty sides, empty corners while a King is unseen. */
export function spots(piles, hand) {
  let kings = hand.filter((c) => rank(c) === KING).length;
  let count = 0;
  piles.forEach((pile, i) => {
    kings += pile.filter((c) => rank(c) === KING).length;
    if (pile.length && rank(pile[pile.length - 1]) > 1) count += 1;
    if (i < 4 && !pile.length) count += 1;
  });
  if (kings < 4) for (let i = 4; i < 8; i++) if (!piles[i].length) count += 1;
  return count;
}

const ORDER = { play: 0, merge: 1, under: 2 };

/** The board moves with one of several interchangeable empty spots kept, plays onto piles first. */
export function distinctMoves(piles, hand, rules, marks = NO_MARKS) {
  const emptySide = [0, 1, 2, 3].find((i) => !piles[i].length);
  const emptyCorner = [4, 5, 6, 7].find((i) => !piles[i].length);
  const kept = boardMoves(piles, hand, rules, marks).filter(
    (m) => !(m.kind === "play" && !piles[m.pile].length && m.pile !== emptySide && m.pile !== emptyCorner && !marks.opened),
  );
  const key = (m) => ORDER[m.kind] + (m.kind === "play" && !piles[m.pile].length ? 3 : 0);
  return kept.sort((a, b) => key(a) - key(b));
}

/** A string naming piles, hand and marks, for the memo and the sets of seen positions. */
function stateKey(piles, hand, marks) {
  return `${piles.map((p) => p.join(",")).join("|")}/${hand.join(",")}/${marks.opened},${marks.underPlayed ? 1 : 0},${marks.closing}`;
}

/** Penalty points of a hand. */
function handPoints(hand, rules) {
  return hand.reduce((sum, c) => sum + points(rules, rank(c)), 0);
}

class OutOfBudget extends Error {}
class WentOut extends Error {
  constructor(line) {
    super("went out");
    this.line = line;
  }
}

/** The best line of a turn under turn.py's ranking: {line, piles, hand, points, spots, states, proven}. */
export function bestTurn(piles, hand, rules, marks = NO_MARKS, mustMove = false, nodes = TURN_NODES) {
  const memo = new Map();
  let counted = 0;
  let seen = null; // [score, line] of the best ending seen, for an answer when the budget runs out
  const path = [];
  const startHasMove = mustMove && boardMoves(piles, hand, rules, marks).length > 0;
  const score = (atPiles, atHand) => [-atHand.length, -handPoints(atHand, rules), -spots(atPiles, atHand)];
  const mayStop = (atMarks, depth) => endingAllowed(rules, atMarks) && !(depth === 0 && startHasMove);

  function search(atPiles, atHand, atMarks) {
    const key = stateKey(atPiles, atHand, atMarks);
    if (memo.has(key)) return memo.get(key);
    if (!atHand.length) throw new WentOut(path.slice());
    counted += 1;
    if (counted > nodes) throw new OutOfBudget();
    let best = mayStop(atMarks, path.length) ? [[...score(atPiles, atHand), 0], []] : null;
    if (best !== null) {
      const here = [...best[0].slice(0, 3), -path.length];
      if (seen === null || compare(here, seen[0]) > 0) seen = [here, path.slice()];
    }
    for (const move of distinctMoves(atPiles, atHand, rules, atMarks)) {
      path.push(move);
      const found = search(...step(atPiles, atHand, rules, atMarks, move));
      path.pop();
      if (found === null) continue;
      const candidate = [[...found[0].slice(0, 3), found[0][3] - 1], [move, ...found[1]]];
      if (best === null || compare(candidate[0], best[0]) > 0) best = candidate;
    }
    memo.set(key, best);
    return best;
  }

  let line = [];
  let proven = true;
  try {
    const found = search(piles, hand, marks);
    line = found === null ? [] : found[1];
  } catch (exc) {
    if (exc instanceof WentOut) line = exc.line;
    else if (exc instanceof OutOfBudget) {
      line = seen === null ? [] : seen[1];
      proven = false;
    } else throw exc;
  }
  let [endPiles, endHand, endMarks] = [piles, hand, marks];
  for (const move of line) [endPiles, endHand, endMarks] = step(endPiles, endHand, rules, endMarks, move);
  return {
    line, piles: endPiles, hand: endHand, points: handPoints(endHand, rules),
    spots: endHand.length ? spots(endPiles, endHand) : 0, states: Math.min(counted, nodes + 1), proven,
  };
}

/** Every distinct (piles, hand) a turn can end in, with one line reaching it, in turn.py's order. */
export function turnOutcomes(piles, hand, rules, limit = 100000, marks = NO_MARKS) {
  const found = new Map();
  const visited = new Set([stateKey(piles, hand, marks)]);
  const frontier = [[piles, hand, marks, []]];
  while (frontier.length && visited.size < limit) {
    const [atPiles, atHand, atMarks, line] = frontier.pop();
    if (!line.length || endingAllowed(rules, atMarks) || !atHand.length) {
      const key = stateKey(atPiles, atHand, NO_MARKS);
      if (!found.has(key)) found.set(key, { piles: atPiles, hand: atHand, line });
    }
    if (!atHand.length) continue;
    for (const move of distinctMoves(atPiles, atHand, rules, atMarks)) {
      const after = step(atPiles, atHand, rules, atMarks, move);
      const key = stateKey(...after);
      if (!visited.has(key)) {
        visited.add(key);
        frontier.push([...after, [...line, move]]);
      }
    }
  }
  return found;
}

// ---- the bots ----

/** A small seeded generator (mulberry32 over a string's FNV-1a hash): the same seed, the same samples. */
export function generator(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A position consistent with the view: the hidden cards dealt at random to the other hands and the stock. */
export function samplePosition(view, random) {
  const hidden = view.hidden.slice();
  for (let i = hidden.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [hidden[i], hidden[j]] = [hidden[j], hidden[i]];
  }
  let at = 0;
  const hands = view.handSizes.map((size, seat) => {
    if (seat === view.seat) return view.hand;
    at += size;
    return hidden.slice(at - size, at).sort((a, b) => a - b);
  });
  return makePosition(view.rules, view.piles, hands, hidden.slice(at), view.toMove, view.moved, view.marks, view.winners, view.over);
}

/** Play a position to the end of the hand with greedy moves for every seat. */
export function greedyPlayout(position, limit = PLAYOUT_MOVES) {
  return countedPlayout(position, limit)[0];
}

/** greedyPlayout, and how many moves it made (the search bot's work budget counts them). */
function countedPlayout(position, limit = PLAYOUT_MOVES) {
  let n = 0;
  for (; n < limit && !position.over; n++) {
    position = playMove(position, greedyMove(position.piles, position.hands[position.player], position.rules, position.marks));
  }
  return [position, n];
}

/** The position once the player to move has played `line` and ended the turn, as the engine plays it. */
export function afterLine(position, line) {
  const seat = position.player;
  for (const move of line) position = playMove(position, move);
  return position.over || position.player !== seat ? position : playMove(position, END);
}

/** Where the greedy rule order ends this turn, and its line. */
function greedyEnding(view) {
  let { piles, hand, marks } = view;
  const line = [];
  while (hand.length) {
    const move = greedyMove(piles, hand, view.rules, marks);
    if (move.kind === "end") break;
    [piles, hand, marks] = step(piles, hand, view.rules, marks, move);
    line.push(move);
  }
  return { key: stateKey(piles, hand, NO_MARKS), piles, hand, line };
}

/** The greedy bot: the common rule order. */
export class GreedyBot {
  constructor() {
    this.name = "greedy";
  }

  /** The next move from the seat's view. */
  choose(view) {
    return greedyMove(view.piles, view.hand, view.rules, view.marks);
  }
}

/** The turn bot: the first move of the turn solver's best line. */
export class TurnBot {
  constructor() {
    this.name = "turn";
  }

  /** The next move from the seat's view. */
  choose(view) {
    const { line } = bestTurn(view.piles, view.hand, view.rules, view.marks, viewMustMove(view));
    return line.length ? line[0] : END;
  }
}

/** The search bot: determinised search over the turn's endings (bots.py's SearchBot), within a work budget.
 * Python's bot lists up to 20,000 turn states and plays every sample for every candidate ending; on a phone
 * that is seconds. The browser's bot lists at most `outcomes` states and plays the samples round by round (one
 * sample for every candidate) until `playoutMoves` greedy moves are spent, at least `minSamples` rounds: every
 * candidate is scored on the same samples, and a budget in moves, not milliseconds, keeps it reproducible. */
export class SearchBot {
  constructor(seed = 0, options = {}) {
    this.name = "search";
    this.seed = seed;
    const settings = { ...WEB_SEARCH, ...options };
    this.samples = settings.samples;
    this.candidates = settings.candidates;
    this.outcomes = settings.outcomes;
    this.playoutMoves = settings.playoutMoves;
    this.minSamples = settings.minSamples;
    this.plan = [];
    this.plannedFor = null;
  }

  /** The next move of the planned line, planning the turn when the view is not where the plan left off. */
  choose(view) {
    const here = stateKey(view.piles, view.hand, NO_MARKS);
    if (!this.plan.length || this.plannedFor !== here) {
      this.plan = [...this.bestLine(view), END];
    }
    const move = this.plan.shift();
    if (move.kind === "end") this.plannedFor = null;
    else {
      const [piles, hand] = step(view.piles, view.hand, view.rules, NO_MARKS, move);
      this.plannedFor = stateKey(piles, hand, NO_MARKS);
    }
    return move;
  }

  /** The turn ending that goes out first most often over sampled hidden cards. */
  bestLine(view) {
    const endings = turnOutcomes(view.piles, view.hand, view.rules, this.outcomes, view.marks);
    const startKey = stateKey(view.piles, view.hand, NO_MARKS);
    if (viewMustMove(view) && endings.size > 1) endings.delete(startKey);
    // Each ending's key once, not in the comparator: thousands of endings, each key counting spots.
    const keyed = [...endings.entries()].map(([key, e]) => [[e.hand.length, handPoints(e.hand, view.rules), spots(e.piles, e.hand)], key, e]);
    const ranked = keyed.sort((a, b) => compare(a[0], b[0])).slice(0, this.candidates); // a stable sort, as Python's
    const chosen = new Map(ranked.map(([, key, e]) => [key, e]));
    const greedy = greedyEnding(view);
    if (!chosen.has(greedy.key)) chosen.set(greedy.key, greedy);
    const lines = [...chosen.values()];
    if (lines.length === 1) return lines[0].line;
    const out = lines.find((ending) => !ending.hand.length);
    if (out) return out.line; // Python returns the first ending that goes out before playing any sample of it
    const random = generator(`${this.seed}/${startKey}`);
    const won = new Array(lines.length).fill(0);
    const lost = new Array(lines.length).fill(0);
    let rounds = 0;
    let spent = 0;
    while (rounds < this.samples && (rounds < this.minSamples || spent < this.playoutMoves)) {
      const sample = samplePosition(view, random);
      lines.forEach((ending, i) => {
        const [final, moves] = countedPlayout(afterLine(sample, ending.line));
        spent += moves;
        if (final.winners.length && final.winners[0] === view.seat) won[i] += 1;
        lost[i] += penalties(final)[view.seat];
      });
      rounds += 1;
    }
    let best = [];
    let bestScore = [-1, 0];
    lines.forEach((ending, i) => {
      const score = [won[i] / rounds, -lost[i] / rounds];
      if (compare(score, bestScore) > 0) {
        best = ending.line;
        bestScore = score;
      }
    });
    this.lastRounds = rounds; // for the bench: how many samples the budget allowed
    return best;
  }
}

/** A fresh bot by name. */
export function makeBot(name, seed = 0, options = {}) {
  if (name === "greedy") return new GreedyBot();
  if (name === "turn") return new TurnBot();
  if (name === "search") return new SearchBot(seed, options);
  throw new Error(`unknown bot ${name} (bots: ${WEB_BOTS.join(", ")})`);
}
