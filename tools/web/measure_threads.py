#!/usr/bin/python3
"""Two threads against one in Chromium (docs/web.md): the engine's package on
its console.html, served with COOP/COEP on loopback, `genmove red` from the
start for S seconds; the visits its log line reports. Runs
alternate: one thread, two threads, and the ceiling, two one-thread engines
in two workers at once (what two cores give with no sharing).

    tools/web/measure_threads.py SITE [--seconds 4] [--runs 3]
"""
import argparse
import os
import re
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "tools", "gui"))
import serve  # noqa: E402
from browser_support import start_chromium  # noqa: E402

# Starts `engines` workers with `threads` each, each plays `genmove red` from
# the start, and resolves with each one's visits (from its log line).
SEARCH = """
const [threads, seconds, engines, done] = arguments;
import('./wallgo.mjs').then(async ({ createEngine }) => {
  const run = () => new Promise((resolve) => {
    const engine = createEngine();
    engine.onLine((line) => {
      const logged = line.startsWith('# ') && line.includes('genmove') && line.match(/(\\d+) visits/);
      if (logged) {
        engine.terminate();
        resolve(Number(logged[1]));
      }
    });
    engine.send(`set_option threads ${threads}`);
    engine.send(`set_option movetime ${seconds}`);
    engine.send('genmove red');
  });
  done(await Promise.all(Array.from({ length: engines }, run)));
});
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("site")
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    httpd = serve.make_server(args.site, 0, True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    driver = start_chromium()
    driver.set_script_timeout(120)
    try:
        driver.get(f"http://127.0.0.1:{httpd.server_address[1]}/engine/console.html")
        time.sleep(1)
        totals = {"1 thread": [], "2 threads": [], "ceiling": []}
        for _ in range(args.runs):
            for name, threads, engines in (("1 thread", 1, 1), ("2 threads", 2, 1), ("ceiling", 1, 2)):
                visits = driver.execute_async_script(SEARCH, threads, args.seconds, engines)
                totals[name].append(sum(visits))
        for name, runs in totals.items():
            print(f"{name}: {' '.join(str(v) for v in runs)} visits in {args.seconds} s")
        one = sum(totals["1 thread"])
        print(f"2 threads / 1 thread: {sum(totals['2 threads']) / one:.2f}x; "
              f"ceiling (two 1-thread engines) / 1 thread: {sum(totals['ceiling']) / one:.2f}x")
    finally:
        driver.quit()
        httpd.shutdown()


if __name__ == "__main__":
    main()
