// Kings Corner in the browser: the rules engine, mirroring kcsolve/corner/game/engine.py and rules.py function by
// function, with the record reader, writer and judge of records/record.py. tests/corner/web checks it against Python.
// Cards are ints 0..51 (suit * 13 + rank - 1, suits S H D C); piles N E S W NE SE SW NW are 0..7, each an
// array from its base to its exposed card. Positions are plain objects never changed after they are made.

export const PILES = ["N", "E", "S", "W", "NE", "SE", "SW", "NW"];
export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
export const KING = 13;
export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 4;
export const RECORD_FORMAT = "kcsolve-corner-record/2";
export const OLD_RECORD_FORMAT = "kcsolve-corner-record/1";
export const GAME_FORMAT = "kcsolve-corner-game/2";
export const GAME = "kings-corner";
export const BOT_NAMES = ["random", "greedy", "turn", "search"];
const MAX_MOVES = 5000;
const RECORD_FIELDS = ["format", "game", "players", "seed", "index", "bots", "lead", "rules", "deck", "moves", "result"];
const GAME_FIELDS = ["format", "game", "players", "index", "bots", "rules", "hands", "result"];
const RESULT_FIELDS = ["over", "winners", "penalties"];

/** An error whose message is the reason a move, a rule text or a record is refused. */
export class CornerError extends Error {}

// ---- rules (rules.py) ----

export const CHOICES = {
  draw: ["end", "start"],
  under: ["no", "yes", "strict"],
  dealt_kings: ["corner", "stay"],
  scoring: ["standard", "aces"],
};
export const FLAGS = ["until_play", "draw_two", "draw_three", "tie"];
export const NUMBERS = { target: 10000, hand_size: 10 };
// In the order of CornerRules' fields: rule texts and records list the options so.
export const OPTION_NAMES = ["draw", "until_play", "draw_two", "under", "draw_three", "dealt_kings", "tie", "scoring", "target", "hand_size"];
export const DEFAULT_RULES = Object.freeze({
  draw: "end", until_play: false, draw_two: false, under: "no", draw_three: false,
  dealt_kings: "corner", tie: false, scoring: "standard", target: 50, hand_size: 7,
});
// One line per option on what it changes, as 'corner rules' prints them.
export const OPTIONS = {
  draw: "end: draw after your moves; start: draw before them",
  until_play: "yes: at the start of a turn draw until you hold a card you can play",
  draw_two: "yes: the turn's draw is two cards instead of one",
  under: "yes: while a side spot is empty, a card may go under a pile's base; strict: only after your own pile move emptied a side spot this turn, and filling it ends the turn",
  draw_three: "yes: running out of cards while a side spot is empty, draw three and go on",
  dealt_kings: "corner: a King dealt to a side pile moves to a corner; stay: it stays",
  tie: "yes: after a player goes out, each other player has one last turn to go out too and tie",
  scoring: "standard: King 10, others 1; aces: Ace 25, faces and Tens 10, others 5",
  target: "the penalty total that ends a game of several hands",
  hand_size: "cards dealt to each player",
};
const SCORING = { standard: { 13: 10 }, aces: { 1: 25, 10: 10, 11: 10, 12: 10, 13: 10 } };
const OTHER_POINTS = { standard: 1, aces: 5 };
const LISTED = "kcsolve corner rules lists them";

/** Python's repr of a short text, for error lines that must read as kcsolve's. */
function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const body = text.replace(/\\/g, "\\\\").replace(quote === "'" ? /'/g : /"/g, `\\${quote}`);
  return quote + body + quote;
}

