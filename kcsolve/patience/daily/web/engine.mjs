// The rules of Kings in the Corners for the browser: a mirror of kcsolve/patience/engine.py
// and of record.replay. Every message and verdict is spelt as the Python engine spells it,
// so tests/js/engine_check.mjs can compare them word for word with `kcsolve verify`.

export const RANKS = "A23456789TJQK";
export const TEN = 10;
export const JACK = 11;
export const QUEEN = 12;
export const KING = 13;
export const DECK_SIZE = 52;
export const EMPTY = -1;
export const CELL_NAMES = [..."1234"].flatMap((row) => [..."abcd"].map((col) => col + row));
export const CORNERS = [0, 3, 12, 15];
export const QUEEN_CELLS = [1, 2, 13, 14];
export const JACK_CELLS = [4, 7, 8, 11];
const EDGE_CELLS = [...QUEEN_CELLS, ...JACK_CELLS];
const EDGES = [...CORNERS, ...EDGE_CELLS];
const PARTNER = new Map([[1, 2], [2, 1], [13, 14], [14, 13], [4, 8], [8, 4], [7, 11], [11, 7]]);
const COURT_HOMES = { [KING]: CORNERS, [QUEEN]: QUEEN_CELLS, [JACK]: JACK_CELLS };
const NO_ROOM = { [KING]: "no free corner", [QUEEN]: "no free Queen cell", [JACK]: "no free Jack cell" };
const COURT_WORD = { [KING]: "King", [QUEEN]: "Queen", [JACK]: "Jack" };
const COURT_COUNT = 12;

const AXES = {
  removal: ["forced", "optional"],
  sets: ["pairs", "groups"],
  courts: ["fixed", "swap", "royals"],
  goal: ["courts", "deplete", "clear"],
};
const PRESETS = {
  standard: {},
  deplete: { goal: "deplete" },
  swap: { courts: "swap" },
  optional: { removal: "optional" },
  groups: { sets: "groups" },
  royals: { courts: "royals" },
  camelot: { removal: "optional", goal: "clear" },
};

/** A rule text such as `optional+groups` or `swap+goal=deplete` as {removal, sets, courts, goal}. */
export function parseRules(text) {
  const rules = { removal: "forced", sets: "pairs", courts: "fixed", goal: "courts" };
  const set = {};
  for (const raw of text.split("+")) {
    const token = raw.trim().toLowerCase();
    let settings;
    if (token in PRESETS) {
      settings = PRESETS[token];
    } else if (token.includes("=")) {
      const [axis, option] = token.split("=", 2);
      if (!(axis in AXES) || !AXES[axis].includes(option)) throw new Error(`unknown rule ${token}`);
      settings = { [axis]: option };
    } else {
      throw new Error(`unknown rule preset ${token}`);
    }
    for (const [axis, option] of Object.entries(settings)) {
      if (axis in set && set[axis] !== option) throw new Error(`rules ${text} set ${axis} twice`);
      set[axis] = option;
      rules[axis] = option;
    }
  }
  return rules;
}

/** A card from its text (`TS`, `Q`): {rank, suit, text}. */
export function parseCard(text) {
  const rank = RANKS.indexOf(text[0].toUpperCase()) + 1;
  if (rank === 0 || text.length > 2) throw new Error(`not a card: ${text}`);
  const suit = text.length === 2 ? text[1].toUpperCase() : null;
  return { rank, suit, text: RANKS[rank - 1] + (suit || "") };
}

export function cellIndex(name) {
  const cell = CELL_NAMES.indexOf(name.trim().toLowerCase());
  if (cell < 0) throw new Error(`not a cell: ${name}`);
  return cell;
}

const names = (cells) => cells.map((c) => CELL_NAMES[c]).join(" ");

function canRemove(deck, grid, sets) {
  const counts = new Array(TEN + 1).fill(0);
  for (const i of grid) if (i !== EMPTY && deck[i].rank <= TEN) counts[deck[i].rank] += 1;
  if (counts[TEN]) return true;
  if (sets === "pairs") return counts[5] > 1 || [1, 2, 3, 4].some((v) => counts[v] && counts[TEN - v]);
  let reach = 1; // bit s: some of the cards sum to s; sums above 10 do not matter
  for (let v = 1; v < TEN; v += 1) for (let k = 0; k < counts[v]; k += 1) reach = (reach | (reach << v)) & 0x7ff;
  return Boolean((reach >> TEN) & 1);
}

/** Whether cards of these ranks may go together under `sets`. */
export function isRemovable(ranks, sets) {
  if (ranks.length === 1 && ranks[0] === TEN) return true;
  const sizeOk = sets === "pairs" ? ranks.length === 2 : ranks.length >= 2;
  return sizeOk && ranks.reduce((a, b) => a + b, 0) === TEN && ranks.every((r) => r < TEN);
}

