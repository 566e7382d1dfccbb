// Prints, as one JSON line, the tables the browser's engine copies from the Python by hand: the rule axes
// and presets, each preset as parseRules reads it, and the words for court cards with nowhere to go.
// Usage: node shared_tables.mjs. The tables are not exported (the page needs no more), so the engine's
// source is loaded with one export line added, leaving the file itself as the pages inline it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const source = readFileSync(join(here, "../../../kcsolve/patience/daily/web/engine.mjs"), "utf8");
const tables = "\nexport { AXES, PRESETS, COURT_WORD, noRoom };\n";
const engine = await import(`data:text/javascript;base64,${Buffer.from(source + tables).toString("base64")}`);

const ranks = [engine.JACK, engine.QUEEN, engine.KING];
const noRoom = Object.fromEntries(engine.AXES.courts.map((courts) => [courts,
  Object.fromEntries(ranks.map((rank) => [rank, engine.noRoom(rank, { courts })]))]));
console.log(JSON.stringify({
  axes: engine.AXES,
  presets: engine.PRESETS,
  parsed: Object.fromEntries(Object.keys(engine.PRESETS).map((name) => [name, engine.parseRules(name)])),
  courtWord: engine.COURT_WORD,
  noRoom,
}));
