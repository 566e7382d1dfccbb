// Offline play: a page of a daily site served over http(s) registers the site's service worker (sw.js, beside the
// manifest at the site's root), which keeps the site's files for when there is no network (docs/WEB.md, "Offline").
// A page opened from a file:// address, or one with no manifest (a solution page), registers nothing.

/** Register the site's worker when the page links a manifest and is served over http(s); the registration or null. */
export function registerOffline(doc, nav, where) {
  const manifest = doc.querySelector('link[rel="manifest"]');
  if (!manifest || !/^https?:$/.test(where.protocol) || !nav.serviceWorker) return null;
  const root = new URL(".", manifest.href).href;
  // A refused registration (a browser that keeps no workers here) leaves the page as it is, playing online.
  return nav.serviceWorker.register(new URL("sw.js", root).href, { scope: root, updateViaCache: "none" }).catch(() => null);
}

if (typeof document !== "undefined") registerOffline(document, navigator, location);
