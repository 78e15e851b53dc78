// Types of wallgo.mjs: the Wall Go engine in a Web Worker, speaking the
// engine's text protocol one line at a time (README.md).

/** Whether this page has cross-origin isolation, so the threaded build runs. */
export function isolated(): boolean;

/** The engine in its Web Worker. */
export interface Engine {
  /** Sends one protocol line, without its newline. */
  send(line: string): void;
  /** Calls back with every line the engine prints ('# ' lines are its events). */
  onLine(callback: (line: string) => void): void;
  /** Calls back once with the exit status after the engine has ended (`quit`). */
  onExit(callback: (status: number) => void): void;
  /** Ends the engine at once, whatever it is doing. */
  terminate(): void;
}

/** Starts the engine; workerUrl defaults to the package's wallgo-worker.js. */
export function createEngine(workerUrl?: string | URL): Engine;
