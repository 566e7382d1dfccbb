// The player's own daily games, kept in this browser's localStorage: one entry per date and rule set,
// each a game record (kcsolve-record/1, so `kcsolve verify` reads an exported one) with a "daily" key
// for the date, the help used and the first finish. Imported files are untrusted: every field is
// checked here, the moves are replayed by the engine, and nothing of them is ever written as HTML. An import
// is also held to the site's own deals: each date's deck is worked out here, as calendar.py and deal.py do.
import { DECK_SIZE, RANKS, parseCard, parseRules, readRecord, replay } from "./engine.mjs";

export const MAX_IMPORT_BYTES = 4 * 1024 * 1024;  // ten years of games are about 9 MB; a few years fit
const MAX_IMPORT_GAMES = 1500;
const MAX_MOVES = 4 * DECK_SIZE;
const STORE_PREFIX = "kcsolve-daily/";
// How the stock was shown (a record's "mode"; absent means face down). Face-up games live under a prefix of their
// own, so the face-down key stays what it always was and players who had games keep them.
export const FACE_DOWN = "face-down";
export const FACE_UP = "face-up";
const MODES = [FACE_DOWN, FACE_UP];
const MODE_PREFIX = { [FACE_DOWN]: STORE_PREFIX, [FACE_UP]: "kcsolve-daily-face-up/" };
// The kinds of help, in the order the share line marks them.
export const HELP_KINDS = ["undo", "hint", "check", "restart", "solution"];
export const HELP_MARKS = { undo: "\u21a9\ufe0f", hint: "\ud83d\udca1", check: "\u2753", restart: "\ud83d\udd01", solution: "\ud83d\udcd6" };
export const HELP_WORDS = { undo: "undo", hint: "hint", check: "still-winnable check", restart: "restart", solution: "solution shown" };
const FIRST_STATUSES = ["won", "lost", "shown"];
const DAY_MS = 86400000;
// What a date came to, one wording everywhere (board, share line, end panel, archive): see resultOf.
export const RESULT_WORDS = { won: "won", helped: "finished with help", shown: "solution shown, not won", lost: "lost",
  playing: "in progress" };

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

/** Whether this browser keeps what the page writes (storage can be present and still refuse every write). */
export function storageWorks() {
  const box = localStore();
  if (!box) return false;
  try {
    box.setItem(`${STORE_PREFIX}probe`, "1");
    box.removeItem(`${STORE_PREFIX}probe`);
    return true;
  } catch {
    return false;
  }
}

const entryKey = (rules, date, mode) => `${MODE_PREFIX[mode]}${rulesKey(rules)}/${date}`;

/** How an entry's stock was shown: face-up when it says so, else face-down (as in a record). */
export const modeOf = (entry) => (entry.mode === FACE_UP ? FACE_UP : FACE_DOWN);

export const noHelp = () => Object.fromEntries(HELP_KINDS.map((kind) => [kind, 0]));

/** A fresh entry for a date: no moves, no help, not finished; a face-up one says so as a record does. */
export function newEntry(date, seed, deck, rules, mode = FACE_DOWN) {
  const shown = mode === FACE_UP ? { mode: FACE_UP } : {};  // face down writes no mode, as records always did
  return { format: "kcsolve-record/1", ...shown, deck: deck.slice(), rules, result: "unknown", moves: [],
    daily: { date, seed, help: noHelp(), first: null } };
}

/** The stored entry of a date under a rule set and mode, or null (none, storage off, or past repair). */
export function loadEntry(rules, date, mode = FACE_DOWN) {
  return loadSaved(rules, date, mode).entry;
}

/**
 * The stored entry of a date, read as loadEntry does, and whether it was damaged: a save that fails the check is
 * repaired from its moves (readSaved). `deck`, the page's own deck of the date, lets even a save with no readable
 * deck be taken up.
 */