/** A JSON value as JSON cut to 40 characters, as kcsolve's error lines show it. */
function brief(value) {
  let text;
  try {
    text = value === undefined ? "None" : JSON.stringify(value).replace(/,/g, ", ").replace(/":/g, '": ');
  } catch {
    text = String(value);
  }
  return text.length <= 40 ? text : `${text.slice(0, 37)}...`;
}

/** Refuse a value of option `name` (of the type records write) that the option does not take. */
export function checkOption(name, value) {
  if (FLAGS.includes(name)) {
    if (typeof value !== "boolean") throw new CornerError(`rule ${pyRepr(name)} takes true or false, not ${brief(value)}`);
  } else if (name in NUMBERS) {
    if (!Number.isInteger(value) || value < 1 || value > NUMBERS[name]) {
      throw new CornerError(`rule ${pyRepr(name)} takes a whole number from 1 to ${NUMBERS[name]}, not ${brief(value)}`);
    }
  } else if (!CHOICES[name].includes(value)) {
    throw new CornerError(`rule ${pyRepr(name)} takes ${CHOICES[name].join(" or ")}, not ${brief(value)}`);
  }
}

/** The rules unless an option can never act (until_play with draw=start), as check_acting refuses it. */
export function checkActing(rules) {
  if (rules.until_play && rules.draw === "start") {
    throw new CornerError("draw=start never acts with until_play=yes: leave one of them out");
  }
  return rules;
}

/** Read `default` or options joined with '+', as parse_corner_rules does. */
export function parseRules(text) {
  if (typeof text !== "string") throw new CornerError("rules are a text such as 'draw=start'");
  if (text.trim() === "" || text.trim() === "default") return DEFAULT_RULES;
  const settings = {};
  const source = {};
  for (const token of text.split("+")) {
    const cut = token.trim().indexOf("=");
    const name = (cut < 0 ? token.trim() : token.trim().slice(0, cut)).replace(/-/g, "_");
    const value = cut < 0 ? "" : token.trim().slice(cut + 1);
    let setting;
    if (name in CHOICES) {
      if (!CHOICES[name].includes(value)) {
        throw new CornerError(`option ${pyRepr(name)} takes ${CHOICES[name].join(" or ")}, not ${pyRepr(value)}`);
      }
      setting = value;
    } else if (FLAGS.includes(name)) {
      if (value !== "yes" && value !== "no") throw new CornerError(`option ${pyRepr(name)} takes yes or no, not ${pyRepr(value)}`);
      setting = value === "yes";
    } else if (name in NUMBERS) {
      const digits = value.replace(/^0+/, "");
      const ok = /^[0-9]+$/.test(value) && digits.length <= String(NUMBERS[name]).length
        && Number(digits || "0") >= 1 && Number(digits) <= NUMBERS[name];
      if (!ok) throw new CornerError(`option ${pyRepr(name)} takes a whole number from 1 to ${NUMBERS[name]}, not ${pyRepr(value)}`);
      setting = Number(digits);
    } else {
      throw new CornerError(`unknown Kings Corner option ${pyRepr(token.trim())} (${LISTED})`);
    }
    if (name in settings && settings[name] !== setting) {
      throw new CornerError(`rules ${pyRepr(text)} set ${name} twice: ${pyRepr(source[name])} and ${pyRepr(token.trim())} disagree`);
    }
    settings[name] = setting;
    source[name] = token.trim();
  }
  return checkActing(Object.freeze({ ...DEFAULT_RULES, ...settings }));
}

/** Rules from a record's JSON object (every key optional), as rules_from_json reads them. */
export function rulesFromJson(data) {
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new CornerError(`rules must be a JSON object, not ${Array.isArray(data) ? "list" : data === null ? "NoneType" : typeof data}`);
  }
  const rules = { ...DEFAULT_RULES };
  for (const [name, given] of Object.entries(data)) {
    const key = name.replace(/-/g, "_");
    let value = given;
    if (key === "under" && typeof value === "boolean") value = value ? "yes" : "no"; // format 1 wrote a flag
    if (!OPTION_NAMES.includes(key)) throw new CornerError(`unknown Kings Corner rule ${brief(name)} (${LISTED})`);
    checkOption(key, value);
    rules[key] = value;
  }
  return checkActing(Object.freeze(rules));
}

/** The rule text of `rules`: the options away from their defaults, joined with '+', or 'default'. */
export function rulesText(rules) {
  const show = (value) => (typeof value === "boolean" ? (value ? "yes" : "no") : String(value));
  const changed = OPTION_NAMES.filter((name) => rules[name] !== DEFAULT_RULES[name]).map((name) => `${name}=${show(rules[name])}`);
  return changed.join("+") || "default";
}

/** Every option and its value, in the fields' order, as CornerRules.to_json writes them. */
export function rulesJson(rules) {
  return Object.fromEntries(OPTION_NAMES.map((name) => [name, rules[name]]));
}

/** Cards in the turn's draw. */
export function drawn(rules) {
  return rules.draw_two ? 2 : 1;
}

/** Penalty points of a card of rank `r` left in hand. */
export function points(rules, r) {
  return SCORING[rules.scoring][r] ?? OTHER_POINTS[rules.scoring];
}

// ---- cards ----

/** Rank 1 (Ace) .. 13 (King). */
export function rank(card) {
  return (card % 13) + 1;
}

/** Hearts and Diamonds are red. */
export function red(card) {
  const suit = Math.floor(card / 13);
  return suit === 1 || suit === 2;
}

/** The two-letter name of a card ('QH'). */
export function cardText(card) {
  return RANKS[card % 13] + SUITS[Math.floor(card / 13)];
}

/** The card a text names ('QH', '10h', 'qh'); CornerError if it names none. */
export function parseCard(text) {
  const match = /^(10|[A2-9TJQK])([SHDC])$/i.exec(String(text).trim());
  if (!match) throw new CornerError(`not a suited card: ${pyRepr(String(text).slice(0, 20))}`);
  const r = match[1] === "10" ? 10 : RANKS.indexOf(match[1].toUpperCase()) + 1;
  return SUITS.indexOf(match[2].toUpperCase()) * 13 + r - 1;
}

const FITS = new Uint8Array(52 * 52);
for (let card = 0; card < 52; card++) {
  for (let below = 0; below < 52; below++) FITS[card * 52 + below] = rank(card) === rank(below) - 1 && red(card) !== red(below) ? 1 : 0;
}

/** True when `card` may lie on `below`: one rank lower, the other colour. */
export function fitsOn(card, below) {
  return FITS[card * 52 + below] === 1;
}

// ---- moves ----

export const END = Object.freeze({ kind: "end" });

/** A card from hand onto a pile (or to start an empty one). */
export function play(card, pile) {
  return { kind: "play", card, pile };
}

/** A whole side pile moved onto another. */
export function merge(source, target) {
  return { kind: "merge", source, target };
}

/** A card from hand put under a pile's base. */
export function under(card, pile) {
  return { kind: "under", card, pile };
}

/** A move as records and the command line write it: 'play QH N', 'merge S N', 'under 9H W', 'end'. */
export function moveText(move) {
  if (move.kind === "end") return "end";
  if (move.kind === "merge") return `merge ${PILES[move.source]} ${PILES[move.target]}`;
  return `${move.kind} ${cardText(move.card)} ${PILES[move.pile]}`;
}

