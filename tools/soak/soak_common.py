"""Shared parts of the soak scripts (tools/soak/*_soak.py): a sampler that
reads a process's resident memory, open file descriptors and threads from
/proc every few seconds, and the CSV/JSON files the plots are made from.
Standard library only."""

import json
import os
import threading
import time


def proc_sample(pid):
    """(rss_kb, fds, threads) of `pid` (and its children's RSS are not
    counted: each program is sampled on its own)."""
    rss = threads = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    return rss, fds, threads


class Sampler:
    """Samples `pids()` every `interval` seconds on its own thread, with
    `extra()` (a dict, e.g. the work done so far) in each row."""

    def __init__(self, pids, extra, interval=10.0):
        self.pids = pids
        self.extra = extra
        self.interval = interval
        self.rows = []
        self.start = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self):
        row = {"t": round(time.monotonic() - self.start, 1)}
        rss = fds = threads = 0
        for pid in self.pids():
            try:
                r, f, t = proc_sample(pid)
            except (FileNotFoundError, ProcessLookupError):
                continue
            rss, fds, threads = rss + r, fds + f, threads + t
        row.update(rss_kb=rss, fds=fds, threads=threads)
        row.update(self.extra())
        self.rows.append(row)
        return row

    def _run(self):
        while not self._stop.wait(self.interval):
            row = self.sample()
            print("  ".join(f"{k}={v}" for k, v in row.items()), flush=True)

    def __enter__(self):
        self.sample()
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.sample()


def sockets(pid):
    """Open sockets of `pid` (its listening socket included)."""
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            n += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except FileNotFoundError:
            pass
    return n


def percentile(values, q):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def flatness(rows, key, warmup_fraction=0.2):
    """Max relative change of `key` after warm-up: (max - min) / first value
    after the first `warmup_fraction` of the samples."""
    after = rows[int(len(rows) * warmup_fraction):] or rows
    values = [r[key] for r in after]
    base = values[0] or 1
    return (max(values) - min(values)) / base


def drift(rows, key, warmup_fraction=0.2, window_fraction=0.2):
    """Relative change of `key`'s median from the first window after
    warm-up to the last window (each `window_fraction` of the samples after
    warm-up): a trend, which flatness's max - min cannot tell from
    fluctuation (messages in flight come and go)."""
    after = rows[int(len(rows) * warmup_fraction):] or rows
    n = max(1, int(len(after) * window_fraction))
    first = sorted(r[key] for r in after[:n])[n // 2]
    last = sorted(r[key] for r in after[-n:])[n // 2]
    return (last - first) / (first or 1)


def write_results(path, summary, rows):
    """A JSON file: the summary figures and every sample."""
    with open(path, "w") as f:
        json.dump({"summary": summary, "samples": rows}, f, indent=1)
    print(json.dumps(summary, indent=1))
