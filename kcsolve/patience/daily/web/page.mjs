// The page of one deal: play it (daily pages), or step through a line of play (every page).
// The deal and the line come from the JSON in <script id="kc-data">; the rules come from engine.mjs.
import {
  CELL_NAMES, CORNERS, IllegalMove, JACK_CELLS, Position, QUEEN_CELLS, RANKS, TEN, readRecord, replay,
} from "./engine.mjs";

const data = JSON.parse(document.getElementById("kc-data").textContent);
const record = readRecord({ deck: data.deck, rules: data.rules, moves: data.line });
const line = replay(record);
const lineSteps = [{ number: 0, move: null, position: line.start }, ...line.steps];
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const COURT_CLASS = { 11: "jack", 12: "queen", 13: "king" };
const $ = (id) => document.getElementById(id);

const game = { history: [Position.start(record.deck, record.rules)], selected: new Set(), cursor: 5 };
let mode = data.kind === "daily" ? "play" : "line";
let step = 0;
let timer = null;

/** Where court cards may go, as the letters an empty cell shows (the sample game marks court cells K, Q, J). */
function cellMark(cell) {
  const edge = QUEEN_CELLS.includes(cell) || JACK_CELLS.includes(cell);
  const courts = record.rules.courts;
  if (courts === "royals") return CORNERS.includes(cell) || edge ? "KQJ" : "";
  if (CORNERS.includes(cell)) return "K";
  if (courts === "swap") return edge ? "QJ" : "";
  return QUEEN_CELLS.includes(cell) ? "Q" : JACK_CELLS.includes(cell) ? "J" : "";
}

function rankText(card) {
  return card.rank === TEN ? "10" : RANKS[card.rank - 1];
}

/** A card drawn in SVG: rank and suit in the corner, a large suit (or court letter) in the middle. */
function cardSvg(card) {
  const red = card.suit === "H" || card.suit === "D";
  const ink = red ? "#c0262d" : "#1b1b1f";
  const suit = card.suit ? SUITS[card.suit] : "";
  const court = COURT_CLASS[card.rank];
  const face = court
    ? `<rect x="8" y="19" width="34" height="38" rx="3" class="face ${court}"/>`
      + `<text x="25" y="47" text-anchor="middle" font-size="25" font-weight="700" fill="${ink}">${RANKS[card.rank - 1]}</text>`
    : `<text x="25" y="49" text-anchor="middle" font-size="${suit ? 28 : 24}" fill="${ink}">${suit || rankText(card)}</text>`;
  return `<svg viewBox="0 0 50 70" role="img" aria-label="${card.text}"><rect x="1" y="1" width="48" height="68" rx="5" class="paper"/>`
    + `<text x="4" y="15" font-size="14" font-weight="700" fill="${ink}">${rankText(card)}</text>`
    + `<text x="45" y="65" font-size="11" text-anchor="end" fill="${ink}">${suit}</text>${face}</svg>`;
}

function emptySvg(cell) {
  const mark = cellMark(cell);
  return `<svg viewBox="0 0 50 70" aria-hidden="true"><rect x="2" y="2" width="46" height="66" rx="5" class="slot${mark ? " court" : ""}"/>`
    + `<text x="25" y="42" text-anchor="middle" font-size="${mark.length > 1 ? 12 : 18}" class="mark">${mark}</text></svg>`;
}

const current = () => game.history[game.history.length - 1];

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

/** The cells the turned card may go to, numbered for the number keys. */
function targets(position) {
  const card = position.nextCard;
  if (!card || position.outcome().status !== "unfinished" || (position.removing && position.rules.removal === "forced")) return [];
  return position.cellsFor(card);
}

function drawGrid(position, marks) {
  for (let cell = 0; cell < 16; cell += 1) {
    const button = $(`kc-cell-${cell}`);
    const card = position.cardAt(cell);
    const ghost = marks.removed && marks.removed.get(cell);
    button.innerHTML = card ? cardSvg(card) : ghost ? cardSvg(ghost) : emptySvg(cell);
    const label = marks.labels && marks.labels.get(cell);
    if (label) button.insertAdjacentHTML("beforeend", `<span class="badge">${label}</span>`);
    button.className = ["cell", card ? "filled" : "empty", ghost ? "removed" : "", marks.placed === cell ? "placed" : "",
      game.selected.has(cell) && mode === "play" ? "selected" : "", marks.cursor === cell ? "cursor" : "",
      marks.targets && marks.targets.has(cell) ? "target" : ""].filter(Boolean).join(" ");
    button.setAttribute("aria-label", `${CELL_NAMES[cell]}: ${card ? card.text : ghost ? `${ghost.text}, removed` : "empty"}`);
  }
}

