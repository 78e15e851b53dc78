#!/usr/bin/env node
// The WebAssembly engine as a protocol process (docs/web.md): lines on stdin,
// answers on stdout, errors and events on stderr, as the native `wallgo`
// speaks them, so that wallgo-referee, wallgo-gui and the protocol tests
// drive it the same way. Its arguments are the options' flags, as for
// `wallgo` (--threads 2 --hash 32 ...).
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const WallgoEngine = require('./wallgo-web.js');

const wasm = path.join(__dirname, 'wallgo-web.wasm');
WallgoEngine({
  // Read here: Node 20's fetch cannot load a file path.
  wasmBinary: fs.readFileSync(wasm),
  locateFile: (file) => path.join(__dirname, file),
  print: (line) => process.stdout.write(line + '\n'),
  printErr: (line) => process.stderr.write(line + '\n'),
  arguments: process.argv.slice(2),
}).then((engine) => {
  const send = (line) => engine.ccall('wallgo_send', null, ['string'], [line]);
  const input = readline.createInterface({ input: process.stdin });
  input.on('line', send);
  input.on('close', () => engine.ccall('wallgo_close_input', null, [], []));
});
