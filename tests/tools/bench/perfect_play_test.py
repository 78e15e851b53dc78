#!/usr/bin/python3
"""tools/bench/perfect_play.py end to end on a handful of the perfect-play
set's proven positions (tests/data/perfect-play-set.jsonl), with a weak
engine (level 1, so that some moves are not optimal), one move-time and
one playout budget, and small solver budgets: a
run stopped after --limit moves resumes without measuring anything twice,
each results row agrees with the set and the solver, the printed table
equals a count of the results file by hand, and the plot is a PNG.

    perfect_play_test.py WALLGO SOURCE_DIR
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(sys.argv[2], "tools", "client"))
from wallgo_client import Protocol, field  # noqa: E402

# One budget of each kind: a move time and a playout count.
LABELS = ("0.05 s", "50 playouts")
PER_VARIANT = 2


def tiny_set(source, path):
    """The first proven positions 2 to 4 plies before the end, a few per
    variant, at most 5."""
    chosen, per_variant = [], {}
    with open(os.path.join(source, "tests/data/perfect-play-set.jsonl")) as f:
        for line in f:
            entry = json.loads(line)
            variant = entry["variant"]
            if (entry["proven"] and entry["plies_to_end"] <= 4
                    and per_variant.get(variant, 0) < PER_VARIANT
                    and len(chosen) < 5):
                per_variant[variant] = per_variant.get(variant, 0) + 1
                chosen.append(entry)
    assert len(chosen) >= 3, "the set has too few proven positions"
    with open(path, "w") as f:
        f.writelines(json.dumps(e) + "\n" for e in chosen)
    return chosen


def run_script(source, wallgo, args):
    command = [sys.executable,
               os.path.join(source, "tools/bench/perfect_play.py")] + args
    done = subprocess.run(command, capture_output=True, text=True,
                          timeout=240)
    return done.returncode, done.stdout, done.stderr


def check_child(wallgo, row):
    """The recorded child value, again from a separate engine."""
    colour = field(row["position"], "turn")
    engine = Protocol([wallgo, "--threads", "1"])
    try:
        engine.setup(row["position"])
        engine.play(row["move"], colour)
        if engine.is_over():
            return
        answer = engine.solve(60)
    finally:
        engine.close()
    assert answer["proven"], f"the child is not proven again: {answer}"
    assert list(answer["values"][colour]) == row["child"], (answer, row)


def check_rows(rows, entries, wallgo):
    by_position = {e["position"]: e for e in entries}
    keys = [(r["position"], label(r)) for r in rows]
    assert len(keys) == len(set(keys)), "a move was measured twice"
    assert set(keys) == {(e["position"], t) for e in entries
                         for t in LABELS}, "moves missing"
    checked_children = 0
    for r in rows:
        entry = by_position[r["position"]]
        if r["move"] in entry["optimal"]:
            assert r["optimal"] is True and r["points_lost"] == 0, r
        elif r["child"] is not None:
            assert r["points_lost"] == entry["margin"] - r["child"][1], r
            assert r["points_lost"] >= 0, r
            assert r["optimal"] == (not entry["all_optimal"] and r["child"] ==
                                    [entry["result"], entry["margin"]]), r
            if checked_children < 2:
                check_child(wallgo, r)
                checked_children += 1
        else:
            assert r["points_lost"] is None, r
            assert r["optimal"] is (False if entry["all_optimal"] else None)


def label(row):
    return (f"{row['visits']} playouts" if "visits" in row
            else f"{row['movetime']:g} s")


def hand_row(group):
    """A table row's cells for one move time, counted by hand."""
    known = [r for r in group if r["optimal"] is not None]
    good = sum(1 for r in known if r["optimal"])
    lost = [r["points_lost"] for r in group if r["points_lost"] is not None]
    share = f" ({100 * good / len(known):.1f}%)" if known else ""
    mean = f"{sum(lost) / len(lost):.2f}" if lost else "-"
    results = sum(1 for r in group if r["result_lost"])
    return [str(len(group)), f"{good}/{len(known)}{share}", mean,
            str(len(group) - len(lost)), str(results)]


def check_table(stdout, rows):
    table = {}
    for line in stdout.splitlines():
        if line.startswith("| ") and not line.startswith("| group"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            table[cells[0]] = cells[1:]
    plies = {r["plies_to_end"] for r in rows}
    variants = {r["variant"] for r in rows}
    wanted = ({f"{p} plies": lambda r, p=p: r["plies_to_end"] == p
               for p in plies}
              | {v: lambda r, v=v: r["variant"] == v for v in variants}
              | {"2-10 plies": lambda r: 2 <= r["plies_to_end"] <= 10,
                 "all": lambda r: True})
    assert set(table) == set(wanted), (sorted(table), sorted(wanted))
    for name, member in wanted.items():
        cells = []
        for t in LABELS:
            cells += hand_row([r for r in rows
                               if member(r) and label(r) == t])
        assert table[name] == cells, (name, table[name], cells)


def main(wallgo, source):
    with tempfile.TemporaryDirectory() as tmp:
        set_path = os.path.join(tmp, "set.jsonl")
        results = os.path.join(tmp, "results.jsonl")
        png = os.path.join(tmp, "plot.png")
        entries = tiny_set(source, set_path)
        args = [set_path, "--engine", f"{wallgo} --threads 1 --level 1",
                "--movetimes", "0.05", "--visits", "50",
                "--child-seconds", "2", "--results", results]
        rc, out, err = run_script(source, wallgo, args + ["--limit", "3"])
        assert rc == 0, err
        assert "measured 3 moves" in err, err
        rc, out, err = run_script(source, wallgo, args + ["--plot", png])
        assert rc == 0, err
        assert f"measured {2 * len(entries) - 3} moves" in err, err
        with open(results) as f:
            rows = [json.loads(line) for line in f]
        check_rows(rows, entries, wallgo)
        check_table(out, rows)
        with open(png, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n", "the plot is no PNG"
        rc, out2, err = run_script(source, wallgo, args + ["--report-only"])
        def table_lines(text):
            return [line for line in text.splitlines() if line.startswith("|")]
        assert rc == 0 and table_lines(out2) == table_lines(out), out2
        rc, _, err = run_script(source, wallgo,
                                [os.path.join(tmp, "none.jsonl")] + args[1:])
        assert rc != 0 and "cannot read the set" in err, err
    print(f"perfect_play: {len(entries)} positions, {len(rows)} moves checked")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
