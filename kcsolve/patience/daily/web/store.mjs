// The player's own daily games, kept in this browser's localStorage: one entry per date and rule set,
// each a game record (kcsolve-record/1, so `kcsolve verify` reads an exported one) with a "daily" key
// for the date, the help used and the first finish. Imported files are untrusted: every field is
// checked here, the moves are replayed by the engine, and nothing of them is ever written as HTML.
import { DECK_SIZE, parseCard, parseRules, readRecord, replay } from "./engine.mjs";

export const MAX_IMPORT_BYTES = 4 * 1024 * 1024;  // ten years of games are about 9 MB; a few years fit
const MAX_IMPORT_GAMES = 1500;
const MAX_MOVES = 4 * DECK_SIZE;
const STORE_PREFIX = "kcsolve-daily/";
// The kinds of help, in the order the share line marks them.
export const HELP_KINDS = ["undo", "hint", "check", "restart", "solution"];
export const HELP_MARKS = { undo: "\u21a9\ufe0f", hint: "\ud83d\udca1", check: "\u2753", restart: "\ud83d\udd01", solution: "\ud83d\udcd6" };
export const HELP_WORDS = { undo: "undo", hint: "hint", check: "still-winnable check", restart: "restart", solution: "solution shown" };
const FIRST_STATUSES = ["won", "lost", "shown"];

export class ImportRefused extends Error {}

/** The rule set as one canonical text (aliases such as camelot and optional+goal=clear agree). */
export function rulesKey(text) {
  const rules = parseRules(text);
  return `${rules.removal}+${rules.sets}+${rules.courts}+${rules.goal}`;
}

function localStore() {
  try {
    return window.localStorage;
  } catch {
    return null;  // storage switched off (some private windows): the page plays on without remembering
  }
}

const entryKey = (rules, date) => `${STORE_PREFIX}${rulesKey(rules)}/${date}`;

export const noHelp = () => Object.fromEntries(HELP_KINDS.map((kind) => [kind, 0]));

/** A fresh entry for a date: no moves, no help, not finished. */
export function newEntry(date, seed, deck, rules) {
  return { format: "kcsolve-record/1", deck: deck.slice(), rules, result: "unknown", moves: [],
    daily: { date, seed, help: noHelp(), first: null } };
}

/** The stored entry of a date under a rule set, or null (none, storage off, or damaged). */
export function loadEntry(rules, date) {
  const box = localStore();
  const text = box ? box.getItem(entryKey(rules, date)) : null;
  if (text === null) return null;
  try {
    return checkEntry(JSON.parse(text), "the saved game");
  } catch {
    return null;
  }
}

/** Keep an entry; false when this browser keeps nothing. */
export function saveEntry(entry) {
  const box = localStore();
  if (!box) return false;
  try {
    box.setItem(entryKey(entry.rules, entry.daily.date), JSON.stringify(entry));
    return true;
  } catch {
    return false;
  }
}

/** Every stored entry under a rule set, oldest date first. */
export function allEntries(rules) {
  const box = localStore();
  if (!box) return [];
  const prefix = `${STORE_PREFIX}${rulesKey(rules)}/`;
  const found = [];
  for (let k = 0; k < box.length; k += 1) {
    const key = box.key(k);
    if (!key || !key.startsWith(prefix)) continue;
    try {
      found.push(checkEntry(JSON.parse(box.getItem(key)), "a saved game"));
    } catch {
      // a damaged entry is left alone and not counted
    }
  }
  return found.sort((a, b) => (a.daily.date < b.daily.date ? -1 : 1));
}

const isoDay = (time) => new Date(time).toISOString().slice(0, 10);
const nextDay = (day) => isoDay(Date.parse(`${day}T00:00:00Z`) + 86400000);