/** Read 'play QH N', 'merge S N', 'under 9H W' or 'end'. */
export function parseMove(text) {
  const words = String(text).split(/\s+/).filter(Boolean);
  if (words.length === 1 && words[0] === "end") return END;
  if (words.length === 3) {
    const pile = PILES.indexOf(words[2].toUpperCase());
    if ((words[0] === "play" || words[0] === "under") && pile >= 0) {
      try {
        return words[0] === "play" ? play(parseCard(words[1]), pile) : under(parseCard(words[1]), pile);
      } catch {
        // not a card: refused below
      }
    }
    const source = PILES.indexOf(words[1].toUpperCase());
    if (words[0] === "merge" && source >= 0 && pile >= 0) return merge(source, pile);
  }
  throw new CornerError(`not a move: ${pyRepr(String(text).slice(0, 40))} (moves: 'play QH N', 'merge S N', 'under 9H W', 'end')`);
}

/** The OpenSpiel-style number of a move (docs/CORNER.md): plays 0..415, unders 416..831, merges, end 864. */
export function actionOf(move) {
  if (move.kind === "end") return 864;
  if (move.kind === "merge") return 832 + move.source * 8 + move.target;
  return (move.kind === "under" ? 416 : 0) + move.card * 8 + move.pile;
}

/** Whether two moves are the same move. */
export function sameMove(a, b) {
  return actionOf(a) === actionOf(b);
}

// ---- positions (engine.py's Position) ----

export const NO_MARKS = Object.freeze({ opened: 0, underPlayed: false, closing: -1 });

/** A position from its parts; hands sorted, stock[0] the next card drawn. */
export function makePosition(rules, piles, hands, stock, player = 0, moved = false, marks = NO_MARKS, winners = [], over = false) {
  return { rules, piles, hands, stock, player, moved, marks, winners, over };
}

/** The position with some fields changed: every field written out, so every position has one shape (a spread
 * made a new object shape for each set of changes, and the search bot's playouts make millions of positions). */
function withFields(p, c) {
  return {
    rules: p.rules,
    piles: c.piles ?? p.piles,
    hands: c.hands ?? p.hands,
    stock: c.stock ?? p.stock,
    player: c.player ?? p.player,
    moved: c.moved ?? p.moved,
    marks: c.marks ?? p.marks,
    winners: c.winners ?? p.winners,
    over: c.over ?? p.over,
  };
}

/** The hand of the player to move. */
export function handOf(position) {
  return position.hands[position.player];
}

/** True when a side spot (N, E, S, W) is empty. */
export function sideOpen(piles) {
  return !piles[0].length || !piles[1].length || !piles[2].length || !piles[3].length;
}

/** False while the strict play-under obliges the player to fill the vacancy before the turn ends. */
export function endingAllowed(rules, marks) {
  return !(rules.under === "strict" && marks.underPlayed && marks.closing < 0);
}

/** Whether a card may go under a pile now. */
export function underOpen(piles, rules, marks) {
  if (rules.under === "yes") return sideOpen(piles);
  if (rules.under === "strict") {
    if (marks.closing >= 0) return false;
    for (let i = 0; i < 4; i++) if ((marks.opened >> i) & 1 && !piles[i].length) return true;
  }
  return false;
}

/** The moves other than the end of the turn open to a hand on these piles, in engine.py's order. */
export function boardMoves(piles, hand, rules, marks = NO_MARKS) {
  const moves = [];
  if (marks.closing >= 0) {
    const top = piles[marks.closing][piles[marks.closing].length - 1];
    for (const card of hand) if (fitsOn(card, top)) moves.push(play(card, marks.closing));
    return moves;
  }
  const beneath = underOpen(piles, rules, marks);
  for (const card of hand) {
    for (let pile = 0; pile < 8; pile++) {
      const cards = piles[pile];
      if (cards.length) {
        if (fitsOn(card, cards[cards.length - 1])) moves.push(play(card, pile));
        if (beneath && fitsOn(cards[0], card)) moves.push(under(card, pile));
      } else if (pile < 4 || rank(card) === KING) {
        moves.push(play(card, pile));
      }
    }
  }
  for (let source = 0; source < 4; source++) {
    if (!piles[source].length) continue;
    for (let target = 0; target < 8; target++) {
      const onto = piles[target];
      if (target !== source && onto.length && fitsOn(piles[source][0], onto[onto.length - 1])) moves.push(merge(source, target));
    }
  }
  return moves;
}

/** Whether any board move is open: boardMoves' tests, stopping at the first (the impasse check runs it for
 * every hand after every turn, and the search bot's playouts run thousands of turns a decision). */
export function hasBoardMove(piles, hand, rules, marks = NO_MARKS) {
  if (marks.closing >= 0) {
    const top = piles[marks.closing][piles[marks.closing].length - 1];
    return hand.some((card) => fitsOn(card, top));
  }
  const beneath = underOpen(piles, rules, marks);
  for (const card of hand) {
    for (let pile = 0; pile < 8; pile++) {
      const cards = piles[pile];
      if (cards.length) {
        if (fitsOn(card, cards[cards.length - 1]) || (beneath && fitsOn(cards[0], card))) return true;
      } else if (pile < 4 || rank(card) === KING) return true;
    }
  }
  for (let source = 0; source < 4; source++) {
    if (!piles[source].length) continue;
    for (let target = 0; target < 8; target++) {
      const onto = piles[target];
      if (target !== source && onto.length && fitsOn(piles[source][0], onto[onto.length - 1])) return true;
    }
  }
  return false;
}