export function loadSaved(rules, date, mode = FACE_DOWN, deck = null) {
  const box = localStore();
  const text = box ? box.getItem(entryKey(rules, date, mode)) : null;
  if (text === null) return { entry: null, damaged: false };
  return readSaved(text, { rules, date, mode, deck });
}

/** Keep an entry; false when this browser keeps nothing. */
export function saveEntry(entry) {
  const box = localStore();
  if (!box) return false;
  try {
    box.setItem(entryKey(entry.rules, entry.daily.date, modeOf(entry)), JSON.stringify(entry));
    return true;
  } catch {
    return false;
  }
}

/** Every stored entry under a rule set and mode, oldest date first. */
export function allEntries(rules, mode = FACE_DOWN) {
  const box = localStore();
  if (!box) return [];
  const prefix = `${MODE_PREFIX[mode]}${rulesKey(rules)}/`;
  const found = [];
  for (let k = 0; k < box.length; k += 1) {
    const key = box.key(k);
    if (!key || !key.startsWith(prefix)) continue;
    // A damaged entry is counted as far as its moves make it (readSaved); one past repair is left out.
    const { entry } = readSaved(box.getItem(key), { rules, date: key.slice(prefix.length), mode });
    if (entry) found.push(entry);
  }
  return found.sort((a, b) => (a.daily.date < b.daily.date ? -1 : 1));
}

const isoDay = (time) => new Date(time).toISOString().slice(0, 10);
const nextDay = (day) => isoDay(Date.parse(`${day}T00:00:00Z`) + 86400000);

/** What a date came to: won (no help), helped (won with help), shown, lost, playing (begun), or null (not played). */
export function resultOf(entry) {
  if (!entry) return null;
  const first = entry.daily.first;
  if (!first) return entry.moves.length ? "playing" : null;
  if (first.status !== "won") return first.status;
  return HELP_KINDS.some((kind) => first.help[kind]) ? "helped" : "won";
}

/** Whether an entry's date was won on its own day (UTC) in this browser: what a streak is made of, as Wordle's. */
export function wonOnTheDay(entry) {
  const first = entry.daily.first;
  // An import may claim any day it likes, so only games played here build streaks.
  return resultOf(entry) === "won" && Boolean(first.on) && first.on === entry.daily.date && !entry.daily.imported;
}

/**
 * Played (games ended), won (with no help: a win with help is "finished with help", not a win), win %, current and
 * best streak of days won on the day, the finishes by kind of help used, and the count of each result, over the
 * entries of one mode only: a face-up game never makes or breaks a face-down streak.
 */
