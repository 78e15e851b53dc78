#!/usr/bin/python3
"""The unattended training loop: generation after generation of
self-play with the best network so far, training on a window of the latest
generations' data (which grows, up to --window-max, while nothing is
promoted), export and verification, then a gating match against the
best network with an SPRT; the candidate is promoted only if the SPRT
accepts that it is stronger.

    tools/train/loop.py --dir run --generations 5            # start or resume
    tools/train/loop.py --dir run --generations 8            # later: go on to 8
    tools/train/loop.py --dir /tmp/t --tiny --generations 2  # seconds (the test)

Every stage of a generation is recorded in DIR/state.json (written
atomically) when it has finished, so a loop killed at any moment resumes at
the stage it was in: self-play data files resume game by game (wallgo-net
generate drops a game cut short; then the data and its examples are packed
into compressed shards, about 15 times smaller, which the trainer streams),
the gating match resumes from its records
file (wallgo-referee --resume), and the other stages are rerun from their
start. DIR/log.jsonl has a line for every stage's start and end, and
DIR/generations.md the table of every generation. The options a run was
started with are kept in the state: a resumed run takes them from there and
refuses a different value, except --generations, which may grow.
"""
import argparse
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import find_wallgo  # noqa: E402

find_wallgo.add_module_path()
import wallgo.net as wn  # noqa: E402
RESUME_ME = 75  # EX_TEMPFAIL: stopped by --stop-after; run again to go on

# Every option of a run, with its full-size default and its --tiny value.
SETTINGS = {
    "games": (2000, 8, "self-play games a generation"),
    "heldout": (200, 2, "held-out games a generation"),
    "visits": (400, 24, "playouts a self-play move"),
    "fast_visits": (0, 0, "playout cap randomisation: playouts of a fast move (0: off)"),
    "full_share": (0.25, 0.25, "with --fast-visits: the share of moves searched in full"),
    "shortlist": (16, 16, "eval hybrid: self-play's shortlist (the engine's; 0: every move)"),
    "policy_weight": (0.25, 0.25,
                      "eval hybrid: the policy's weight in self-play's priors (the engine's)"),
    "jobs": (2, 2, "self-play games at once, and gating games at once"),
    "epochs": (3.0, 4.0, "training epochs over the window"),
    "batch": (512, 64, "training batch"),
    "lr": (3e-3, 3e-3, "learning rate of the first generation"),
    "lr_decay": (0.8, 0.8, "the learning rate is multiplied by this each promotion"),
    "window": (3, 2, "generations of self-play data trained on"),
    "window_max": (8, 3, "while nothing is promoted, the window grows to every generation the "
                         "best network played, up to this many (0: a fixed --window)"),
    "shard_positions": (20000, 100, "positions a compressed shard of self-play data"),
    "hidden1": (0, 0, "units of the network's first layer: 64, 128 or 256 (0: as many as the "
                      "initial weights have; with --warm-start 1, it must be that)"),
    "warm_start": (1, 1, "1: train from the best network's weights, 0: from random ones"),
    "threads": (2, 1, "trainer threads"),
    "gate_games": (400, 8, "most games of a gating match"),
    "gate_visits": (800, 16, "playouts a move in gating and anchor matches"),
    "sprt": ("0,30,0.05,0.1", "0,30,0.05,0.1", "elo0,elo1,alpha,beta of the gate"),
    "anchor_games": (100, 0, "games against generation 3 and classic (0: none)"),
    "eval": ("hybrid", "hybrid", "the engine's evaluation in self-play and matches"),
    "seed": (1, 1, "seed of generation 1 (generation g uses seed + g - 1)"),
}
# What a run begun before a setting existed was made with, where that is not
# the setting's default. Self-play searched with no shortlist and no blend
# then: a resumed old run keeps that search, so that its generation in
# progress can resume its data files (whose headers record it), and its
# generations stay comparable; a new run gets the engine's search.
# A run begun before the growing window trained on a fixed one.
BEFORE_THE_SETTING = {"shortlist": 0, "policy_weight": 0.0, "window_max": 0, "hidden1": 64}
# The anchor every generation is measured against (no longer the built-in one).
GENERATION_3 = os.path.join(ROOT, "search", "net", "weights", "wallgo-net-3.wgn")
STAGES = ["selfplay", "heldout", "features", "pack", "train", "verify", "evaluate", "gate",
          "anchors", "record"]