/** Piles, hand and marks after a legal board move (no checks). */
export function step(piles, hand, rules, marks, move) {
  const next = piles.slice();
  if (move.kind === "merge") {
    next[move.target] = piles[move.target].concat(piles[move.source]);
    next[move.source] = [];
    if (rules.under === "strict") marks = { ...marks, opened: marks.opened | (1 << move.source) };
    return [next, hand, marks];
  }
  if (move.kind === "play") {
    next[move.pile] = piles[move.pile].concat([move.card]);
    if (marks.underPlayed && marks.closing < 0 && !piles[move.pile].length && (marks.opened >> move.pile) & 1) {
      marks = { ...marks, closing: move.pile };
    }
  } else {
    next[move.pile] = [move.card].concat(piles[move.pile]);
    if (rules.under === "strict") marks = { ...marks, underPlayed: true };
  }
  return [next, hand.filter((c) => c !== move.card), marks];
}

/** Why a board move is not allowed here, or null if it is (engine.py's words). */
export function illegalReason(piles, hand, rules, move, marks = NO_MARKS) {
  if (marks.closing >= 0 && !(move.kind === "play" && move.pile === marks.closing)) {
    return `the vacancy at ${PILES[marks.closing]} is filled: only cards onto it may follow, then the end`;
  }
  if (move.kind === "merge") {
    if (move.source === move.target) return "a pile cannot move onto itself";
    if (move.source >= 4) return "a corner pile never moves";
    const source = piles[move.source];
    const target = piles[move.target];
    if (!source.length || !target.length) return "both piles must hold cards";
    const top = target[target.length - 1];
    if (!fitsOn(source[0], top)) return `${cardText(source[0])} does not go on ${cardText(top)} (one rank lower and the other colour)`;
    return null;
  }
  if (!hand.includes(move.card)) return `${cardText(move.card)} is not in the hand`;
  const cards = piles[move.pile];
  if (move.kind === "under") {
    if (rules.under === "no") return "playing under a pile is not in these rules";
    if (!underOpen(piles, rules, marks)) {
      return rules.under === "yes"
        ? "a card goes under a pile only while a side spot is empty"
        : "a card goes under a pile only while a side spot your pile move emptied this turn is empty";
    }
    if (!cards.length || !fitsOn(cards[0], move.card)) return `${cardText(move.card)} does not go under ${PILES[move.pile]}`;
    return null;
  }
  if (!cards.length) return move.pile >= 4 && rank(move.card) !== KING ? "only a King starts a corner pile" : null;
  const top = cards[cards.length - 1];
  if (!fitsOn(move.card, top)) return `${cardText(move.card)} does not go on ${cardText(top)} (one rank lower and the other colour)`;
  return null;
}

/** True when the stock is empty and the player has not moved yet: a player who can move must, then. */
export function mustMove(position) {
  return !position.stock.length && !position.moved;
}

/** Whether the turn may end here. */
export function mayEnd(position) {
  if (position.over || !endingAllowed(position.rules, position.marks)) return false;
  return !mustMove(position) || !hasBoardMove(position.piles, handOf(position), position.rules, position.marks);
}

/** Every legal move of the player to move, the end of the turn last when allowed; none once the hand is over. */
export function legalMoves(position) {
  if (position.over) return [];
  const moves = boardMoves(position.piles, handOf(position), position.rules, position.marks);
  if (mayEnd(position)) moves.push(END);
  return moves;
}

/** Why `move` is refused here (the engine's words, as IllegalCornerMoveError says them), or null. */
export function whyIllegal(position, move) {
  if (position.over) return `${moveText(move)}: the hand is over`;
  if (move.kind === "end") {
    if (!endingAllowed(position.rules, position.marks)) return "end: a card went under a pile, so the turn ends by filling the vacancy";
    if (!mayEnd(position)) return "end: the stock is empty, so a player who can move must move";
    return null;
  }
  const why = illegalReason(position.piles, handOf(position), position.rules, move, position.marks);
  return why ? `${moveText(move)}: ${why}` : null;
}

/** The position after `move`; throws CornerError with the reason if it is not allowed. */
export function playMove(position, move) {
  const why = whyIllegal(position, move);
  if (why) throw new CornerError(why);
  if (move.kind === "end") return endTurn(position);
  const [piles, hand, marks] = step(position.piles, handOf(position), position.rules, position.marks, move);
  const hands = position.hands.slice();
  hands[position.player] = hand;
  const after = withFields(position, { piles, hands, moved: true, marks });
  return hand.length ? after : outOfCards(after);
}

/** An empty hand goes out: 'draw three' may make the player draw on; 'tie' gives the others a last turn. */
function outOfCards(position) {
  if (position.rules.draw_three && sideOpen(position.piles) && position.stock.length) return drawCards(position, 3);
  const after = withFields(position, { winners: position.winners.concat([position.player]) });
  return position.rules.tie ? passOn(after) : withFields(after, { over: true });
}

