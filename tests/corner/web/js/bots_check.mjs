// Replays hands played by Python's greedy and turn bots and asks the browser's bots (bots.mjs), each from its
// own seat's view, for every move. Usage: node bots_check.mjs CASES.jsonl, a line per variant {"variant",
// "rules", "hands": [{"bots", "seed", "moves", "result"}]}. Prints one JSON line {"variants": [summary, ...]};
// exits 1 on any mismatch.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const engine = await import(join(here, "../../../../kcsolve/corner/web/engine.mjs"));
const bots = await import(join(here, "../../../../kcsolve/corner/web/bots.mjs"));

/** The first move where a browser bot differs from the Python bot in its seat, or null. */
function check(rules, hand) {
  let position = engine.dealHand(engine.seededDeck(BigInt(hand.seed)), hand.bots.length, rules);
  const seats = hand.bots.map((name) => bots.makeBot(name, 0));
  for (const [at, number] of hand.moves.entries()) {
    const view = bots.viewOf(position);
    const move = seats[position.player].choose(view);
    if (engine.actionOf(move) !== number) return `move ${at + 1} (${hand.bots[position.player]}): ${engine.moveText(move)}, Python: ${number}`;
    position = engine.playMove(position, move);
  }
  const result = engine.resultOf(position);
  return JSON.stringify(result) === JSON.stringify(hand.result) ? null : `result ${JSON.stringify(result)}`;
}

/** One variant's summary: hands and moves checked, and the first mismatches. */
function checkVariant(data) {
  const rules = engine.rulesFromJson(data.rules);
  const mismatches = [];
  let moves = 0;
  for (const [index, hand] of data.hands.entries()) {
    let wrong;
    try {
      wrong = check(rules, hand);
    } catch (exc) {
      wrong = `error: ${exc.stack}`;
    }
    if (wrong) mismatches.push({ hand: index, seed: hand.seed, bots: hand.bots, wrong });
    moves += hand.moves.length;
  }
  return { variant: data.variant, checked: data.hands.length, moves, mismatched: mismatches.length, mismatches: mismatches.slice(0, 5) };
}

const lines = readFileSync(process.argv[2], "utf8").split("\n").filter((line) => line.trim());
const summaries = lines.map((line) => checkVariant(JSON.parse(line)));
console.log(JSON.stringify({ variants: summaries }));
process.exit(summaries.some((s) => s.mismatched) ? 1 : 0);
