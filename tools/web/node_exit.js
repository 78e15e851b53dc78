// --pre-js of the programs Node runs (wasm.cmake): under Node, the runtime's
// exit waits until stdout and stderr have taken everything written to them.
// Emscripten's own exit calls process.exit at once, and Node writes to a
// pipe asynchronously: a reader slower than the program (a loaded CI
// machine) lost the tail of the output past the pipe's 64 KB, under exit
// status 0. In a browser the runtime's default stands: throw to unwind.
Module['quit'] = (status, toThrow) => {
  const node = typeof process == 'object' && process.versions && process.versions.node;
  if (!node || keepRuntimeAlive()) {
    // What emscripten does itself: the process goes on (a browser page, or a
    // runtime kept alive) with this status.
    if (node) process.exitCode = status;
    throw toThrow;
  }
  logExceptionOnExit(toThrow);
  process.exitCode = status;
  // A write's callback comes once it and every write before it are out.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(status)));
  throw toThrow;
};
