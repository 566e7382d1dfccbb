// The page of one deal: play it (daily pages), or step through a line of play (every page).
// The deal and the line come from the JSON in <script id="kc-data">; the rules come from engine.mjs,
// the help from help.mjs, the player's own games from store.mjs. Nothing the page shows is built from
// outside text as HTML: cards and cells come from the engine, imported text only ever reaches textContent.
import {
  CELL_NAMES, CORNERS, IllegalMove, JACK_CELLS, Position, QUEEN_CELLS, RANKS, TEN, readRecord, replay,
} from "./engine.mjs";
import {
  HINT_PLAYOUTS, WINNABLE_NODES, alikeMoves, distinctOptions, hintHeading, hints, stillWinnable, viewOf,
} from "./help.mjs";
import {
  FACE_DOWN, FACE_UP, HELP_KINDS, HELP_MARKS, HELP_WORDS, ImportRefused, MAX_IMPORT_BYTES, RESULT_WORDS, allEntries,
  exportAllText, exportText, loadEntry, loadSaved, mergeEntries, newEntry, readImport, resultOf, saveEntry, siteDeals, statistics,
  storageWorks,
} from "./store.mjs";

const data = JSON.parse(document.getElementById("kc-data").textContent);
const record = readRecord({ deck: data.deck, rules: data.rules, moves: data.line });
const line = replay(record);
const lineSteps = [{ number: 0, move: null, position: line.start }, ...line.steps];
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_WORDS = { S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs" };
const RANK_WORDS = ["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"];
const COURT_CLASS = { 11: "jack", 12: "queen", 13: "king" };
const $ = (id) => document.getElementById(id);
const isDaily = data.kind === "daily";

// After a finish the game is frozen: play from there on (an undo, a restart) is practice, kept nowhere, and the
// board it ended on stays in `finished` for the share picture.
const game = { history: [Position.start(record.deck, record.rules)], moves: [], selected: new Set(), cursor: 5,
  hinted: new Set(), entry: null, practice: false, finished: null, hintAsked: 0 };
let mode = isDaily ? "play" : "line";
let step = 0;
let seen = 0;  // the furthest step of the line shown so far: the list reveals one step at a time
let timer = null;
let pendingColumn = null;
let pendingStep = null;  // a step asked for by the address, waiting for the player's yes to Show the solution
let storageWarned = false;
// Face up, the whole stock is shown in order and hints are the solver's; the address says so (?face-up), so a
// link opens that puzzle. Each mode keeps its own game of the date.
let faceUp = isDaily && new URLSearchParams(location.search).has("face-up");
const stockMode = () => (faceUp ? FACE_UP : FACE_DOWN);

const current = () => game.history[game.history.length - 1];
const over = () => current().outcome().status !== "unfinished";
const todayUtc = () => new Date().toISOString().slice(0, 10);
const capital = (text) => text[0].toUpperCase() + text.slice(1);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Where court cards may go, as the letters an empty cell shows (the sample game marks court cells K, Q, J). */
function cellMark(cell) {
  const edge = QUEEN_CELLS.includes(cell) || JACK_CELLS.includes(cell);
  const courts = record.rules.courts;
  if (courts === "royals") return CORNERS.includes(cell) || edge ? "KQJ" : "";
  if (CORNERS.includes(cell)) return "K";
  if (courts === "swap") return edge ? "QJ" : "";
  return QUEEN_CELLS.includes(cell) ? "Q" : JACK_CELLS.includes(cell) ? "J" : "";
}

const MARK_WORDS = { K: "a King", Q: "a Queen", J: "a Jack", QJ: "a Queen or a Jack", KQJ: "a court card" };

function rankText(card) {
  return card.rank === TEN ? "10" : RANKS[card.rank - 1];
}

function cardWords(card) {
  return card.suit ? `${RANK_WORDS[card.rank - 1]} of ${SUIT_WORDS[card.suit]}` : RANK_WORDS[card.rank - 1];
}

/** A card as the board draws it: "10♠", not the record's "TS". */
function shortCard(card) {
  return `${rankText(card)}${card.suit ? SUITS[card.suit] : ""}`;
}

/** The engine's words with every card named as the board draws it (its refusals and reasons say "TS"). */
function boardTerms(text) {
  return String(text).replace(/\b([A2-9TJQK])([SHDC])\b/g, (_, rank, suit) => `${rank === "T" ? "10" : rank}${SUITS[suit]}`);
}

/** A card drawn in SVG: rank and suit in the corner, a large suit (or court letter) in the middle. */
function cardSvg(card) {
  const red = card.suit === "H" || card.suit === "D";
  const ink = red ? "red" : "black";
  const suit = card.suit ? SUITS[card.suit] : "";
  const court = COURT_CLASS[card.rank];
  // One letter of text per card (the corner rank): the name a screen reader hears then holds what is seen.
  const face = court ? `<rect x="8" y="19" width="34" height="38" rx="3" class="face ${court}"/>` : "";
  const middle = `<text x="25" y="${court ? 47 : 49}" text-anchor="middle" font-size="${suit ? 28 : 24}" class="${ink}">${suit || (court ? "" : rankText(card))}</text>`;
  return `<svg viewBox="0 0 50 70" aria-hidden="true" focusable="false"><rect x="1" y="1" width="48" height="68" rx="5" class="paper"/>`
    + `<text x="4" y="15" font-size="14" font-weight="700" class="${ink}">${rankText(card)}</text>`
    + `<text x="45" y="65" font-size="11" text-anchor="end" class="${ink}">${suit}</text>${face}${middle}</svg>`;
}

function emptySvg(cell) {
  const mark = cellMark(cell);
  return `<svg viewBox="0 0 50 70" aria-hidden="true" focusable="false"><rect x="2" y="2" width="46" height="66" rx="5" class="slot${mark ? " court" : ""}"/>`
    + `<text x="25" y="42" text-anchor="middle" font-size="${mark.length > 1 ? 12 : 18}" class="mark">${mark}</text></svg>`;
}

function courtsToCome(position) {
  const left = { K: 0, Q: 0, J: 0 };
  position.deck.slice(position.drawn).forEach((c) => { if (c.rank > TEN) left[RANKS[c.rank - 1]] += 1; });
  return `K\u00a0${left.K} Q\u00a0${left.Q} J\u00a0${left.J}`;  // wraps between letters only, in a narrow column
}

/** The next thing to do in a few words, in large type under the card in hand (the message line says it in full). */
function actionWords(position) {
  if (mode !== "play" || position.outcome().status !== "unfinished") return "";
  if (!position.removing) return "Place it";
  return position.rules.removal === "forced" ? "Remove a set" : "Remove or place";
}

function say(text, kind = "") {
  const box = $("kc-message");
  box.textContent = text;
  box.className = `message ${kind}`;
}

/** The cells the turned card may go to now. */
function targets(position) {
  const card = position.nextCard;
  if (!card || position.outcome().status !== "unfinished" || (position.removing && position.rules.removal === "forced")) return [];
  return position.cellsFor(card);
}

/** A cell's accessible name: its coordinate, then what it holds or may take. */
function cellLabel(position, cell, marks) {
  const card = position.cardAt(cell);
  const ghost = marks.removed && marks.removed.get(cell);
  const mark = cellMark(cell);
  // The name ends with the letters the cell shows, so what is heard holds what is seen (WCAG 2.5.3).
  const shownText = (c) => `${rankText(c)}${c.suit ? SUITS[c.suit] : ""}`;
  let words = card ? `${cardWords(card)}, ${shownText(card)}` : ghost ? `${cardWords(ghost)}, ${shownText(ghost)}, removed`
    : `empty, for ${MARK_WORDS[mark] || "a number card"}${mark ? `, marked ${mark}` : ""}`;
  if (marks.targets && marks.targets.has(cell)) words += `; the card in hand may go here`;
  if (mode === "play" && game.selected.has(cell)) words += ", selected for removal";
  if (marks.placed === cell) words += ", just placed";
  if (game.hinted.has(cell) && mode === "play") words += ", hinted";
  return `${CELL_NAMES[cell]}, ${words}`;
}

function drawGrid(position, marks) {
  for (let cell = 0; cell < 16; cell += 1) {
    const button = $(`kc-cell-${cell}`);
    const card = position.cardAt(cell);
    const ghost = marks.removed && marks.removed.get(cell);
    button.innerHTML = card ? cardSvg(card) : ghost ? cardSvg(ghost) : emptySvg(cell);
    button.className = ["cell", card ? "filled" : "empty", ghost ? "removed" : "", marks.placed === cell ? "placed" : "",
      game.selected.has(cell) && mode === "play" ? "selected" : "", game.hinted.has(cell) && mode === "play" ? "hinted" : "",
      marks.targets && marks.targets.has(cell) ? "target" : ""].filter(Boolean).join(" ");
    button.setAttribute("aria-label", cellLabel(position, cell, marks));
    button.tabIndex = cell === game.cursor ? 0 : -1;
    if (mode === "play") button.removeAttribute("aria-disabled"); else button.setAttribute("aria-disabled", "true");
  }
}

function drawInfo(position) {
  const ended = position.outcome().status !== "unfinished";
  const card = ended ? null : position.nextCard;
  $("kc-stock").textContent = String(52 - position.drawn);
  $("kc-turned").innerHTML = card ? cardSvg(card) : "";
  const where = mode === "play" && game.practice ? "Practice \u00b7 " : "";
  const hand = ended ? (mode === "play" && !game.practice ? `${capital(resultWords())}${importedMark()}` : "Game over") : "Card in hand";
  $("kc-hand").textContent = `${where}${hand}`;
  $("kc-turned").setAttribute("aria-label", card ? `Card in hand: ${cardWords(card)}`
    : ended ? "No card in hand: the game is over" : "No card in hand: the stock is empty");
  $("kc-courts").textContent = courtsToCome(position);
  $("kc-placed").textContent = `${position.courtsPlaced}/12`;
  $("kc-action").textContent = actionWords(position);
  drawStockOrder(position, ended);
}

const STOCK_PROMINENT = 4;  // the next cards drawn large: the ones a plan turns on

/** Face up: the cards after the one in hand, in order, the next few large, the rest small; heard as one sentence. */
function drawStockOrder(position, ended) {
  const box = $("kc-stock-order");
  if (!box) return;
  box.hidden = !faceUp;
  if (!faceUp) return;
  const rest = ended ? [] : position.deck.slice(position.drawn + 1);
  $("kc-stock-words").textContent = rest.length
    ? `Stock in order: ${rest.map(cardWords).join(", ")}, after the card in hand.`
    : "Stock in order: no card after the one in hand.";
  const shown = rest.map((card, k) => {
    const item = document.createElement("span");
    item.dataset.card = card.text;
    if (k < STOCK_PROMINENT) {
      item.className = "next-card";
      item.innerHTML = cardSvg(card);  // drawn from the engine's own card, as the grid's cards are
    } else {
      item.className = `later-card ${card.suit === "H" || card.suit === "D" ? "red-ink" : "black-ink"}`;
      item.textContent = `${rankText(card)}${card.suit ? SUITS[card.suit] : ""}`;
    }
    return item;
  });
  $("kc-stock-cards").replaceChildren(...shown);
}

/** The chosen cells, if they make a set that may go now. */
function chosenSet(position) {
  const chosen = [...game.selected].sort((a, b) => a - b);
  return position.removableSets().some((s) => s.join() === chosen.join()) ? chosen : null;
}

function renderPlay() {
  const position = current();
  drawGrid(position, { targets: new Set(targets(position)) });
  drawInfo(position);
  const remove = $("kc-remove");
  remove.disabled = !position.removing || over();
  const chosen = position.removing ? chosenSet(position) : null;
  remove.textContent = chosen ? `Remove ${chosen.map((c) => CELL_NAMES[c]).join(" ")}` : "Remove";
  remove.classList.toggle("ready", Boolean(chosen));
  $("kc-undo").disabled = game.history.length < 2;
  $("kc-hint").disabled = over();
  $("kc-check").disabled = over();
  fit();
}

/** The move as a record entry: {place, cell} or {remove: [cells]}. */
function entryOf(position, move) {
  return "cell" in move ? { place: position.nextCard.text, cell: CELL_NAMES[move.cell] }
    : { remove: move.cells.map((c) => CELL_NAMES[c]) };
}

/** Keep the game in this browser, noting the first finish of the date (what the statistics count). */
function keep() {
  if (!isDaily || game.practice) return;
  const entry = game.entry;
  entry.moves = game.moves.slice();
  const judged = current().outcome().status;
  entry.result = judged === "won" ? "win" : judged === "lost" ? "loss" : "unknown";
  if (judged !== "unfinished" && !entry.daily.first) {
    // The UTC day it ended: a streak counts only dates finished on their own day.
    entry.daily.first = { status: judged, moves: game.moves.length, help: { ...entry.daily.help }, on: todayUtc() };
  }
  if (!saveEntry(entry)) warnStorage();
}

/** Say once, plainly, that nothing is kept: storage blocked or full, the game and the statistics go with the page. */
function warnStorage() {
  if (storageWarned || !isDaily) return;
  storageWarned = true;
  const note = $("kc-storage-note");
  note.textContent = "This browser is not keeping your progress: its storage is blocked or full, so this game and "
    + "your statistics are lost when the page closes. Stats > Export this date keeps a copy as a file.";
  note.hidden = false;
}

/** Count one use of a kind of help; help after the first finish changes nothing that counts. */
function useHelp(kind) {
  if (isDaily && !game.practice) game.entry.daily.help[kind] += 1;
}

function act(move) {
  const before = current();
  try {
    game.history.push(before.play(move));
    game.moves.push(entryOf(before, move));
    game.selected.clear();
    clearHint();
    keep();
    say(over() ? endWords() : nextWords(current()), over() ? current().outcome().status : "");
    if (over() && !game.practice) openEnd();
  } catch (exc) {
    if (!(exc instanceof IllegalMove)) throw exc;
    say(`Refused: ${boardTerms(exc.message)}.`, "refused");
    game.selected.clear();
  }
  renderPlay();
}

/** What this date came to, in the words of the share line (RESULT_WORDS). */
function resultWords() {
  return RESULT_WORDS[resultOf(game.entry) || "playing"];
}

/** The message at the end of a game: the result in the share line's words, then the engine's reason. */
function endWords() {
  const judged = current().outcome();
  if (game.practice) {
    return `Practice over (${judged.status === "won" ? "won" : "lost"}: ${boardTerms(judged.reason)}); it does not count. `
      + `Your result stays: ${resultWords()}.`;
  }
  const first = game.entry.daily.first;
  const counted = first && first.status === "shown" ? " The solution was shown first, so it does not count as a win."
    : first && first.status === "won" && helpUsed(first.help).length ? " Help was used, so it does not count as a win." : "";
  return `${capital(resultWords())}: ${boardTerms(judged.reason)}.${counted}${importedWords()}`;
}

/** What the board says of a game taken from a file: it counts, but builds no streak (any day can be written in). */
function importedWords() {
  return game.entry.daily.imported ? " Imported from a file: it counts in played and won, not in streaks." : "";
}

/** The mark of an imported game where its result is named (the card-in-hand line, the end panel's heading). */
const importedMark = () => (game.entry && game.entry.daily.imported ? " (imported)" : "");

function nextWords(position) {
  if (position.removing) {
    return position.rules.removal === "forced"
      ? "Removal is due: tap the cards of a set that sums to 10 (or a Ten), then Remove."
      : "Removal is open: tap a set and Remove, or place the card in hand to go on.";
  }
  return `Place the card in hand, ${cardWords(position.nextCard)}, in a framed cell.`;
}

function clickCell(cell) {
  if (mode !== "play") return;
  const position = current();
  focusCell(cell);
  if (over()) {
    const after = game.practice ? "Undo or restart to practise on" : "Undo or restart to practise (it does not count)";
    say(`The game is over: ${boardTerms(position.outcome().reason)}. ${after}, or show the solution.`, "refused");
  } else if (position.cardAt(cell) === null) {
    act({ cell });
  } else if (!position.removing) {
    act({ cells: [cell] });  // the engine says why a removal is refused before the grid is full
  } else {
    if (game.selected.has(cell)) game.selected.delete(cell); else game.selected.add(cell);
    const chosen = chosenSet(position);
    const named = (cells) => cells.map((c) => cardWords(position.cardAt(c))).join(" + ");
    if (chosen) say(`${named(chosen)} can go: press Remove to confirm.`);
    else if (game.selected.size) say(`Chosen: ${named([...game.selected].sort((a, b) => a - b))}; a set sums to 10.`);
    else say(nextWords(position));
    renderPlay();
  }
}

function removeSelected() {
  if (!game.selected.size) {
    say("Refused: no cards are chosen; tap the cards of a set first.", "refused");
    return;
  }
  act({ cells: [...game.selected].sort((a, b) => a - b) });
}

function focusCell(cell) {
  game.cursor = cell;
  for (let c = 0; c < 16; c += 1) $(`kc-cell-${c}`).tabIndex = c === cell ? 0 : -1;
  $(`kc-cell-${cell}`).focus();
}

/** Leave a finished game as it ended (kept, shared, counted) and play on from it as practice. */
function startPractice() {
  game.finished = current();
  game.practice = true;
  document.body.dataset.practice = "yes";
}

const PRACTICE_WORDS = () => `Practice: this replay does not count, and your result stays: ${resultWords()} `
  + "(reload the page to see your finished game).";

function undo() {
  if (game.history.length < 2) return;
  const practising = over() && !game.practice;
  if (practising) startPractice();
  game.history.pop();
  game.moves.pop();
  game.selected.clear();
  clearHint();
  useHelp("undo");
  keep();
  say(practising ? `${PRACTICE_WORDS()} ${nextWords(current())}` : `Undone. ${nextWords(current())}`);
  renderPlay();
}

function restart() {
  const practising = over() && !game.practice;
  if (practising) startPractice();
  game.history.length = 1;
  game.moves.length = 0;
  game.selected.clear();
  clearHint();
  useHelp("restart");
  keep();
  say(practising ? `${PRACTICE_WORDS()} ${nextWords(current())}`
    : game.practice ? `Practice started again. ${nextWords(current())}`
      : `Started again (a restart counts as help). ${nextWords(current())}`);
  renderPlay();
}

const CLASS_WORDS = [[[5, 6, 9, 10], "centre cell"], [CORNERS, "corner"], [QUEEN_CELLS, "cell marked Q"],
  [JACK_CELLS, "cell marked J"]];

/** The cells a placement stands for when others lead to the same position: "(or any empty centre cell)", "(or c1)". */
function alikeWords(position, cell, alike) {
  const others = alike.filter((c) => c !== cell);
  if (!others.length) return "";
  const free = (home) => home.filter((c) => position.cardAt(c) === null && targets(position).includes(c));
  const named = record.rules.courts === "royals" && !CLASS_WORDS[0][0].includes(cell)
    ? [CORNERS.concat(QUEEN_CELLS, JACK_CELLS), "edge cell"] : CLASS_WORDS.find(([home]) => home.includes(cell));
  const all = free(named[0]);
  if (others.length > 1 && all.length === alike.length && all.every((c) => alike.includes(c))) {
    return ` (or any empty ${named[1]})`;
  }
  return ` (or ${others.map((c) => CELL_NAMES[c]).join(", ")})`;
}

/** An option of a hint in the terminal's words, with the options it stands for: the cell to place in, or the cells to remove. */
function optionWords(move, alike = []) {
  if ("cell" in move) return `place in ${CELL_NAMES[move.cell]}${alikeWords(current(), move.cell, alike.map((m) => m.cell))}`;
  // A removal names each card as drawn and its cell: "remove 4♠ c1 + 6♥ a3".
  const cells = (m) => m.cells.map((c) => `${shortCard(current().cardAt(c))} ${CELL_NAMES[c]}`).join(" + ");
  if ("cells" in move) {
    const others = alike.filter((m) => cells(m) !== cells(move)).map(cells);
    return `remove ${cells(move)}${others.length ? ` (or ${others.join(", ")})` : ""}`;
  }
  return "deal on";
}

/** A hint belongs to one card in hand and one position: every move, undo and restart takes it away. */
function clearHint() {
  if (!isDaily) return;
  game.hintAsked += 1;  // a hint still being worked out is dropped when it arrives
  game.hinted.clear();
  $("kc-hint-list").replaceChildren();
  $("kc-hint-head").textContent = "";
  $("kc-hint-box").hidden = true;
  document.body.style.paddingBottom = "";
  document.body.classList.remove("sheet-open");
  fit();
}

const percent = (x) => `${Math.round(x * 100)}%`;

function askHint() {
  if (over()) return;
  if (faceUp) {
    askSolverHint();
    return;
  }
  clearHint();
  const asked = game.hintAsked;
  say("Hint: weighing the options without looking at the stock...");
  $("kc-hint").disabled = true;
  setTimeout(() => {
    if (asked !== game.hintAsked) return;
    const view = viewOf(current());
    const ranked = hints(view, { playouts: HINT_PLAYOUTS, seed: 0 });
    useHelp("hint");
    keep();
    const panel = $("kc-hint-list");
    panel.replaceChildren();
    const best = ranked[0];
    game.hinted = new Set(best ? ("cell" in best.move ? [best.move.cell] : best.move.cells || []) : []);
    if (!best) {
      say("Hint: there is no choice to make here.");
    } else {
      $("kc-hint-head").textContent = hintHeading(ranked).join(" ");
      for (const option of ranked) {
        const item = document.createElement("li");
        const span = option.exact ? "exact" : `95% interval ${percent(option.low)} to ${percent(option.high)}`;
        item.textContent = `${optionWords(option.move, alikeMoves(view, option.move))}: ${percent(option.chance)} (${span})`;
        item.title = option.meaning;
        panel.append(item);
      }
      const bestWords = optionWords(best.move, alikeMoves(view, best.move));
      say(best.exact ? `Hint: ${bestWords} first, ${percent(best.chance)}: the exact chance of winning with best play (expectimax over every order of the unseen cards).`
        : `Hint: ${bestWords} first: ${percent(best.chance)} of ${best.playouts} sampled orders stay winnable `
          + `(above your own chances; 95% interval ${percent(best.low)} to ${percent(best.high)}).`);
    }
    $("kc-hint-box").hidden = !best;
    makeRoomForSheet();
    renderPlay();
  }, 30);
}

// Face up, the solver's verdict on an option, in the terminal's words, listed in this order; never a percentage.
const SOLVER_WORDS = { win: "keeps the deal winnable", loss: "loses the deal",
  unknown: "undecided (the search stopped at its budget)" };

/** The exact verdict on each distinct option: play it on the real position and ask whether the deal is still won. */
function solverOptions(position) {
  const view = viewOf(position);
  return distinctOptions(view).map(([move]) => {
    const { answer } = stillWinnable(position.play(move), { nodes: WINNABLE_NODES });
    return { move, answer, words: optionWords(move, alikeMoves(view, move)) };
  });
}

/** Face up the stock is known, so a hint is exact: each option keeps the deal winnable, loses it, or is undecided. */
function askSolverHint() {
  clearHint();
  const asked = game.hintAsked;
  say("Hint: the solver is judging each option with the stock you see...");
  $("kc-hint").disabled = true;
  setTimeout(() => {
    if (asked !== game.hintAsked) return;
    const judged = solverOptions(current());
    useHelp("hint");
    keep();
    const ordered = Object.keys(SOLVER_WORDS).flatMap((answer) => judged.filter((o) => o.answer === answer));
    $("kc-hint-list").replaceChildren(...ordered.map((option) => {
      const item = document.createElement("li");
      item.textContent = `${option.words}: ${SOLVER_WORDS[option.answer]}`;
      return item;
    }));
    const best = ordered.find((o) => o.answer === "win");
    game.hinted = new Set(best ? ("cell" in best.move ? [best.move.cell] : best.move.cells) : []);
    $("kc-hint-head").textContent = "Face up, the hint is the solver's, exact: it plays each option and searches the "
      + `real stock from there (up to ${WINNABLE_NODES.toLocaleString("en")} positions an option).`;
    if (!ordered.length) say("Hint: there is no choice to make here.");
    else if (best) say(`Hint: ${best.words} first: it keeps the deal winnable (exact, with the stock you see).`);
    else if (ordered.some((o) => o.answer === "unknown")) say("Hint: no option was proved to keep the deal winnable; the search stopped at its budget on some.");
    else say("Hint: every option loses the deal: no play from here wins.", "lost");
    $("kc-hint-box").hidden = !ordered.length;
    makeRoomForSheet();
    renderPlay();
  }, 30);
}

/** On a phone the hint is a sheet over the page's lower part: the page gets room below to scroll past it. */
function makeRoomForSheet() {
  const box = $("kc-hint-box");
  const sheet = !box.hidden && getComputedStyle(box).position === "fixed";
  document.body.style.paddingBottom = sheet ? `${Math.ceil(box.getBoundingClientRect().height)}px` : "";
  // Face up on a phone, the sheet leaves no room for the stock above the board: it is back when the sheet closes.
  document.body.classList.toggle("sheet-open", sheet);
}

function askStillWinnable() {
  if (over()) return;
  say("Still winnable? Searching from here with the real deck...");
  $("kc-check").disabled = true;
  setTimeout(() => {
    const { answer, nodes } = stillWinnable(current(), { nodes: WINNABLE_NODES });
    useHelp("check");
    keep();
    const searched = `${nodes.toLocaleString("en")} positions searched`;
    say(answer === "win" ? `Still winnable: yes, a win can still be reached from here (exact; ${searched}).`
      : answer === "loss" ? `Still winnable: no, no play from here wins (exact; ${searched}).`
        : `Still winnable: unknown. The search stopped at its budget of ${WINNABLE_NODES.toLocaleString("en")} positions; this is not a guess either way.`,
    answer === "loss" ? "lost" : "");
    renderPlay();
  }, 30);
}

const helpUsed = (help) => HELP_KINDS.filter((kind) => help[kind]);

/** The share line: date, rules, result, moves, a mark per kind of help, the page's link; never "won" with help. */
function shareText() {
  const entry = game.entry;
  const first = entry.daily.first;
  const help = first ? first.help : entry.daily.help;
  const used = helpUsed(help);
  const moves = first ? first.moves : game.moves.length;
  const result = resultWords();
  const marks = used.length ? ` ${used.map((kind) => `${HELP_MARKS[kind]}${help[kind] > 1 ? help[kind] : ""}`).join(" ")}` : " no help";
  const rows = pictureRows().map((row) => row.map((kind) => PICTURE[kind]).join(""));
  const link = `${location.href.split("#")[0].split("?")[0]}${faceUp ? "?face-up" : ""}`;
  return [`kcsolve daily ${data.date} \u00b7 ${data.rules} \u00b7 ${data.grade}${faceUp ? " \u00b7 face up" : ""}`,
    `${result} \u00b7 ${moves} moves \u00b7${marks}${entry.daily.imported ? " \u00b7 imported" : ""}`, ...rows, link].join("\n");
}

function helpLegend() {
  return HELP_KINDS.map((kind) => `${HELP_MARKS[kind]} ${HELP_WORDS[kind]}`).join(" \u00b7 ");
}

// The share picture's squares: a court card placed, a set removed, a quarter with neither, the jam of a lost game,
// a quarter the game never reached. They tell how the game went, never which cards.
const PICTURE = { court: "\ud83d\udfe8", set: "\ud83d\udfe6", none: "\u2b1c", jam: "\ud83d\udfe5", unreached: "\u2b1b" };

/** The moves the share picture tells: the game as it finished (practice after it changes nothing), or as it stands. */
function sharedMoves() {
  return game.practice ? game.entry.moves : game.moves;
}

/** The share picture: a row per quarter of the stock (13 cards), its courts placed and sets removed in order. */
function pictureRows() {
  const rows = [[], [], [], []];
  let placed = 0;
  for (const move of sharedMoves()) {
    if ("place" in move) {
      rows[Math.floor(placed / 13)].push(/^[JQK]/.test(move.place) ? "court" : null);
      placed += 1;
    } else {
      rows[Math.floor(Math.max(0, placed - 1) / 13)].push("set");
    }
  }
  const reached = Math.floor(Math.max(0, placed - 1) / 13);
  const lost = sharedPosition().outcome().status === "lost";
  return rows.map((row, quarter) => {
    const shown = row.filter(Boolean);
    if (lost && quarter === reached) shown.push("jam");
    if (quarter > reached) return ["unreached"];
    return shown.length ? shown : ["none"];
  });
}

/** The grid the share line pictures: where the game ended (practice after it changes nothing), or where it is. */
function sharedPosition() {
  return game.practice ? game.finished : current();
}

/** The end panel's heading: this date's result and moves, in the share line's words. */
function endTitle() {
  const first = game.entry.daily.first;
  const result = resultOf(game.entry);
  if (!result) return "Not played yet";
  if (!first) return `In progress: ${plural(game.practice ? game.entry.moves.length : game.moves.length, "move")}${importedMark()}`;
  const moves = first.status === "shown" ? "" : first.status === "lost" ? ` after ${plural(first.moves, "move")}`
    : ` in ${plural(first.moves, "move")}`;
  return `${capital(RESULT_WORDS[result])}${moves}${importedMark()}`;
}

/** The one panel of the end of a game (and of Stats and Share): result, statistics, next deal, Share. */
function openEnd() {
  if (!isDaily) return;
  $("kc-end-title").textContent = endTitle();
  $("kc-share-text").value = shareText();
  // The picture drawn as squares too: without a colour emoji font the text shows empty boxes.
  $("kc-share-grid").replaceChildren(...pictureRows().map((row) => {
    const line = document.createElement("div");
    line.append(...row.map((kind) => Object.assign(document.createElement("span"), { className: kind })));
    return line;
  }));
  showLoss();
  $("kc-share-legend").textContent = `Marks: ${helpLegend()}. The picture: a row for each quarter of the stock, `
    + "in order: \ud83d\udfe8 a court card placed, \ud83d\udfe6 a set removed, \u2b1c neither, \ud83d\udfe5 the jam, \u2b1b not reached.";
  $("kc-copied").textContent = "";
  $("kc-import-note").textContent = "";
  fillStats();
  tellNextDeal();
  if (!$("kc-stats-dialog").open) $("kc-stats-dialog").showModal();
}

/** How many moves of the game follow the page's winning line before they part (all of them: the line's length). */
function movesOnTheLine() {
  const text = (m) => ("place" in m ? `${m.place} ${m.cell}` : m.remove.join(" "));
  const moves = sharedMoves();
  let k = 0;
  while (k < moves.length && k < data.line.length && text(moves[k]) === text(data.line[k])) k += 1;
  return k;
}

/** A lost game's panel says why (the board with the reason is behind it) and offers the winning line from there. */
function showLoss() {
  const first = game.entry.daily.first;
  const lost = Boolean(first && first.status === "lost");
  $("kc-end-lost").hidden = !lost;
  if (!lost) return;
  const k = movesOnTheLine();
  $("kc-end-why").textContent = `Why: ${boardTerms(sharedPosition().outcome().reason)}. `
    + (k ? `Your first ${plural(k, "move")} followed a winning line; it goes another way from step ${k}.`
      : "A winning line goes another way from your first move.");
  $("kc-see-line").dataset.step = String(k);
}

/** Step through the winning line from where the lost game left it. */
function seeLine() {
  $("kc-stats-dialog").close();
  askForLine(Number($("kc-see-line").dataset.step || 0));
}

/** Share: the phone's own share sheet where the browser has one (a touch screen), else the clipboard. */
async function shareResult() {
  const text = $("kc-share-text").value;
  if (navigator.share && matchMedia("(pointer: coarse)").matches) {
    try {
      await navigator.share({ text });
      $("kc-copied").textContent = "Shared.";
      return;
    } catch (exc) {
      if (exc && exc.name === "AbortError") return;  // the player closed the share sheet
    }
  }
  try {
    await navigator.clipboard.writeText(text);
    $("kc-copied").textContent = "Copied: paste it anywhere.";
  } catch {
    $("kc-share-more").open = true;
    $("kc-share-text").select();
    $("kc-copied").textContent = "Selected below: copy it with Ctrl+C.";
  }
}

/** When the next deal comes: midnight UTC, said in the player's own time, and how long until then. */
function nextDealWords(now = new Date()) {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const at = next.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
  const minutes = Math.max(1, Math.ceil((next - now) / 60000));
  const wait = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  return { at, wait };
}

/** A link to the page of another date, in the same mode (face up stays face up). */
function dateLink(day, words) {
  const link = document.createElement("a");
  link.href = `${day}.html${faceUp ? "?face-up" : ""}`;
  link.textContent = words;
  return link;
}

/**
 * When the next deal comes; once the UTC day has passed this page's date (a page left open past midnight, or an
 * older date), that today's deal is out, linked where the site has it, instead of a countdown to a deal already out.
 */
function tellNextDeal() {
  const { at, wait } = nextDealWords();
  const today = todayUtc();
  if (today <= data.date) {
    $("kc-next-deal").textContent = `A new deal comes every day at ${at} your time (midnight UTC); the next in ${wait}.`;
    $("kc-end-next").textContent = `Next deal in ${wait}, at ${at} your time (midnight UTC).`;
    return;
  }
  const [first, last] = data.span;
  if (today < first || today > last) {
    const words = `Today (UTC) is ${today}; this site has no deal of that day yet. New deals come at ${at} your time (midnight UTC).`;
    $("kc-next-deal").textContent = words;
    $("kc-end-next").textContent = words;
    return;
  }
  $("kc-next-deal").replaceChildren(`Today's deal is out: `, dateLink(today, `the deal of ${today}`),
    `. New deals come every day at ${at} your time (midnight UTC).`);
  $("kc-end-next").replaceChildren(`Today's deal is out: `, dateLink(today, `play the deal of ${today}`), ".");
}

let shownDay = null;  // the UTC day the page last showed: when it changes, the page follows

/** Follow the UTC day: at midnight the new deal is said and linked, and the streaks are counted to the new today. */
function followDay() {
  const today = todayUtc();
  if (today !== shownDay) {
    shownDay = today;
    linkToday();
    if ($("kc-stats-dialog").open) fillStats();
  }
  tellNextDeal();
}

function describeStep(k) {
  if (k === 0) return `Step 0 of ${lineSteps.length - 1}: the start, 52 cards in the stock.`;
  const { move, card } = lineSteps[k];
  const before = lineSteps[k - 1].position;
  const words = "cell" in move ? `place ${shortCard(card)} in ${CELL_NAMES[move.cell]}`
    : `remove ${move.cells.map((c) => `${shortCard(before.cardAt(c))} (${CELL_NAMES[c]})`).join(" + ")}`;
  return `Step ${k} of ${lineSteps.length - 1}: ${words}.`;
}

function stepItem(k) {
  const s = lineSteps[k];
  const link = document.createElement("a");
  link.href = `#step=${k}`;
  link.textContent = k === 0 ? "start" : s.card ? `${shortCard(s.card)} to ${CELL_NAMES[s.move.cell]}`
    : `remove ${s.move.cells.map((c) => `${shortCard(lineSteps[k - 1].position.cardAt(c))} ${CELL_NAMES[c]}`).join(" + ")}`;
  // Pointing at a step (mouse or focus) frames its cells on the board, so the words can be found there.
  for (const [on, off] of [["mouseenter", "mouseleave"], ["focus", "blur"]]) {
    link.addEventListener(on, () => pointCells(k, true));
    link.addEventListener(off, () => pointCells(k, false));
  }
  const item = document.createElement("li");
  item.append(link);
  return item;
}

/** Frame (or unframe) the cells that step k of the line places in or removes from. */
function pointCells(k, on) {
  const move = lineSteps[k].move;
  const cells = !move ? [] : "cell" in move ? [move.cell] : move.cells;
  document.querySelectorAll(".cell.pointed").forEach((cell) => cell.classList.remove("pointed"));
  if (on) cells.forEach((c) => $(`kc-cell-${c}`).classList.add("pointed"));
}

function renderLine() {
  const { move, position } = lineSteps[step];
  const marks = {};
  if (move && "cell" in move) marks.placed = move.cell;
  if (move && "cells" in move) marks.removed = new Map(move.cells.map((c) => [c, lineSteps[step - 1].position.cardAt(c)]));
  drawGrid(position, marks);
  drawInfo(position);
  const last = step === lineSteps.length - 1;
  const judged = position.outcome();
  const [why, whyNot] = [boardTerms(judged.reason), boardTerms(data.reason)];
  const ending = judged.status === "won" ? ` Won: ${why}.`
    : judged.status === "lost" ? ` Lost: ${why}.${data.result === "loss" ? ` No play wins this deal: ${whyNot}.` : ""}`
      : data.result === "loss" ? ` Not winnable: ${whyNot}.` : ` Unfinished: ${why}.`;
  say(describeStep(step) + (last ? ending : ""), last ? judged.status : "");
  seen = Math.max(seen, step);
  const list = $("kc-steps");
  while (list.children.length <= seen) list.append(stepItem(list.children.length));
  [...list.children].forEach((li, k) => {
    li.classList.toggle("now", k === step);
    if (k === step) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
  });
  const now = list.children[step];
  if (now) list.scrollTop = Math.max(0, now.offsetTop - list.clientHeight / 2);  // the list scrolls, never the page
  $("kc-play").textContent = timer ? "Pause" : "Play";
  $("kc-prev").disabled = step === 0;
  $("kc-next").disabled = last;
  fit();
}

function goTo(k, write = true) {
  step = Math.max(0, Math.min(lineSteps.length - 1, k));
  if (write && location.hash !== `#step=${step}`) history.replaceState(null, "", `#step=${step}`);
  renderLine();
}

function togglePlay() {
  if (timer) {
    clearInterval(timer);
    timer = null;
  } else {
    if (step === lineSteps.length - 1) goTo(0);
    timer = setInterval(() => {
      if (step >= lineSteps.length - 1) togglePlay(); else goTo(step + 1);
    }, 700);
  }
  renderLine();
}

/** Seeing the line of a daily deal ends an unfinished attempt: it is kept as "solution shown", never a win. */
function markSolutionSeen() {
  if (!isDaily || game.practice || game.entry.daily.first || over()) return;
  useHelp("solution");
  game.entry.daily.first = { status: "shown", moves: game.moves.length, help: { ...game.entry.daily.help } };
  keep();
}

function showMode(next) {
  mode = next;
  if (timer) togglePlay();
  document.body.dataset.mode = mode;
  if (mode === "line") {
    markSolutionSeen();
    clearHint();
    goTo(step);
    window.scrollTo(0, 0);  // the Show solution button may be below the fold: the board's top row comes into view
  } else {
    history.replaceState(null, "", location.pathname + location.search);
    say(over() ? endWords() : nextWords(current()), over() ? current().outcome().status : "");
    renderPlay();
  }
}

/** Step through the line from step k: a daily game not yet finished asks first, as Show solution does. */
function askForLine(k) {
  if (!isDaily || game.practice || game.entry.daily.first || over()) {
    step = k;
    showMode("line");
    return;
  }
  pendingStep = k;
  $("kc-show-dialog").showModal();
}

function answerShow() {
  const asked = pendingStep;
  pendingStep = null;
  if ($("kc-show-dialog").returnValue === "yes") {
    step = asked ?? step;
    showMode("line");
  } else if (stepFromHash() !== null) {
    history.replaceState(null, "", location.pathname + location.search);  // the address no longer names a step
  }
}

function stepFromHash() {
  const match = /^#step=(\d+)$/.exec(location.hash);
  return match ? Number(match[1]) : null;
}

/** Keys on the board only: arrows or a coordinate (a1..d4) move the focus, which is the cursor. */
function onBoardKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  if (mode === "line") {
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: lineSteps.length - 1 };
    if (!(key in moves)) return;
    goTo(moves[key]);
    event.preventDefault();
    return;
  }
  const arrows = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  if (key in arrows) {
    const [dr, dc] = arrows[key];
    const row = Math.max(0, Math.min(3, Math.floor(game.cursor / 4) + dr));
    const col = Math.max(0, Math.min(3, (game.cursor % 4) + dc));
    focusCell(row * 4 + col);
    pendingColumn = null;
  } else if (/^[a-dA-D]$/.test(key)) {
    pendingColumn = key.toLowerCase();
  } else if (/^[1-4]$/.test(key) && pendingColumn !== null) {
    focusCell(CELL_NAMES.indexOf(pendingColumn + key));
    pendingColumn = null;
  } else if (key === "u" || key === "U") {
    undo();
  } else if (key === "r" || key === "R") {
    if (current().removing) removeSelected();
  } else {
    return;  // Enter and Space reach the focused cell's button, which clicks it
  }
  event.preventDefault();
}