export function statistics(entries, today, mode = FACE_DOWN) {
  const mine = entries.filter((e) => modeOf(e) === mode);
  const results = { won: 0, helped: 0, shown: 0, lost: 0, playing: 0 };
  for (const entry of mine) if (resultOf(entry)) results[resultOf(entry)] += 1;
  // A game is played when it ends: one begun does not lower the win rate until it is finished.
  const played = mine.filter((e) => e.daily.first);
  const wins = played.filter((e) => resultOf(e) === "won");
  const byHelp = { none: wins.length, ...noHelp() };
  for (const helped of played.filter((e) => resultOf(e) === "helped")) {
    for (const kind of HELP_KINDS.filter((k) => helped.daily.first.help[k])) byHelp[kind] += 1;
  }
  const wonDays = new Set(wins.filter(wonOnTheDay).map((e) => e.daily.date));
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
  return { played: played.length, won: wins.length, percent, current, best, byHelp, results };
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

/**
 * An entry from untrusted JSON: every field checked, the moves replayed; ImportRefused says what is wrong.
 * With `site` (siteDeals), the rule set must be the site's and the deck the site's deal of that date.
 */
export function checkEntry(data, where, site = null) {
  demand(data && typeof data === "object" && !Array.isArray(data), `${where} must be a JSON object`);
  demand(data.format === undefined || data.format === "kcsolve-record/1", `${where}: unknown format ${quoted(data.format)}`);
  demand(data.mode === undefined || MODES.includes(data.mode), `${where}: 'mode' must be face-down or face-up, not ${quoted(data.mode)}`);
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
  if (site) checkDeal(site, { rules, date, seed, deck }, where);
  const help = checkHelp(daily.help ?? {}, `${where}: 'daily.help'`);
  let first = null;
  if (daily.first !== undefined && daily.first !== null) {
    const f = daily.first;
    demand(f && typeof f === "object" && FIRST_STATUSES.includes(f.status), `${where}: 'daily.first.status' must be one of ${FIRST_STATUSES.join(", ")}`);
    first = { status: f.status, moves: wholeNumber(f.moves, `${where}: 'daily.first.moves'`), help: checkHelp(f.help ?? {}, `${where}: 'daily.first.help'`) };
    const on = checkOn(f.on, where);
    if (on) first.on = on;
  }
  demand([true, false, undefined].includes(daily.imported), `${where}: 'daily.imported' must be true or false, not ${quoted(daily.imported)}`);
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
    // A finish is believed only from the moves, which the page freezes at the finish (play after it is practice).
    if (first.status !== "shown") {
      demand(status === first.status && first.moves === moves.length, `${where}: 'daily.first' says ${first.status} in ${first.moves} moves, but the moves end ${status}${status === "unfinished" ? "" : ` in ${moves.length}`}`);
    }
    demand(first.moves <= moves.length, `${where}: 'daily.first' counts ${first.moves} moves, but the game has ${moves.length}`);
  }
  const result = status === "won" ? "win" : status === "lost" ? "loss" : "unknown";
  const shown = data.mode === FACE_UP ? { mode: FACE_UP } : {};
  const imported = daily.imported ? { imported: true } : {};
  return { format: "kcsolve-record/1", ...shown, deck, rules, result, moves, daily: { date, seed, help, first, ...imported } };
}

/**
 * The UTC day a first finish was reached (`daily.first.on`), or null when absent: a real day. No more is asked of
 * an import's: any day can be written into a file (and two machines' clocks differ), so imports build no streak.
 */
function checkOn(on, where) {
  if (on === undefined || on === null) return null;
  demand(typeof on === "string" && /^\d{4}-\d{2}-\d{2}$/.test(on) && isoDayOk(on), `${where}: 'daily.first.on' is not a date: ${quoted(on)}`);
  return on;
}

/**
 * A saved entry's text read back: {entry, damaged, cut}. A save that passes checkEntry (and is the date, rules and
 * mode of its key) is taken as it is. Any other is damaged, and repaired from its moves, which are the truth: see
 * repairSave; `cut` says that moves or a finish were lost to the damage. `known` holds the key's rules, date and
 * mode, and the page's own deck of the date when it has one.
 */
export function readSaved(text, known) {
  if (!isoDayOk(known.date)) return { entry: null, damaged: true, cut: true };  // a key that names no day is no game's
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    // not JSON at all: nothing but the key is left
  }
  try {
    const entry = checkEntry(data, "the saved game");
    const same = entry.daily.date === known.date && modeOf(entry) === known.mode && rulesKey(entry.rules) === rulesKey(known.rules)
      && (!known.deck || entry.deck.join() === known.deck.join());
    if (same) return { entry, damaged: false, cut: false };
  } catch {
    // damaged: repaired below
  }
  return { ...repairSave(data, known), damaged: true };
}

const isObject = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** A help count as kept, where a count that cannot be read is taken as one use: help it may hide is not forgotten. */
function lenientHelp(help) {
  const given = isObject(help) ? help : {};
  return Object.fromEntries(HELP_KINDS.map((kind) => {
    const value = given[kind] ?? 0;
    return [kind, Number.isInteger(value) && value >= 0 && value <= 100000 ? value : 1];
  }));
}

