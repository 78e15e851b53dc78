#!/usr/bin/python3
"""Soak: one `wallgo analysis` process answering a million small queries
(docs/fuzzing.md, Soak runs).

Each query is a prefix of a real game (the records in tests/fuzz/corpus/
records: two- and three-player games) at 1..4 visits, some with ownership;
up to --in-flight queries are outstanding at once, and each answer is timed
from its query's write to its line. Every 10 s the process's resident
memory, open descriptors and threads are sampled. The result (summary and
samples) is a JSON file for plot.py.

  tools/soak/analysis_soak.py --wallgo build/bin/wallgo --queries 1000000 \\
      --out docs/soak/analysis.json
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak_common  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDS = [os.path.join(HERE, "../../tests/fuzz/corpus/records", name)
           for name in ("seed-match", "seed-three-players")]


def games():
    out = []
    for path in RECORDS:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                moves = r["opening"].split() + [m["move"] for m in r["moves"]]
                out.append((r["rules"], moves))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wallgo", default="build/bin/wallgo")
    ap.add_argument("--queries", type=int, default=1_000_000)
    ap.add_argument("--in-flight", type=int, default=32)
    ap.add_argument("--interval", type=float, default=10.0)
    ap.add_argument("--out", default="soak-analysis.json")
    args = ap.parse_args()

    pool = games()
    proc = subprocess.Popen([args.wallgo, "analysis", "--hash", "16", "--seed", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    slots = threading.Semaphore(args.in_flight)
    sent = {}  # id -> send time
    lock = threading.Lock()
    latencies = [None] * args.queries
    counts = {"sent": 0, "answered": 0, "errors": 0}

    def reader():
        for line in proc.stdout:
            now = time.perf_counter()
            answer = json.loads(line)
            qid = answer.get("id")
            with lock:
                t0 = sent.pop(qid, None)
            if t0 is None:
                continue
            if "error" in answer:
                counts["errors"] += 1
            latencies[int(qid[1:])] = now - t0
            answered_at.append(now - t0)
            counts["answered"] += 1
            slots.release()

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    # Started: the first sample is of a running server.
    proc.stdin.write(json.dumps({"id": "v", "action": "query_version"}) + "\n")
    proc.stdin.flush()
    time.sleep(0.5)
    answered_at = []  # (answer order) latency, for the per-sample medians
    sampled = {"at": 0}

    def extra():
        part = answered_at[sampled["at"]:]
        sampled["at"] += len(part)
        return dict(counts, median_ms=round(soak_common.percentile(part, 0.5) * 1e3, 3))

    with soak_common.Sampler(lambda: [proc.pid], extra, args.interval) as sampler:
        for i in range(args.queries):
            rules, moves = pool[i % len(pool)]
            k = (i * 7919) % (len(moves) + 1)
            query = {"id": f"q{i}", "rules": rules, "moves": moves[:k],
                     "maxVisits": 1 + i % 4}
            if i % 10 == 0:
                query["includeOwnership"] = True
            slots.acquire()
            with lock:
                sent[query["id"]] = time.perf_counter()
            proc.stdin.write(json.dumps(query, separators=(",", ":")) + "\n")
            counts["sent"] += 1
            if i % 64 == 0:
                proc.stdin.flush()
        proc.stdin.flush()
        for _ in range(args.in_flight):
            slots.acquire()
    proc.stdin.close()
    proc.wait(timeout=60)
    thread.join(timeout=10)

    done = [x for x in latencies if x is not None]
    n = min(10_000, len(done) // 10)
    rows = sampler.rows
    summary = {
        "queries": args.queries, "answered": counts["answered"], "errors": counts["errors"],
        "seconds": rows[-1]["t"], "queries_per_s": round(counts["answered"] / rows[-1]["t"]),
        "first_median_ms": round(soak_common.percentile(done[:n], 0.5) * 1e3, 3),
        "last_median_ms": round(soak_common.percentile(done[-n:], 0.5) * 1e3, 3),
        "first_p99_ms": round(soak_common.percentile(done[:n], 0.99) * 1e3, 3),
        "last_p99_ms": round(soak_common.percentile(done[-n:], 0.99) * 1e3, 3),
        "rss_kb_first": rows[0]["rss_kb"], "rss_kb_last": rows[-1]["rss_kb"],
        "rss_change_after_warmup": round(soak_common.flatness(rows, "rss_kb"), 4),
        "fds_min": min(r["fds"] for r in rows), "fds_max": max(r["fds"] for r in rows),
        "exit_status": proc.returncode,
    }
    soak_common.write_results(args.out, summary, rows)


if __name__ == "__main__":
    main()