/** Line mode: the arrows step through the line and Space plays, unless a control or link has the focus. */
function onPageKey(event) {
  if (mode !== "line" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target !== document.body || document.querySelector("dialog[open]")) return;
  const moves = { ArrowLeft: step - 1, ArrowRight: step + 1 };
  if (event.key in moves) goTo(moves[event.key]); else if (event.key === " ") togglePlay(); else return;
  event.preventDefault();
}

/** The board as large as the screen allows with the controls still in view: no scrolling to play. */
function fit() {
  const grid = $("kc-grid");
  const table = grid.parentElement;  // the card in hand and the grid: they shrink together
  // With the hint's sheet open on a phone, the whole board stays above it (the controls wait under it).
  const sheet = mode === "play" && isDaily && !$("kc-hint-box").hidden && getComputedStyle($("kc-hint-box")).position === "fixed";
  const last = sheet ? grid : document.querySelector(mode === "line" ? ".line-controls" : ".play-controls");
  if (!last) return;
  const floor = sheet ? $("kc-hint-box").getBoundingClientRect().top : window.innerHeight;
  table.style.maxWidth = "";
  for (let round = 0; round < 3; round += 1) {
    const spill = last.getBoundingClientRect().bottom + window.scrollY + 6 - floor;
    if (spill <= 0) return;
    const width = table.getBoundingClientRect().width;
    // A cell is 5:7 and the grid 4/5 of the table, so the table's height is about 1.15 its width; 190 px keeps
    // the whole board above the hint sheet on a 320x568 phone.
    table.style.maxWidth = `${Math.max(190, Math.floor(width - spill * 0.85))}px`;
  }
}

