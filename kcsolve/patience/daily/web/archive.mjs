// The archive (index.html): finds today (UTC) when it is viewed, not when it was built, marks each date with the
// player's own result kept in this browser, links the first date not yet played, and says when the day changes
// in the player's local time.
import { RESULT_WORDS, allEntries, resultOf } from "./store.mjs";

const archiveData = JSON.parse(document.getElementById("kc-data").textContent);
let archiveToday = new Date().toISOString().slice(0, 10);  // read again when the page is shown from the cache
// The short word a calendar cell shows for each result; RESULT_WORDS is what it means.
const CELL_WORDS = { won: "won", helped: "help", shown: "shown", lost: "lost", playing: "begun" };

function dateLink(day, words) {
  const a = document.createElement("a");
  a.href = `daily/${day}.html`;
  a.textContent = words;
  return a;
}

/** Today's cell and the line that links today's deal (or says the site has none so new). */
function markToday(dates) {
  const lead = document.getElementById("kc-today");
  const cell = document.querySelector(`td[data-date="${archiveToday}"]`);
  document.querySelectorAll("td.today").forEach((old) => old.classList.remove("today"));
  const past = dates.filter((d) => d <= archiveToday);
  if (cell) {
    cell.classList.add("today");
    lead.replaceChildren("Today (UTC): ", dateLink(archiveToday, `the deal of ${archiveToday}`), ".");
  } else if (past.length) {
    const latest = past[past.length - 1];
    lead.replaceChildren(`Today (UTC) is ${archiveToday}; the latest deal here is `, dateLink(latest, `the deal of ${latest}`), ".");
  } else {
    lead.textContent = `Today (UTC) is ${archiveToday}; no deal here is that old yet.`;
  }
}

/** Each date's result as a short word in its cell and in its link's name; the first date up to today not played. */
function markResults(dates) {
  document.querySelectorAll("td[data-date] .r-mark, td[data-date] .r-words").forEach((old) => old.remove());
  document.querySelectorAll("td.played").forEach((td) => td.classList.remove("played"));
  document.querySelectorAll("td[data-date] .r-imported").forEach((old) => old.remove());
  const entries = allEntries(archiveData.rules).filter((entry) => resultOf(entry) !== null);  // help before any move is no game
  const kept = new Map(entries.map((entry) => [entry.daily.date, resultOf(entry)]));
  const imported = new Set(entries.filter((entry) => entry.daily.imported).map((entry) => entry.daily.date));
  for (const td of document.querySelectorAll("td[data-date]")) {
    const result = kept.get(td.dataset.date);
    if (!result) continue;
    const mark = document.createElement("span");
    mark.className = `r-mark r-${result}`;
    mark.textContent = CELL_WORDS[result];
    mark.setAttribute("aria-hidden", "true");
    const words = document.createElement("span");
    words.className = "visually-hidden r-words";
    words.textContent = `, ${RESULT_WORDS[result]}${imported.has(td.dataset.date) ? ", imported" : ""}`;
    td.querySelector("a").append(mark, words);
    if (imported.has(td.dataset.date)) td.querySelector("a").append(importedMark());
    td.classList.add("played");
  }
  document.getElementById("kc-legend").hidden = kept.size === 0;
  explainImported(imported.size > 0);
  const unplayed = dates.find((d) => d <= archiveToday && !kept.has(d));
  const line = document.getElementById("kc-unplayed");
  if (unplayed) line.replaceChildren("First date you have not played: ", dateLink(unplayed, unplayed), ".");
  else if (kept.size && dates.some((d) => d <= archiveToday)) line.textContent = "You have played every date here so far.";
}

/** The small mark of a date whose game came from a file (seen; the link's name says it in words). */
function importedMark() {
  const mark = document.createElement("span");
  mark.className = "r-imported small";
  mark.textContent = "imported";
  mark.setAttribute("aria-hidden", "true");
  return mark;
}

/** The legend's word on imported games, there while one is marked. */
function explainImported(shown) {
  const old = document.getElementById("kc-legend-imported");
  if (old) old.remove();
  if (!shown) return;
  const words = document.createElement("span");
  words.id = "kc-legend-imported";
  words.textContent = " A date marked imported holds a game taken from a file: it counts in played and won, not in streaks.";
  document.getElementById("kc-legend").append(words);
}

/** When the UTC day changes, in the viewer's own time. */
function localChange() {
  const midnight = new Date(Date.parse(`${archiveToday}T00:00:00Z`) + 86400000);
  const at = midnight.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
  document.getElementById("kc-local-change").textContent = ` (${at} your time)`;
}

const siteDates = [...document.querySelectorAll("td[data-date]")].map((td) => td.dataset.date);
markToday(siteDates);
markResults(siteDates);
localChange();
// A game saved in another tab, or saved by the page just left after this one began reading the store, arrives
// as a storage event: the marks follow it. A page restored from the back-forward cache may be shown on a later
// day, so it finds today and reads the store again.
window.addEventListener("storage", () => markResults(siteDates));
window.addEventListener("pageshow", (event) => {
  if (event.persisted) followDay(true);
});

/** Find today again (UTC); on a new day, or when asked, mark today, the results and the first date not played anew. */
function followDay(always = false) {
  const today = new Date().toISOString().slice(0, 10);
  if (today === archiveToday && !always) return;
  archiveToday = today;
  markToday(siteDates);
  markResults(siteDates);
  localChange();
}

// An archive left open past midnight follows the day; a phone's tab that slept through it catches up when shown.
setInterval(() => followDay(), 20000);
document.addEventListener("visibilitychange", () => { if (!document.hidden) followDay(); });
