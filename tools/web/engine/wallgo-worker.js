// The engine's Web Worker (docs/web.md): protocol lines arrive as messages
// (strings) and every line the engine prints goes back as one; an object
// {exit: status} is the last message, after `quit` or a failed start.
// wallgo.mjs starts it; any page may instead start it itself:
//   const w = new Worker('engine/wallgo-worker.js'); w.postMessage('name');
// Without cross-origin isolation (no shared memory) it runs the
// single-threaded build, wallgo-web-st.js, whose threads are fibers.
'use strict';
const engineScript = new URL(
  self.crossOriginIsolated === true ? 'wallgo-web.js' : 'wallgo-web-st.js',
  self.location.href).href;
importScripts(engineScript);

const encoder = new TextEncoder();
const pending = [];  // lines sent before the engine started
let send = (line) => pending.push(line);

WallgoEngine({
  // The engine's own threads load the engine script, not this one.
  mainScriptUrlOrBlob: engineScript,
  print: (line) => postMessage(line),
  printErr: (line) => postMessage('# ' + line),
  onExit: (status) => {
    postMessage({ exit: status });
    close();
  },
}).then((engine) => {
  send = (line) => {
    const bytes = encoder.encode(line + '\n');
    engine.ccall('wallgo_input', null, ['array', 'number'], [bytes, bytes.length]);
  };
  pending.splice(0).forEach(send);
}, (error) => {
  postMessage('# wallgo: the engine did not start: ' + error);
  postMessage({ exit: 1 });
  close();
});

onmessage = (event) => {
  if (typeof event.data === 'string') send(event.data);
};
