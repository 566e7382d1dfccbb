// Asks the page's help engine about every position of a JSON-lines file and prints its answers, one
// JSON line each. Usage: node help_check.mjs hints CASES.jsonl | node help_check.mjs winnable CASES.jsonl NODES
// A hints case: {"record": {...kcsolve-record/1...}, "seed": "12", "playouts": 200}; it prints
// {"hints": [{move, exact, chance, wins, playouts, low, high, meaning}], "millis": ...}.
// A view case prints the no-peek view with each card as its text.
// A winnable case: {"record": ...}; it prints {"answer": "win" | "loss" | "unknown", "nodes": ...}.
// Each line also gives the CPU milliseconds the answer took.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, "../../../kcsolve/patience/daily/web");
const { readRecord, replay } = await import(join(web, "engine.mjs"));
const { viewOf, hints, stillWinnable } = await import(join(web, "help.mjs"));

const [kind, file, nodes] = process.argv.slice(2);
for (const line of readFileSync(file, "utf8").split("\n").filter((text) => text.trim())) {
  const data = JSON.parse(line);
  const played = replay(readRecord(data.record));
  if (played.error) throw new Error(played.error);
  const position = played.steps.length ? played.steps[played.steps.length - 1].position : played.start;
  const began = process.cpuUsage();
  const millis = () => { const spent = process.cpuUsage(began); return (spent.user + spent.system) / 1000; };
  if (kind === "view") {
    const view = viewOf(position);
    const text = (card) => (card === null ? null : card.text);
    console.log(JSON.stringify({ ...view, rules: undefined, grid: view.grid.map(text), inHand: text(view.inHand),
      seen: view.seen.map(text), unseen: view.unseen.map(text) }));
  } else if (kind === "hints") {
    const ranked = hints(viewOf(position), { playouts: data.playouts, seed: data.seed });
    console.log(JSON.stringify({ hints: ranked, millis: millis() }));
  } else {
    const answer = stillWinnable(position, { nodes: Number(nodes) });
    console.log(JSON.stringify({ ...answer, millis: millis() }));
  }
}
