// The Kings Corner table in the browser: you (player 1) and 1 to 3 bots, one hand or a match to the target.
// The dealer's state (the deck, every hand) lives only in this module's closure; the page, its DOM and
// window.kcCorner.state() hold what player 1 may know: its hand, the piles and the counts. Each bot decides
// from its own seat's view (bots.mjs viewOf). Data reaches the page as textContent only.
import {
  CornerError, END, FLAGS, NUMBERS, OPTION_NAMES, PILES, cardText, dealHand, handOf, jsonText, legalMoves, merge,
  parseCard, parseJson, play, playMove, rank, readAny, red, replay, resultOf, rulesFromJson, rulesText, sameMove,
  seededDeck, under, whyIllegal, writeGame, writeRecord,
} from "./engine.mjs";
import { SearchBot, WEB_BOTS, makeBot, viewOf } from "./bots.mjs";

const SUIT_SIGNS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = ["ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"];
const STATS_KEY = "kcsolve-corner-stats";
const $ = (id) => document.getElementById(id);

let table = null; // the dealer's state: never exposed
let selected = null; // {kind: "card", card} or {kind: "pile", pile}
let skipping = false;
let busy = false;

/** A card as people say it: 'queen of hearts'. */
function cardWords(card) {
  const text = cardText(card);
  return `${RANK_NAMES[rank(card) - 1]} of ${SUIT_NAMES[text[1]]}`;
}

/** A card as drawn: rank and suit sign. */
function cardFace(card) {
  const text = cardText(card);
  return `${text[0] === "T" ? "10" : text[0]}${SUIT_SIGNS[text[1]]}`;
}

/** The element, hidden from screen readers (it draws what a hidden text beside it says). */
function hiddenFace(element) {
  element.setAttribute("aria-hidden", "true");
  return element;
}

/** A new element with a class and text. */
function make(tag, className = "", text = "") {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text) element.textContent = text;
  return element;
}

/** The engine seat of player `p` in the current hand (the lead is engine seat 0). */
function seatOf(p) {
  return (((p - table.lead) % table.players) + table.players) % table.players;
}

/** The player sitting in engine seat `s`. */
function personOf(s) {
  return (table.lead + s) % table.players;
}

/** What player 1 may know now: its hand, the piles and the counts; never another seat's card. */
function playerState() {
  if (!table) return null;
  const view = viewOf(table.position, seatOf(0));
  return {
    players: table.players,
    bots: table.bots.slice(),
    rules: rulesText(table.rules),
    piles: view.piles.map((pile) => pile.map(cardText)),
    hand: view.hand.map(cardText),
    handSizes: Array.from({ length: table.players }, (_, p) => view.handSizes[seatOf(p)]),
    stock: view.stockSize,
    toMove: personOf(view.toMove),
    over: view.over,
    totals: table.totals.slice(),
    replaying: Boolean(table.replay),
  };
}

/** Say something in the status line. */
function say(text) {
  $("kc-message").textContent = text;
}