/** The removable sets among the cards on a grid: each Ten alone, then pairs (or groups) summing to 10. */
function tenSets(deck, grid, sets) {
  const placed = [];
  grid.forEach((i, c) => { if (i !== EMPTY) placed.push([c, deck[i].rank]); });
  const found = placed.filter(([, r]) => r === TEN).map(([c]) => [c]);
  const small = placed.filter(([, r]) => r < TEN);
  if (sets === "pairs") {
    small.forEach(([c, r], k) => small.slice(k + 1).forEach(([d, q]) => { if (r + q === TEN) found.push([c, d]); }));
    return found;
  }
  const extend = (start, chosen, total) => {
    for (let k = start; k < small.length; k += 1) {
      const [cell, rank] = small[k];
      if (total + rank === TEN && chosen.length) found.push([...chosen, cell]);
      else if (total + rank < TEN) extend(k + 1, [...chosen, cell], total + rank);
    }
  };
  extend(0, [], 0);
  return found;
}

export class IllegalMove extends Error {}

/** A point in a game: what lies in each cell (deck indices), cards drawn, whether removal is open. */
export class Position {
  constructor(deck, rules, grid, drawn, removing, courtsPlaced = 0) {
    Object.assign(this, { deck, rules, grid, drawn, removing, courtsPlaced });
    this.judged = null;
  }

  static start(deck, rules) {
    return new Position(deck, rules, new Array(16).fill(EMPTY), 0, false, 0);
  }

  cardAt(cell) {
    return this.grid[cell] === EMPTY ? null : this.deck[this.grid[cell]];
  }

  get nextCard() {
    return this.drawn < DECK_SIZE ? this.deck[this.drawn] : null;
  }

  get isFull() {
    return !this.grid.includes(EMPTY);
  }

  mayTake(card, cell) {
    if (card.rank <= TEN) return true;
    if (this.rules.courts === "royals") return EDGES.includes(cell);
    if (card.rank === KING || this.rules.courts === "fixed") return COURT_HOMES[card.rank].includes(cell);
    const partner = PARTNER.has(cell) ? this.cardAt(PARTNER.get(cell)) : null;
    return EDGE_CELLS.includes(cell) && (partner === null || partner.rank !== QUEEN + JACK - card.rank);
  }

  cellsFor(card) {
    return [...Array(16).keys()].filter((c) => this.grid[c] === EMPTY && this.mayTake(card, c));
  }

  removableSets() {
    return tenSets(this.deck, this.grid, this.rules.sets);
  }

  /** The position after placing the next card in `cell` or removing `cells`; IllegalMove says why not. */
  play(move) {
    const judged = this.outcome();
    if (judged.status !== "unfinished") throw new IllegalMove(`${describeMove(move)}: the game is already ${judged.status}: ${judged.reason}`);
    return "cell" in move ? this.place(move.cell) : this.remove(move.cells);
  }

  place(cell) {
    const card = this.nextCard;
    const where = CELL_NAMES[cell];
    if (card === null) throw new IllegalMove(`place in ${where}: the stock is empty`);
    if (this.removing && this.rules.removal === "forced") {
      throw new IllegalMove(`place ${card.text} in ${where}: removal is forced while a set can be removed`);
    }
    if (this.grid[cell] !== EMPTY) throw new IllegalMove(`place ${card.text} in ${where}: the cell holds ${this.cardAt(cell).text}`);
    if (!this.mayTake(card, cell)) {
      throw new IllegalMove(`place ${card.text} in ${where}: a ${COURT_WORD[card.rank] || "card"} may not go there`);
    }
    const grid = this.grid.slice();
    grid[cell] = this.drawn;
    const courts = this.courtsPlaced + (card.rank > TEN ? 1 : 0);
    const placed = new Position(this.deck, this.rules, grid, this.drawn + 1, false, courts);
    const opens = !grid.includes(EMPTY) || (this.drawn + 1 === DECK_SIZE && this.rules.goal === "clear");
    if (opens && canRemove(this.deck, grid, this.rules.sets)) {
      const opened = new Position(this.deck, this.rules, grid, this.drawn + 1, true, courts);
      if (opened.outcome().status === "unfinished") return opened;
    }
    return placed;
  }

  remove(cells) {
    const listed = names(cells);
    if (!this.removing) {
      const orStock = this.rules.goal === "clear" ? " or the stock is empty" : "";
      throw new IllegalMove(`remove ${listed}: removal opens only when the grid is full${orStock}`);
    }
    if (new Set(cells).size !== cells.length) throw new IllegalMove(`remove ${listed}: a cell is named twice`);
    for (const c of cells) if (this.grid[c] === EMPTY) throw new IllegalMove(`remove ${listed}: ${CELL_NAMES[c]} is empty`);
    if (!isRemovable(cells.map((c) => this.cardAt(c).rank), this.rules.sets)) {
      const shown = cells.map((c) => this.cardAt(c).text).join(" + ");
      const kind = this.rules.sets === "pairs" ? "a pair" : "two or more cards Ace to Nine";
      throw new IllegalMove(`remove ${listed}: ${shown} is not a Ten alone or ${kind} summing to 10`);
    }
    const grid = this.grid.map((i, c) => (cells.includes(c) ? EMPTY : i));
    const still = this.rules.removal === "optional" || canRemove(this.deck, grid, this.rules.sets);
    return new Position(this.deck, this.rules, grid, this.drawn, still, this.courtsPlaced);
  }

