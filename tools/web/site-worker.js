// The static site's Web Worker (docs/web.md): runs wallgo-site (the GUI's
// bridge with the engine in it, site_main.cc). The page posts {threads: N,
// hash: MB} first, then each of its messages as JSON text; every message of the bridge
// comes back as JSON text. {exit: status} or {error: text} is the last.
// Without cross-origin isolation (no shared memory) it runs the
// single-threaded build, wallgo-site-st.js, whose threads are fibers.
'use strict';
const siteScript = new URL(
  self.crossOriginIsolated === true ? 'wallgo-site.js' : 'wallgo-site-st.js',
  self.location.href).href;
importScripts(siteScript);

const pending = [];  // messages sent before the bridge started
let send = (text) => pending.push(text);

function start(threads, hash) {
  WallgoSite({
    arguments: ['--threads', String(threads), '--hash', String(hash)],
    // The bridge's own threads load its script, not this one.
    mainScriptUrlOrBlob: siteScript,
    print: (line) => postMessage(line),
    printErr: (line) => console.warn('wallgo-site: ' + line),
    onExit: (status) => {
      postMessage({ exit: status });
      close();
    },
  }).then((site) => {
    // Through the heap, not ccall's stack copy: a records file may be
    // megabytes, the stack is 5 MB.
    send = (text) => {
      const size = site.lengthBytesUTF8(text);
      const bytes = site._malloc(size + 1);
      if (bytes === 0) {
        postMessage(JSON.stringify({ type: 'error', message: 'out of memory for a message' }));
        return;
      }
      site.stringToUTF8(text, bytes, size + 1);
      site._wallgo_site_message(bytes, size);
      site._free(bytes);
    };
    pending.splice(0).forEach(send);
  }, (error) => {
    postMessage({ error: String(error) });
    close();
  });
  // An abort (out of memory, a missing file) may come outside the promise.
  self.addEventListener('error', (event) => postMessage({ error: String(event.message) }));
}

onmessage = (event) => {
  if (typeof event.data === 'string') send(event.data);
  else if (event.data && 'threads' in event.data) start(event.data.threads, event.data.hash || 64);
};
