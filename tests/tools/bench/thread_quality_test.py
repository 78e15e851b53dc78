#!/usr/bin/python3
"""tools/bench/thread_quality.py on a tiny configuration, for real: the
referee plays the games with the built engine, and the test checks the plan
printed before them, the table against the referee's own report, the plot,
and resuming after a kill (a cut record and a lost chunk are played again,
nothing else is), and a stop (SIGTERM) in the middle of a chunk.

  thread_quality_test.py BIN_DIR
"""

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "../../../tools/bench/thread_quality.py")


def fail(message):
    sys.exit(f"FAIL: {message}")


def run(bin_dir, results, *extra, expect_ok=True):
    cmd = ["/usr/bin/python3", SCRIPT, "--bin", bin_dir, "--results", results,
           "--threads", "2", "--playouts", "40", "--players", "2,3",
           "--games", "6", "--chunk", "3", "--seed", "7", "--concurrency",
           "2", "--nice", "0", "--engine-args", "--hash 16", *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if expect_ok and proc.returncode != 0:
        fail(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}"
             f"{proc.stderr}")
    return proc


def table_rows(output):
    rows = {}
    for line in output.splitlines():
        m = re.match(r"results\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)-(\d+)-(\d+)"
                     r"\s+([\d.]+)\s+(\S+)\s+\[(\S+), (\S+)\]", line)
        if m:
            t, v, p, games, w, l, d = map(int, m.groups()[:7])
            rows[(t, v, p)] = dict(games=games, w=w, l=l, d=d,
                                   elo=m.group(9), low=m.group(10),
                                   high=m.group(11))
    return rows


def records(folder):
    return sorted(f for f in os.listdir(folder) if f.endswith(".jsonl"))


def lines(path):
    with open(path) as f:
        return f.read().splitlines()


def check_against_referee(bin_dir, folder, row):
    """The 2-player row is the referee's own count and pair Elo."""
    files = [os.path.join(folder, f) for f in records(folder)]
    out = subprocess.run([os.path.join(bin_dir, "wallgo-referee"), "merge",
                          "--renumber", *files], capture_output=True,
                         text=True, check=True).stdout
    score = re.search(r"Score of many vs one1: (\d+) - (\d+) - (\d+)", out)
    if not score:
        fail(f"no score in the referee's report:\n{out}")
    if tuple(map(int, score.groups())) != (row["w"], row["l"], row["d"]):
        fail(f"W-L-D {row} against the referee's {score.groups()}")
    pair = re.search(r"pair Elo: (\S+) \+/- \S+ \[(\S+), (\S+)\]", out)
    if not pair:
        fail(f"no pair Elo in the referee's report:\n{out}")
    for mine, theirs in zip((row["elo"], row["low"], row["high"]),
                            pair.groups()):
        a, b = float(mine), float(theirs.rstrip(","))
        if not (a == b or abs(a - b) <= 0.11):  # infinities must be equal
            fail(f"Elo {mine} against the referee's {theirs}")


