// The service worker of a daily site (kcsolve site writes it as sw.js, after a line setting BUILD: this build's
// version, the files kept at once, and its first and last dates). Named .mjs only to ship as the pages' modules do;
// it is a classic worker script. Once a page has been seen over http(s), the site plays with no network:
// - the files of this build are kept in a cache named by its version, so a rebuilt site (whose sw.js differs)
//   installs a fresh cache and the old one is deleted when it takes over;
// - the archive, the feed, the newest date's page and anything this build does not know are asked of the
//   network first (new dates appear), the cache answering when it fails; the rest is answered from the cache first.
// Each cache name holds the site's address, so two sites on one origin never delete each other's.

/* global BUILD */
const SCOPE = self.registration.scope;
const PREFIX = `kcsolve-daily ${SCOPE} `;
const CACHE = PREFIX + BUILD.version;
const DAILY_FILE = /^daily\/(\d{4}-\d{2}-\d{2})\.(html|json)$/;

/** The site's name of a request's address (index.html for the folder itself), or null outside the site. */
function siteName(address) {
  if (!address.startsWith(SCOPE)) return null;
  const name = address.slice(SCOPE.length).split(/[?#]/)[0];  // ?face-up is the same page
  return name === "" ? "index.html" : name;
}

/** Whether a file may have changed since this build: asked of the network first. */
function mayChange(name) {
  const daily = DAILY_FILE.exec(name);
  if (!daily) return !BUILD.precache.includes(name) || name === "index.html" || name === "feed.json";
  return !BUILD.first || daily[1] < BUILD.first || (daily[2] === "html" && daily[1] >= BUILD.last);
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // cache: "reload" passes the browser's HTTP cache by, which may still hold the previous build's files.
    await cache.addAll(BUILD.precache.map((name) => new Request(SCOPE + name, { cache: "reload" })));
    // The page that registered the worker is not yet under it: keep it too, so it opens offline.
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      const name = siteName(client.url);
      if (name && !BUILD.precache.includes(name)) await cache.add(new Request(SCOPE + name, { cache: "reload" })).catch(() => null);
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

/** Keep a response in this build's cache, unless a newer build's worker has deleted it: a superseded worker, still
 * answering a page for a moment, must not make the old cache again. */
async function keep(key, response) {
  if (response.ok && (await caches.has(CACHE))) await (await caches.open(CACHE)).put(key, response);
}

/** A fresh copy from the network, kept; the kept copy when the network fails. */
async function networkFirst(request, key) {
  try {
    const response = await fetch(request);
    await keep(key, response.clone());
    return response;
  } catch (error) {
    const kept = await caches.match(key);  // keys are this site's own addresses: no other site's cache holds one
    if (kept) return kept;
    throw error;
  }
}

/** The kept copy, else the network's, kept for next time. */
async function cacheFirst(request, key) {
  const kept = await caches.match(key);
  if (kept) return kept;
  const response = await fetch(request);
  await keep(key, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const name = event.request.method === "GET" ? siteName(event.request.url) : null;
  if (name === null || name === "sw.js") return;  // not the site's: the browser fetches it as ever
  const key = SCOPE + name;
  event.respondWith(mayChange(name) ? networkFirst(event.request, key) : cacheFirst(event.request, key));
});
