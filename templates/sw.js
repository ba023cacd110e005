// The service worker: served at the site's root by scoring/site/views/offline.py, so that it sees every page. On a
// lost connection, a page shows what it can rather than the browser's error page:
// - the static files come from the cache (and are fetched again behind it, for the next time);
// - a game page or a spectator page is asked for first, and its copy kept; offline, the last copy is shown,
//   read-only, with a line saying it may be out of date (scoring/table/templates/table/_stale.html);
// - any other page offline is the offline page, in the reader's language (kept again when the language changes).
// - a plain form posted offline (a button of the game page) gets the offline page saying that it needs the network.
// Nothing else but GET goes through it: taps wait in the entry's own queue (static/js/entry_queue.js).
"use strict";

const CACHE = "okanagan-{{ version }}";
const OFFLINE = "{{ offline_url|escapejs }}";
const STATIC = "{{ static_prefix|escapejs }}";
const LOGOUT = "{{ logout_url|escapejs }}";
const COPIES = new RegExp("{{ copies|escapejs }}"); // the game and spectator pages, by their path

// The offline page, and the static files it uses (the site's stylesheet and scripts), in one cache per version.
async function keepOfflinePage() {
  const cache = await caches.open(CACHE);
  await cache.add(OFFLINE);
  const page = await (await cache.match(OFFLINE)).text();
  const files = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((found) => found[1]);
  await cache.addAll([...new Set(files.filter((file) => file.startsWith(STATIC)))]);
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepOfflinePage().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = caches.keys().then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))));
  event.waitUntil(old.then(() => self.clients.claim()));
});

async function staticFile(request, event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  const fetched = fetch(request).then((answer) => {
    if (answer.ok) return cache.put(request, answer.clone()).then(() => answer);
    return answer;
  });
  if (!kept) return fetched;
  event.waitUntil(fetched.catch(() => undefined));
  return kept;
}

// A kept page with the element marked `show` shown (the `hidden` after its mark taken off, on the same line or,
// as djLint lays attributes out, the next) and the element marked `hide`, if any, hidden.
async function shown(kept, show, hide = "") {
  let text = (await kept.text()).replace(new RegExp(`(\\s${show})\\s+hidden(?=[\\s>])`), "$1");
  if (hide) text = text.replace(new RegExp(`(\\s${hide})(?=[\\s>])`), "$1 hidden");
  const headers = new Headers(kept.headers);
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  return new Response(text, { status: 200, headers });
}

async function page(request, event) {
  const path = new URL(request.url).pathname;
  const cache = await caches.open(CACHE);
  let answer;
  try {
    answer = await fetch(request);
  } catch (error) {
    const kept = COPIES.test(path) ? await cache.match(path) : undefined;
    if (kept) return shown(kept, "data-offline-copy");
    return (await cache.match(OFFLINE)) ?? Response.error();
  }
  if (answer.ok && COPIES.test(path)) event.waitUntil(cache.put(path, answer.clone()));
  const offline = await cache.match(OFFLINE);
  const language = answer.headers.get("Content-Language");
  if (language && offline && offline.headers.get("Content-Language") !== language) {
    event.waitUntil(cache.add(OFFLINE).catch(() => undefined)); // the reader changed language
  }
  return answer;
}

// A button of a page that posts a plain form (Undo, End round 1, Continue here): offline, the offline page says
// that this needs the network and that nothing was changed, rather than the browser's error page.
async function action(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const offline = await (await caches.open(CACHE)).match(OFFLINE);
    return offline ? shown(offline, "data-needs-network", "data-not-loaded") : Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === LOGOUT) {
    // Logging out: no copy of a game page stays on the phone for the next person to see.
    event.waitUntil(caches.delete(CACHE));
    return;
  }
  if (request.method !== "GET") {
    if (request.mode === "navigate") event.respondWith(action(request));
    return;
  }
  if (url.pathname.startsWith(STATIC)) event.respondWith(staticFile(request, event));
  else if (request.mode === "navigate") event.respondWith(page(request, event));
});
