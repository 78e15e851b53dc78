#!/usr/bin/python3
"""tools/bench/won_games.py end to end on the shared drawn won games, at
small budgets: it finds the positions where the engine stood at the
threshold or more, and each row's loss is what the engine's move keeps
against the best move's margin, judged by the tolerance. The references are
cached: a second run over the same games searches no reference again and
reports the same rows.

    won_games_test.py WALLGO SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile


def run(tool, records, wallgo, work, name, extra):
    rows = os.path.join(work, name + ".jsonl")
    result = subprocess.run(
        [sys.executable, tool, records, "--engine", wallgo, "--games", "3",
         "--stand", "15", "--reference-visits", "3000", "--play-visits",
         "300", "--hash", "64", "--cache", os.path.join(work, "refs.json"),
         "--json", rows] + extra, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"won_games.py failed ({result.returncode}): {result.stderr}")
    with open(rows) as f:
        return [json.loads(line) for line in f], result


def check_rows(rows, result, tolerance):
    if not rows:
        sys.exit("no position where the engine stood at +15 or more")
    for row in rows:
        if row["stand"] < 15:
            sys.exit(f"a row below the threshold: {row}")
        if row["best_margin"] < row["margin"] or row["loss"] < 0:
            sys.exit(f"the best move's margin is below the move's: {row}")
        if abs(row["loss"] - (row["best_margin"] - row["margin"])) > 0.01:
            sys.exit(f"the loss is not the margin given up: {row}")
        if row["kept"] != (row["best_margin"] - row["margin"] <= tolerance):
            sys.exit(f"kept does not follow the tolerance: {row}")
    kept = sum(r["kept"] for r in rows)
    summary = f"kept {kept}/{len(rows)} within {tolerance:g} points"
    if summary not in result.stdout:
        sys.exit(f"no summary '{summary}' in: {result.stdout}")
    if result.returncode != (0 if kept == len(rows) else 1):
        sys.exit(f"exit status {result.returncode} with {kept}/{len(rows)}")


def main():
    wallgo, source = sys.argv[1], sys.argv[2]
    tool = os.path.join(source, "tools/bench/won_games.py")
    records = os.path.join(source, "tests/data/won-games-drawn.jsonl")
    with tempfile.TemporaryDirectory() as work:
        first, result = run(tool, records, wallgo, work, "first", [])
        check_rows(first, result, 2)
        # A tolerance of zero: only moves that are the best keep the margin.
        again, result = run(tool, records, wallgo, work, "again",
                            ["--tolerance", "0"])
        check_rows(again, result, 0)
        if [r["move"] for r in again] != [r["move"] for r in first]:
            sys.exit("the same seeded searches chose other moves")
    print(f"{len(first)} positions checked")


if __name__ == "__main__":
    main()
