// The page of one deal: play it (daily pages), or step through a line of play (every page).
// The deal and the line come from the JSON in <script id="kc-data">; the rules come from engine.mjs,
// the help from help.mjs, the player's own games from store.mjs. Nothing the page shows is built from
// outside text as HTML: cards and cells come from the engine, imported text only ever reaches textContent.
import {
  CELL_NAMES, CORNERS, IllegalMove, JACK_CELLS, Position, QUEEN_CELLS, RANKS, TEN, readRecord, replay,
} from "./engine.mjs";
import { HINT_PLAYOUTS, WINNABLE_NODES, alikeMoves, hintHeading, hints, stillWinnable, viewOf } from "./help.mjs";
import {
  HELP_KINDS, HELP_MARKS, HELP_WORDS, ImportRefused, MAX_IMPORT_BYTES, RESULT_WORDS, allEntries, exportAllText,
  exportText, loadEntry, mergeEntries, newEntry, readImport, resultOf, saveEntry, siteDeals, statistics, storageWorks,
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
  return `K ${left.K} \u00b7 Q ${left.Q} \u00b7 J ${left.J}`;
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
  const hand = ended ? (mode === "play" && !game.practice ? capital(resultWords()) : "Game over") : "Card in hand";
  $("kc-hand").textContent = `${where}${hand}`;
  $("kc-turned").setAttribute("aria-label", card ? `Card in hand: ${cardWords(card)}`
    : ended ? "No card in hand: the game is over" : "No card in hand: the stock is empty");
  $("kc-courts").textContent = courtsToCome(position);
  $("kc-placed").textContent = `${position.courtsPlaced}/12`;
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
    entry.daily.first = { status: judged, moves: game.moves.length, help: { ...entry.daily.help } };
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
    say(`Refused: ${exc.message}.`, "refused");
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
    return `Practice over (${judged.status === "won" ? "won" : "lost"}: ${judged.reason}); it does not count. `
      + `Your result stays: ${resultWords()}.`;
  }
  const first = game.entry.daily.first;
  const counted = first && first.status === "shown" ? " The solution was shown first, so it does not count as a win."
    : first && first.status === "won" && helpUsed(first.help).length ? " Help was used, so it is not called won." : "";
  return `${capital(resultWords())}: ${judged.reason}.${counted}`;
}

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
    say(`The game is over: ${position.outcome().reason}. ${after}, or show the solution.`, "refused");
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
  const cells = (m) => m.cells.map((c) => CELL_NAMES[c]).join(" ");
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
  fit();
}

const percent = (x) => `${Math.round(x * 100)}%`;

function askHint() {
  if (over()) return;
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

/** On a phone the hint is a sheet over the page's lower part: the page gets room below to scroll past it. */
function makeRoomForSheet() {
  const box = $("kc-hint-box");
  const sheet = !box.hidden && getComputedStyle(box).position === "fixed";
  document.body.style.paddingBottom = sheet ? `${Math.ceil(box.getBoundingClientRect().height)}px` : "";
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
  const position = sharedPosition();
  const rows = [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => {
    const card = position.cardAt(r * 4 + c);
    return card === null ? "\u2b1c" : card.rank > TEN ? "\ud83d\udfe8" : "\ud83d\udfe6";
  }).join(""));
  const link = location.href.split("#")[0].split("?")[0];
  return [`kcsolve daily ${data.date} \u00b7 ${data.rules} \u00b7 ${data.grade}`,
    `${result} \u00b7 ${moves} moves \u00b7${marks}`, ...rows, link].join("\n");
}

function helpLegend() {
  return HELP_KINDS.map((kind) => `${HELP_MARKS[kind]} ${HELP_WORDS[kind]}`).join(" \u00b7 ");
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
  if (!first) return `In progress: ${plural(game.practice ? game.entry.moves.length : game.moves.length, "move")}`;
  const moves = first.status === "shown" ? "" : first.status === "lost" ? ` after ${plural(first.moves, "move")}`
    : ` in ${plural(first.moves, "move")}`;
  return `${capital(RESULT_WORDS[result])}${moves}`;
}