class LoopError(Exception):
    pass


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True, help="the run's folder (state, data, networks)")
    ap.add_argument("--generations", type=int, required=True,
                    help="run until this many generations are done")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"),
                    help="folder of wallgo, wallgo-net and wallgo-referee")
    ap.add_argument("--initial-weights",
                    default=os.path.join(ROOT, "search", "net", "weights", "wallgo-net-6.wgn"),
                    help="the best network before generation 1")
    ap.add_argument("--tiny", action="store_true", help="settings for a run of seconds")
    ap.add_argument("--train-device", default="cpu", choices=("cpu", "cuda"),
                    help="where train.py trains (not a setting of the run: a resumed run may "
                         "change it)")
    ap.add_argument("--stop-after", choices=STAGES,
                    help="stop (status 75) once this stage has finished (for tests)")
    for name, (_, _, text) in SETTINGS.items():
        ap.add_argument("--" + name.replace("_", "-"), dest=name, default=None,
                        type=type(SETTINGS[name][0]), help=f"{text} (default {SETTINGS[name][0]})")
    return ap.parse_args(argv)


class Run:
    """The run's folder: its state file, its log and its table."""

    def __init__(self, folder):
        self.folder = folder
        self.state_path = os.path.join(folder, "state.json")
        os.makedirs(folder, exist_ok=True)
        self.lock = os.open(os.path.join(folder, "lock"), os.O_CREAT | os.O_RDWR)
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LoopError(f"{folder} is in use by another loop (or a stage of a killed one)")

    def command(self, cmd, output=None):
        """Runs a stage's program. It inherits the folder's lock: a program
        orphaned by a killed loop keeps the folder locked until it ends, so no
        two writers ever share a data file."""
        print("+", " ".join(cmd), flush=True)
        result = subprocess.run(cmd, check=True, pass_fds=(self.lock,), text=True,
                                stdout=None if output is None else subprocess.PIPE)
        if output is None:
            return ""
        with open(output, "w") as f:
            f.write(result.stdout)
        sys.stdout.write(result.stdout)
        return result.stdout

    def load(self):
        if not os.path.exists(self.state_path):
            return None
        try:
            with open(self.state_path) as f:
                return json.load(f)
        except (OSError, ValueError) as e:
            raise LoopError(f"{self.state_path}: unreadable state ({e}); "
                            "restore it or start a new --dir")

    def save(self, state):
        tmp = self.state_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(state, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.state_path)

    def log(self, **event):
        event["time"] = round(time.time(), 3)
        with open(os.path.join(self.folder, "log.jsonl"), "a") as f:
            f.write(json.dumps(event) + "\n")

    def gen_dir(self, generation):
        path = os.path.join(self.folder, f"gen-{generation}")
        os.makedirs(path, exist_ok=True)
        return path


def first_layer_width(weights):
    """The first layer's units of the --initial-weights file."""
    try:
        return wn.first_layer_width(weights)
    except (OSError, ValueError) as e:
        raise LoopError(f"--initial-weights: {e}")


