// The Wall Go engine in the browser (docs/web.md): a Web Worker speaking the
// engine's text protocol (docs/protocol.md), one line at a time.
//   const engine = createEngine();
//   engine.onLine((line) => console.log(line));
//   engine.send('genmove red');
// Lines starting with '# ' are the engine's events (its stderr). The
// engine's threads need a page served with cross-origin isolation
// (COOP/COEP headers): `isolated()` says whether this one is. Elsewhere the
// worker runs the single-threaded build, slower but the same protocol.

export function isolated() {
  return globalThis.crossOriginIsolated === true;
}

export function createEngine(workerUrl = new URL('./wallgo-worker.js', import.meta.url)) {
  const worker = new Worker(workerUrl);
  const listeners = [];
  const exitListeners = [];
  worker.onmessage = (event) => {
    if (typeof event.data === 'string') {
      listeners.forEach((listener) => listener(event.data));
    } else if (event.data && 'exit' in event.data) {
      exitListeners.forEach((listener) => listener(event.data.exit));
    }
  };
  worker.onerror = (event) => {
    listeners.forEach((listener) => listener('# wallgo: ' + event.message));
  };
  return {
    // One protocol line, without its newline.
    send(line) {
      worker.postMessage(String(line));
    },
    // `callback(line)` for every line the engine prints.
    onLine(callback) {
      listeners.push(callback);
    },
    // `callback(status)` once the engine has ended (after `quit`).
    onExit(callback) {
      exitListeners.push(callback);
    },
    // Ends the engine at once, whatever it is doing.
    terminate() {
      worker.terminate();
    },
  };
}