function drawInfo(position) {
  const card = position.nextCard;
  $("kc-stock").textContent = String(52 - position.drawn);
  $("kc-turned").innerHTML = card ? cardSvg(card) : "";
  $("kc-courts").textContent = courtsToCome(position);
  $("kc-placed").textContent = `${position.courtsPlaced}/12`;
}

function renderPlay() {
  const position = current();
  const cells = targets(position);
  const numbered = new Map(cells.slice(0, 9).map((c, k) => [c, String(k + 1)]));  // keys 1-9 reach the first nine
  drawGrid(position, { labels: numbered, targets: new Set(cells), cursor: game.cursor });
  drawInfo(position);
  const sets = position.removing ? position.removableSets() : [];
  $("kc-sets").innerHTML = sets.map((s, k) => `<button type="button" data-set="${k}">${k + 1}: `
    + `${s.map((c) => `${position.cardAt(c).text} (${CELL_NAMES[c]})`).join(" + ")}</button>`).join("");
  $("kc-remove").hidden = !position.removing;
  $("kc-undo").disabled = game.history.length < 2;
  const judged = position.outcome();
  $("kc-share").hidden = judged.status === "unfinished";
  if (judged.status !== "unfinished") {
    say(`${judged.status === "won" ? "Won" : "Lost"}: ${judged.reason}.`, judged.status);
    $("kc-share-text").value = shareText(position);
    $("kc-share-grid").innerHTML = [...Array(16).keys()].map((c) => {
      const card = position.cardAt(c);
      return `<span class="${card === null ? "empty" : card.rank > TEN ? "court" : "number"}"></span>`;
    }).join("");
  }
}

/** The share line and a 4x4 picture of the final grid by kind of card only, so it gives nothing of the deck away. */
function shareText(position) {
  const judged = position.outcome();
  const head = `kcsolve daily ${data.date} (${data.grade}) ${judged.status}, ${position.courtsPlaced}/12 court cards`;
  const rows = [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => {
    const card = position.cardAt(r * 4 + c);
    return card === null ? "\u2b1c" : card.rank > TEN ? "\ud83d\udfe8" : "\ud83d\udfe6";
  }).join(""));
  return [head, ...rows].join("\n");
}

function act(move) {
  try {
    game.history.push(current().play(move));
    game.selected.clear();
    say(current().outcome().status === "unfinished" ? nextWords(current()) : "");
  } catch (exc) {
    if (!(exc instanceof IllegalMove)) throw exc;
    say(`Refused: ${exc.message}.`, "refused");
  }
  renderPlay();
}

function nextWords(position) {
  if (position.removing) {
    return position.rules.removal === "forced"
      ? "Removal is due: click the cards of a set (or press its number), then Remove."
      : "Removal is open: remove sets, or place the turned card to go on.";
  }
  return `Place the turned card ${position.nextCard.text}: click a framed cell, or press the number on it.`;
}

function clickCell(cell) {
  if (mode !== "play") return;
  const position = current();
  game.cursor = cell;
  if (position.outcome().status !== "unfinished") {
    say(`The game is over: ${position.outcome().reason}. Undo, restart or show the solution.`, "refused");
  } else if (position.cardAt(cell) === null) {
    act({ cell });
  } else if (!position.removing) {
    act({ cells: [cell] });
  } else {
    if (game.selected.has(cell)) game.selected.delete(cell); else game.selected.add(cell);
    const chosen = [...game.selected].sort((a, b) => a - b);
    if (position.removableSets().some((s) => s.join() === chosen.join())) {
      say(`${chosen.map((c) => position.cardAt(c).text).join(" + ")} can go: press Remove (or Enter).`);
    }
    renderPlay();
  }
}

function removeSelected() {
  if (!game.selected.size) {
    say("Refused: no cards are selected; click the cards of a set first.", "refused");
    return;
  }
  act({ cells: [...game.selected].sort((a, b) => a - b) });
}

function removeSet(k) {
  const set = current().removableSets()[k];
  if (set) act({ cells: set });
}

function describeStep(k) {
  if (k === 0) return `Step 0 of ${lineSteps.length - 1}: the start, 52 cards in the stock.`;
  const { move, card } = lineSteps[k];
  const before = lineSteps[k - 1].position;
  const words = "cell" in move ? `place ${card.text} in ${CELL_NAMES[move.cell]}`
    : `remove ${move.cells.map((c) => `${before.cardAt(c).text} (${CELL_NAMES[c]})`).join(" + ")}`;
  return `Step ${k} of ${lineSteps.length - 1}: ${words}.`;
}