def settle_config(args, state):
    """The run's settings: stored ones win; a different explicit value is an error."""
    chosen = {name: getattr(args, name) for name in SETTINGS}
    if state is None:
        column = 1 if args.tiny else 0
        config = {name: (value if value is not None else SETTINGS[name][column])
                  for name, value in chosen.items()}
        # wallgo-net generate's ranges (the engine's), checked before the
        # run is started with them.
        if not 0 <= config["shortlist"] <= 256:
            raise LoopError(f"--shortlist must be in 0..256, not {config['shortlist']}")
        if not 0 <= config["policy_weight"] <= 8:
            raise LoopError(f"--policy-weight must be in [0, 8], not {config['policy_weight']}")
        initial_width = first_layer_width(args.initial_weights)
        config["hidden1"] = config["hidden1"] or initial_width
        if config["hidden1"] not in wn.HIDDEN1_WIDTHS:
            raise LoopError(f"--hidden1 must be 64, 128 or 256, not {config['hidden1']}")
        if config["warm_start"] and config["hidden1"] != initial_width:
            raise LoopError(f"--hidden1 {config['hidden1']} with --warm-start 1: the initial weights "
                            f"{args.initial_weights} have {initial_width} units (train from random "
                            "ones with --warm-start 0)")
        if config["window"] < 1:
            raise LoopError(f"--window must be at least 1, not {config['window']}")
        if config["window_max"] and config["window_max"] < config["window"]:
            raise LoopError(f"--window-max must be 0 or at least --window ({config['window']}), "
                            f"not {config['window_max']}")
        return config
    stored = dict(state["config"])
    for name, (default, _, _) in SETTINGS.items():
        stored.setdefault(name, BEFORE_THE_SETTING.get(name, default))  # newer than the run
    for name, value in chosen.items():
        if value is not None and value != stored[name]:
            raise LoopError(f"this run was started with --{name.replace('_', '-')} "
                            f"{stored[name]}; resume it with the same value or none")
    return stored


def engine_spec(name, binary, config, weights):
    """A wallgo-referee -e argument: the engine with a network (or classic)."""
    args = [binary, "--visits", str(config["gate_visits"])]
    if weights == "classic":
        args += ["--eval", "classic"]
    else:
        args += ["--eval", config["eval"]]
        if weights:
            args += ["--weights", weights]
    return f"name={name}:" + " ".join(args)


def parse_match(text):
    """Score, Elo and SPRT decision of the first pairing of a referee report."""
    score = re.search(r"Score of \S+ vs \S+: (\d+) - (\d+) - (\d+)", text)
    elo = re.search(r"Elo difference: (\S+) \+/- (\S+)", text)
    sprt = re.search(r"SPRT .*LLR (\S+) .*, (H0 accepted|H1 accepted|continue)", text)
    if not score:
        raise LoopError("no score in the referee's report")
    result = {"wins": int(score[1]), "losses": int(score[2]), "draws": int(score[3])}
    if elo:
        result["elo"], result["elo_margin"] = elo[1], elo[2]
    if sprt:
        result["llr"], result["decision"] = float(sprt[1]), sprt[2]
    return result


def referee(run, args, config, folder, name, first, second, games, sprt, seed):
    records = os.path.join(folder, f"{name}.jsonl")
    cmd = [os.path.join(args.bin, "wallgo-referee"), "-e", first, "-e", second,
           "--games", str(games), "--concurrency", str(config["jobs"]),
           "--movetime", "60", "--seed", str(seed), "--records", records, "--quiet"]
    if sprt:
        cmd.append("--sprt=" + config["sprt"])
    if os.path.exists(records):
        cmd.append("--resume")
    return parse_match(run.command(cmd, os.path.join(folder, f"{name}.txt")))


def first_trained_on(number, best_generation, window, window_max):
    """The first generation of generation `number`'s training window. The
    generations after the best network's all hold its self-play: while nothing
    is promoted they are the same player's games, so the window grows to hold
    them (up to window_max; 0: it never grows), and a candidate can learn from
    as much data as the incumbent did. After a promotion it starts over at
    `window`, dropping the older network's games."""
    span = window
    if window_max:
        span = max(window, min(window_max, number - best_generation))
    return max(1, number - span + 1)


def packed_or_raw(folder):
    """A generation's training data: its shards (a run of an older loop.py left a file)."""
    shards = os.path.join(folder, "train.shards")
    return shards if os.path.exists(os.path.join(shards, "manifest.json")) else \
        os.path.join(folder, "train.wgd")


