#!/usr/bin/python3
"""The wasm engine against the native one on this machine, one thread, in
the same run (docs/web.md): perft counts a second and search visits a
second at the same positions, then the engine's download, gzipped.

    tools/web/measure.py NATIVE_WALLGO SITE

With WALLGO_SINGLE_THREADED=1 in the environment the wasm side is the
single-threaded build (the Node runner reads it).
"""
import gzip
import os
import re
import subprocess
import sys
import time

# Positions reached by fixed moves of the protocol's own examples, each
# searched for SEARCH_S seconds and counted to depth 4 PERFTS times.
POSITIONS = [[], ["play red d4"], ["play red d4", "play blue c3", "play blue e5"]]
SEARCH_S = 5
PERFTS = 20


class Engine:
    def __init__(self, command):
        env = dict(os.environ, NODE_PATH="/usr/share/nodejs")
        self.process = subprocess.Popen(
            command + ["--threads", "1"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def ask(self, line):
        """The answer to `line` (sent after the last answer) and its time."""
        start = time.perf_counter()
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = []
        while (out := self.process.stdout.readline()) != "\n":
            answer.append(out)
        return "".join(answer), time.perf_counter() - start

    def event(self):
        return self.process.stderr.readline()

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def measure(name, command):
    engine = Engine(command)
    leaves = perft_s = visits = search_s = 0
    engine.ask(f"set_option movetime {SEARCH_S}")
    for moves in POSITIONS:
        engine.ask("newgame")
        for move in moves:
            engine.ask(move)
        for _ in range(PERFTS):
            answer, seconds = engine.ask("perft 4")
            leaves += int(answer.split()[1])
            perft_s += seconds
        colour = "red" if len(moves) in (0, 3) else "blue"
        _, seconds = engine.ask(f"genmove {colour}")
        event = engine.event()
        while not event.startswith("genmove"):
            event = engine.event()
        visits += int(re.search(r"(\d+) visits", event).group(1))
        search_s += seconds
    engine.close()
    print(f"{name}: perft {leaves / perft_s / 1e6:.1f} M leaves/s, "
          f"search {visits / search_s:.0f} visits/s (one thread)")
    return leaves / perft_s, visits / search_s


def main():
    native, site = sys.argv[1], sys.argv[2]
    n_perft, n_visits = measure("native", [native])
    w_perft, w_visits = measure("wasm", ["node", os.path.join(site, "engine", "wallgo-node.js")])
    print(f"wasm/native: perft {w_perft / n_perft:.0%}, search {w_visits / n_visits:.0%}")
    engine = os.path.join(site, "engine")
    sizes = {f: len(gzip.compress(open(os.path.join(engine, f), "rb").read(), 9))
             for f in sorted(os.listdir(engine)) if f.endswith((".wasm", ".js", ".mjs"))}
    print("gzipped bytes:", ", ".join(f"{f} {n:,}" for f, n in sizes.items()))
    # A page loads one build: the threaded one's files or the -st ones,
    # with the worker, the module and (in Node) the runner.
    single = sum(n for f, n in sizes.items() if "-st." in f or "web" not in f)
    threaded = sum(n for f, n in sizes.items() if "-st." not in f)
    print(f"one build's download: threaded {threaded:,}, single-threaded {single:,}")

if __name__ == "__main__":
    main()