def processes_naming(text):
    """Ids of the processes whose command line holds `text`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if text.encode() in f.read():
                    found.append(pid)
        except OSError:
            pass  # gone meanwhile
    return found


def check_stop(bin_dir, results):
    """SIGTERM in the middle of a chunk: the script ends at once with
    128 + 15, its referee and engines with it, and the chunk keeps whole
    records only."""
    cmd = ["/usr/bin/python3", SCRIPT, "--bin", bin_dir, "--results", results,
           "--threads", "2", "--playouts", "40", "--players", "2",
           "--games", "400", "--chunk", "400", "--nice", "0",
           "--engine-args", "--hash 16"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    records = os.path.join(results, "t2-v40-p2", "chunk-000.jsonl")
    deadline = time.time() + 120
    while time.time() < deadline and (
            not os.path.exists(records) or len(lines(records)) < 2):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("the script did not stop within 20 s of SIGTERM")
    if proc.returncode != 128 + signal.SIGTERM:
        fail(f"stopped with status {proc.returncode}:\n{out}")
    time.sleep(0.5)  # the engines' last exit
    if processes_naming(results):
        fail("the referee or its engines outlived the script")
    kept = lines(records)
    if not 2 <= len(kept) < 400:
        fail(f"{len(kept)} records after the stop")
    for line in kept:
        json.loads(line)  # whole records only


def main():
    bin_dir = sys.argv[1]
    with tempfile.TemporaryDirectory() as work:
        results = os.path.join(work, "results")
        png = os.path.join(work, "docs", "quality.png")
        first = run(bin_dir, results, "--plot", png).stdout
        # The plan, every seed in it, comes before the first game.
        plan = first.index("thread_quality: the plan")
        if "seeds 7..8" not in first[plan:first.index(" chunk 0:")]:
            fail(f"the seeds are not stated before the games:\n{first}")
        rows = table_rows(first)
        two, three = rows.get((2, 40, 2)), rows.get((2, 40, 3))
        if two is None or three is None:
            fail(f"rows missing from the table:\n{first}")
        # 2 players: 6 games in chunks of 4 (whole pairs): 8. 3 players:
        # chunks of 3, two of them; 2 pairs (one per opponent) a game.
        if two["games"] != 8 or two["w"] + two["l"] + two["d"] != 8:
            fail(f"2 players: {two}")
        if three["games"] != 6 or three["w"] + three["l"] + three["d"] != 12:
            fail(f"3 players: {three}")
        folder2 = os.path.join(results, "t2-v40-p2")
        check_against_referee(bin_dir, folder2, two)
        with open(png, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                fail("the plot is not a PNG")

        # A kill: chunk 0's last record cut in half, chunk 1 of 3 players
        # lost. The rerun plays exactly those games again.
        chunk0 = os.path.join(folder2, "chunk-000.jsonl")
        kept = lines(chunk0)
        with open(chunk0, "w") as f:
            f.write("\n".join(kept[:-1]) + "\n" + kept[-1][:40])
        folder3 = os.path.join(results, "t2-v40-p3")
        os.remove(os.path.join(folder3, "chunk-001.jsonl"))
        untouched = {p: lines(p) for p in (
            os.path.join(folder2, "chunk-001.jsonl"),
            os.path.join(folder3, "chunk-000.jsonl"))}
        again = run(bin_dir, results).stdout
        played = re.findall(r"^(t2-v40-p\d chunk \d+):", again, re.M)
        if played != ["t2-v40-p2 chunk 0", "t2-v40-p3 chunk 1"]:
            fail(f"the rerun played {played}:\n{again}")
        resumed = lines(chunk0)
        if len(resumed) != 4 or resumed[:3] != kept[:3]:
            fail(f"chunk 0 after the rerun: {len(resumed)} records")
        for path, before in untouched.items():
            if lines(path) != before:
                fail(f"{path} was played again")
        if len(lines(os.path.join(folder3, "chunk-001.jsonl"))) != 3:
            fail("the lost chunk was not played again")
        after = table_rows(again)
        if after[(2, 40, 2)]["games"] != 8 or after[(2, 40, 3)]["games"] != 6:
            fail(f"the table after the rerun:\n{again}")

        # A finished match plays nothing more; another build's folder
        # joins the table under its label; another match is refused.
        both = run(bin_dir, results, "--report-only", "--label", "new",
                   "--also", f"old={results}").stdout
        if " chunk " in both:
            fail("--report-only played games")
        labels = re.findall(r"^(new|old) +2 +40 +([23]) ", both, re.M)
        if sorted(labels) != [("new", "2"), ("new", "3"), ("old", "2"),
                              ("old", "3")]:
            fail(f"two builds in one table:\n{both}")
        other = run(bin_dir, results, "--seed", "9", expect_ok=False)
        if other.returncode == 0 or "holds another match" not in other.stderr:
            fail(f"another seed in the same folder: {other.stderr}")
        check_stop(bin_dir, os.path.join(work, "stopped"))
    print("thread_quality.py: plan, table, plot, resume and stop all as "
          "expected")


if __name__ == "__main__":
    main()