class Generation:
    """The stages of one generation; each may be rerun from its start."""

    def __init__(self, args, run, state, number):
        self.args, self.run, self.state, self.number = args, run, state, number
        self.config = state["config"]
        self.dir = run.gen_dir(number)
        self.net = os.path.join(args.bin, "wallgo-net")
        self.best = state["best"]["weights"]
        self.seed = self.config["seed"] + number - 1
        self.candidate = os.path.join(self.dir, "net.wgn")
        self.row = state.setdefault("rows", {}).setdefault(str(number), {"generation": number})

    def generate(self, out, games, seed):
        cmd = [self.net, "generate", "--out", out, "--games", str(games),
               "--visits", str(self.config["visits"]), "--seed", str(seed),
               "--jobs", str(self.config["jobs"]), "--eval", self.config["eval"], "--quiet",
               "--fast-visits", str(self.config["fast_visits"]),
               "--full-share", str(self.config["full_share"]),
               "--shortlist", str(self.config["shortlist"]),
               "--policy-weight", str(self.config["policy_weight"])]
        if self.config["eval"] != "classic":
            cmd += ["--weights", self.best]
        self.run.command(cmd)

    def selfplay(self):
        self.generate(os.path.join(self.dir, "train.wgd"), self.config["games"], self.seed)

    def heldout(self):
        self.generate(os.path.join(self.dir, "heldout.wgd"), self.config["heldout"],
                      self.seed + 1000)

    def features(self):
        self.run.command([self.net, "features", "--data", os.path.join(self.dir, "train.wgd")])

    def pack(self):
        # Killed after the removal, the stage finds the shards and no file.
        data = os.path.join(self.dir, "train.wgd")
        if os.path.exists(data):
            self.run.command([sys.executable, os.path.join(HERE, "pack.py"), data,
                              "--out", os.path.join(self.dir, "train.shards"),
                              "--positions", str(self.config["shard_positions"]), "--remove"])

    def window_generations(self):
        first = first_trained_on(self.number, self.state["best"]["generation"],
                                 self.config["window"], self.config["window_max"])
        return list(range(first, self.number + 1))

    def window(self):
        return [packed_or_raw(self.run.gen_dir(g)) for g in self.window_generations()]

    def train(self):
        lr = self.config["lr"] * self.config["lr_decay"] ** self.state["promotions"]
        tmp = self.candidate + ".tmp"
        self.run.command([sys.executable, os.path.join(HERE, "train.py"), "--data", *self.window(),
                     "--out", tmp, "--fixture", os.path.join(self.dir, "net.fixture.json"),
                     "--summary", os.path.join(self.dir, "summary.json"),
                     "--seed", str(self.seed), "--epochs", str(self.config["epochs"]),
                     "--batch", str(self.config["batch"]), "--lr", str(lr),
                     "--threads", str(self.config["threads"]), "--hidden1", str(self.config["hidden1"]),
                     "--device", self.args.train_device,
                     "--symmetries"]
                    + (["--init", self.best] if self.config["warm_start"] else [])
                    + (["--holdout-every", "4"] if self.args.tiny else []))
        os.replace(tmp, self.candidate)
        with open(os.path.join(self.dir, "summary.json")) as f:
            summary = json.load(f)
        self.row["train_loss"] = round(summary["final_train_loss"], 4)
        self.row["trained_on"] = self.window_generations()
        self.row["lr"] = lr

    def verify(self):
        self.run.command([self.net, "verify", "--weights", self.candidate,
                     "--fixture", os.path.join(self.dir, "net.fixture.json")])

    def evaluate(self):
        text = self.run.command([self.net, "evaluate", "--data", os.path.join(self.dir, "heldout.wgd"),
                            "--weights", self.candidate, "--speed", "false"],
                           os.path.join(self.dir, "evaluate.txt"))
        loss = re.search(r"win log-loss[^\n]*?net ([0-9.]+)", text)
        if loss:
            self.row["heldout_loss"] = float(loss[1])

    def gate(self):
        wallgo = os.path.join(self.args.bin, "wallgo")
        result = referee(self.run, self.args, self.config, self.dir, "gate",
                         engine_spec(f"gen-{self.number}", wallgo, self.config, self.candidate),
                         engine_spec("best", wallgo, self.config, self.best),
                         self.config["gate_games"], sprt=True, seed=self.seed)
        self.row["gate"] = result
        self.row["promoted"] = result.get("decision") == "H1 accepted"

    def anchors(self):
        games = self.config["anchor_games"]
        if games == 0:
            return
        wallgo = os.path.join(self.args.bin, "wallgo")
        mine = engine_spec(f"gen-{self.number}", wallgo, self.config, self.candidate)
        for name, weights in (("generation-3", GENERATION_3), ("classic", "classic")):
            result = referee(self.run, self.args, self.config, self.dir, f"anchor-{name}", mine,
                             engine_spec(name, wallgo, self.config, weights), games, sprt=False,
                             seed=self.seed)
            self.row[f"vs_{name}"] = result

    def record(self):
        if self.row.get("promoted"):
            kept = os.path.join(self.run.folder, "best")
            os.makedirs(kept, exist_ok=True)
            path = os.path.join(kept, f"gen-{self.number}.wgn")
            shutil.copyfile(self.candidate, path)
            self.write_provenance(path + ".provenance.json")
            self.state["best"] = {"generation": self.number, "weights": path}
            self.state["promotions"] += 1
        self.row["best_after"] = self.state["best"]["generation"]
        write_table(self.run, self.state)

    def write_provenance(self, path):
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True).stdout.strip() or "unknown"
        with open(path, "w") as f:
            json.dump({"generation": self.number, "commit": commit, "config": self.config,
                       "selfplay_weights": self.best, "trained_on": self.window(),
                       "row": self.row}, f, indent=1)


