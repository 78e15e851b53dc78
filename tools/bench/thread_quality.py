#!/usr/bin/python3
"""Many threads against one at equal playouts: what the threads cost in
quality, apart from speed.

Plays wallgo-referee matches of one engine searching with N threads against
the same engine with one thread, both at the same playouts a move (`--visits
P --movetime 0`; the referee's clock is long enough never to end a search),
for every N, P and player count asked for, and prints and plots the Elo of N
threads. Equal playouts do not depend on speed, so a loaded or small machine
gives the same answer as a big one, only later: 16 threads on 2 cores still
have 16 descents in flight, as on 16 cores.

A match is played in chunks of whole game sets; chunk k's games use seed
SEED + k (the referee's random openings), so every seed is fixed by the
command line and printed before any game is played. Each chunk's records are
a file in the results folder; a rerun (after a kill, or with more --games)
plays only what is missing, resuming a cut chunk with `--resume`.

Games of 3 and 4 players seat the N-thread engine with 2 or 3 one-thread
engines, the seats rotating within a set. There its results are counted in
pairs: against each one-thread player of a game it wins, loses or draws by
the final territory (a forfeit loses to everyone), so that equal strength
scores 1/2 at any player count and the Elo means what it means in 2-player
games: the expected score against one opponent. The 95% interval comes
from the spread of the sets' mean scores (fastchess's pentanomial way: the
games of a set share an opening and are not independent); with 2 players it
is the referee's own "pair Elo".

  tools/bench/thread_quality.py --bin build/bin --results DIR \\
      --threads 16 --playouts 1600 --players 2 --games 400
  tools/bench/thread_quality.py --results DIR --label new --report-only \\
      --also old=OLD_DIR --plot OUT.png
"""

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import time

Z95 = 1.959964
# The referee's clock per move: long enough that the playouts, not the
# clock, end every search even on a loaded machine at 16 threads.
CLOCK_S = 600


def parse_list(text):
    try:
        values = [int(v) for v in text.split(",") if v]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of integers: {text!r}")
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"need positive integers: {text!r}")
    return values


def parse_args(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default="build/bin",
                   help="folder with wallgo and wallgo-referee")
    p.add_argument("--results", required=True,
                   help="folder of the matches' records (created; resumed)")
    p.add_argument("--threads", type=parse_list, default=[2, 4, 8, 16])
    p.add_argument("--playouts", type=parse_list, default=[1600, 12000])
    p.add_argument("--players", type=parse_list, default=[2, 3, 4])
    p.add_argument("--games", type=int, default=400,
                   help="games per match (rounded up to whole chunks)")
    p.add_argument("--chunk", type=int, default=24,
                   help="games per chunk (rounded up to whole sets)")
    p.add_argument("--seed", type=int, default=1,
                   help="chunk k of every match uses seed SEED + k")
    p.add_argument("--concurrency", type=int, default=2,
                   help="games at once (the referee's --concurrency)")
    p.add_argument("--nice", type=int, default=19,
                   help="niceness of the referee and engines (0: none)")
    p.add_argument("--engine-args", default="",
                   help="more options for both engines, e.g. '--hash 64'")
    p.add_argument("--report-only", action="store_true",
                   help="play nothing: the table (and plot) of what is there")
    p.add_argument("--label", help="the build's name in the table and plot "
                   "(default: the results folder's name)")
    p.add_argument("--also", action="append", default=[],
                   metavar="LABEL=DIR",
                   help="another build's results folder beside this one in "
                   "the table and plot (repeatable)")
    p.add_argument("--plot", help="PNG to draw the table into")
    args = p.parse_args(argv)
    if args.games < 1 or args.chunk < 1 or args.concurrency < 1:
        p.error("--games, --chunk and --concurrency must be positive")
    if max(args.players) > 4 or min(args.players) < 2:
        p.error("--players: 2, 3 or 4")
    label = args.label or os.path.basename(os.path.normpath(args.results))
    args.folders = [(label, args.results)]
    for item in args.also:
        name, _, folder = item.partition("=")
        if not name or not folder:
            p.error(f"--also takes LABEL=DIR, not {item!r}")
        args.folders.append((name, folder))
    return args


def match_name(threads, playouts, players):
    return f"t{threads}-v{playouts}-p{players}"


