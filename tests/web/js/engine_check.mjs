// Replays every record of a JSON-lines file through the browser's rules engine and compares
// each verdict with the one kcsolve's Python engine gave. Usage: node engine_check.mjs CASES.jsonl
// Each line: {"record": {...kcsolve-record/1...}, "verdict": "won: ..."}. Prints one JSON summary line.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const { readRecord, verdict } = await import(join(here, "../../../kcsolve/patience/daily/web/engine.mjs"));

const lines = readFileSync(process.argv[2], "utf8").split("\n").filter((line) => line.trim());
const mismatches = [];
for (const [index, line] of lines.entries()) {
  const { record, verdict: expected } = JSON.parse(line);
  let got;
  try {
    got = verdict(readRecord(record));
  } catch (exc) {
    got = `error: ${exc.message}`;
  }
  if (got !== expected) mismatches.push({ line: index + 1, expected, got });
}
console.log(JSON.stringify({ checked: lines.length, mismatches: mismatches.slice(0, 10), mismatched: mismatches.length }));
process.exit(mismatches.length ? 1 : 0);