/** The player to move draws up to `count` cards from the stock. */
function drawCards(position, count) {
  const hands = position.hands.slice();
  hands[position.player] = handOf(position).concat(position.stock.slice(0, count)).sort((a, b) => a - b);
  return withFields(position, { hands, stock: position.stock.slice(count) });
}

/** Draw if the rules draw at the end, pass the turn on, and begin the next turn. */
function endTurn(position) {
  const { rules } = position;
  const draws = (rules.draw === "end" && !rules.until_play) || (rules.until_play && !position.moved);
  const after = draws && !position.winners.length ? drawCards(position, drawn(rules)) : position;
  return passOn(after);
}

/** The turn passes left; the hand ends in an impasse, or when the last round after going out is played. */
function passOn(position) {
  const after = withFields(position, { player: (position.player + 1) % position.hands.length, moved: false, marks: NO_MARKS });
  if (position.winners.length && after.player === position.winners[0]) return withFields(after, { over: true });
  if (!after.stock.length && !after.hands.some((hand) => hasBoardMove(after.piles, hand, after.rules))) {
    return withFields(after, { over: true }); // an impasse: no card can be drawn or played by anyone
  }
  return beginTurn(after);
}

/** The draws at the start of a turn: the turn's draw, or until a card can be played. */
function beginTurn(position) {
  if (position.rules.until_play) {
    let at = position;
    while (at.stock.length && !hasBoardMove(at.piles, handOf(at), at.rules)) at = drawCards(at, 1);
    return at;
  }
  return position.rules.draw === "start" ? drawCards(position, drawn(position.rules)) : position;
}

/** Penalty points of the cards left in each hand. */
export function penalties(position) {
  return position.hands.map((hand) => hand.reduce((sum, c) => sum + points(position.rules, rank(c)), 0));
}

/** The first player to go out, null while nobody has. */
export function winnerOf(position) {
  return position.winners.length ? position.winners[0] : null;
}

/** Kings Corner is for 2 to 4 players. */
export function checkPlayers(players) {
  if (!Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) {
    throw new CornerError(`Kings Corner is for 2 to 4 players, not ${players}`);
  }
  return players;
}

/** The start of a hand: cards dealt one at a time from the top, then the four side piles, then the stock. */
export function dealHand(deck, players, rules = DEFAULT_RULES) {
  checkPlayers(players);
  const size = rules.hand_size;
  const hands = [];
  for (let p = 0; p < players; p++) {
    const hand = [];
    for (let i = p; i < players * size; i += players) hand.push(deck[i]);
    hands.push(hand.sort((a, b) => a - b));
  }
  const sides = deck.slice(players * size, players * size + 4);
  const piles = sides.map((c) => [c]).concat([[], [], [], []]);
  if (rules.dealt_kings === "corner") {
    let corner = 4;
    sides.forEach((card, i) => {
      if (rank(card) === KING) {
        piles[corner] = [card];
        piles[i] = [];
        corner += 1;
      }
    });
  }
  return beginTurn(makePosition(rules, piles, hands, deck.slice(players * size + 4)));
}

// ---- seeded deals (common/deal.py: SplitMix64 and Fisher-Yates with rejection) ----

const MASK64 = (1n << 64n) - 1n;
const SEED_LIMIT = 1n << 64n;

/** The 52 cards of deal number `seed` (a number or its decimal text), top first, as `kcsolve corner deal` gives. */
export function seededDeck(seed) {
  let state = BigInt(seed);
  if (state < 0n || state >= SEED_LIMIT) throw new CornerError("a deal number is a whole number from 0 to 2**64-1");
  const next = () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  };
  const order = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; i--) {
    const bound = BigInt(i + 1);
    const limit = SEED_LIMIT - (SEED_LIMIT % bound);
    let word = next();
    while (word >= limit) word = next();
    const j = Number(word % bound);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order; // pack index i is card int i: suits S H D C, each Ace to King
}

// ---- records (record.py) ----

/** Whole numbers as JSON has them (never true or false). */
function isCount(value) {
  return Number.isInteger(value);
}

/** A JSON value's type in JSON's words, for an error line. */
function kind(value) {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return "a list";
  return { object: "an object", string: "a string", number: "a number" }[typeof value] ?? typeof value;
}

/** A record's deck: 52 distinct suited cards. */
function readDeck(value, source) {
  if (!Array.isArray(value) || !value.every((c) => typeof c === "string")) throw new CornerError(`${source}: 'deck' must be a list of card texts`);
  if (value.length !== 52) throw new CornerError(`${source}: the deck has ${value.length} cards, not 52`);
  let cards;
  try {
    cards = value.map(parseCard);
  } catch (exc) {
    throw new CornerError(`${source}: the deck is not a pack: ${exc.message}`);
  }
  if (new Set(cards).size !== 52) throw new CornerError(`${source}: the deck is not a pack: a card appears twice`);
  return cards;
}

