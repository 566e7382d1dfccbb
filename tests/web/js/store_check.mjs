// Runs the page's store (kcsolve/patience/daily/web/store.mjs) on cases from a JSON file and prints the
// answers as one JSON line. Usage: node store_check.mjs CASES.json, where CASES is
// {"statistics": [{"entries": [...], "today": "YYYY-MM-DD", "mode": "face-up" (optional)}], "check": [any JSON], "export": [entry],
//  "import": [{"text": file text, "rules": site rules, "runs": the site's deal runs}],
//  "deals": [{date, rules, attempt}], "saved": [{"text": a saved entry's text, "known": {rules, date, mode, deck}}]}.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const store = await import(join(here, "../../../kcsolve/patience/daily/web/store.mjs"));
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));

const checked = cases.check.map((data) => {
  try {
    return { entry: store.checkEntry(data, "the game") };
  } catch (exc) {
    return { refused: exc instanceof store.ImportRefused ? exc.message : `not refused but broken: ${exc}` };
  }
});
const imported = (cases.import ?? []).map(({ text, rules, runs }) => {
  try {
    return { entries: store.readImport(text, store.siteDeals(rules, runs)) };
  } catch (exc) {
    return { refused: exc instanceof store.ImportRefused ? exc.message : `not refused but broken: ${exc}` };
  }
});
const deals = (cases.deals ?? []).map(({ date, rules, attempt }) => {
  const seed = store.candidateSeed(date, rules, attempt);
  return { seed, deck: store.dealDeck(seed) };
});
const saved = (cases.saved ?? []).map(({ text, known }) => store.readSaved(text, { mode: store.FACE_DOWN, deck: null, ...known }));
console.log(JSON.stringify({
  saved,
  import: imported,
  deals,
  statistics: cases.statistics.map(({ entries, today, mode }) => store.statistics(entries, today, mode)),
  check: checked,
  export: cases.export.map((entry) => store.exportText(entry)),
}));
