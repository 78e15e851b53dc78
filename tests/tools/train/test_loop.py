#!/usr/bin/python3
"""The training loop (tools/train/loop.py) in miniature, with real self-play,
training and gating matches:

- killed (SIGKILL) inside every stage in turn, it resumes without redoing a
  finished stage, and every self-play game is in its data file exactly once;
- --stop-after exits 75 and the next run goes on from the following stage, with
  a setting the run did not know yet at its default (self-play's shortlist and
  policy weight: none, as such a run's self-play searched);
- the gate promotes exactly the candidates whose SPRT accepted H1: a gate that
  must accept promotes every generation (the next self-play uses the new best,
  the learning rate decays), a gate that must reject promotes none;
- the training window grows while nothing is promoted (up to --window-max)
  and starts over after a promotion;
- a resumed run refuses a different setting; the trainer's --init loads a
  weights file exactly (import then export gives the same bytes).

    /usr/bin/python3 tests/tools/train/test_loop.py --bin build/bin
"""
import argparse
import filecmp
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
TRAIN = os.path.join(ROOT, "tools", "train")
sys.path.insert(0, TRAIN)
import loop  # noqa: E402  (it finds the module wallgo: find_wallgo)
import wallgo.data as wd  # noqa: E402

LOOP = [sys.executable, os.path.join(TRAIN, "loop.py")]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def events(folder):
    with open(os.path.join(folder, "log.jsonl")) as f:
        return [json.loads(line) for line in f]


def state(folder):
    with open(os.path.join(folder, "state.json")) as f:
        return json.load(f)


