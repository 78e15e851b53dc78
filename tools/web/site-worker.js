// The static site's Web Worker (docs/web.md): runs wallgo-site (the GUI's
// bridge with the engine in it, site_main.cc). The page posts {threads: N}
// first, then each of its messages as JSON text; every message of the bridge
// comes back as JSON text. {exit: status} or {error: text} is the last.
'use strict';
const siteScript = new URL('wallgo-site.js', self.location.href).href;
importScripts(siteScript);

const encoder = new TextEncoder();
const pending = [];  // messages sent before the bridge started
let send = (text) => pending.push(text);

function start(threads) {
  WallgoSite({
    arguments: ['--threads', String(threads)],
    // The bridge's own threads load its script, not this one.
    mainScriptUrlOrBlob: siteScript,
    print: (line) => postMessage(line),
    printErr: (line) => console.warn('wallgo-site: ' + line),
    onExit: (status) => {
      postMessage({ exit: status });
      close();
    },
  }).then((site) => {
    send = (text) => {
      const bytes = encoder.encode(text);
      site.ccall('wallgo_site_message', null, ['array', 'number'],
        [bytes, bytes.length]);
    };
    pending.splice(0).forEach(send);
  }, (error) => {
    postMessage({ error: String(error) });
    close();
  });
}

onmessage = (event) => {
  if (typeof event.data === 'string') send(event.data);
  else if (event.data && 'threads' in event.data) start(event.data.threads);
};