/** The games counted: those kept, with this date's as it stands on the page (even where nothing can be kept). */
function countedEntries() {
  return [...allEntries(data.rules, stockMode()).filter((e) => e.daily.date !== data.date), game.entry];
}

function fillStats() {
  const stats = statistics(countedEntries(), todayUtc(), stockMode());
  $("kc-stats-mode").textContent = faceUp ? "face-up games" : "face-down games";
  const cells = { played: stats.played, won: stats.won, percent: `${stats.percent}%`, current: stats.current, best: stats.best };
  for (const [name, value] of Object.entries(cells)) $(`kc-stat-${name}`).textContent = String(value);
  const rows = { ...stats.byHelp, shown: stats.results.shown, lost: stats.results.lost };
  delete rows.solution;
  const most = Math.max(1, ...Object.values(rows));
  const mine = resultOf(game.entry);
  const used = mine === "won" ? ["none"] : mine === "helped" ? helpUsed(game.entry.daily.first.help) : [mine];
  for (const [row, count] of Object.entries(rows)) {
    $(`kc-by-${row}`).textContent = String(count);
    $(`kc-row-${row}`).querySelector(".bar-cell span").style.width = `${Math.round((100 * count) / most)}%`;
    $(`kc-row-${row}`).classList.toggle("mine", used.includes(row));  // this date's row, as Wordle marks today's guess
  }
}