def match_text(result):
    if not result:
        return ""
    text = f"{result['wins']}-{result['losses']}-{result['draws']}"
    if "elo" in result:
        text += f", {result['elo']} ± {result['elo_margin']}"
    return text


def generations_text(row):
    gens = row.get("trained_on")
    if not gens:
        return "?"
    return f"gen {gens[0]}" if len(gens) == 1 else f"gens {gens[0]}–{gens[-1]}"


def write_table(run, state):
    lines = ["| generation | self-play by | trained on | train loss | held-out loss "
             "| gate (W-L-D, Elo, SPRT) | promoted | vs generation 3 | vs classic |",
             "|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(state["rows"], key=int):
        row = state["rows"][key]
        if "best_after" not in row:
            continue
        gate = row.get("gate", {})
        lines.append(
            f"| {row['generation']} | gen {row.get('selfplay_by', '?')} | {generations_text(row)} "
            f"| {row.get('train_loss', '')} "
            f"| {row.get('heldout_loss', '')} | {match_text(gate)}, {gate.get('decision', '')} "
            f"| {'yes' if row.get('promoted') else 'no'} | {match_text(row.get('vs_generation-3'))} "
            f"| {match_text(row.get('vs_classic'))} |")
    with open(os.path.join(run.folder, "generations.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def loop(args):
    run = Run(args.dir)
    state = run.load()
    config = settle_config(args, state)
    if state is not None:
        state["config"] = config
    else:
        if not os.path.exists(args.initial_weights):
            raise LoopError(f"no initial weights {args.initial_weights}")
        state = {"config": config, "generation": 1, "done": [], "promotions": 0,
                 "best": {"generation": 0, "weights": os.path.abspath(args.initial_weights)},
                 "rows": {}}
        run.save(state)
    for tool in ("wallgo", "wallgo-net", "wallgo-referee"):
        if not os.access(os.path.join(args.bin, tool), os.X_OK):
            raise LoopError(f"no {tool} in {args.bin} (build it first)")
    while state["generation"] <= args.generations:
        generation = Generation(args, run, state, state["generation"])
        generation.row["selfplay_by"] = state["best"]["generation"]
        for stage in STAGES:
            if stage in state["done"]:
                continue
            run.log(generation=generation.number, stage=stage, event="start")
            getattr(generation, stage)()
            state["done"].append(stage)
            run.save(state)
            run.log(generation=generation.number, stage=stage, event="done")
            if stage == args.stop_after:
                return RESUME_ME
        state["generation"] += 1
        state["done"] = []
        run.save(state)
    return 0


def main(argv):
    args = parse_args(argv)
    try:
        return loop(args)
    except LoopError as e:
        print(f"loop.py: {e}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as e:
        print(f"loop.py: {' '.join(e.cmd)} failed with status {e.returncode}; "
              "run the loop again to resume", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
