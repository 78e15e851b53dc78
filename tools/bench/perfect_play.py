#!/usr/bin/python3
"""The engine against perfect play: plays the engine at each move time (or playout budget) on
every proven position of a set that `solver_bench --out` wrote, and says
whether its move is optimal (in the proven optimal set) and, if not, how
many points it loses. docs/perfect-play.md.

    tools/bench/perfect_play.py tests/data/perfect-play-set.jsonl \\
        --engine "nice -n 19 build/bin/wallgo --threads 1" \\
        --movetimes 0.1,1 --results /tmp/perfect-results.jsonl \\
        --plot docs/images/perfect-play.png

Points lost by a move: the position's proven margin for the mover minus the
margin for the mover of the position after the move, proven by the solver
(`solve` over the protocol, --solver, within --child-seconds; a finished
game's margin is its final score). When the set lists every optimal move, a
move outside it is not optimal; when it lists only those found in its
budget (all_optimal false), a move outside it is optimal exactly when its
proven child keeps the position's value. A child the solver cannot prove
within its budget leaves the move's points lost unknown: such moves count
in the positions but not in the mean points lost (the table counts them),
and, where the set's optimal list is partial, not in the share optimal
either. A resignation is not optimal, its points lost unknown.

Every measured move is appended to --results at once (JSON Lines), and a
run skips what the file already holds, so a stopped run resumes where it
was; --limit measures at most that many moves and stops (runs in chunks).
--report-only prints the tables and draws the plot from --results.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import time

COLOURS = ("red", "blue", "green", "yellow")
RESULT_RANK = {"loss": 0, "draw": 1, "win": 2}


class Engine:
    """One engine process speaking the protocol, one command at a time (a
    `solve` would stop at the next line sent)."""

    def __init__(self, command):
        self.command = command
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            bufsize=1)

    def ask(self, line):
        """The answer's lines up to the empty line, the first without its
        "= "; a "?" answer is an error."""
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            text = self.process.stdout.readline()
            if not text:
                sys.exit(f"perfect_play: the engine ({self.command}) ended "
                         f"during: {line}")
            text = text.rstrip("\n")
            if not text and lines:
                break
            if text:
                lines.append(text)
        if lines[0].startswith("?"):
            raise RuntimeError(f"{line}: {lines[0]}")
        lines[0] = lines[0][1:].strip()
        return lines

    def close(self):
        try:
            self.ask("quit")
        except (RuntimeError, SystemExit, BrokenPipeError):
            pass
        self.process.wait()


def field(position, key):
    """A key=value field of a position string."""
    for word in position.split():
        name, _, value = word.partition("=")
        if name == key:
            return value
    raise ValueError(f"no {key}= in position: {position}")


def final_value(score, colour):
    """(result, margin) of `colour` from a finished game's `score` answer:
    red=19 blue=13 status=final winner=red; None where it cannot tell.
    `winner=draw` does not name who shares the draw: the players with the
    top score, both of them when two have it; with three or four, the
    tie-break by the largest region may leave some out."""
    fields = dict(word.split("=") for word in score.split())
    scores = {c: int(fields[c]) for c in COLOURS if c in fields}
    best_other = max(s for c, s in scores.items() if c != colour)
    top = max(scores.values())
    if fields["winner"] == colour:
        result = "win"
    elif fields["winner"] == "draw" and scores[colour] == top:
        if sum(1 for s in scores.values() if s == top) > 2:
            return None
        result = "draw"
    else:
        result = "loss"
    return result, scores[colour] - best_other


def solved_value(lines, colour):
    """(result, margin) of `colour` from a `solve` answer, None unproven.
    Its values line: values red win 1 blue loss -1."""
    for line in lines:
        words = line.split()
        if words[:2] == ["result", "unproven"]:
            return None
        if words and words[0] == "values":
            at = words.index(colour)
            return words[at + 1], int(words[at + 2])
    return None


def child_value(solver, position, colour, move, seconds):
    """The mover's proven (result, margin) after `move`, or None."""
    solver.ask(f"setup {position}")
    solver.ask(f"play {colour} {move}")
    score = solver.ask("score")[0]
    if "status=final" in score:
        return final_value(score, colour)
    return solved_value(solver.ask(f"solve {seconds:g}"), colour)