function download(name, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function importFile(file) {
  const note = $("kc-import-note");
  if (file.size > MAX_IMPORT_BYTES) {
    note.textContent = `Refused: the file is ${file.size.toLocaleString("en")} bytes, more than ${MAX_IMPORT_BYTES.toLocaleString("en")}.`;
    return;
  }
  try {
    const { added, kept } = mergeEntries(readImport(await file.text(), siteDeals(data.rules, data.deals)));
    note.textContent = `Imported ${added} game${added === 1 ? "" : "s"}; kept ${kept} already here.`;
    const mine = loadEntry(data.rules, data.date, stockMode());
    // A finished game imported over this date's unfinished one replaces it on the board too, or the next move
    // would write the unfinished game back over it.
    const arrived = mine && (!game.moves.length || (mine.daily.first && !game.entry.daily.first));
    if (arrived && mine.deck.join() === data.deck.join()) {
      resume(mine);
      say(over() ? endWords() : nextWords(current()), over() ? current().outcome().status : "");
    }
    fillStats();
  } catch (exc) {
    if (!(exc instanceof ImportRefused)) throw exc;
    note.textContent = `Refused: ${exc.message}.`;
  }
}

/** Take up a kept game: replay its moves with the engine (the store checked them already). */
function resume(entry) {
  game.entry = entry;
  game.practice = false;
  delete document.body.dataset.practice;
  game.history.length = 1;
  game.moves.length = 0;
  for (const move of entry.moves) {
    const position = current();
    const next = "place" in move ? { cell: CELL_NAMES.indexOf(move.cell) } : { cells: move.remove.map((c) => CELL_NAMES.indexOf(c)) };
    game.history.push(position.play(next));
    game.moves.push(move);
  }
  clearHint();
  renderPlay();
}

/** A column letter or row number on the felt; hidden from a screen reader, as every cell's name says its place. */
function axisLabel(text) {
  const label = document.createElement("span");
  label.className = "axis";
  label.setAttribute("aria-hidden", "true");
  label.textContent = text;
  return label;
}

function build() {
  const grid = $("kc-grid");
  grid.append(axisLabel(""), ..."abcd".split("").map(axisLabel));
  for (let cell = 0; cell < 16; cell += 1) {
    if (cell % 4 === 0) grid.append(axisLabel(String(cell / 4 + 1)));
    const button = document.createElement("button");
    button.type = "button";
    button.id = `kc-cell-${cell}`;
    button.dataset.cell = CELL_NAMES[cell];
    button.addEventListener("click", () => clickCell(cell));
    grid.append(button);
  }
  grid.addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", onPageKey);
  $("kc-first").addEventListener("click", () => goTo(0));
  $("kc-prev").addEventListener("click", () => goTo(step - 1));
  $("kc-next").addEventListener("click", () => goTo(step + 1));
  $("kc-last").addEventListener("click", () => goTo(lineSteps.length - 1));
  $("kc-play").addEventListener("click", togglePlay);
  window.addEventListener("hashchange", () => {
    const k = stepFromHash();
    if (k === null) return;
    if (mode !== "line") askForLine(k); else goTo(k, false);
  });
  window.addEventListener("resize", () => (mode === "line" ? renderLine() : renderPlay()));
  if (!isDaily) return;
  $("kc-undo").addEventListener("click", undo);
  $("kc-hint").addEventListener("click", askHint);
  $("kc-check").addEventListener("click", askStillWinnable);
  $("kc-remove").addEventListener("click", removeSelected);
  $("kc-restart").addEventListener("click", () => (over() || game.practice ? restart() : $("kc-restart-dialog").showModal()));
  $("kc-restart-dialog").addEventListener("close", () => { if ($("kc-restart-dialog").returnValue === "yes") restart(); });
  $("kc-show").addEventListener("click", () => askForLine(step));
  $("kc-show-dialog").addEventListener("close", answerShow);
  $("kc-share").addEventListener("click", openEnd);
  const closeHint = () => {
    clearHint();
    renderPlay();
  };
  $("kc-hint-close").addEventListener("click", () => {
    closeHint();
    focusCell(game.cursor);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("kc-hint-box").hidden && !document.querySelector("dialog[open]")) closeHint();
  });
  $("kc-back").addEventListener("click", () => showMode("play"));
  $("kc-stats-open").addEventListener("click", openEnd);
  $("kc-howto-open").addEventListener("click", () => $("kc-howto-dialog").showModal());
  $("kc-export-one").addEventListener("click", () => download(`kcsolve-daily-${data.date}${faceUp ? "-face-up" : ""}.json`,
    `${exportText(game.entry)}\n`));
  $("kc-export-all").addEventListener("click", () => download("kcsolve-daily-games.json",
    exportAllText([...allEntries(data.rules, FACE_DOWN), ...allEntries(data.rules, FACE_UP)])));
  $("kc-face-down").addEventListener("click", () => switchStock(false));
  $("kc-face-up").addEventListener("click", () => switchStock(true));
  $("kc-import").addEventListener("change", (event) => {
    const [file] = event.target.files;
    if (file) importFile(file);
    event.target.value = "";
  });
  $("kc-copy").addEventListener("click", shareResult);
  $("kc-see-line").addEventListener("click", seeLine);
  setInterval(followDay, 20000);
  // A phone's tab slept through midnight runs no timers: it catches up when shown again.
  document.addEventListener("visibilitychange", () => { if (!document.hidden) followDay(); });
}

