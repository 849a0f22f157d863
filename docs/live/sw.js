// The site kept for offline use (a service worker, at the site's root). After one visit over http(s) every page, the
// Python runtime and the saved Python of this version are in one cache, and the pages are answered from it, with or
// without a network. A new version of the site comes with a new copy of this file: it fills its own cache (taking the
// files that did not change from the old one), then deletes the old. Nothing here is sent anywhere.
const VERSION = '__VERSION__';
const FILES = __FILES__;  // each file kept, by path from the site's root -> a hash of what it holds
const QUERIES = __QUERIES__;  // the query the pages ask for a file with ("v=..."): the same address, so the HTTP cache answers
const PREFIX = 'besm-site-';
const CACHE = PREFIX + VERSION;
const LIST = 'besm-files.json';  // the list above, kept in the cache: the next version sees which files it may copy
const scope = new URL(self.registration.scope);
const PAGE = (title, text) => `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">`
  + `<title>${title}</title><h1>${title}</h1><p>${text} <a href="${new URL('index.html', self.registration.scope).href}">The home page</a></p></html>`;
const OFFLINE = PAGE('Not kept offline', 'This page is not kept for offline use: open it again with a network.');
const MISSING = PAGE('No such page', 'This site has no page at this address.');

const at = (path) => new URL(path, scope).href;

function keyOf(url) {  // the file a request is for: a folder's index page, one copy of the widget fonts, no query
  let path = url.pathname.slice(scope.pathname.length);
  if (path === '' || path.endsWith('/')) path += 'index.html';
  path = path.replace(/^(?:.*\/)?@jupyter-widgets\/(?:html-manager\/dist\/)?([^/]+)$/, '@jupyter-widgets/$1');
  return at(decodeURIComponent(path));
}

async function before() {  // the newest older version kept: its cache and its list of files
  for (const name of (await caches.keys()).filter((n) => n.startsWith(PREFIX) && n !== CACHE).reverse()) {
    const cache = await caches.open(name), list = await cache.match(at(LIST));
    if (list) return { cache, files: await list.json() };
  }
  return null;
}

async function fill() {
  const cache = await caches.open(CACHE), old = await before(), todo = Object.entries(FILES);
  let next = 0;
  const lane = async () => {
    while (next < todo.length) {
      const [path, hash] = todo[next++], url = at(path);
      if (await cache.match(url)) continue;  // kept by an install that stopped half way
      const same = old && old.files[path] === hash && await old.cache.match(url);
      if (same) { await cache.put(url, same); continue; }
      const asked = QUERIES[path] ? `${url}?${QUERIES[path]}` : url;  // as the page asked: what it loaded is only checked, not sent again
      const r = await fetch(asked, { cache: 'no-cache' });  // never an older copy from the browser's HTTP cache
      if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
      await cache.put(url, r);
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  await cache.put(at(LIST), new Response(JSON.stringify(FILES), { headers: { 'Content-Type': 'application/json' } }));
}

self.addEventListener('install', (e) => e.waitUntil(fill().then(() => self.skipWaiting())));

self.addEventListener('activate', (e) => e.waitUntil((async () => {
  for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
  await self.clients.claim();
  for (const client of await self.clients.matchAll()) client.postMessage({ type: 'besm-offline', version: VERSION });
})()));

async function answer(request, url) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(keyOf(url));
  if (hit) return hit;
  try {
    return await fetch(request);
  } catch (e) {
    if (request.mode === 'navigate') {  // the site's own list says whether the page exists at all
      const path = keyOf(url).slice(scope.href.length), exists = path in FILES || !path.endsWith('.html');
      return new Response(exists ? OFFLINE : MISSING, { status: exists ? 503 : 404, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    }
    throw e;
  }
}

// The runtime's WebAssembly, compiled here from the cache and held while this worker runs. Chromium keeps one compiled
// copy of a module per process, shared by every worker there that compiles the same bytes, with all the code compiled
// for it so far: held here, it outlives the page, so the next page's Python starts on code the pages before it
// compiled and optimised, not from nothing (warm Tri-Stat page: making the tracker 392 -> 217 ms; see the
// contributors' page). Other engines share nothing between workers: there, holding it would cost memory for nothing.
const RUNTIME = Object.keys(FILES).find((path) => path.endsWith('/pyodide.asm.wasm'));
let runtime = null;

function holdRuntime() {
  if (runtime || !RUNTIME || !self.navigator?.userAgentData || !WebAssembly.compileStreaming) return;  // userAgentData: Chromium only
  runtime = caches.open(CACHE).then((cache) => cache.match(at(RUNTIME))).then((r) => {
    if (r) return WebAssembly.compileStreaming(r);
    runtime = null;  // not in the cache (yet): asked again with the next request
    return null;
  });
  runtime.catch(() => {});  // not held: each page compiles its own, as without it
}

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  holdRuntime();  // at once: a page being left may still hold the compiled copy, and this one then takes it over
  e.respondWith(answer(e.request, url));
});

self.addEventListener('message', (e) => {
  if (e.data === 'besm-version') e.source?.postMessage({ type: 'besm-offline', version: VERSION });  // which version answers
  if (e.data === 'besm-hold') holdRuntime();  // an open page keeps this worker, and the runtime it holds, alive (offline.js)
});