def run_loop(folder, bin_dir, *extra):
    return subprocess.run(LOOP + ["--dir", folder, "--bin", bin_dir, "--tiny", *extra],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def start_and_wait(folder, bin_dir, generation, stage, generations, *extra):
    """Starts the loop in its own process group; returns it once (generation,
    stage) has started (or the loop has ended)."""
    process = subprocess.Popen(LOOP + ["--dir", folder, "--bin", bin_dir, "--tiny",
                                       "--generations", str(generations), *extra],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    path = os.path.join(folder, "log.jsonl")
    while process.poll() is None:
        if os.path.exists(path) and any(
                e["generation"] == generation and e["stage"] == stage and e["event"] == "start"
                for e in events(folder)):
            break
        time.sleep(0.005)
    return process


def kill_inside(folder, bin_dir, generation, stage, generations):
    """Kills the loop and the stage it runs (as Slurm or Kubernetes kill a
    task: the whole group) as soon as (generation, stage) has started."""
    process = start_and_wait(folder, bin_dir, generation, stage, generations)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def check_games_once(folder, games):
    """Every game of a generation's packed data once, all its positions in order."""
    shards = os.path.join(folder, "train.shards")
    manifest = wd.read_manifest(shards)
    records = np.concatenate([wd.load_shard(shards, e)[1] for e in manifest["shards"]])
    seen = {}
    for game, ply in zip(records["game"].tolist(), records["ply"].tolist()):
        seen.setdefault(game, []).append(ply)
    lengths = dict(zip(records["game"].tolist(), records["game_length"].tolist()))
    whole = all(plies == list(range(lengths[g])) for g, plies in seen.items())
    check(len(seen) == games and whole and not os.path.exists(os.path.join(folder, "train.wgd")),
          f"{os.path.basename(folder)}: {len(seen)} games, each once and whole, packed")


def test_kills(bin_dir, top):
    folder = os.path.join(top, "kills")
    kills = 0
    # Inside every stage of generation 1; generation 2 then resumes from a
    # state that a killed generation 1 left.
    for stage in loop.STAGES:
        kill_inside(folder, bin_dir, 1, stage, 2)
        kills += 1
    result = run_loop(folder, bin_dir, "--generations", "2")
    check(result.returncode == 0, f"resumed to the end after {kills} kills ({result.stderr.strip()})")
    log = events(folder)
    for generation in (1, 2):
        for stage in loop.STAGES:
            mine = [e["event"] for e in log if e["generation"] == generation and e["stage"] == stage]
            done_at = mine.index("done") if "done" in mine else len(mine)
            # A kill between the state's save and the log's line leaves no "done"
            # in the log: the state, which the loop resumes from, is the truth.
            check(mine.count("done") <= 1 and "start" not in mine[done_at:],
                  f"generation {generation} {stage}: never restarted once finished ({mine})")
        check_games_once(os.path.join(folder, f"gen-{generation}"), 8)
    final = state(folder)
    check(final["generation"] == 3 and final["done"] == [], "the state says: two generations done")
    with open(os.path.join(folder, "generations.md")) as f:
        table = f.read()
    check(table.count("\n| 1 |") == 1 and table.count("\n| 2 |") == 1,
          "the table has a row for each generation")


def test_orphaned_stage(bin_dir, top):
    """Only the loop is killed; its self-play goes on as an orphan. A second
    loop must not write the same data file meanwhile."""
    folder = os.path.join(top, "orphan")
    # 400 playouts a move: self-play lasts seconds, long enough to be caught.
    process = start_and_wait(folder, bin_dir, 1, "selfplay", 1, "--visits", "400")
    process.send_signal(signal.SIGKILL)
    process.wait()
    second = run_loop(folder, bin_dir, "--generations", "1")
    check(second.returncode == 1 and "in use" in second.stderr,
          f"a second loop is refused while the orphan runs: {second.stderr.strip()}")
    while run_loop(folder, bin_dir, "--generations", "1").returncode != 0:
        time.sleep(0.05)  # until the orphan has ended and a loop could finish
    check_games_once(os.path.join(folder, "gen-1"), 8)


def test_stop_after(bin_dir, top):
    folder = os.path.join(top, "stop")
    result = run_loop(folder, bin_dir, "--generations", "1", "--stop-after", "features")
    done = state(folder)["done"]
    check(result.returncode == loop.RESUME_ME and done[-1] == "features",
          f"--stop-after features: status {result.returncode}, done {done}")
    refused = run_loop(folder, bin_dir, "--generations", "1", "--games", "9")
    check(refused.returncode == 1 and "--games 8" in refused.stderr,
          f"a different --games is refused: {refused.stderr.strip()}")
    refused = run_loop(folder, bin_dir, "--generations", "1", "--policy-weight", "0.5")
    check(refused.returncode == 1 and "--policy-weight 0.25" in refused.stderr,
          f"a different --policy-weight is refused: {refused.stderr.strip()}")
    # Self-play searched as the engine does (hybrid: shortlist 16, weight
    # 0.25), which the data file's header records (bytes 240..247).
    with open(os.path.join(folder, "gen-1", "train.wgd"), "rb") as f:
        shortlist, weight = struct.unpack("<If", f.read(248)[240:248])
    check((shortlist, weight) == (16, 0.25),
          f"self-play's header: shortlist {shortlist}, policy weight {weight}")
    older = state(folder)
    for name in ("shard_positions", "shortlist", "policy_weight", "window_max"):
        del older["config"][name]  # as a run begun before the setting existed
    with open(os.path.join(folder, "state.json"), "w") as f:
        json.dump(older, f)
    result = run_loop(folder, bin_dir, "--generations", "1")
    starts = [e["stage"] for e in events(folder) if e["event"] == "start"]
    check(result.returncode == 0 and starts.count("features") == 1 and starts.count("pack") == 1,
          f"the next run starts at pack, a setting newer than the run at its default: {starts} "
          f"{result.stderr.strip()}")
    config = state(folder)["config"]
    check(config["shard_positions"] == loop.SETTINGS["shard_positions"][0]
          and (config["shortlist"], config["policy_weight"]) == (0, 0.0)
          and config["window_max"] == 0,
          "a run begun before self-play had a shortlist resumes with none (as it was made), "
          "and with a fixed window: "
          f"{config['shortlist']}, {config['policy_weight']}, {config['window_max']}")
    bad = run_loop(os.path.join(top, "bad-shortlist"), bin_dir, "--generations", "1",
                   "--shortlist", "-1")
    check(bad.returncode == 1 and "--shortlist must be in 0..256" in bad.stderr
          and not os.path.exists(os.path.join(top, "bad-shortlist", "state.json")),
          f"a bad --shortlist is refused before the run starts: {bad.stderr.strip()}")
    narrow = run_loop(os.path.join(top, "bad-window"), bin_dir, "--generations", "1",
                      "--window", "3", "--window-max", "2")
    check(narrow.returncode == 1 and "--window-max must be 0 or at least --window (3)" in narrow.stderr,
          f"a --window-max below --window is refused: {narrow.stderr.strip()}")
    for width, warm, message in ((100, "0", "--hidden1 must be 64, 128 or 256"),
                                 (256, "1", "the initial weights")):
        odd = run_loop(os.path.join(top, f"bad-width-{width}"), bin_dir, "--generations", "1",
                       "--hidden1", str(width), "--warm-start", warm)
        check(odd.returncode == 1 and message in odd.stderr
              and not os.path.exists(os.path.join(top, f"bad-width-{width}", "state.json")),
              f"--hidden1 {width} --warm-start {warm} is refused: {odd.stderr.strip()}")
    wide = os.path.join(top, "wide")
    trained = run_loop(wide, bin_dir, "--generations", "1", "--hidden1", "128", "--warm-start", "0",
                       "--stop-after", "verify")
    with open(os.path.join(wide, "gen-1", "net.wgn"), "rb") as f:
        units = int.from_bytes(f.read(64)[24:28], "little")
    check(trained.returncode == 75 and units == 128 and state(wide)["config"]["hidden1"] == 128,
          f"--hidden1 128 trains and verifies a network of {units} units")


def test_window():
    # (generation, best network's generation, window, window_max) -> first trained on
    cases = {(1, 0, 3, 8): 1, (2, 0, 3, 8): 1, (5, 0, 3, 8): 1, (8, 0, 3, 8): 1,
             (12, 0, 3, 8): 5,   # grown to window_max
             (5, 0, 3, 0): 3,    # window_max 0: a fixed window
             (6, 5, 3, 8): 4,    # just promoted: the usual window, older games included
             (9, 5, 3, 8): 6,    # four generations by generation 5's network: all of them
             (9, 5, 5, 8): 5}
    got = {case: loop.first_trained_on(*case) for case in cases}
    check(got == cases, f"the window's first generation: {got}")


def test_gate(bin_dir, top, sprt, promoted):
    folder = os.path.join(top, "gate-" + ("accept" if promoted else "reject"))
    result = run_loop(folder, bin_dir, "--generations", "3", "--sprt=" + sprt, "--gate-games", "16")
    check(result.returncode == 0, f"gate {sprt}: the run ends ({result.stderr.strip()})")
    final = state(folder)
    rows = [final["rows"][str(g)] for g in (1, 2, 3)]
    # --tiny: window 2, window_max 3.
    windows = [r["trained_on"] for r in rows]
    check(windows == ([[1], [1, 2], [2, 3]] if promoted else [[1], [1, 2], [1, 2, 3]]),
          f"gate {sprt}: trained on {windows}")
    with open(os.path.join(folder, "generations.md")) as f:
        check(f"| gens {2 if promoted else 1}–3 |" in f.read(), "the table says what each trained on")
    decisions = [r["gate"].get("decision") for r in rows]
    check(all(r["promoted"] == (r["gate"].get("decision") == "H1 accepted") for r in rows),
          f"gate {sprt}: promoted exactly where the SPRT accepted H1 ({decisions})")
    check(all(r["promoted"] == promoted for r in rows),
          f"gate {sprt}: {'every' if promoted else 'no'} candidate promoted")
    if promoted:
        best = final["best"]
        check(best["generation"] == 3 and filecmp.cmp(
            best["weights"], os.path.join(folder, "gen-3", "net.wgn"), shallow=False),
            "the best network is generation 3's")
        check(rows[1]["selfplay_by"] == 1 and rows[1]["lr"] < rows[0]["lr"],
              "generation 2 played with generation 1's network, at a lower learning rate")
        check(os.path.exists(best["weights"] + ".provenance.json"), "a promoted network has provenance")
        png = os.path.join(folder, "generations.png")
        plotted = subprocess.run([sys.executable, os.path.join(TRAIN, "plot_generations.py"),
                                  "--state", os.path.join(folder, "state.json"), "--out", png],
                                 stdout=subprocess.PIPE, text=True)
        check(plotted.returncode == 0 and "3 generations" in plotted.stdout
              and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "the generations are plotted")
        state_file = os.path.join(folder, "state.json")

        def plot_two(*labels):
            return subprocess.run([sys.executable, os.path.join(TRAIN, "plot_generations.py"),
                                   "--state", state_file, state_file, "--label", *labels, "--out", png],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        two = plot_two("a", "b")
        check(two.returncode == 0 and "6 generations" in two.stdout, "two runs are plotted side by side")
        odd = plot_two("a")
        check(odd.returncode == 1 and "1 --label for 2 --state files" in odd.stderr,
              f"a label missing is refused: {odd.stderr.strip()}")
    else:
        check(final["best"]["generation"] == 0 and rows[1]["selfplay_by"] == 0,
              "the initial network stays the best")


def test_pack(bin_dir, top):
    """Packed shards hold the file's positions exactly; the trainer reads them
    as it reads the file; a damaged shard is refused with its name."""
    folder = os.path.join(top, "pack")
    os.makedirs(folder)
    data = os.path.join(folder, "d.wgd")
    net = os.path.join(bin_dir, "wallgo-net")
    subprocess.run([net, "generate", "--out", data, "--games", "8", "--visits", "24",
                    "--seed", "5", "--jobs", "2", "--quiet"], check=True)
    subprocess.run([net, "features", "--data", data], check=True, stdout=subprocess.DEVNULL)
    one = os.path.join(folder, "one")
    wd.pack(data, one, positions=10**9)
    many = os.path.join(folder, "many")
    manifest = wd.pack(data, many, positions=100)
    shards = [wd.load_shard(many, e)[1] for e in manifest["shards"]]
    check(len(shards) >= 3 and all(r["ply"][0] == 0 for r in shards)
          and np.concatenate(shards).tobytes() == np.asarray(wd.read_data(data)).tobytes(),
          f"{len(shards)} shards of whole games hold the file's records exactly")
    raw = os.path.getsize(data) + os.path.getsize(data + ".examples")
    packed = sum(os.path.getsize(os.path.join(many, e["file"])) for e in manifest["shards"])
    check(raw / packed > 5, f"packed {raw / packed:.1f} times smaller")

    def train(source, out, *extra):
        return subprocess.run([sys.executable, os.path.join(TRAIN, "train.py"), "--data", source,
                               "--out", out, "--seed", "3", "--epochs", "2", "--batch", "64",
                               "--holdout-every", "4", *extra],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    from_file, from_shard = os.path.join(folder, "a.wgn"), os.path.join(folder, "b.wgn")
    train(data, from_file)
    train(one, from_shard)
    check(filecmp.cmp(from_file, from_shard, shallow=False),
          "training on one shard gives the same weights as on the file")
    on_gpu = train(one, os.path.join(folder, "gpu.wgn"), "--device", "cuda")
    check(os.path.getsize(os.path.join(folder, "gpu.wgn")) == os.path.getsize(from_shard)
          if on_gpu.returncode == 0 else "PyTorch sees no CUDA device" in on_gpu.stderr,
          f"--device cuda trains on a GPU, or says there is none: {on_gpu.stderr.strip()[-80:]}")
    check(train(many, os.path.join(folder, "c.wgn")).returncode == 0, "training streams many shards")
    with open(os.path.join(many, manifest["shards"][1]["file"]), "r+b") as f:
        f.write(b"not a shard")
    damaged = train(many, os.path.join(folder, "d.wgn"))
    check(damaged.returncode != 0 and "shard-00001.npz: unreadable shard" in damaged.stderr,
          f"a damaged shard is refused: {damaged.stderr.strip().splitlines()[-1:]}")
    kept = subprocess.run([sys.executable, os.path.join(TRAIN, "pack.py"), data, "--out", many,
                           "--positions", "100", "--remove"], stdout=subprocess.DEVNULL)
    check(kept.returncode == 0 and not os.path.exists(data),
          "pack.py --remove repacks, verifies, then removes the file")


def test_init_round_trip(top):
    import train  # the trainer (torch)
    net = train.Net()
    source = os.path.join(ROOT, "search", "net", "weights", "wallgo-net-3.wgn")
    train.import_weights(net, source)
    out = os.path.join(top, "round-trip.wgn")
    train.export_weights(net, out)
    check(filecmp.cmp(source, out, shallow=False), "--init loads a weights file exactly")


def test_first_layer_clip(bin_dir, top):
    """Training keeps the first layer within what the engine's fixed-point sums
    hold (network.h), and the engine refuses a file beyond it."""
    import torch
    import train
    net = train.Net()
    with torch.no_grad():
        net.w1.weight[3, 5] = 9.0
        net.b1[7] = -9.0
    unclipped = os.path.join(top, "unclipped.wgn")
    train.export_weights(net, unclipped)
    train.clip_first_layer(net)
    limit = train.wn.MAX_FIRST_LAYER_WEIGHT  # the engine's kMaxFirstLayerWeight
    check(float(net.w1.weight[3, 5]) == limit and float(net.b1[7]) == -limit,
          "clip_first_layer holds the first layer to +-kMaxFirstLayerWeight")
    clipped = os.path.join(top, "clipped.wgn")
    train.export_weights(net, clipped)
    def engine(weights):
        return subprocess.run([os.path.join(bin_dir, "wallgo"), "--weights", weights],
                              input="quit\n", capture_output=True, text=True)
    check(engine(clipped).returncode == 0, "the engine reads the clipped weights")
    refused = engine(unclipped)
    check(refused.returncode != 0 and "first-layer weight of 9 is beyond" in refused.stderr,
          f"the engine refuses a larger one: {refused.stderr.strip()[-120:]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    bin_dir = os.path.abspath(args.bin)
    with tempfile.TemporaryDirectory(prefix="wallgo_loop_") as top:
        test_window()
        test_init_round_trip(top)
        test_first_layer_clip(bin_dir, top)
        test_pack(bin_dir, top)
        test_stop_after(bin_dir, top)
        test_orphaned_stage(bin_dir, top)
        # Bounds that any result accepts (elo1 far below) or rejects (elo0 far above).
        test_gate(bin_dir, top, "-1000,-500,0.3,0.3", promoted=True)
        test_gate(bin_dir, top, "500,1000,0.3,0.3", promoted=False)
        test_kills(bin_dir, top)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