/** A link to today's page (UTC, as the page is viewed) when the site has that date and this is another. */
function linkToday() {
  const today = todayUtc();
  const [first, last] = data.span;
  const old = $("kc-today-link");
  if (old) old.remove();  // found again when the day changes with the page open
  if (today === data.date || today < first || today > last) return;
  const link = document.createElement("a");
  link.id = "kc-today-link";
  link.href = `${today}.html`;
  link.textContent = "Today";
  document.querySelector("header nav").append(link);
}

/** Take up this mode's game of the date: the kept one, else a fresh one. */
function loadGame() {
  const { entry, damaged, cut } = loadSaved(data.rules, data.date, stockMode(), data.deck);
  const kept = entry || newEntry(data.date, data.seed, data.deck, data.rules, stockMode());
  if (damaged) {
    kept.daily.seed = data.seed;
    saveEntry(kept);  // kept repaired, so the damage is said once
    warnDamaged(kept, cut);
  }
  resume(kept);
}

/** Say once, under the header, that this date's save could not be read as it was, and what was kept of it. */
function warnDamaged(entry, cut) {
  const note = document.createElement("p");
  note.id = "kc-save-note";
  note.className = "note";
  note.setAttribute("role", "status");
  const kept = entry.daily.first ? `its moves are kept, and they end it: ${RESULT_WORDS[resultOf(entry)]}.`
    : `${plural(entry.moves.length, "move")} of it could be kept.`;
  note.textContent = `A saved game of this date (${faceUp ? "face up" : "face down"}) could not be read as it was: ${kept}`
    + (cut ? " Play on from there counts as a restart (help), so this date cannot become a fresh win." : "");
  const old = $("kc-save-note");
  if (old) old.replaceWith(note); else $("kc-storage-note").after(note);
}