/** Played, won, win %, current and best streak of won dates, and the wins by kind of help used. */
export function statistics(entries, today) {
  const played = entries.filter((e) => e.moves.length || e.daily.first);
  const wins = played.filter((e) => e.daily.first && e.daily.first.status === "won");
  const byHelp = { none: 0, ...noHelp() };
  for (const win of wins) {
    const used = HELP_KINDS.filter((kind) => win.daily.first.help[kind]);
    if (!used.length) byHelp.none += 1;
    for (const kind of used) byHelp[kind] += 1;
  }
  const wonDays = new Set(wins.map((e) => e.daily.date));
  let best = 0;
  let run = 0;
  let last = null;
  for (const day of [...wonDays].sort()) {
    run = last !== null && nextDay(last) === day ? run + 1 : 1;
    best = Math.max(best, run);
    last = day;
  }
  let current = 0;
  let day = wonDays.has(today) ? today : isoDay(Date.parse(`${today}T00:00:00Z`) - 86400000);
  while (wonDays.has(day)) {
    current += 1;
    day = isoDay(Date.parse(`${day}T00:00:00Z`) - 86400000);
  }
  const percent = played.length ? Math.round((100 * wins.length) / played.length) : 0;
  return { played: played.length, won: wins.length, percent, current, best, byHelp };
}

/** One entry as export text: a game record `kcsolve verify` accepts, the deal number an exact integer. */
export function exportText(entry) {
  const { daily, ...game } = entry;
  const seed = /^\d{1,20}$/.test(daily.seed || "") ? `"seed":${daily.seed},` : "";
  const text = JSON.stringify({ ...game, daily });
  return `{${seed}${text.slice(1)}`;
}

/** Every entry as one JSON array, each element a record on its own line. */
export function exportAllText(entries) {
  return `[\n${entries.map(exportText).join(",\n")}\n]\n`;
}

