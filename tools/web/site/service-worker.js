// The players' site's one service worker (docs/web.md): it caches the site
// for offline play and gives the page cross-origin isolation (the COOP/COEP
// headers the engine's threads need) where the host sends none.
//
// - One cache per build of the site, named by version.json's release
//   version, commit and a digest of the files (build.sh writes them below),
//   so that a page is always served with the engine of its own build: an old
//   page never gets a new engine, nor a new page an old one.
// - Installing caches the page's own files, and the engine build (threaded
//   or single-threaded) the device ran under the previous version; on a
//   first visit the engine is cached as the page loads it (or when the page
//   asks: {type: 'precache', build}).
// - A new version installs in the background and waits: the page offers it
//   to the player, and takes it ({type: 'take-update'}) by reloading, with
//   the saved game (saved_game.js).
'use strict';
const VERSION = '@VERSION@';  // build.sh: version.json's version, commit and digest
const CACHE = `wallgo-site-${VERSION}`;
// The page's files, and each engine build's (build.sh lists them).
const SHELL = ['@SHELL@'];
const BUILDS = {
  threaded: ['wallgo-site.js', 'wallgo-site.wasm', 'wallgo-site.worker.js'],
  single: ['wallgo-site-st.js', 'wallgo-site-st.wasm'],
};
const SCOPE = new URL('./', self.location.href);
const CACHED = new Set([...SHELL, ...BUILDS.threaded, ...BUILDS.single]
  .map((file) => new URL(file, SCOPE).href));

// The build a cache of another version holds, or null.
async function buildIn(name) {
  const cache = await caches.open(name);
  for (const [build, files] of Object.entries(BUILDS)) {
    if (await cache.match(new URL(files[1], SCOPE).href)) return build;
  }
  return null;
}

async function install() {
  const cache = await caches.open(CACHE);
  // Revalidated against the server, never a stale copy from the HTTP cache.
  const fresh = (files) => files.map((f) => new Request(new URL(f, SCOPE), { cache: 'no-cache' }));
  await cache.addAll(fresh(SHELL));
  for (const name of await caches.keys()) {
    if (name === CACHE || !name.startsWith('wallgo-site-')) continue;
    const build = await buildIn(name);
    if (build) {
      await cache.addAll(fresh(BUILDS[build]));
      break;
    }
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(install());
  // A first install has no page to mix with: it takes over at once. An
  // update waits for the player.
  if (!self.registration.active) self.skipWaiting();
});

self.addEventListener('activate', (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) {
    if (name !== CACHE && name.startsWith('wallgo-site-')) await caches.delete(name);
  }
  await self.clients.claim();
})()));

async function precache(build) {
  const files = BUILDS[build];
  if (!files) return;
  const cache = await caches.open(CACHE);
  for (const file of files) {
    const url = new URL(file, SCOPE).href;
    if (!(await cache.match(url))) await cache.add(new Request(url, { cache: 'no-cache' }));
  }
}

// An engine build that failed to start (a broken download) leaves the
// cache, so that a reload fetches it again.
async function forget(build) {
  const cache = await caches.open(CACHE);
  for (const file of BUILDS[build] || []) await cache.delete(new URL(file, SCOPE).href);
}

self.addEventListener('message', (event) => {
  const message = event.data || {};
  if (message.type === 'take-update') self.skipWaiting();
  else if (message.type === 'precache') event.waitUntil(precache(message.build));
  else if (message.type === 'forget') event.waitUntil(forget(message.build));
  else if (message.type === 'version') (event.ports[0] || event.source).postMessage({ type: 'version', version: VERSION });
});

// The response with the two headers that make the page cross-origin
// isolated.
function isolated(response) {
  if (response.status === 0) return response;  // opaque: left as it is
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

// The cache's key for a request of the site: the page itself whatever its
// query (?lang=ko) or folder address; null for what is not cached.
function cacheKey(request) {
  const url = new URL(request.url);
  if (request.mode === 'navigate' && url.href.startsWith(SCOPE.href)) {
    const path = url.pathname.slice(SCOPE.pathname.length);
    if (path === '' || path === 'index.html') return new URL('index.html', SCOPE).href;
  }
  url.search = '';
  url.hash = '';
  return CACHED.has(url.href) ? url.href : null;
}

// Whether the server still has this version (asked again after 10 s).
let serverHasThisVersion = null;
function serverVersionMatches() {
  serverHasThisVersion ??= fetch(new URL('version.json', SCOPE), { cache: 'no-store' })
    .then((r) => r.json())
    .then((v) => VERSION === `${v.version}-${v.commit}-${v.files}`)
    .finally(() => setTimeout(() => { serverHasThisVersion = null; }, 10000));
  return serverHasThisVersion;
}

// A file of this version missing from its cache comes from the network only
// while the server still has this version: otherwise the engine would be
// another build's.
async function fromNetwork(request, key, cache) {
  if (key && !SHELL.some((f) => new URL(f, SCOPE).href === key)) {
    if (!(await serverVersionMatches())) {
      return new Response('This page is an older version than the site: reload it.', { status: 409 });
    }
  }
  const response = await fetch(request);
  if (key && response.ok) await cache.put(key, response.clone());
  return response;
}

async function respond(request) {
  const key = cacheKey(request);
  const cache = await caches.open(CACHE);
  const cached = key && await cache.match(key);
  return isolated(cached || await fromNetwork(request, key, cache));
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // A request the worker may not repeat (a cache-only one from elsewhere).
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  if (request.method !== 'GET') return;
  event.respondWith(respond(request));
});