/** The longest prefix of some moves that are well formed and legal on the deck: {moves, final}. */
function legalPrefix(deck, rules, moves) {
  const formed = [];
  for (const [k, move] of (Array.isArray(moves) ? moves : []).slice(0, MAX_MOVES).entries()) {
    try {
      const checked = checkMove(move, k, "");
      readRecord({ deck, rules, moves: [checked] });  // a card text the engine cannot read ends the prefix too
      formed.push(checked);
    } catch {
      break;
    }
  }
  const played = replay(readRecord({ deck, rules, moves: formed }));
  const final = played.steps.length ? played.steps[played.steps.length - 1].position : played.start;
  return { moves: formed.slice(0, played.steps.length), final };
}

/**
 * What a damaged save still holds, {entry, cut}: an entry of the key's date, rules and mode (null when not even a
 * deck is left), and whether moves or a finish were lost. The moves are kept up to the first that cannot be read or played, the result and first finish are worked
 * out from them, and a finish (or moves) lost to the damage counts as a restart: a damaged date never offers a
 * fresh win. An `on` that cannot be read is dropped (not on the day); an unreadable `imported` counts as imported.
 */
function repairSave(data, known) {
  const saved = isObject(data) ? data : {};
  const daily = isObject(saved.daily) ? saved.daily : {};
  let deck = known.deck ? known.deck.slice() : null;
  if (!deck) {
    try {
      deck = checkDeck(saved.deck, "");
    } catch {
      return { entry: null, cut: true };
    }
  }
  const entry = newEntry(known.date, typeof daily.seed === "string" && /^\d{1,20}$/.test(daily.seed) ? daily.seed : null,
    deck, known.rules, known.mode);
  const cut = legalPrefix(deck, known.rules, saved.moves);
  entry.moves = cut.moves;
  const status = cut.final.outcome().status;
  entry.result = status === "won" ? "win" : status === "lost" ? "loss" : "unknown";
  const help = lenientHelp(daily.help);
  let lost = false;
  const stored = isObject(daily.first) ? daily.first : null;
  // A first finish whose help cannot be read is given all the help the game used: help is not forgotten.
  const firstHelp = stored && isObject(stored.help) ? lenientHelp(stored.help) : { ...help };
  for (const kind of HELP_KINDS) help[kind] = Math.max(help[kind], firstHelp[kind]);
  const shownFirst = (stored && stored.status === "shown") || help.solution > 0;  // only Show solution counts that help
  if (status !== "unfinished" && !shownFirst) {
    entry.daily.first = { status, moves: cut.moves.length, help: firstHelp };
  } else if (shownFirst) {
    if (!firstHelp.solution) firstHelp.solution = help.solution = 1;
    const moves = stored && Number.isInteger(stored.moves) && stored.moves >= 0 ? Math.min(stored.moves, cut.moves.length) : cut.moves.length;
    entry.daily.first = { status: "shown", moves, help: firstHelp };
  } else if (stored || !Array.isArray(saved.moves) || cut.moves.length < saved.moves.length) {
    help.restart += 1;  // a finish, or moves, the damage took: play on from here is help, as a restart is
    lost = true;
  }
  entry.daily.help = help;
  const on = stored && typeof stored.on === "string" && /^\d{4}-\d{2}-\d{2}$/.test(stored.on) && isoDayOk(stored.on) ? stored.on : null;
  if (entry.daily.first && on && status !== "unfinished") entry.daily.first.on = on;
  if (daily.imported !== undefined && daily.imported !== false) entry.daily.imported = true;
  return { entry, cut: lost };
}

function isoDayOk(day) {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(time) && isoDay(time) === day;
}

/** An import's deal against the site's: its rules, a date the site holds, and that date's own deck and number. */
function checkDeal(site, { rules, date, seed, deck }, where) {
  demand(rulesKey(rules) === rulesKey(site.rules), `${where}: rules ${quoted(rules)}, but this site deals under ${quoted(site.rules)}`);
  demand(site.attempts.has(date), `${where}: ${date} is not a date of this site`);
  const own = candidateSeed(date, site.rules, site.attempts.get(date));
  demand(seed === null || seed === own, `${where}: deal ${seed} is not the deal of ${date} (${own})`);
  demand(dealDeck(own).join() === deck.join(), `${where}: the deck is not the deal of ${date}`);
}