/** Wait `ms` milliseconds unless the bots' turns are being skipped. */
function pause(ms) {
  return skipping || ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

/** A move in words, player-facing. */
function moveWords(move) {
  if (move.kind === "end") return "ends the turn";
  if (move.kind === "merge") return `moves pile ${PILES[move.source]} onto ${PILES[move.target]}`;
  return `${move.kind === "under" ? "puts" : "plays"} ${cardFace(move.card)} ${move.kind === "under" ? "under" : "on"} ${PILES[move.pile]}`;
}

// ---- drawing ----

/** Draw the piles, the seats, the hand and the controls from player 1's knowledge. */
function draw() {
  const state = playerState();
  const { position } = table;
  const mine = !position.over && !table.replay && position.player === seatOf(0);
  PILES.forEach((name, pile) => {
    const spot = $(`kc-pile-${name}`);
    const cards = position.piles[pile];
    spot.replaceChildren();
    spot.append(make("span", "pile-name", name));
    // The drawn faces are hidden from screen readers, which read the words instead (the name stays visible text).
    if (cards.length) {
      const top = cards[cards.length - 1];
      spot.append(hiddenFace(make("span", `face ${red(top) ? "red" : "black"}`, cardFace(top))));
      spot.append(hiddenFace(make("span", "pile-base", cards.length > 1 ? `from ${cardFace(cards[0])}, ${cards.length}` : "")));
      spot.append(make("span", "visually-hidden", `: ${cardWords(top)}${cards.length > 1 ? `, on ${cards.length - 1} more from ${cardWords(cards[0])}` : ""}`));
    } else {
      spot.append(hiddenFace(make("span", "face empty", pile < 4 ? "any" : "K")));
      spot.append(make("span", "visually-hidden", `: empty${pile < 4 ? "" : ", a King starts it"}`));
    }
    spot.setAttribute("aria-pressed", String(selected?.kind === "pile" && selected.pile === pile));
    spot.draggable = mine && pile < 4 && cards.length > 0;
  });
  $("kc-stock").textContent = `Stock ${state.stock}`;
  const seats = $("kc-seats");
  seats.replaceChildren();
  for (let p = 0; p < table.players; p++) {
    const item = make("li", position.player === seatOf(p) && !position.over ? "seat to-move" : "seat");
    item.append(make("b", "", p === 0 ? "You" : `Player ${p + 1}`));
    item.append(make("span", "", p === 0 ? "" : ` (${table.bots[p]})`));
    item.append(make("span", "small", ` ${state.handSizes[p]} cards, ${state.totals[p]} points`));
    seats.append(item);
  }
  const hand = $("kc-hand");
  hand.replaceChildren();
  for (const card of handOf({ ...position, player: seatOf(0) })) {
    const button = make("button", `card ${red(card) ? "red" : "black"}`);
    button.append(hiddenFace(make("span", "", cardFace(card))), make("span", "visually-hidden", cardWords(card)));
    button.type = "button";
    button.dataset.card = cardText(card);
    button.setAttribute("aria-pressed", String(selected?.kind === "card" && selected.card === card));
    button.draggable = mine;
    button.disabled = !mine;
    hand.append(button);
  }
  $("kc-end").disabled = !mine;
  $("kc-undo").disabled = !mine || table.turnStart === null || table.turnStart === table.moves.length;
  $("kc-hint").disabled = !mine;
  $("kc-skip").disabled = mine || position.over;
  $("kc-next").hidden = !position.over || Boolean(table.replay);
  $("kc-export").hidden = !position.over || Boolean(table.replay);
  drawLog();
}

// ---- the game ----

/** The rules the setup form's choices make, as a record's rules object is read (the same checks). */
function formRules() {
  const data = {};
  for (const name of OPTION_NAMES) {
    const value = $(`kc-rule-${name}`).value;
    data[name] = FLAGS.includes(name) ? value === "yes" : name in NUMBERS ? Number(value) : value;
  }
  return rulesFromJson(data);
}

/** Show the form's rules as a rule text, or why they cannot be played. */
function showRulesText() {
  try {
    $("kc-rules-text").textContent = rulesText(formRules());
  } catch (exc) {
    $("kc-rules-text").textContent = `not playable: ${exc.message}`;
  }
}

/** Seat the table from the setup form and deal the first hand. */
function startGame() {
  let rules;
  try {
    rules = formRules();
  } catch (exc) {
    say(`Rules: ${exc.message}`);
    return;
  }
  const players = Number($("kc-players").value);
  const bots = ["you"];
  for (let p = 1; p < players; p++) bots.push($(`kc-bot-${p + 1}`).value);
  table = {
    players, bots, rules, match: $("kc-match").checked, totals: new Array(players).fill(0), hands: [], lead: 0,
    seats: bots.map((name, p) => (p === 0 ? null : makeBot(name, p))), replay: null,
  };
  $("kc-setup-box").open = false;
  dealNext();
  // The Deal button sits below the table: bring the piles and the hand back into view (a phone's screen).
  document.querySelector(".table").scrollIntoView({ block: "start" });
}

/** Deal the next hand of the game, its lead the next player to the left. */
function dealNext() {
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  table.lead = table.hands.length % table.players;
  table.seed = seed;
  table.deck = seededDeck(seed);
  table.position = dealHand(table.deck, table.players, table.rules);
  table.moves = [];
  table.history = [table.position];
  table.turnStart = null;
  table.log = null;
  table.seats.forEach((bot, p) => { if (bot instanceof SearchBot) table.seats[p] = makeBot("search", seed + p); });
  selected = null;
  say(`A new hand: ${table.lead === 0 ? "you lead" : `player ${table.lead + 1} leads`}.`);
  draw();
  runBots();
}

/** Note a move in the list of the turn's moves; a new mover starts a new list (a bot's stays until the next). */
function logMove(person, move) {
  if (!table.log || table.log.person !== person || table.log.ended) table.log = { person, words: [], ended: false };
  table.log.words.push(moveWords(move));
  table.log.ended = move.kind === "end";
}

/** Draw the list of moves of this turn, or of the last turn played. */
function drawLog() {
  const log = table.log;
  $("kc-log-box").hidden = !log;
  const who = !log ? "" : log.person === 0 ? "Your" : `Player ${log.person + 1}'s`;
  // A turn also ends without an end move: going out, or filling the vacancy under the strict play-under.
  const ended = log && (log.ended || table.position.over || personOf(table.position.player) !== log.person);
  $("kc-log-title").textContent = !log ? "Moves this turn" : `${who} ${ended ? "last turn" : "moves this turn"}`;
  $("kc-log").replaceChildren(...(log ? log.words.map((words) => make("li", "", words)) : []));
}

/** Make a move for the player to move (the engine checks it); the hand's end is scored. */
function apply(move) {
  logMove(personOf(table.position.player), move);
  table.position = playMove(table.position, move);
  table.moves.push(move);
  table.history.push(table.position);
  if (table.position.over) finishHand();
}

/** Play the bots' turns one move at a time at the chosen pace, until it is player 1's turn or the hand is over. */
async function runBots() {
  if (busy) return;
  busy = true;
  skipping = false;
  const pace = Number($("kc-pace").value);
  while (!table.position.over && table.position.player !== seatOf(0)) {
    const seat = table.position.player;
    const person = personOf(seat);
    const move = table.seats[person].choose(viewOf(table.position, seat));
    say(`Player ${person + 1} ${moveWords(move)}.`);
    apply(move); // after the words: the hand's end says its own
    draw();
    await pause(pace);
  }
  busy = false;
  skipping = false;
  if (!table.position.over) {
    table.turnStart = table.moves.length;
    say(`${$("kc-message").textContent} Your turn.`.trim());
    draw();
  }
}

/** Player 1 tries a move: made if legal, else refused with the engine's reason. */
function tryMove(move) {
  if (!table || busy || table.position.over || table.position.player !== seatOf(0)) return;
  const why = whyIllegal(table.position, move);
  selected = null;
  if (why) {
    say(`Not allowed: ${why}.`);
    draw();
    return;
  }
  say(`You ${moveWords(move).replace(/^(plays|puts|moves|ends)/, (w) => w.slice(0, -1))}.`);
  apply(move); // after the words: the hand's end says its own
  draw();
  if (move.kind === "end" || table.position.over) runBots();
}

/** The move a card dropped on a pile makes: onto it, or under it when only that is legal. */
function cardMove(card, pile) {
  const onto = play(card, pile);
  const beneath = under(card, pile);
  const legal = legalMoves(table.position);
  return legal.some((m) => sameMove(m, onto)) || !legal.some((m) => sameMove(m, beneath)) ? onto : beneath;
}

/** A tap on a pile: the chosen card goes there, the chosen pile moves onto it, or the pile is chosen. */
function tapPile(pile) {
  if (!table || table.replay) return;
  if (selected?.kind === "card") tryMove(cardMove(selected.card, pile));
  else if (selected?.kind === "pile") {
    if (selected.pile === pile) selected = null;
    else return tryMove(merge(selected.pile, pile));
  } else if (table.position.piles[pile].length && pile < 4) {
    selected = { kind: "pile", pile };
    say(`Pile ${PILES[pile]} chosen: now the pile to move it onto.`);
  } else say("Choose a card of your hand first, or a side pile to move.");
  draw();
}

/** A tap on a card of the hand: choose it (again: let it go). */
function tapCard(text) {
  if (!table || table.replay) return;
  const card = parseCard(text);
  selected = selected?.kind === "card" && selected.card === card ? null : { kind: "card", card };
  if (selected) say(`${cardFace(card)} chosen: now the pile to put it on.`);
  draw();
  document.querySelector(`[data-card="${text}"]`)?.focus();
}

/** Take back player 1's moves of this turn, one at a time. */
function undo() {
  const mine = table && !busy && !table.position.over && table.position.player === seatOf(0);
  if (!mine || table.turnStart === null || table.moves.length <= table.turnStart) return;
  table.moves.pop();
  table.history.pop();
  table.log?.words.pop();
  table.position = table.history[table.history.length - 1];
  selected = null;
  say("Move taken back.");
  draw();
}

/** The search bot's move for player 1, from player 1's view. */
function hint() {
  if (!table || busy || table.position.player !== seatOf(0) || table.position.over) return;
  const move = new SearchBot(table.seed).choose(viewOf(table.position, seatOf(0)));
  say(`Hint (search bot): ${move.kind === "end" ? "end the turn" : moveWords(move).replace(/^(plays|puts|moves)/, (w) => w.slice(0, -1))}.`);
}

/** Score a finished hand: totals, stats, and the match's end. */
function finishHand() {
  const result = resultOf(table.position, table.lead);
  table.hands.push({ deck: table.deck, moves: table.moves.slice(), seed: table.seed });
  table.totals = table.totals.map((t, p) => t + result.penalties[p]);
  const wonHand = result.winners.includes(0);
  const matchOver = !table.match || Math.max(...table.totals) >= table.rules.target;
  const low = Math.min(...table.totals);
  const wonGame = matchOver && table.totals[0] === low;
  keepStats(table.players, wonHand, matchOver, wonGame);
  const who = result.winners.length ? `${result.winners.map((w) => (w === 0 ? "you" : `player ${w + 1}`)).join(" and ")} went out` : "nobody went out";
  const end = table.match ? (matchOver ? ` The game is over: ${wonGame ? "you win" : "you lose"} with ${table.totals[0]} points.` : " Next hand when you are ready.") : "";
  say(`The hand is over: ${who}. Penalties: ${result.penalties.join(", ")}.${end}`);
  $("kc-next").textContent = table.match && !matchOver ? "Next hand" : "New game";
  table.matchOver = matchOver;
}

// ---- stats (localStorage, as the daily page keeps its own) ----

/** The stats by table size, {2: {hands, handsWon, games, gamesWon}, ...}. */
function readStats() {
  try {
    const data = JSON.parse(localStorage.getItem(STATS_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/** Count one hand (and a game when it ended one) for a table of `players`. */
function keepStats(players, wonHand, gameOver, wonGame) {
  const stats = readStats();
  const row = stats[players] ?? { hands: 0, handsWon: 0, games: 0, gamesWon: 0 };
  row.hands += 1;
  row.handsWon += wonHand ? 1 : 0;
  row.games += gameOver ? 1 : 0;
  row.gamesWon += wonGame ? 1 : 0;
  stats[players] = row;
  try {
    localStorage.setItem(STATS_KEY, JSON.stringify(stats));
  } catch {
    // storage refused (private mode): the stats are not kept
  }
  showStats();
}

/** Fill the stats table. */
function showStats() {
  const stats = readStats();
  for (const players of [2, 3, 4]) {
    const row = stats[players] ?? { hands: 0, handsWon: 0, games: 0, gamesWon: 0 };
    $(`kc-stats-${players}`).textContent = `${row.handsWon} of ${row.hands} hands won, ${row.gamesWon} of ${row.games} games won`;
  }
}

// ---- records ----

/** The finished game (or hand) as a record kcsolve corner verify accepts. */
function exportRecord() {
  const data = table.match && table.matchOver
    ? writeGame(table.players, table.rules, table.hands, null)
    : writeRecord({ ...lastHand(), result: resultOf(table.position, table.lead) });
  const blob = new Blob([`${jsonText(data, 1)}\n`], { type: "application/json" });
  const link = make("a");
  link.href = URL.createObjectURL(blob);
  link.download = table.match && table.matchOver ? "kings-corner-game.json" : "kings-corner-hand.json";
  document.body.append(link);
  link.click();
  link.remove();
  $("kc-record-text").value = jsonText(data, 1);
  say("The record is saved as a file, and shown under Records.");
}

/** The hand just played as a record's parts. */
function lastHand() {
  const last = table.hands[table.hands.length - 1];
  return { deck: last.deck, players: table.players, rules: table.rules, moves: last.moves, seed: last.seed, lead: table.match ? table.lead : null };
}

/** Read a record (hand or game) and replay it move by move, seen from player 1's seat. */
async function importRecord(text) {
  let read;
  try {
    read = readAny(parseJson(text), "record");
  } catch (exc) {
    $("kc-import-note").textContent = exc instanceof CornerError || exc instanceof SyntaxError ? exc.message : String(exc);
    return;
  }
  const hands = read.kind === "game" ? read.game.hands : [read.record];
  const first = hands[0];
  table = {
    players: first.players, bots: ["you", ...new Array(first.players - 1).fill("record")], rules: first.rules, match: false,
    totals: new Array(first.players).fill(0), hands: [], lead: first.lead ?? 0, seats: [], replay: true, moves: [], history: [],
    turnStart: null, deck: first.deck, seed: first.seed,
  };
  $("kc-import-note").textContent = `Replaying ${hands.length} hand${hands.length === 1 ? "" : "s"}.`;
  busy = true;
  for (const hand of hands) {
    const played = replay(hand);
    table.lead = hand.lead ?? 0;
    table.deck = hand.deck;
    table.position = played.positions[0];
    draw();
    for (const [i, position] of played.positions.slice(1).entries()) {
      table.position = position;
      say(`Replay: player ${personOf(played.positions[i].player) + 1} ${moveWords(hand.moves[i])}.`);
      draw();
      await pause(Number($("kc-pace").value));
    }
    if (played.error) {
      say(`Replay stopped: ${played.error}`);
      break;
    }
    const result = resultOf(table.position, table.lead);
    table.totals = table.totals.map((t, p) => t + result.penalties[p]);
    draw();
  }
  busy = false;
  skipping = false;
  table.replay = "done";
  say(`${$("kc-message").textContent} Replay over: totals ${table.totals.join(", ")}.`);
  draw();
}

// ---- wiring ----

/** Fill the setup form: bots for each seat and the rule options' help. */
function setup() {
  for (let p = 2; p <= 4; p++) {
    const choice = $(`kc-bot-${p}`);
    for (const name of WEB_BOTS) {
      const option = make("option", "", name);
      option.value = name;
      choice.append(option);
    }
    choice.value = "search";
  }
  for (const name of OPTION_NAMES) $(`kc-rule-${name}`).addEventListener("change", showRulesText);
  const seatsShown = () => {
    for (let p = 3; p <= 4; p++) $(`kc-bot-${p}-row`).hidden = Number($("kc-players").value) < p;
  };
  $("kc-players").addEventListener("change", seatsShown);
  seatsShown();
  showRulesText();
}

/** Connect the controls, drag and drop and the keys. */
function wire() {
  $("kc-setup").addEventListener("submit", (event) => {
    event.preventDefault();
    startGame();
  });
  PILES.forEach((name, pile) => {
    const spot = $(`kc-pile-${name}`);
    spot.addEventListener("click", () => tapPile(pile));
    spot.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", `pile:${pile}`));
    spot.addEventListener("dragover", (event) => event.preventDefault());
    spot.addEventListener("drop", (event) => {
      event.preventDefault();
      const [kind, value] = event.dataTransfer.getData("text/plain").split(":");
      if (kind === "pile") tryMove(merge(Number(value), pile));
      else if (kind === "card") tryMove(cardMove(Number(value), pile));
    });
  });
  $("kc-hand").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-card]");
    if (button) tapCard(button.dataset.card);
  });
  $("kc-hand").addEventListener("dragstart", (event) => {
    const button = event.target.closest("button[data-card]");
    if (button) event.dataTransfer.setData("text/plain", `card:${parseCard(button.dataset.card)}`);
  });
  $("kc-end").addEventListener("click", () => tryMove(END));
  $("kc-undo").addEventListener("click", undo);
  $("kc-hint").addEventListener("click", hint);
  $("kc-skip").addEventListener("click", () => { skipping = true; });
  $("kc-next").addEventListener("click", () => {
    if (table.match && !table.matchOver) dealNext();
    else startGame();
  });
  $("kc-export").addEventListener("click", exportRecord);
  $("kc-import").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    if (file) importRecord(await file.text());
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    const actions = { e: () => tryMove(END), u: undo, h: hint, s: () => { skipping = true; }, escape: () => { selected = null; if (table) draw(); } };
    if (actions[key]) {
      event.preventDefault();
      actions[key]();
    }
  });
}

setup();
wire();
showStats();
window.kcCorner = { state: playerState, importRecord, pileNames: PILES.slice() };
