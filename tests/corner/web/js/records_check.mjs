// Judges Kings Corner records (hands and games) with the browser's engine and compares each verdict with the
// Python engine's (judge_corner, judge_game), or the reading error with record.py's. Usage:
// node records_check.mjs CASES.jsonl, each line {"text": "the record's JSON text", "good": bool, "verdict": "..."}.
// Prints one JSON summary line; exits 1 on any mismatch.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const engine = await import(join(here, "../../../../kcsolve/corner/web/engine.mjs"));

/** [good, verdict] for one record's JSON object, a reading error as [false, "invalid: ..."]. */
function judged(data) {
  let read;
  try {
    read = engine.readAny(data);
  } catch (exc) {
    return [false, `invalid: ${exc.message}`];
  }
  return read.kind === "game" ? engine.judgeGame(read.game) : engine.judgeRecord(read.record);
}

const lines = readFileSync(process.argv[2], "utf8").split("\n").filter((line) => line.trim());
const mismatches = [];
for (const [index, line] of lines.entries()) {
  const { text, good, verdict } = JSON.parse(line);
  const [gotGood, got] = judged(engine.parseJson(text));
  if (gotGood !== good || got !== verdict) mismatches.push({ line: index + 1, expected: verdict, got });
}
console.log(JSON.stringify({ checked: lines.length, mismatched: mismatches.length, mismatches: mismatches.slice(0, 5) }));
process.exit(mismatches.length ? 1 : 0);
