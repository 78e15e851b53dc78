// Cross-origin isolation for hosts that send no COOP/COEP headers
// (docs/web.md), `python3 -m http.server` and GitHub Pages among them: this
// service worker adds the two headers to every response of the site, which
// is all the browser needs to give the page shared memory, and so the
// engine its threads. The page registers it and reloads once
// (transport.js); a browser without service workers, or a page that is not
// a secure context (http:// other than localhost), gets a message instead.
'use strict';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const request = event.request;
  // A request the worker may not repeat (a cache-only one from elsewhere).
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(fetch(request).then((response) => {
    if (response.status === 0) return response;  // opaque: left as it is
    const headers = new Headers(response.headers);
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
    return new Response(response.body,
      { status: response.status, statusText: response.statusText, headers });
  }));
});