function renderLine() {
  const { move, position } = lineSteps[step];
  const marks = {};
  if (move && "cell" in move) marks.placed = move.cell;
  if (move && "cells" in move) marks.removed = new Map(move.cells.map((c) => [c, lineSteps[step - 1].position.cardAt(c)]));
  drawGrid(position, marks);
  drawInfo(position);
  $("kc-step-text").textContent = describeStep(step);
  const last = step === lineSteps.length - 1;
  const judged = position.outcome();
  const ending = judged.status === "won" ? `Won: ${judged.reason}.`
    : judged.status === "lost" ? `Lost: ${judged.reason}. ${data.result === "loss" ? `No play wins this deal: ${data.reason}.` : ""}`
      : data.result === "loss" ? `Not winnable: ${data.reason}.` : `Unfinished: ${judged.reason}.`;
  say(last ? ending : "", last ? judged.status : "");
  document.querySelectorAll("#kc-steps li").forEach((li, k) => li.classList.toggle("now", k === step));
  const now = document.querySelector("#kc-steps li.now");
  if (now && now.scrollIntoView) now.scrollIntoView({ block: "nearest" });
  $("kc-play").textContent = timer ? "Pause" : "Play";
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

function showMode(next) {
  mode = next;
  if (timer) togglePlay();
  document.body.dataset.mode = mode;
  if (mode === "line") {
    goTo(step);
  } else {
    history.replaceState(null, "", location.pathname + location.search);
    say(current().outcome().status === "unfinished" ? nextWords(current()) : "");
    renderPlay();
  }
}

function stepFromHash() {
  const match = /^#step=(\d+)$/.exec(location.hash);
  return match ? Number(match[1]) : null;
}

function onKey(event) {
  if (event.target.tagName === "TEXTAREA" || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  if (mode === "line") {
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: lineSteps.length - 1 };
    if (key in moves) goTo(moves[key]); else if (key === " ") togglePlay(); else return;
  } else {
    const arrows = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (key in arrows) {
      const [dr, dc] = arrows[key];
      const row = Math.max(0, Math.min(3, Math.floor(game.cursor / 4) + dr));
      const col = Math.max(0, Math.min(3, (game.cursor % 4) + dc));
      game.cursor = row * 4 + col;
      renderPlay();
    } else if (key === " ") {
      clickCell(game.cursor);
    } else if (key === "Enter") {
      removeSelected();
    } else if (/^[1-9]$/.test(key)) {
      const k = Number(key) - 1;
      if (current().removing) removeSet(k);
      else if (targets(current())[k] !== undefined) act({ cell: targets(current())[k] });
    } else if (key === "u" || key === "Backspace") {
      undo();
    } else {
      return;
    }
  }
  event.preventDefault();
}

function undo() {
  if (game.history.length > 1) game.history.pop();
  game.selected.clear();
  say(nextWords(current()));
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
  $("kc-steps").innerHTML = lineSteps.map((s, k) => `<li><a href="#step=${k}">${k === 0 ? "start"
    : s.card ? `${s.card.text} to ${CELL_NAMES[s.move.cell]}`
      : `remove ${s.move.cells.map((c) => `${lineSteps[k - 1].position.cardAt(c).text} ${CELL_NAMES[c]}`).join(" + ")}`}</a></li>`).join("");
  $("kc-first").addEventListener("click", () => goTo(0));
  $("kc-prev").addEventListener("click", () => goTo(step - 1));
  $("kc-next").addEventListener("click", () => goTo(step + 1));
  $("kc-last").addEventListener("click", () => goTo(lineSteps.length - 1));
  $("kc-play").addEventListener("click", togglePlay);
  $("kc-undo").addEventListener("click", undo);
  $("kc-restart").addEventListener("click", () => {
    game.history.length = 1;
    game.selected.clear();
    say(nextWords(current()));
    renderPlay();
  });
  $("kc-remove").addEventListener("click", removeSelected);
  $("kc-sets").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-set]");
    if (button) removeSet(Number(button.dataset.set));
  });
  $("kc-show").addEventListener("click", () => { location.hash = `step=${step}`; });
  $("kc-back")?.addEventListener("click", () => showMode("play"));
  $("kc-copy").addEventListener("click", async () => {
    const text = $("kc-share-text").value;
    try {
      await navigator.clipboard.writeText(text);
      $("kc-copied").textContent = "Copied.";
    } catch {
      $("kc-share-text").select();
      $("kc-copied").textContent = "Selected: copy it with Ctrl+C.";
    }
  });
  window.addEventListener("hashchange", () => {
    const k = stepFromHash();
    if (k === null) return;
    step = k;
    if (mode !== "line") showMode("line"); else goTo(k, false);
  });
  document.addEventListener("keydown", onKey);
}

build();
const asked = stepFromHash();
if (asked !== null) step = asked;
showMode(asked !== null || data.kind !== "daily" ? "line" : "play");
