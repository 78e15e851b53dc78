#!/usr/bin/python3
"""The whole pipeline in miniature (tools/train/make_weights.sh --tiny):
self-play data, examples, training, export, engine == trainer (verify),
held-out measures. Checks that training lowers the loss, that the numpy
readers agree with the engine's files, that the trainer is deterministic
for a seed (and depends on it), and that a second generation plays with the
first one's net and trains on both generations' data.

    /usr/bin/python3 tests/search/net/test_pipeline.py --bin build/bin
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "train"))
import find_wallgo  # noqa: E402

find_wallgo.add_module_path()
import wallgo.data as wd  # noqa: E402


def run(*cmd):
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    failures = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what, flush=True)
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory(prefix="wallgo_pipeline_") as out:
        run(os.path.join(ROOT, "tools", "train", "make_weights.sh"), "--tiny",
            "--out", out, "--bin", args.bin)
        summary = json.load(open(os.path.join(out, "summary.json")))
        check(summary["final_train_loss"] < summary["first_train_loss"] - 0.1,
              f"training lowers the loss: {summary['first_train_loss']:.3f} -> "
              f"{summary['final_train_loss']:.3f}")

        data = os.path.join(out, "train.wgd")
        records = wd.read_data(data)
        examples = wd.read_examples(data + ".examples")
        size = os.path.getsize(data)
        check(len(records) == (size - wd.DATA_HEADER_BYTES) // wd.DATA_DTYPE.itemsize
              and len(records) > 100, f"numpy reads the {len(records)} data records")
        check(len(examples) == len(records), "one example per record")
        check(bool((records["ply"] < records["game_length"]).all()), "plies within their games")
        check(bool((examples["data_index"] == range(len(examples))).all()), "examples in record order")
        shares = examples["visit_share"].sum(1)
        searched = examples["num_moves"] > 1
        check(bool((abs(shares[searched] - 1) < 1e-4).all()), "visit shares sum to 1")
        to_move = records["to_move"].astype(int)
        mover_score = records["final_score"][range(len(records)), to_move]
        check(bool((examples["score"][:, 0] == mover_score).all()), "slot 0 is the side to move")

        measures = open(os.path.join(out, "evaluate.txt")).read().splitlines()
        phases = {line.split(":")[0]: int(line.split()[2]) for line in measures
                  if line.endswith(" positions") and "phase:" in line}
        table = itertools.takewhile(lambda row: row.startswith("  "), measures[measures.index(
            "win log-loss by stage: positions, classic, net, search value") + 1:])
        stages = {" ".join(row.split()[:-4]): row.split()[-4:] for row in table}
        check(stages.get("placement", [None])[0] == str(phases["placement phase"])
              and sum(int(c[0]) for name, c in stages.items() if name != "placement")
              == phases["play phase"],
              f"the stages split the held-out positions: {phases} -> {stages}")
        check(all(0 <= float(x) < 5 for c in stages.values() for x in c[1:]),
              "every stage has its log-losses")
        compared = sum(int(line.split("(")[1].split()[0]) for line in measures
                       if line.startswith("  policy vs visits ("))
        policy = [row.split() for row in itertools.takewhile(
            lambda row: row.startswith("  "), measures[measures.index(
                "policy vs visits by stage: positions, cross-entropy classic, net, blend; "
                "top move classic, net, blend") + 1:])]
        check(sum(int(row[-7]) for row in policy) == compared > 0
              and all(0 <= float(row[-1].rstrip("%")) <= 100 for row in policy),
              f"the policy by stage splits the {compared} compared positions")

        weights = os.path.join(out, "net.wgn")
        first = open(weights, "rb").read()
        train = [sys.executable, os.path.join(ROOT, "tools", "train", "train.py"),
                 "--data", data, "--epochs", "2", "--batch", "64", "--holdout-every", "4"]
        again, other = os.path.join(out, "again.wgn"), os.path.join(out, "other.wgn")
        run(*train, "--out", again, "--seed", "1")
        run(*train, "--out", os.path.join(out, "again2.wgn"), "--seed", "1")
        run(*train, "--out", other, "--seed", "2")
        same = open(again, "rb").read() == open(os.path.join(out, "again2.wgn"), "rb").read()
        check(same, "the same seed gives the same weights, byte for byte")
        check(open(other, "rb").read() != open(again, "rb").read(), "another seed, other weights")
        check(first[:8] == b"WALLGONN" and len(first) > 64, "weights file has its header")

        # Wider first layers: the engine computes what the trainer computed,
        # and a warm start keeps the width of the weights it starts from.
        net_tool = os.path.join(args.bin, "wallgo-net")
        for width in (128, 256):
            wide, fixture = os.path.join(out, f"wide{width}.wgn"), os.path.join(out, f"wide{width}.json")
            run(*train, "--out", wide, "--fixture", fixture, "--seed", "3", "--hidden1", str(width))
            header = open(wide, "rb").read(64)
            check(int.from_bytes(header[24:28], "little") == width, f"the header says {width} units")
            verified = subprocess.run([net_tool, "verify", "--weights", wide, "--fixture", fixture],
                                      capture_output=True, text=True)
            check(verified.returncode == 0, f"engine == trainer with {width} units: {verified.stdout.strip()}")
        warm = os.path.join(out, "warm128.wgn")
        run(*train, "--out", warm, "--seed", "4", "--epochs", "0.1",
            "--init", os.path.join(out, "wide128.wgn"))
        check(int.from_bytes(open(warm, "rb").read(64)[24:28], "little") == 128,
              "--init keeps the first layer's width of its weights")
        mismatch = subprocess.run([*train, "--out", os.path.join(out, "no.wgn"), "--hidden1", "64",
                                   "--init", os.path.join(out, "wide128.wgn")], capture_output=True, text=True)
        check(mismatch.returncode != 0 and "first layer of 128" in mismatch.stderr
              and not os.path.exists(os.path.join(out, "no.wgn")),
              f"--hidden1 other than --init's width is refused: {mismatch.stderr.strip()[-120:]}")

        # The next generation: self-play with the first one's net (hybrid),
        # trained on both generations' data.
        out2 = os.path.join(out, "gen2")
        run(os.path.join(ROOT, "tools", "train", "make_weights.sh"), "--tiny",
            "--out", out2, "--bin", args.bin, "--seed", "2", "--eval", "hybrid",
            "--weights", weights, "--also", data)
        header = open(os.path.join(out2, "train.wgd"), "rb").read(wd.DATA_HEADER_BYTES)
        eval_kind = int.from_bytes(header[216:220], "little")
        checksum = int.from_bytes(header[224:232], "little")
        check(eval_kind == 2 and checksum == int.from_bytes(first[48:56], "little"),
              "generation 2's data names its evaluation (hybrid) and its weights")
        both = len(records) + len(wd.read_data(os.path.join(out2, "train.wgd")))
        summary2 = json.load(open(os.path.join(out2, "summary.json")))
        check(summary2["examples"] == both,
              f"generation 2 trains on both generations' {both} positions")
        provenance = open(os.path.join(out2, "net.provenance.txt")).read()
        check("--eval hybrid" in provenance and "--also " + data in provenance,
              "the provenance names the evaluation and the earlier data")

    if failures:
        sys.exit(f"{len(failures)} check(s) failed: {failures}")
    print("all pipeline checks passed")


if __name__ == "__main__":
    main()
