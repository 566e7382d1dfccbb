// Replays random Kings Corner hands played by the Python engine through the browser's engine (engine.mjs) and
// compares every step: the player, the stock, the hand and the legal moves (a CRC-32 of each hand's steps), the
// reasons illegal moves are refused, the result and the penalties. Usage: node corner_check.mjs CASES.jsonl,
// one line per variant, {"variant", "rules", "hands": [...]} as tests/corner/web/corner_cases.py writes it.
// Prints one JSON line {"variants": [summary, ...]}; exits 1 on any mismatch.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const engine = await import(join(here, "../../../../kcsolve/corner/web/engine.mjs"));

const TABLE = new Int32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLE[n] = c;
}

/** zlib.crc32 of 16-bit little-endian words, continuing from `crc`. */
function crc32(words, crc) {
  let c = ~crc;
  for (const word of words) {
    c = TABLE[(c ^ word) & 0xff] ^ (c >>> 8);
    c = TABLE[(c ^ (word >>> 8)) & 0xff] ^ (c >>> 8);
  }
  return ~c >>> 0;
}

/** The words one step's digest covers, as corner_cases.step_words lists them. */
function stepWords(position, legal) {
  return [1000 + position.player, 2000 + position.stock.length, ...engine.handOf(position).map((c) => 3000 + c), 4000, ...legal.map(engine.actionOf)];
}

/** The move an action number names. */
function moveOf(number) {
  if (number === 864) return engine.END;
  if (number >= 832) return engine.merge(Math.floor((number - 832) / 8), (number - 832) % 8);
  const card = Math.floor((number % 416) / 8);
  return number >= 416 ? engine.under(card, number % 8) : engine.play(card, number % 8);
}

/** The first difference between the Python engine's hand and this engine's replay of it, or null. */
function check(rules, hand) {
  const deck = engine.seededDeck(BigInt(hand.seed));
  let position = engine.dealHand(deck, hand.players, rules);
  let crc = 0;
  const probes = new Map(hand.probes.map(([at, number, text]) => [at, [number, text]]));
  for (const [at, number] of hand.moves.entries()) {
    const legal = engine.legalMoves(position);
    crc = crc32(stepWords(position, legal), crc);
    if (probes.has(at)) {
      const [probe, text] = probes.get(at);
      const why = engine.whyIllegal(position, moveOf(probe));
      if (why !== text) return `step ${at}: ${engine.moveText(moveOf(probe))} refused with ${JSON.stringify(why)}, Python: ${JSON.stringify(text)}`;
    }
    if (!legal.some((m) => engine.actionOf(m) === number)) return `step ${at}: ${engine.moveText(moveOf(number))} is not legal here`;
    position = engine.playMove(position, moveOf(number));
  }
  if (crc !== hand.crc) return `the steps differ (crc ${crc} against ${hand.crc})`;
  const result = engine.resultOf(position);
  if (JSON.stringify(result) !== JSON.stringify(hand.result)) return `result ${JSON.stringify(result)}, Python: ${JSON.stringify(hand.result)}`;
  if (position.stock.length !== hand.stock) return `stock ${position.stock.length}, Python: ${hand.stock}`;
  return null;
}

/** One variant's summary: hands checked, moves and probes replayed, and the first mismatches. */
function checkVariant(data) {
  const rules = engine.rulesFromJson(data.rules);
  const mismatches = [];
  let moves = 0;
  let probes = 0;
  for (const [index, hand] of data.hands.entries()) {
    let wrong;
    try {
      wrong = check(rules, hand);
    } catch (exc) {
      wrong = `error: ${exc.message}`;
    }
    if (wrong) mismatches.push({ hand: index, seed: hand.seed, players: hand.players, wrong });
    moves += hand.moves.length;
    probes += hand.probes.length;
  }
  return { variant: data.variant, rules: engine.rulesText(rules), checked: data.hands.length, moves, probes, mismatched: mismatches.length, mismatches: mismatches.slice(0, 5) };
}

// One process for every variant: node's start and the engine's warm-up are paid once.
const lines = readFileSync(process.argv[2], "utf8").split("\n").filter((line) => line.trim());
const summaries = lines.map((line) => checkVariant(JSON.parse(line)));
console.log(JSON.stringify({ variants: summaries }));
process.exit(summaries.some((s) => s.mismatched) ? 1 : 0);