/** A hand record ({deck, players, rules, moves, seed, result, index, bots, lead}) from its JSON object. */
export function readRecord(data, source = "record") {
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw new CornerError(`${source}: a record must be a JSON object, not ${kind(data)}`);
  if (data.format === OLD_RECORD_FORMAT) data = fromFormat1(data, source);
  else if (data.format !== RECORD_FORMAT) throw new CornerError(`${source}: 'format' must be '${RECORD_FORMAT}', not ${brief(data.format)}`);
  const unknown = Object.keys(data).filter((name) => !RECORD_FIELDS.includes(name));
  if (unknown.length) throw new CornerError(`${source}: unknown field ${brief(unknown[0])} (fields: ${RECORD_FIELDS.join(", ")})`);
  if ("game" in data && data.game !== GAME) throw new CornerError(`${source}: 'game' must be '${GAME}', not ${brief(data.game)}`);
  for (const name of ["players", "deck", "moves"]) if (!(name in data)) throw new CornerError(`${source}: the field '${name}' is missing`);
  const deck = readDeck(data.deck, source);
  const { players } = data;
  if (!isCount(players) || players < 2 || players > 4) throw new CornerError(`${source}: 'players' must be 2, 3 or 4, not ${brief(players)}`);
  let rules;
  try {
    rules = rulesFromJson(data.rules ?? {});
  } catch (exc) {
    throw new CornerError(`${source}: ${exc.message}`);
  }
  if (players * rules.hand_size + 4 > 52) throw new CornerError(`${source}: ${players} hands of ${rules.hand_size} do not fit in one deck`);
  let seed = null;
  if ("seed" in data) {
    const ok = typeof data.seed === "number" ? Number.isSafeInteger(data.seed) && data.seed >= 0 : typeof data.seed === "bigint" && data.seed >= 0n && data.seed < SEED_LIMIT;
    if (!ok) throw new CornerError(`${source}: 'seed' must be a deal number from 0 to 2**64-1, not ${brief(data.seed)}`);
    seed = data.seed;
  }
  const index = data.index ?? null;
  if (index !== null && !(isCount(index) && index >= 0)) throw new CornerError(`${source}: 'index' must be a whole number from 0, not ${brief(index)}`);
  const bots = data.bots ?? null;
  if (bots !== null && !(Array.isArray(bots) && bots.length === players && bots.every((b) => typeof b === "string" && b.length > 0 && b.length <= 40))) {
    throw new CornerError(`${source}: 'bots' must be a list of ${players} bot names, not ${brief(bots)}`);
  }
  const strange = (bots ?? []).filter((name) => !BOT_NAMES.includes(name));
  if (strange.length) throw new CornerError(`${source}: 'bots': unknown bot ${pyRepr(strange[0])} (bots: ${BOT_NAMES.join(", ")})`);
  if (!Array.isArray(data.moves) || !data.moves.every((m) => typeof m === "string")) throw new CornerError(`${source}: 'moves' must be a list of move texts`);
  if (data.moves.length > MAX_MOVES) throw new CornerError(`${source}: more than 5,000 moves`);
  const moves = data.moves.map((text, i) => {
    try {
      return parseMove(text);
    } catch (exc) {
      throw new CornerError(`${source}: move ${i + 1}: ${exc.message}`);
    }
  });
  const lead = data.lead ?? null;
  if (lead !== null && !(isCount(lead) && lead >= 0 && lead < players)) throw new CornerError(`${source}: 'lead' must be a player 0 to ${players - 1}, not ${brief(lead)}`);
  const result = "result" in data ? readResult(data.result, players, source) : null;
  return { deck, players, rules, moves, seed, result, index, bots, lead };
}

/** A format 1 record in format 2's fields. */
function fromFormat1(data, source) {
  const renamed = {};
  for (const [key, value] of Object.entries(data)) {
    renamed[key === "game" && isCount(value) ? "index" : key === "seats" ? "bots" : key] = value;
  }
  const result = renamed.result;
  if (result && typeof result === "object" && "winner" in result) {
    const { winner, ...rest } = result;
    if (winner !== null && !isCount(winner)) throw new CornerError(`${source}: result 'winner' must be a seat or null, not ${brief(winner)}`);
    renamed.result = { ...rest, winners: winner === null ? [] : [winner] };
  }
  return renamed;
}

/** A record's claimed result: 'over', 'winners', 'penalties'. */
function readResult(value, players, source) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new CornerError(`${source}: 'result' must be a JSON object, not ${kind(value)}`);
  const unknown = Object.keys(value).filter((name) => !RESULT_FIELDS.includes(name));
  if (unknown.length) throw new CornerError(`${source}: unknown result field ${brief(unknown[0])} (fields: ${RESULT_FIELDS.join(", ")})`);
  if ("over" in value && typeof value.over !== "boolean") throw new CornerError(`${source}: result 'over' must be true or false, not ${brief(value.over)}`);
  const winners = value.winners ?? [];
  if (!(Array.isArray(winners) && winners.every((w) => isCount(w) && w >= 0 && w < players) && new Set(winners).size === winners.length)) {
    throw new CornerError(`${source}: result 'winners' must be a list of distinct seats 0 to ${players - 1}, not ${brief(winners)}`);
  }
  const pens = value.penalties ?? new Array(players).fill(0);
  if (!(Array.isArray(pens) && pens.length === players && pens.every((p) => isCount(p) && p >= 0))) {
    throw new CornerError(`${source}: result 'penalties' must be a list of ${players} whole numbers from 0, not ${brief(pens)}`);
  }
  return { ...value };
}

/** What a hand came to: who went out, in order, and the penalty points, players counted from the lead. */
export function resultOf(position, lead = 0) {
  const players = position.hands.length;
  const pts = penalties(position);
  return {
    over: position.over,
    winners: position.winners.map((s) => (lead + s) % players),
    penalties: Array.from({ length: players }, (_, p) => pts[(((p - lead) % players) + players) % players]),
  };
}

