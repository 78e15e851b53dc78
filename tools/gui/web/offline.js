// The static site's service worker (service-worker.js, docs/web.md), seen
// from the page: it is registered on every visit, isolates the page where
// the host does not (one reload, at most once per tab), caches the site for
// offline play, and installs new versions in the background, which the page
// offers to the player. wallgo-gui's page has no service worker.
const RELOADED = 'wallgo-isolation-reload';

function controlled() {
  return new Promise((resolve) => {
    if (navigator.serviceWorker.controller) return resolve(true);
    navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true), { once: true });
  });
}

const timeout = (ms) => new Promise((resolve) => { setTimeout(() => resolve(false), ms); });

// Registers the worker and waits (at most a few seconds) until it serves
// this page, so that the engine the page is about to load goes through it
// into the cache, and a first visit downloads it once. Resolves to true when
// the page is about to reload to be isolated; `onUpdate(worker)` is called
// when a new version waits.
export async function startServiceWorker(onUpdate) {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return false;
  let registration;
  try {
    registration = await navigator.serviceWorker.register(
      new URL('service-worker.js', import.meta.url), { updateViaCache: 'none' });
  } catch (e) {
    return false;  // storage off (private mode), or the file is missing
  }
  watchUpdates(registration, onUpdate);
  const served = await Promise.race([controlled(), timeout(5000)]);
  if (globalThis.crossOriginIsolated === true || !served) return false;
  // Served by the worker, which adds the headers, but loaded before it:
  // once more, now isolated.
  try {
    if (sessionStorage.getItem(RELOADED)) return false;  // once per tab: no loop
    sessionStorage.setItem(RELOADED, '1');
  } catch (e) {
    return false;
  }
  location.reload();
  return true;
}

// A new version waits once its worker is installed while an older one
// serves the page; another tab that took it reloads this one too, so that
// no page of the old version runs on beside the new worker.
function watchUpdates(registration, onUpdate) {
  let served = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (served) location.reload();
    served = true;
  });
  const offer = (worker) => {
    if (worker && navigator.serviceWorker.controller) onUpdate(worker);
  };
  if (registration.waiting) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker.addEventListener('statechange', () => {
      if (worker.state === 'installed') offer(worker);
    });
  });
  // A page left open for days, or shown again, looks for a new version.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') registration.update().catch(() => {});
  });
}

// The version a worker serves ({version, commit} of its version.json), asked
// of the worker itself; null if it does not answer.
export function workerVersion(worker) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data.version || null);
    worker.postMessage({ type: 'version' }, [channel.port2]);
    setTimeout(() => resolve(null), 2000);
  });
}

// Takes the waiting version: the worker takes over, and the page reloads
// (controllerchange above) into the new version, with its saved game.
export function takeUpdate(worker) {
  worker.postMessage({ type: 'take-update' });
}

// Asks the worker to cache the engine build this page runs (`threaded` or
// `single`) if it is not cached yet: a first visit loaded it before the
// worker served the page when the worker was slow to start.
export function precacheBuild(build) {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker) worker.postMessage({ type: 'precache', build });
}

// Asks the worker to drop an engine build that failed to start from its
// cache: a reload then fetches it again.
export function forgetBuild(build) {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker) worker.postMessage({ type: 'forget', build });
}

// The site's version.json ({version, commit}); null where there is none.
export async function siteVersion() {
  try {
    const response = await fetch(new URL('version.json', import.meta.url), { cache: 'no-cache' });
    return response.ok ? await response.json() : null;
  } catch (e) {
    return null;
  }
}