def chunk_plan(args, players):
    """Games per chunk (whole sets) and the number of chunks."""
    size = -(-args.chunk // players) * players
    return size, -(-args.games // size)


def engine_names(players):
    return ["many"] + [f"one{k}" for k in range(1, players)]


def referee_command(args, threads, playouts, players, size, seed, records):
    engine = (f"{os.path.abspath(args.bin)}/wallgo --visits {playouts} "
              f"--movetime 0 {args.engine_args}").strip()
    names = engine_names(players)
    cmd = [os.path.join(args.bin, "wallgo-referee"),
           "--engine", f"name={names[0]}:{engine} --threads {threads}"]
    for name in names[1:]:
        cmd += ["--engine", f"name={name}:{engine} --threads 1"]
    cmd += ["--games", str(size), "--concurrency", str(args.concurrency),
            "--movetime", str(CLOCK_S), "--seed", str(seed),
            "--rules", f"players={players}",
            "--records", records, "--resume", "--quiet"]
    if args.nice:
        cmd = ["nice", "-n", str(args.nice)] + cmd
    return cmd


def read_records(path):
    """The whole game records of a file (a line cut by a kill is skipped)."""
    games = []
    if not os.path.exists(path):
        return games
    with open(path) as f:
        for line in f:
            try:
                games.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return games


# Stops the referee (which keeps its whole games) when this script is told
# to stop, so that no match goes on playing unwatched. The handler only
# passes the signal on: the wait in play() (which a wait here would
# deadlock) sees the referee end, and the script then exits.
class Child:
    proc = None
    stopped_by = 0

    @classmethod
    def stop(cls, signum, _frame):
        cls.stopped_by = signum
        if cls.proc is None:
            sys.exit(128 + signum)
        cls.proc.send_signal(signal.SIGTERM)


def check_identity(folder, identity):
    """A results folder holds one match: refuse to mix another into it."""
    path = os.path.join(folder, "match.json")
    if os.path.exists(path):
        with open(path) as f:
            stored = json.load(f)
        if stored != identity:
            sys.exit(f"thread_quality.py: {folder} holds another match "
                     f"({stored}); this one is {identity}: give another "
                     "--results folder")
        return
    os.makedirs(folder, exist_ok=True)
    with open(path, "w") as f:
        json.dump(identity, f, indent=1)
        f.write("\n")


def play(args):
    matches = [(n, v, p) for p in args.players for v in args.playouts
               for n in args.threads]
    print("thread_quality: the plan, before any game")
    for n, v, p in matches:
        size, chunks = chunk_plan(args, p)
        print(f"  {match_name(n, v, p)}: {n} threads against 1 at {v} "
              f"playouts, {p} players, {chunks} chunks of {size} games, "
              f"seeds {args.seed}..{args.seed + chunks - 1}")
    sys.stdout.flush()
    for n, v, p in matches:
        size, chunks = chunk_plan(args, p)
        folder = os.path.join(args.results, match_name(n, v, p))
        check_identity(folder, {
            "threads": n, "playouts": v, "players": p, "chunk": size,
            "seed": args.seed, "engine_args": args.engine_args})
        for k in range(chunks):
            records = os.path.join(folder, f"chunk-{k:03d}.jsonl")
            if len(read_records(records)) >= size:
                continue
            start = time.time()
            cmd = referee_command(args, n, v, p, size, args.seed + k, records)
            with open(records + ".log", "a") as log:
                Child.proc = subprocess.Popen(cmd, stdout=log,
                                              stderr=subprocess.STDOUT)
                rc = Child.proc.wait()
                Child.proc = None
            if Child.stopped_by:
                print(f"stopped: {records} keeps its whole games", flush=True)
                sys.exit(128 + Child.stopped_by)
            if rc != 0:
                sys.exit(f"thread_quality.py: the referee failed ({rc}) on "
                         f"{records}; see {records}.log")
            print(f"{match_name(n, v, p)} chunk {k}: {size} games in "
                  f"{time.time() - start:.0f} s", flush=True)


def pair_points(game, players):
    """The N-thread engine's points against each one-thread player."""
    seats = game["seats"]
    many = next(c for c, name in seats.items() if name == "many")
    loser = game.get("loser")
    points = []
    for colour in seats:
        if colour == many:
            continue
        if loser is not None and loser in (many, colour):
            points.append(0.0 if loser == many else 1.0)
            continue
        mine, theirs = game["scores"][many], game["scores"][colour]
        if mine == theirs:
            # Equal territory: the rules' tie-break (the largest region,
            # docs/rules.md) as the record's winners state it, so that a
            # 2-player row is the referee's own count.
            winners = game.get("winners", [])
            mine, theirs = many in winners, colour in winners
        points.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    assert len(points) == players - 1
    return points


def elo(score):
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def summarise(folder, identity):
    """W-L-D (in pairs with 3-4 players), the score, Elo and its interval,
    over the complete sets of a match's chunks."""
    players = identity["players"]
    sets = {}
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("chunk-") and name.endswith(".jsonl")):
            continue
        for game in read_records(os.path.join(folder, name)):
            sets.setdefault((name, game["set"]), []).append(game)
    wins = losses = draws = 0
    set_scores = []
    for games in sets.values():
        if len(games) < players:
            continue  # a set cut short: its seats are not yet balanced
        points = [x for g in games for x in pair_points(g, players)]
        wins += points.count(1.0)
        losses += points.count(0.0)
        draws += points.count(0.5)
        set_scores.append(sum(points) / len(points))
    row = dict(identity, games=len(set_scores) * players, wins=wins,
               losses=losses, draws=draws)
    if not set_scores:
        return None
    count = len(set_scores)
    mean = sum(set_scores) / count
    var = sum((s - mean) ** 2 for s in set_scores) / count
    half = Z95 * math.sqrt(var / count)
    row.update(score=mean, elo=elo(mean), low=elo(mean - half),
               high=elo(mean + half))
    return row


def collect(label, results):
    rows = []
    for name in sorted(os.listdir(results)):
        path = os.path.join(results, name, "match.json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            identity = json.load(f)
        row = summarise(os.path.join(results, name), identity)
        if row is not None:
            rows.append(dict(row, build=label))
    return rows


def signed(x):
    if not math.isfinite(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.1f}" if abs(x) >= 0.05 else "0.0"  # never "-0.0"


def print_table(rows):
    width = max(5, *(len(r["build"]) for r in rows))
    print(f"{'build':{width}s} threads playouts players  games  W-L-D (pairs "
          "with 3-4 players)  score     Elo  95% interval")
    for r in rows:
        wld = f"{r['wins']}-{r['losses']}-{r['draws']}"
        print(f"{r['build']:{width}s} {r['threads']:7d} {r['playouts']:8d} "
              f"{r['players']:7d} "
              f"{r['games']:6d}  {wld:32s} {r['score']:6.3f} "
              f"{signed(r['elo']):>7s}  [{signed(r['low'])}, "
              f"{signed(r['high'])}]")


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series = list(dict.fromkeys((r["build"], r["playouts"], r["players"])
                                for r in rows))
    width = 0.04 * (len(series) - 1)
    for i, (b, v, p) in enumerate(series):
        points = [r for r in rows
                  if (r["build"], r["playouts"], r["players"]) == (b, v, p)]
        # Spread the series a little sideways so their bars do not overlap.
        shift = 2 ** ((i - (len(series) - 1) / 2) * 0.08 if width else 0)
        x = [r["threads"] * shift for r in points]
        y = [r["elo"] for r in points]
        low = [max(0.0, r["elo"] - r["low"]) for r in points]
        high = [max(0.0, r["high"] - r["elo"]) for r in points]
        finite = [all(math.isfinite(a) for a in t)
                  for t in zip(y, low, high)]
        ax.errorbar([a for a, f in zip(x, finite) if f],
                    [a for a, f in zip(y, finite) if f],
                    yerr=[[a for a, f in zip(low, finite) if f],
                          [a for a, f in zip(high, finite) if f]],
                    marker="o", capsize=3,
                    label=f"{b}: {v} playouts, {p} players")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ticks = sorted({r["threads"] for r in rows})
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.set_xlim(ticks[0] / 1.5, ticks[-1] * 1.5)
    ax.set_xlabel("threads (against one thread at the same playouts)")
    ax.set_ylabel("Elo of N threads (95% interval)")
    ax.set_title("Many threads against one at equal playouts")
    ax.legend(fontsize="small")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv):
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, Child.stop)
    signal.signal(signal.SIGINT, Child.stop)
    if not args.report_only:
        for tool in ("wallgo", "wallgo-referee"):
            if not os.access(os.path.join(args.bin, tool), os.X_OK):
                sys.exit(f"thread_quality.py: no {args.bin}/{tool}")
        play(args)
    rows = []
    for label, folder in args.folders:
        if not os.path.isdir(folder):
            sys.exit(f"thread_quality.py: no results folder {folder}")
        rows += collect(label, folder)
    if not rows:
        sys.exit(f"thread_quality.py: no whole game sets in {args.results}")
    rows.sort(key=lambda r: (r["players"], r["playouts"], r["threads"]))
    print_table(rows)
    if args.plot:
        plot(rows, args.plot)
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main(sys.argv[1:])