/** The switch's buttons say which mode is on; the address names it, so a link opens the same puzzle. */
function showStockMode() {
  $("kc-face-down").setAttribute("aria-pressed", String(!faceUp));
  $("kc-face-up").setAttribute("aria-pressed", String(faceUp));
  document.body.dataset.stock = stockMode();
}

/** Face down or face up: this mode's game is kept as it stands, and the other mode's game of the date taken up. */
function switchStock(up) {
  if (up === faceUp) return;
  if (!game.practice && (game.moves.length || game.entry.daily.first)) keep();
  faceUp = up;
  history.replaceState(null, "", `${location.pathname}${faceUp ? "?face-up" : ""}${location.hash}`);
  showStockMode();
  loadGame();
  showMode("play");
}

const HOW_TO_PLAY_SEEN = "kcsolve-how-to-play-seen";  // outside the games' prefixes: no game and no export holds it

/** A first visit opens How to play, once: storage remembers it was shown (where it cannot, it is not forced on). */
function howToPlayOnce() {
  try {
    if (localStorage.getItem(HOW_TO_PLAY_SEEN)) return;
    localStorage.setItem(HOW_TO_PLAY_SEEN, "1");
  } catch {
    return;
  }
  $("kc-howto-dialog").showModal();
}

build();
if (isDaily) {
  followDay();
  if (!storageWorks()) warnStorage();
  showStockMode();
  loadGame();
}
const asked = stepFromHash();
if (asked !== null && isDaily) {
  showMode("play");
  askForLine(asked);  // an address naming a step shows the solution only after the player says yes
} else {
  if (asked !== null) step = asked;
  showMode(asked !== null || !isDaily ? "line" : "play");
  if (isDaily) howToPlayOnce();
}