/** The one panel of the end of a game (and of Stats and Share): result, statistics, next deal, Share. */
function openEnd() {
  if (!isDaily) return;
  $("kc-end-title").textContent = endTitle();
  $("kc-share-text").value = shareText();
  // The picture drawn as squares too: without a colour emoji font the text shows empty boxes.
  $("kc-share-grid").innerHTML = [...Array(16).keys()].map((c) => {
    const card = sharedPosition().cardAt(c);
    return `<span class="${card === null ? "empty" : card.rank > TEN ? "court" : "number"}"></span>`;
  }).join("");
  $("kc-share-legend").textContent = `Marks: ${helpLegend()}.`;
  $("kc-copied").textContent = "";
  $("kc-import-note").textContent = "";
  fillStats();
  tellNextDeal();
  if (!$("kc-stats-dialog").open) $("kc-stats-dialog").showModal();
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

function tellNextDeal() {
  const { at, wait } = nextDealWords();
  $("kc-next-deal").textContent = `A new deal comes every day at ${at} your time (midnight UTC); the next in ${wait}.`;
  $("kc-end-next").textContent = `Next deal in ${wait}, at ${at} your time (midnight UTC).`;
}

function describeStep(k) {
  if (k === 0) return `Step 0 of ${lineSteps.length - 1}: the start, 52 cards in the stock.`;
  const { move, card } = lineSteps[k];
  const before = lineSteps[k - 1].position;
  const words = "cell" in move ? `place ${card.text} in ${CELL_NAMES[move.cell]}`
    : `remove ${move.cells.map((c) => `${before.cardAt(c).text} (${CELL_NAMES[c]})`).join(" + ")}`;
  return `Step ${k} of ${lineSteps.length - 1}: ${words}.`;
}

function stepItem(k) {
  const s = lineSteps[k];
  const link = document.createElement("a");
  link.href = `#step=${k}`;
  link.textContent = k === 0 ? "start" : s.card ? `${s.card.text} to ${CELL_NAMES[s.move.cell]}`
    : `remove ${s.move.cells.map((c) => `${lineSteps[k - 1].position.cardAt(c).text} ${CELL_NAMES[c]}`).join(" + ")}`;
  const item = document.createElement("li");
  item.append(link);
  return item;
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
  const ending = judged.status === "won" ? ` Won: ${judged.reason}.`
    : judged.status === "lost" ? ` Lost: ${judged.reason}.${data.result === "loss" ? ` No play wins this deal: ${data.reason}.` : ""}`
      : data.result === "loss" ? ` Not winnable: ${data.reason}.` : ` Unfinished: ${judged.reason}.`;
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
  // With the hint's sheet open on a phone, the whole board stays above it (the controls wait under it).
  const sheet = mode === "play" && isDaily && !$("kc-hint-box").hidden && getComputedStyle($("kc-hint-box")).position === "fixed";
  const last = sheet ? grid : document.querySelector(mode === "line" ? ".line-controls" : ".play-controls");
  if (!last) return;
  const floor = sheet ? $("kc-hint-box").getBoundingClientRect().top : window.innerHeight;
  grid.style.maxWidth = "";
  for (let round = 0; round < 3; round += 1) {
    const spill = last.getBoundingClientRect().bottom + window.scrollY + 6 - floor;
    if (spill <= 0) return;
    const width = grid.getBoundingClientRect().width;
    // A cell is 5:7, so width follows height; 150 px keeps the whole board above the hint sheet on a 320x568 phone.
    grid.style.maxWidth = `${Math.max(150, Math.floor(width - spill * 0.72))}px`;
  }
}

/** The games counted: those kept, with this date's as it stands on the page (even where nothing can be kept). */
function countedEntries() {
  return [...allEntries(data.rules).filter((e) => e.daily.date !== data.date), game.entry];
}

function fillStats() {
  const stats = statistics(countedEntries(), todayUtc());
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
    const mine = loadEntry(data.rules, data.date);
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

function build() {
  const grid = $("kc-grid");
  for (let cell = 0; cell < 16; cell += 1) {
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
  $("kc-export-one").addEventListener("click", () => download(`kcsolve-daily-${data.date}.json`, `${exportText(game.entry)}\n`));
  $("kc-export-all").addEventListener("click", () => download("kcsolve-daily-games.json", exportAllText(allEntries(data.rules))));
  $("kc-import").addEventListener("change", (event) => {
    const [file] = event.target.files;
    if (file) importFile(file);
    event.target.value = "";
  });
  $("kc-copy").addEventListener("click", shareResult);
  setInterval(tellNextDeal, 20000);
}

/** A link to today's page (UTC, as the page is viewed) when the site has that date and this is another. */
function linkToday() {
  const today = todayUtc();
  const [first, last] = data.span;
  if (today === data.date || today < first || today > last) return;
  const link = document.createElement("a");
  link.href = `${today}.html`;
  link.textContent = "Today";
  document.querySelector("header nav").append(link);
}

build();
if (isDaily) {
  linkToday();
  tellNextDeal();
  if (!storageWorks()) warnStorage();
  const kept = loadEntry(data.rules, data.date);
  if (kept && kept.deck.join() === data.deck.join()) resume(kept);
  else game.entry = newEntry(data.date, data.seed, data.deck, data.rules);
}
const asked = stepFromHash();
if (asked !== null && isDaily) {
  showMode("play");
  askForLine(asked);  // an address naming a step shows the solution only after the player says yes
} else {
  if (asked !== null) step = asked;
  showMode(asked !== null || !isDaily ? "line" : "play");
}
