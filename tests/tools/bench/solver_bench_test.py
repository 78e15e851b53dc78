#!/usr/bin/python3
"""solver_bench's node budget: a position the solver cannot prove in a few
thousand nodes stops at exactly the budget (the solver checks its budget
every 1,024 nodes), unproven, and two runs print the same search, so that
two builds' speeds compare by their time alone (docs/solver.md).

    solver_bench_test.py SOLVER_BENCH SOURCE_DIR
"""

import json
import os
import subprocess
import sys


def unproven_position(source):
    with open(os.path.join(source, "tests/data/perfect-play-set.jsonl")) as f:
        for line in f:
            entry = json.loads(line)
            if not entry["proven"] and entry["variant"] == "2p":
                return entry["position"]
    raise AssertionError("the set has no unproven two-player position")


def solve(bench, position, nodes):
    done = subprocess.run([bench, "--position", position, "--nodes",
                           str(nodes), "--hash", "16"],
                          capture_output=True, text=True, timeout=120)
    # --position exits with 1 when it could not prove the position.
    assert done.returncode in (0, 1) and not done.stderr, done.stderr
    last = [l for l in done.stdout.splitlines() if l.startswith("depth")][-1]
    words = last.split()
    return last, int(words[words.index("nodes") + 1]), "unproven" in words


def without_seconds(line):
    words = line.split()
    at = words.index("seconds")
    return words[:at] + words[at + 2:]


def main():
    bench, source = sys.argv[1], sys.argv[2]
    position = unproven_position(source)
    first, nodes, unproven = solve(bench, position, 4096)
    assert nodes == 4096, first
    assert unproven, first
    second, _, _ = solve(bench, position, 4096)
    # The seconds differ; the search does not.
    assert without_seconds(first) == without_seconds(second), (first, second)
    bigger, more, _ = solve(bench, position, 8192)
    assert more == 8192, bigger
    print("ok:", first)


if __name__ == "__main__":
    main()