/** A hand record as JSON, in the schema's order of fields. */
export function writeRecord({ deck, players, rules, moves, seed = null, result = null, index = null, bots = null, lead = null }) {
  const data = { format: RECORD_FORMAT, game: GAME, players };
  if (seed !== null) data.seed = seed;
  if (index !== null) data.index = index;
  if (bots !== null) data.bots = bots.slice();
  if (lead !== null) data.lead = lead;
  data.rules = rulesJson(rules);
  data.deck = deck.map(cardText);
  data.moves = moves.map(moveText);
  if (result !== null) data.result = result;
  return data;
}

/** The positions a record passes through, and its first illegal move (as record.py words it) if any. */
export function replay(record) {
  let position = dealHand(record.deck, record.players, record.rules);
  const positions = [position];
  for (const [i, move] of record.moves.entries()) {
    const why = whyIllegal(position, move);
    if (why) {
      const person = ((record.lead ?? 0) + position.player) % record.players;
      return { positions, error: `move ${i + 1} (player ${person + 1}): ${why}` };
    }
    position = playMove(position, move);
    positions.push(position);
  }
  return { positions, error: null };
}

/** '1 move', '2 moves', '1,000 moves'. */
function plural(n, word) {
  return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}

/** Who went out, seats from 1: 'player 2 went out and players 1 and 3 tied'. */
export function winnersText(winners) {
  const first = `player ${winners[0] + 1} went out`;
  if (winners.length === 1) return first;
  const tied = winners.slice(1).map((w) => String(w + 1));
  const names = tied.length === 1 ? tied[0] : `${tied.slice(0, -1).join(", ")} and ${tied[tied.length - 1]}`;
  return `${first} and ${tied.length === 1 ? "player" : "players"} ${names} tied`;
}

/** A result field as a player reads it. */
function inWords(key, value) {
  if (key === "winners") return value.length ? winnersText(value) : "no winner";
  if (key === "penalties") return `penalty points ${value.map((p, i) => `player ${i + 1}: ${p}`).join(", ")}`;
  return value ? "the hand over" : "the hand not over";
}

/** One line on how a hand ended, as describe_result says it. */
export function describeResult(position, lead = 0) {
  const found = resultOf(position, lead);
  const pts = found.penalties.map((p, i) => `player ${i + 1}: ${p}`).join(", ");
  if (!position.winners.length) return `impasse: no card can be drawn or played; penalty points ${pts}`;
  return `${winnersText(found.winners)}; penalty points ${pts}`;
}

/** Whether two JSON values are equal (lists and numbers, as the result fields hold). */
function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** [true, summary] when a hand record is good, else [false, the first thing wrong], as judge_corner says. */
export function judgeRecord(record) {
  if (record.seed !== null) {
    const dealt = seededDeck(record.seed);
    const place = dealt.findIndex((card, i) => card !== record.deck[i]);
    if (place >= 0) {
      return [false, `deal number ${record.seed} does not give this deck: card ${place + 1} is ${cardText(dealt[place])}, not ${cardText(record.deck[place])}`];
    }
  }
  const played = replay(record);
  if (played.error) return [false, `illegal ${played.error}`];
  const final = played.positions[played.positions.length - 1];
  const found = resultOf(final, record.lead ?? 0);
  for (const key of RESULT_FIELDS) {
    if (record.result !== null && key in record.result && !sameJson(record.result[key], found[key])) {
      return [false, `the record claims ${inWords(key, record.result[key])}; the replay gives ${inWords(key, found[key])}`];
    }
  }
  if (!final.over) return [false, `unfinished after ${plural(record.moves.length, "move")}`];
  return [true, describeResult(final, record.lead ?? 0)];
}

/** A game record ({players, rules, hands, index, bots, result}) from its JSON object. */
export function readGame(data, source = "record") {
  const unknown = Object.keys(data).filter((name) => !GAME_FIELDS.includes(name));
  if (unknown.length) throw new CornerError(`${source}: unknown field ${brief(unknown[0])} (fields: ${GAME_FIELDS.join(", ")})`);
  if ("game" in data && data.game !== GAME) throw new CornerError(`${source}: 'game' must be '${GAME}', not ${brief(data.game)}`);
  const { players, hands } = data;
  if (!(isCount(players) && players >= 2 && players <= 4)) throw new CornerError(`${source}: 'players' must be 2, 3 or 4, not ${brief(players)}`);
  let rules;
  try {
    rules = rulesFromJson(data.rules ?? {});
  } catch (exc) {
    throw new CornerError(`${source}: ${exc.message}`);
  }
  if (!Array.isArray(hands) || !hands.length || !hands.every((h) => h && typeof h === "object" && !Array.isArray(h))) {
    throw new CornerError(`${source}: 'hands' must be a list of hand records, one at least`);
  }
  const records = hands.map((hand, n) => readRecord(hand, `${source}: hand ${n + 1}`));
  records.forEach((record, n) => {
    if (record.players !== players || rulesText(record.rules) !== rulesText(rules)) throw new CornerError(`${source}: hand ${n + 1}: its players and rules must be the game's`);
  });
  const index = data.index ?? null;
  const bots = data.bots ?? null;
  if (index !== null && !(isCount(index) && index >= 0)) throw new CornerError(`${source}: 'index' must be a whole number from 0, not ${brief(index)}`);
  if (bots !== null && !(Array.isArray(bots) && bots.length === players && bots.every((b) => BOT_NAMES.includes(b)))) {
    throw new CornerError(`${source}: 'bots' must be a list of ${players} bot names, not ${brief(bots)}`);
  }
  const result = data.result ?? null;
  if (result !== null) {
    if (typeof result !== "object" || Array.isArray(result) || Object.keys(result).some((name) => name !== "totals" && name !== "winners")) {
      throw new CornerError(`${source}: 'result' must be an object with totals and winners`);
    }
    for (const name of ["totals", "winners"]) {
      const value = result[name] ?? [];
      if (!(Array.isArray(value) && value.every((v) => isCount(v) && v >= 0))) throw new CornerError(`${source}: result '${name}' must be a list of whole numbers, not ${brief(value)}`);
    }
  }
  return { players, rules, hands: records, index, bots, result };
}

