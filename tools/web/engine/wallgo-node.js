#!/usr/bin/env node
// The WebAssembly engine as a protocol process (docs/web.md): lines on stdin,
// answers on stdout, errors and events on stderr, as the native `wallgo`
// speaks them, so that wallgo-referee, wallgo-gui and the protocol tests
// drive it the same way. Its arguments are the options' flags, as for
// `wallgo` (--threads 2 --hash 32 ...). With WALLGO_SINGLE_THREADED=1 in
// the environment it runs the single-threaded build (wallgo-web-st), as a
// page without cross-origin isolation does.
'use strict';
const fs = require('fs');
const path = require('path');

const build = process.env.WALLGO_SINGLE_THREADED === '1' ? 'wallgo-web-st' : 'wallgo-web';
const WallgoEngine = require(`./${build}.js`);
const wasm = path.join(__dirname, `${build}.wasm`);
// Set when the engine's runtime ends (quit): it waits then for stdout to
// drain (node_exit.js), and takes no more input meanwhile.
let exited = false;
// A reader that closes stdout ends the engine as it ends the native one (by
// SIGPIPE: status 141 in a shell), without a stack trace.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(141);
});
WallgoEngine({
  // Read here: Node 20's fetch cannot load a file path.
  wasmBinary: fs.readFileSync(wasm),
  locateFile: (file) => path.join(__dirname, file),
  print: (line) => process.stdout.write(line + '\n'),
  printErr: (line) => process.stderr.write(line + '\n'),
  arguments: process.argv.slice(2),
  onExit: () => {
    exited = true;
    process.stdin.pause();
  },
}).then((engine) => {
  // stdin's bytes go to the engine unchanged, in pieces small enough for
  // the stack ccall copies them onto; the engine splits the lines.
  const piece = 1 << 16;
  process.stdin.on('data', (data) => {
    if (exited) return;
    for (let at = 0; at < data.length; at += piece) {
      const bytes = data.subarray(at, at + piece);
      engine.ccall('wallgo_input', null, ['array', 'number'], [bytes, bytes.length]);
    }
  });
  process.stdin.on('end', () => {
    if (!exited) engine.ccall('wallgo_close_input', null, [], []);
  });
});