def judge(entry, move, child):
    """optimal (True, False or None: unknown), points lost (None: unknown),
    and whether the move gave up a result, for `move` with its child's
    proven value `child` (None: unproven or not solved)."""
    if move in entry["optimal"]:
        return True, 0, False
    if move == "resign":
        return False, None, None
    if child is None:
        return (False if entry["all_optimal"] else None), None, None
    lost = entry["margin"] - child[1]
    worse = RESULT_RANK[child[0]] < RESULT_RANK[entry["result"]]
    keeps = child == (entry["result"], entry["margin"])
    return (keeps and not entry["all_optimal"]), lost, worse


def budget_label(row):
    """A results row's budget: "0.1 s" or "1000 playouts"."""
    if row.get("visits"):
        return f"{row['visits']} playouts"
    return f"{row['movetime']:g} s"


def measure(entry, budget, player, solver, args):
    """One results row: the engine's move within `budget` (a dict with
    movetime or visits) on the position."""
    position = entry["position"]
    colour = field(position, "turn")
    player.ask(f"setup {position}")
    start = time.monotonic()
    move = player.ask(f"genmove {colour}")[0].lower()
    spent = time.monotonic() - start
    child = None
    if move != "resign" and move not in entry["optimal"]:
        child = child_value(solver, position, colour, move,
                            args.child_seconds)
    optimal, lost, worse = judge(entry, move, child)
    return {"position": position, "variant": entry["variant"],
            "game_seed": entry["game_seed"],
            "plies_to_end": entry["plies_to_end"], **budget,
            "move": move, "seconds": round(spent, 3), "optimal": optimal,
            "points_lost": lost, "result_lost": worse,
            "child": list(child) if child else None,
            "set_result": entry["result"], "set_margin": entry["margin"],
            "set_optimal": entry["optimal"],
            "all_optimal": entry["all_optimal"]}


