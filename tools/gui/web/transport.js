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

// wallgo-gui's WebSocket to the bridge of game `game` (with the page's
// key, when the server listens beyond loopback).
export function openBridge({ game, key }, handlers) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const keyPart = key ? `&key=${encodeURIComponent(key)}` : '';
  return openSocket(`${scheme}://${location.host}/ws?game=${encodeURIComponent(game)}${keyPart}`, handlers);
}

// Whether the static site's bridge and engine can run on threads: only
// where the page is cross-origin isolated (docs/web.md), which gives it
// shared memory. Elsewhere the worker runs the single-threaded build.
export function threadsAllowed() {
  return globalThis.crossOriginIsolated === true;
}

// What the static site's engine may use on this device (docs/web.md):
// search threads and hash (MB). The memory is navigator.deviceMemory, else
// lichess's guess (lila #10190): 2 GB where threaded WebAssembly runs (iOS
// Safari among them, which reports none), 512 MB elsewhere. The hash is
// 1/32 of it, 16..64 MB (64 is the engine's default in the browser). A
// touch-first device (a phone, a tablet) gets half its cores, at most two:
// its cores are shared with the page and its battery with everything else;
// a desktop at most four, as before.
export function siteResources(nav = navigator, touchFirst = matchMedia('(pointer: coarse)').matches,
                              threaded = threadsAllowed()) {
  const memoryGb = Number(nav.deviceMemory) > 0 ? Number(nav.deviceMemory) : (threaded ? 2 : 0.5);
  const hash = Math.min(64, Math.max(16, Math.floor(memoryGb * 1024 / 32)));
  const cores = Number(nav.hardwareConcurrency) > 0 ? Number(nav.hardwareConcurrency) : 1;
  if (!threaded) return { threads: 1, hash };
  const threads = touchFirst ? Math.min(2, Math.max(1, Math.floor(cores / 2))) : Math.min(cores, 4);
  return { threads, hash };
}

// Why the engine could not start, in the page's words: `failure` is the
// worker's error text. Returns a key of messages.json.
export function startFailure(failure) {
  if (typeof WebAssembly !== 'object') return 'site.noWasm';
  if (/memory|allocat|RangeError/i.test(failure)) return 'site.noMemory';
  return 'site.failed';
}

export function openWorker(handlers, why) {
  let open = false;
  const { threads, hash } = siteResources();
  let worker = null;
  const end = (text) => {
    const wasOpen = open;
    open = false;
    if (worker) worker.terminate();
    handlers.closed(wasOpen ? `${why.ended} (${text})` : why.failed(text));
  };
  try {
    if (typeof WebAssembly !== 'object') throw new Error('no WebAssembly');
    worker = new Worker(new URL('site-worker.js', import.meta.url));
  } catch (e) {
    setTimeout(() => end(String(e.message || e)), 0);
  }
  if (worker) {
    worker.onmessage = (event) => {
      const data = event.data;
      if (typeof data === 'string') {
        if (!open) { open = true; handlers.open(); }
        handlers.message(data);
      } else if (data && 'exit' in data) {
        end(`exit ${data.exit}`);
      } else if (data && data.error) {
        end(data.error);
      }
    };
    worker.onerror = (event) => { event.preventDefault(); end(event.message || 'the worker failed'); };
    worker.postMessage({ threads, hash });
  }
  return {
    threads,  // the engine's search threads
    hash,  // its hash in MB
    singleThreaded: !threadsAllowed(),  // the build without threads
    send(text) {
      if (!open) return false;
      worker.postMessage(text);
      return true;
    },
    close() { open = false; if (worker) worker.terminate(); },
    get readyState() { return open ? 1 : 3; },
  };
}