/** The site's deals as the page carries them ([[first date, [attempt, ...]], ...], runs of days): rules and a date map. */
export function siteDeals(rules, runs) {
  const attempts = new Map();
  for (const [first, list] of runs) {
    list.forEach((attempt, k) => attempts.set(isoDay(Date.parse(`${first}T00:00:00Z`) + k * DAY_MS), attempt));
  }
  return { rules, attempts };
}

const SHA256_K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

/** SHA-256 of some bytes (FIPS 180-4): crypto.subtle is missing on a page served over plain http. */
export function sha256(bytes) {
  const length = Math.ceil((bytes.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  new DataView(padded.buffer).setUint32(length - 4, bytes.length * 8);
  const h = Uint32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let at = 0; at < length; at += 64) {
    for (let t = 0; t < 16; t += 1) w[t] = new DataView(padded.buffer).getUint32(at + 4 * t);
    for (let t = 16; t < 64; t += 1) {
      const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let t = 0; t < 64; t += 1) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[t] + w[t]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [k, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, k].forEach((x, n) => { h[n] = (h[n] + x) >>> 0; });
  }
  return Uint8Array.from([...h].flatMap((x) => [x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255, x & 255]));
}

/** Deal number of candidate `attempt` of a date (calendar.candidate_seed), as decimal text. */
export function candidateSeed(date, rules, attempt) {
  const digest = sha256(new TextEncoder().encode(`kcsolve-daily|${rules}|${date}|${attempt}`));
  return digest.slice(0, 8).reduce((value, byte) => (value << 8n) | BigInt(byte), 0n).toString();
}

const WORD_MASK = (1n << 64n) - 1n;

/** The deck of a deal number (common/deal.py: SplitMix64 and Fisher-Yates with rejection), top of the stock first. */
export function dealDeck(seed) {
  let state = BigInt(seed);
  const word = () => {
    state = (state + 0x9e3779b97f4a7c15n) & WORD_MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & WORD_MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & WORD_MASK;
    return z ^ (z >> 31n);
  };
  const order = [...Array(DECK_SIZE).keys()];
  for (let i = DECK_SIZE - 1; i > 0; i -= 1) {
    const bound = BigInt(i + 1);
    const limit = (1n << 64n) - ((1n << 64n) % bound);
    let drawn = word();
    while (drawn >= limit) drawn = word();
    const j = Number(drawn % bound);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.map((i) => `${RANKS[i % 13]}${"SHDC"[Math.floor(i / 13)]}`);
}

/** The entries of an import file's text (one record or a list of them), each held to the site's deals. */
export function readImport(text, site) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ImportRefused("the file is not JSON");
  }
  const list = Array.isArray(data) ? data : [data];
  demand(list.length <= MAX_IMPORT_GAMES, `the file holds ${list.length} games, more than ${MAX_IMPORT_GAMES}`);
  const entries = list.map((item, k) => checkEntry(item, list.length > 1 ? `game ${k + 1}` : "the game", site));
  // Marked for good: it shows wherever the game does, goes out with an export, and builds no streak.
  for (const entry of entries) entry.daily.imported = true;
  // A date may come twice, once face down and once face up: each mode keeps its own game of the date.
  const dates = new Set(entries.map((entry) => `${modeOf(entry)}/${entry.daily.date}`));
  demand(dates.size === entries.length, "the file holds one date twice in one mode");
  return entries;
}

/** Add imported entries to the store: a date already kept here stays as it is unless only the import is finished. */
export function mergeEntries(entries) {
  let added = 0;
  let kept = 0;
  for (const entry of entries) {
    const mine = loadEntry(entry.rules, entry.daily.date, modeOf(entry));
    if (mine && (mine.daily.first || !entry.daily.first)) {
      kept += 1;
    } else if (saveEntry(entry)) {
      added += 1;
    }
  }
  return { added, kept };
}