  /** {status: "won" | "lost" | "unfinished", reason}, as the Python engine judges. */
  outcome() {
    if (this.judged === null) this.judged = this.judge();
    return this.judged;
  }

  judge() {
    const goal = this.rules.goal;
    if (goal === "courts" && this.courtsPlaced === COURT_COUNT) {
      return { status: "won", reason: `the twelfth court card was placed as card ${this.drawn}` };
    }
    const removable = this.removing && canRemove(this.deck, this.grid, this.rules.sets);
    if (this.drawn === DECK_SIZE) {
      const left = this.grid.filter((i) => i !== EMPTY && this.deck[i].rank <= TEN).length;
      if (goal === "clear" && left && removable) return { status: "unfinished", reason: "the stock is empty; a removal is open" };
      if (goal !== "clear" || !left) {
        const cleared = goal === "clear" ? ", and no number card is left" : "";
        return { status: "won", reason: `all twelve court cards placed and the stock is empty${cleared}` };
      }
      return { status: "lost", reason: `the stock is empty with ${left} number cards left that cannot be removed` };
    }
    if (removable) {
      return { status: "unfinished", reason: this.rules.removal === "optional" ? "a removal is open" : "a removal is due" };
    }
    if (this.isFull) return { status: "lost", reason: `grid full with nothing to remove after card ${this.drawn}` };
    const card = this.nextCard;
    if (this.cellsFor(card).length === 0) {
      return { status: "lost", reason: `${RANKS[card.rank - 1]} drawn as card ${this.drawn + 1} with ${noRoom(card.rank, this.rules)}` };
    }
    return { status: "unfinished", reason: `card ${this.drawn + 1} (${card.text}) is next` };
  }
}

function noRoom(rank, rules) {
  if (rules.courts === "royals") return "no free edge cell";
  if (rank !== KING && rules.courts === "swap") return `no free edge cell a ${COURT_WORD[rank]} may take`;
  return NO_ROOM[rank];
}

/** A move in words: `place in b2` or `remove a1 c3`. */
export function describeMove(move) {
  return "cell" in move ? `place in ${CELL_NAMES[move.cell]}` : `remove ${names(move.cells)}`;
}

/** A parsed record (the JSON object of `kcsolve-record/1`) as {deck, rules, entries}. */
export function readRecord(data) {
  const deck = data.deck.map(parseCard);
  const rules = parseRules(data.rules || "standard");
  const entries = (data.moves || []).map((m) => ("place" in m ? { card: parseCard(m.place), cell: cellIndex(m.cell) }
    : { cells: m.remove.map(cellIndex) }));
  return { deck, rules, entries };
}

/** Replay a record's moves: {start, steps: [{number, move, card, position}], error} stopping at the first illegal move. */
export function replay(record) {
  const start = Position.start(record.deck, record.rules);
  let position = start;
  const steps = [];
  for (const [index, entry] of record.entries.entries()) {
    const number = index + 1;
    const judged = position.outcome();
    const stop = (message) => ({ start, steps, error: `move ${number}: ${message}` });
    if (judged.status !== "unfinished") {
      const what = "card" in entry ? `place ${entry.card.text} in ${CELL_NAMES[entry.cell]}` : `remove ${names(entry.cells)}`;
      return stop(`${what}: the game is already ${judged.status}: ${judged.reason}`);
    }
    let card = null;
    let move = entry;
    if ("card" in entry) {
      card = position.nextCard;
      if (card !== null && card.text !== entry.card.text) {
        return stop(`place ${entry.card.text} in ${CELL_NAMES[entry.cell]}: the next stock card is ${card.text}`);
      }
      move = { cell: entry.cell };
    }
    try {
      position = position.play(move);
    } catch (exc) {
      if (!(exc instanceof IllegalMove)) throw exc;
      return stop(exc.message);
    }
    steps.push({ number, move, card, position });
  }
  return { start, steps, error: null };
}

/** The verdict on a record as `kcsolve verify` words it: `won: ...`, `lost: ...`, `unfinished: ...` or `illegal move N: ...`. */
export function verdict(record) {
  const played = replay(record);
  if (played.error) return `illegal ${played.error}`;
  const final = played.steps.length ? played.steps[played.steps.length - 1].position : played.start;
  const judged = final.outcome();
  return `${judged.status}: ${judged.reason}`;
}