const quoted = (value) => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 40)}...` : text;
};

function demand(ok, message) {
  if (!ok) throw new ImportRefused(message);
}

function wholeNumber(value, where) {
  demand(Number.isInteger(value) && value >= 0 && value <= 100000, `${where} must be a whole number, got ${quoted(value)}`);
  return value;
}

function checkHelp(help, where) {
  demand(help && typeof help === "object" && !Array.isArray(help), `${where} must be an object`);
  return Object.fromEntries(HELP_KINDS.map((kind) => [kind, wholeNumber(help[kind] ?? 0, `${where}.${kind}`)]));
}

function checkDeck(deck, where) {
  demand(Array.isArray(deck) && deck.length === DECK_SIZE, `${where}: 'deck' must be a list of ${DECK_SIZE} cards`);
  const texts = deck.map((card, k) => {
    demand(typeof card === "string" && card.length <= 3, `${where}: deck card ${k + 1} is not a card: ${quoted(card)}`);
    let parsed;
    try {
      parsed = parseCard(card === "10" || /^10.$/.test(card) ? `T${card.slice(2)}` : card);
    } catch {
      parsed = null;
    }
    demand(parsed && parsed.suit, `${where}: deck card ${k + 1} is not a card: ${quoted(card)}`);
    return parsed.text;
  });
  demand(new Set(texts).size === DECK_SIZE, `${where}: the deck holds a card twice`);
  return texts;
}

function checkMove(move, k, where) {
  const at = `${where}: move ${k + 1}`;
  const cell = (c) => typeof c === "string" && /^[a-d][1-4]$/.test(c);
  demand(move && typeof move === "object" && !Array.isArray(move), `${at} must be an object`);
  const keys = Object.keys(move).sort().join();
  if (keys === "cell,place") {
    demand(typeof move.place === "string" && move.place.length <= 3 && cell(move.cell), `${at} is not a placement: ${quoted(move)}`);
    return { place: move.place, cell: move.cell };
  }
  demand(keys === "remove" && Array.isArray(move.remove) && move.remove.length >= 1 && move.remove.length <= 9
    && move.remove.every(cell), `${at} is not a placement or a removal: ${quoted(move)}`);
  return { remove: move.remove.slice() };
}

/** An entry from untrusted JSON: every field checked, the moves replayed; ImportRefused says what is wrong. */
export function checkEntry(data, where) {
  demand(data && typeof data === "object" && !Array.isArray(data), `${where} must be a JSON object`);
  demand(data.format === undefined || data.format === "kcsolve-record/1", `${where}: unknown format ${quoted(data.format)}`);
  const deck = checkDeck(data.deck, where);
  const rules = data.rules ?? "standard";
  demand(typeof rules === "string" && /^[a-z=+]{1,80}$/.test(rules), `${where}: 'rules' is not a rule set: ${quoted(rules)}`);
  try {
    rulesKey(rules);
  } catch {
    throw new ImportRefused(`${where}: 'rules' is not a rule set: ${quoted(rules)}`);
  }
  demand(["win", "loss", "unknown", undefined].includes(data.result), `${where}: 'result' must be win, loss or unknown`);
  demand(Array.isArray(data.moves ?? []) && (data.moves ?? []).length <= MAX_MOVES, `${where}: 'moves' must be a list of at most ${MAX_MOVES}`);
  const moves = (data.moves ?? []).map((m, k) => checkMove(m, k, where));
  const daily = data.daily;
  demand(daily && typeof daily === "object" && !Array.isArray(daily), `${where}: no 'daily' object (the date and help of a daily game)`);
  const date = daily.date;
  demand(typeof date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(date) && isoDayOk(date), `${where}: 'daily.date' is not a date: ${quoted(date)}`);
  const seed = daily.seed ?? null;
  demand(seed === null || (typeof seed === "string" && /^\d{1,20}$/.test(seed)), `${where}: 'daily.seed' must be a deal number as a string`);
  const help = checkHelp(daily.help ?? {}, `${where}: 'daily.help'`);
  let first = null;
  if (daily.first !== undefined && daily.first !== null) {
    const f = daily.first;
    demand(f && typeof f === "object" && FIRST_STATUSES.includes(f.status), `${where}: 'daily.first.status' must be one of ${FIRST_STATUSES.join(", ")}`);
    first = { status: f.status, moves: wholeNumber(f.moves, `${where}: 'daily.first.moves'`), help: checkHelp(f.help ?? {}, `${where}: 'daily.first.help'`) };
  }
  let played;
  try {
    played = replay(readRecord({ deck, rules, moves }));
  } catch {
    throw new ImportRefused(`${where}: a move names no card or cell`);
  }
  demand(!played.error, `${where}: illegal ${played.error}`);
  const final = played.steps.length ? played.steps[played.steps.length - 1].position : played.start;
  const status = final.outcome().status;
  if (first) {
    demand(HELP_KINDS.every((kind) => first.help[kind] <= help[kind]), `${where}: 'daily.first.help' counts more help than 'daily.help'`);
    // A finish is believed only from the moves: after it, only an undo or a restart can change them.
    const changedSince = help.undo > first.help.undo || help.restart > first.help.restart;
    if (first.status !== "shown" && !changedSince) {
      demand(status === first.status && first.moves === moves.length, `${where}: 'daily.first' says ${first.status} in ${first.moves} moves, but the moves end ${status}`);
    }
  }
  const result = status === "won" ? "win" : status === "lost" ? "loss" : "unknown";
  return { format: "kcsolve-record/1", deck, rules, result, moves, daily: { date, seed, help, first } };
}

function isoDayOk(day) {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(time) && isoDay(time) === day;
}

/** The entries of an import file's text: one record or a list of them. */
export function readImport(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ImportRefused("the file is not JSON");
  }
  const list = Array.isArray(data) ? data : [data];
  demand(list.length <= MAX_IMPORT_GAMES, `the file holds ${list.length} games, more than ${MAX_IMPORT_GAMES}`);
  return list.map((item, k) => checkEntry(item, list.length > 1 ? `game ${k + 1}` : "the game"));
}

/** Add imported entries to the store: a date already kept here stays as it is unless only the import is finished. */
export function mergeEntries(entries) {
  let added = 0;
  let kept = 0;
  for (const entry of entries) {
    const mine = loadEntry(entry.rules, entry.daily.date);
    if (mine && (mine.daily.first || !entry.daily.first)) {
      kept += 1;
    } else if (saveEntry(entry)) {
      added += 1;
    }
  }
  return { added, kept };
}