def load_jsonl(path):
    """The lines of a JSON Lines file; none when there is no file yet."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def run(args, entries, done):
    """Measures every (position, move time) the results lack, appending
    each row as it comes; returns how many it measured."""
    measured = 0
    solver = Engine(args.solver or args.engine)
    try:
        for budget in args.budgets:
            label = budget_label(budget)
            todo = [e for e in entries if (e["position"], label) not in done]
            if not todo:
                continue
            player = Engine(args.engine)
            # A playout budget turns the move time off (docs/search.md,
            # "Which limit governs").
            player.ask(f"set_option movetime {budget.get('movetime', 0):g}")
            if "visits" in budget:
                player.ask(f"set_option visits {budget['visits']}")
            try:
                for entry in todo:
                    if args.limit is not None and measured >= args.limit:
                        return measured
                    row = measure(entry, budget, player, solver, args)
                    with open(args.results, "a") as out:
                        out.write(json.dumps(row) + "\n")
                    measured += 1
                    print(f"{label} {row['variant']:<17} "
                          f"{row['plies_to_end']:>2} plies: {row['move']:<7}"
                          f" optimal {row['optimal']}, lost "
                          f"{row['points_lost']}", flush=True)
            finally:
                player.close()
    finally:
        solver.close()
    return measured


def summarise(rows):
    """The figures of a group of results rows."""
    known = [r for r in rows if r["optimal"] is not None]
    lost = [r["points_lost"] for r in rows if r["points_lost"] is not None]
    return {"positions": len(rows),
            "optimal": sum(1 for r in known if r["optimal"]),
            "optimal_known": len(known),
            "share": (sum(1 for r in known if r["optimal"]) / len(known)
                      if known else None),
            "mean_lost": sum(lost) / len(lost) if lost else None,
            "lost_unknown": len(rows) - len(lost),
            "results_lost": sum(1 for r in rows if r["result_lost"])}


def groups(rows):
    """(label, rows) by distance to the end, the 2-10 band, by variant and
    all."""
    out = []
    for plies in sorted({r["plies_to_end"] for r in rows}):
        out.append((f"{plies} plies",
                    [r for r in rows if r["plies_to_end"] == plies]))
    out.append(("2-10 plies", [r for r in rows
                               if 2 <= r["plies_to_end"] <= 10]))
    for variant in sorted({r["variant"] for r in rows}):
        out.append((variant, [r for r in rows if r["variant"] == variant]))
    out.append(("all", rows))
    return out


def table(rows, labels):
    """The Markdown table: one row per group, the figures per budget."""
    head = "| group |"
    rule = "|---|"
    for t in labels:
        head += (f" positions {t} | optimal {t} | points lost/move {t} |"
                 f" loss unknown {t} | results lost {t} |")
        rule += "---|" * 5
    lines = [head, rule]
    for label, group in groups(rows):
        line = f"| {label} |"
        for t in labels:
            s = summarise([r for r in group if budget_label(r) == t])
            share = f" ({100 * s['share']:.1f}%)" if s["share"] is not None \
                else ""
            mean = f"{s['mean_lost']:.2f}" if s["mean_lost"] is not None \
                else "-"
            line += (f" {s['positions']} | {s['optimal']}/"
                     f"{s['optimal_known']}{share} | {mean} |"
                     f" {s['lost_unknown']} | {s['results_lost']} |")
        lines.append(line)
    return "\n".join(lines)


def plot(rows, labels, path):
    """Share optimal and points lost per move by distance to the end, one
    line per move time."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for t in labels:
        mine = [r for r in rows if budget_label(r) == t]
        plies = sorted({r["plies_to_end"] for r in mine})
        stats = [summarise([r for r in mine if r["plies_to_end"] == p])
                 for p in plies]
        top.plot(plies, [100 * s["share"] if s["share"] is not None
                         else float("nan") for s in stats], "o-",
                 label=f"{t} a move")
        if t == labels[0]:
            bottom.set_xticks(plies, [f"{p}\n{s['positions']}"
                                      for p, s in zip(plies, stats)])
        bottom.plot(plies, [s["mean_lost"] if s["mean_lost"] is not None
                            else float("nan") for s in stats], "o-",
                    label=f"{t} a move")
    top.set_ylabel("optimal moves (%)")
    top.set_title("The engine against perfect play (proven positions)")
    top.legend()
    top.grid(alpha=0.3)
    bottom.set_ylabel("points lost per move")
    bottom.set_xlabel("plies to the end of the game (and proven positions)")
    bottom.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set", help="solver_bench --out JSON Lines")
    parser.add_argument("--engine", default="build/bin/wallgo --threads 1",
                        help="the engine's command line (protocol on "
                        "stdin/stdout)")
    parser.add_argument("--solver", help="the command line whose `solve` "
                        "proves the children (default --engine)")
    parser.add_argument("--movetimes",
                        help="seconds a move, comma-separated (default "
                        "0.1,1 unless --visits is given)")
    parser.add_argument("--visits",
                        help="playouts a move, comma-separated: budgets "
                        "that do not depend on the machine's load")
    parser.add_argument("--child-seconds", type=float, default=10,
                        help="the solver's budget on a child (wall clock)")
    parser.add_argument("--results", required=True,
                        help="JSON Lines, appended to; resumed from")
    parser.add_argument("--limit", type=int,
                        help="measure at most this many moves, then stop")
    parser.add_argument("--variants", help="only these, comma-separated")
    parser.add_argument("--max-plies", type=int, default=20,
                        help="only positions this close to the end")
    parser.add_argument("--report-only", action="store_true",
                        help="measure nothing: tables and plot from "
                        "--results")
    parser.add_argument("--plot", help="draw the plot here (PNG)")
    args = parser.parse_args(argv)
    if args.movetimes is None and args.visits is None:
        args.movetimes = "0.1,1"
    args.budgets = []
    try:
        for t in (args.movetimes.split(",") if args.movetimes else []):
            args.budgets.append({"movetime": float(t)})
        for n in (args.visits.split(",") if args.visits else []):
            args.budgets.append({"visits": int(n)})
    except ValueError:
        parser.error("--movetimes and --visits take numbers")
    if any(v <= 0 for b in args.budgets for v in b.values()):
        parser.error("--movetimes and --visits must be positive")
    args.labels = [budget_label(b) for b in args.budgets]
    return args


def main(argv):
    args = parse_args(argv)
    try:
        if not os.path.exists(args.set):
            raise OSError("no such file")
        entries = [e for e in load_jsonl(args.set) if e["proven"]
                   and e["plies_to_end"] <= args.max_plies]
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"perfect_play: cannot read the set {args.set}: {e}")
    if args.variants:
        wanted = set(args.variants.split(","))
        entries = [e for e in entries if e["variant"] in wanted]
    positions = {e["position"] for e in entries}
    try:
        if not args.report_only:
            done = {(r["position"], budget_label(r))
                    for r in load_jsonl(args.results)}
            measured = run(args, entries, done)
            print(f"measured {measured} moves", file=sys.stderr)
        rows = [r for r in load_jsonl(args.results)
                if r["position"] in positions
                and budget_label(r) in args.labels]
    except (ValueError, KeyError) as e:
        sys.exit(f"perfect_play: bad results file {args.results}: {e}")
    except RuntimeError as e:
        # Every row measured so far is in the results file already.
        sys.exit(f"perfect_play: the engine refused: {e}")
    print(table(rows, args.labels))
    if args.plot and rows:
        plot(rows, args.labels, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