/** A hand record or a game record, by its format. */
export function readAny(data, source = "record") {
  if (data && data.format === "kcsolve-corner-game/1") throw new CornerError(`${source}: a kcsolve-corner-game/1 record holds totals only, no hands to replay`);
  if (data && typeof data === "object" && data.format === GAME_FORMAT) return { kind: "game", game: readGame(data, source) };
  return { kind: "hand", record: readRecord(data, source) };
}

/** [true, summary] when a game record is good, else [false, the first thing wrong], as judge_game says. */
export function judgeGame(game) {
  let totals = new Array(game.players).fill(0);
  for (const [i, hand] of game.hands.entries()) {
    const number = i + 1;
    if (Math.max(...totals) >= game.rules.target) return [false, `hand ${number} was played after a player reached ${game.rules.target} points`];
    const lead = i % game.players;
    if ((hand.lead ?? 0) !== lead) return [false, `hand ${number} is led by player ${(hand.lead ?? 0) + 1}; the lead passes left, so player ${lead + 1} leads it`];
    const [good, summary] = judgeRecord(hand);
    if (!good) return [false, `hand ${number}: ${summary}`];
    const played = replay(hand);
    const pts = resultOf(played.positions[played.positions.length - 1], lead).penalties;
    totals = totals.map((t, p) => t + pts[p]);
  }
  if (Math.max(...totals) < game.rules.target) return [false, `unfinished: after ${plural(game.hands.length, "hand")} nobody has ${game.rules.target} points`];
  const low = Math.min(...totals);
  const winners = totals.flatMap((t, p) => (t === low ? [p] : []));
  const found = { totals, winners };
  for (const key of ["totals", "winners"]) {
    if (game.result !== null && key in game.result && !sameJson(game.result[key], found[key])) {
      return [false, `the record claims ${key} ${pyList(game.result[key])}; the replay gives ${pyList(found[key])}`];
    }
  }
  const who = winners.length === 1 ? `player ${winners[0] + 1} wins` : `a tie between players ${winners.map((w) => w + 1).join(" and ")}`;
  const shown = totals.map((t, p) => `player ${p + 1}: ${t}`).join(", ");
  return [true, `${plural(game.hands.length, "hand")}; ${who} with the lowest total; totals ${shown}`];
}

/** A list of numbers as Python prints it. */
function pyList(values) {
  return `[${values.join(", ")}]`;
}

/** The game record of hands played to the target: each hand's {seed, deck, moves}, hand h led by player h mod players. */
export function writeGame(players, rules, hands, bots = null) {
  const records = hands.map((hand, h) => {
    const lead = h % players;
    const record = { deck: hand.deck, players, rules, moves: hand.moves, seed: hand.seed ?? null, lead };
    const played = replay(record);
    return writeRecord({ ...record, result: resultOf(played.positions[played.positions.length - 1], lead) });
  });
  const totals = new Array(players).fill(0);
  for (const record of records) record.result.penalties.forEach((p, i) => { totals[i] += p; });
  const low = Math.min(...totals);
  const data = { format: GAME_FORMAT, game: GAME, players };
  if (bots !== null) data.bots = bots.slice();
  data.rules = rulesJson(rules);
  data.hands = records;
  data.result = { totals, winners: totals.flatMap((t, p) => (t === low ? [p] : [])) };
  return data;
}

// ---- JSON text with deal numbers past 2**53 (JSON.parse would round them) ----

const BIG = "\u0000kcsolve-big:"; // a string no record holds: JSON texts write U+0000 as an escape
const BIG_TEXT = "\\u0000kcsolve-big:"; // the same in JSON text

/** A record's JSON text read with every 'seed' kept exact: one past 2**53 becomes a BigInt. */
export function parseJson(text) {
  const marked = text.replace(/("seed"\s*:\s*)(\d{16,})(?=\s*[,}])/g, (_, head, digits) => `${head}"${BIG_TEXT}${digits}"`);
  return JSON.parse(marked, (_, value) => (typeof value === "string" && value.startsWith(BIG) ? bigOrNumber(value.slice(BIG.length)) : value));
}

/** A whole number's digits as a number when it is exact, else as a BigInt. */
function bigOrNumber(digits) {
  const big = BigInt(digits);
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

/** JSON text of a record, a BigInt seed written as its digits. */
export function jsonText(data, indent = 0) {
  const text = JSON.stringify(data, (_, value) => (typeof value === "bigint" ? `${BIG}${value}` : value), indent || undefined);
  return text.replace(/"\\u0000kcsolve-big:(\d+)"/g, "$1");
}
