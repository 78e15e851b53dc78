// How the page reaches the bridge that owns its game: wallgo-gui's
// WebSocket, or in the static site (docs/web.md) the same bridge compiled to
// WebAssembly in a Web Worker, with the engine in it. Either way the page
// sends the messages of docs/gui.md as JSON text and gets the bridge's back.
// The handlers: open(), message(text), closed(why) where `why` is '' for a
// dropped connection the page may retry and a sentence for good. Both
// connections have send(text) (false when not open), close() and, for
// automation, readyState as a WebSocket's (1: open).

export function openSocket(url, handlers) {
  const socket = new WebSocket(url);
  socket.onopen = () => handlers.open();
  socket.onclose = () => handlers.closed('');
  socket.onmessage = (event) => handlers.message(event.data);
  return {
    send(text) {
      if (socket.readyState !== WebSocket.OPEN) return false;
      socket.send(text);
      return true;
    },
    close() { socket.close(); },
    get readyState() { return socket.readyState; },
  };
}

// The static site on a host without COOP/COEP headers: registers
// isolation-worker.js, which adds them, and reloads the page once so that it
// loads under the worker. True when the page is about to reload.
export async function isolateBySiteWorker() {
  if (globalThis.crossOriginIsolated === true) return false;
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return false;
  const tried = 'wallgo-isolation-reload';
  try {
    if (sessionStorage.getItem(tried)) return false;  // once per tab: no loop
    await navigator.serviceWorker.register(new URL('isolation-worker.js', import.meta.url));
    await navigator.serviceWorker.ready;
    sessionStorage.setItem(tried, '1');
  } catch (e) {
    return false;
  }
  location.reload();
  return true;
}

// Whether the static site's bridge and engine can run on threads: only
// where the page is cross-origin isolated (docs/web.md), which gives it
// shared memory. Elsewhere the worker runs the single-threaded build.
function threadsAllowed() {
  return globalThis.crossOriginIsolated === true;
}

// The engine's search threads in the static site (the worker's `threads`):
// at most 4 (a phone's cores are shared with the page), one without
// isolation.
function siteThreads() {
  if (!threadsAllowed()) return 1;
  return Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 4));
}

export function openWorker(handlers, why) {
  const worker = new Worker(new URL('site-worker.js', import.meta.url));
  let open = false;
  const end = (text) => { open = false; worker.terminate(); handlers.closed(text); };
  worker.onmessage = (event) => {
    const data = event.data;
    if (typeof data === 'string') {
      if (!open) { open = true; handlers.open(); }
      handlers.message(data);
    } else if (data && 'exit' in data) {
      end(`${why.ended} (${data.exit})`);
    } else if (data && data.error) {
      end(`${why.ended}: ${data.error}`);
    }
  };
  worker.onerror = (event) => end(`${why.ended}: ${event.message}`);
  const threads = siteThreads();
  worker.postMessage({ threads });
  return {
    threads,  // the engine's search threads
    singleThreaded: !threadsAllowed(),  // the build without threads
    send(text) {
      if (!open) return false;
      worker.postMessage(text);
      return true;
    },
    close() { worker.terminate(); },
    get readyState() { return open ? 1 : 3; },
  };
}
