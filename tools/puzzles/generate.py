#!/usr/bin/python3
"""Generates the puzzles (docs/puzzles.md): samples positions near the end
of seeded self-play games with solver_bench, keeps the proven ones whose
answer is narrow and which the engine's policy gets wrong, measures how many
playouts the search needs, and writes tools/puzzles/puzzles.json.

Resumable: every (chunk seed, variant) leaves a sample file and a puzzle file
in --work; a rerun skips what is there and only assembles again.

    tools/puzzles/generate.py --build build --seeds 1-12 --minutes 60
"""

import argparse
import hashlib
import json
import math
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "client"))
from puzzle_moves import (alike, analysis_engine, best_move,  # noqa: E402
                          policy_top)
from themes import theme  # noqa: E402
from wallgo_client import Protocol, field  # noqa: E402

VARIANTS = ["2p", "2p-mobile", "2p-empty", "3p", "4p"]
# How far before the end each variant is sampled: the solver proves 3-4
# player positions (max^n without pruning) only very near the end.
MAX_BACK = {"2p": 4, "2p-mobile": 4, "2p-empty": 4, "3p": 4, "4p": 4}
VISITS = [50 * 2 ** k for k in range(10)]  # 50 .. 25600
NOT_FOUND = 2 * VISITS[-1]
MAX_STEPS = 3


def rating(playouts):
    """1000 for an answer found at 50 playouts, +150 per doubling, 2500 cap."""
    return int(min(2500, max(1000, 1000 + 150 * math.log2(playouts / 50))))


def ordered(optimal, pv):
    """The accepted moves, the solver's line's move first."""
    first = pv[0] if pv and pv[0] in optimal else optimal[0]
    return [first] + [m for m in optimal if m != first]


def narrow(answer, legal):
    """A step worth asking: proven, few alike answers, and a wrong move."""
    return (answer["proven"] and answer["all_optimal"]
            and alike(answer["optimal"]) and len(legal) > len(answer["optimal"]))


def line_steps(proto, position, accept, seconds):
    """The puzzle's steps from its first accepted moves, or None when a
    reply cannot be proven. Steps go on while a step has a single answer
    and the next one is narrow and keeps the value."""
    solver = field(position, "turn")
    moves, steps = [], []
    root = None
    while True:
        proto.setup(position, moves + [accept[0]])
        replies = []
        while not proto.is_over() and proto.to_move() != solver:
            answer = proto.solve(seconds)
            if not answer["proven"] or not answer["optimal"]:
                return None
            reply = ordered(answer["optimal"], answer["pv"])[0]
            proto.play(reply)
            replies.append(reply)
        steps.append({"accept": accept, "replies": replies})
        moves += [accept[0]] + replies
        if len(accept) != 1 or len(steps) == MAX_STEPS or proto.is_over():
            return steps
        answer = proto.solve(seconds)
        if root is None:
            proto.setup(position)
            root = proto.solve(seconds)
            proto.setup(position, moves)
        same = answer["proven"] and (answer["result"], answer["margin"]) == (
            root.get("result"), root.get("margin"))
        if not same or not narrow(answer, proto.legal_moves()):
            return steps
        accept = ordered(answer["optimal"], answer["pv"])


def playouts_needed(analysis, position, accept):
    for visits in VISITS:
        if best_move(analysis, position, visits) in accept:
            return visits
    return NOT_FOUND


def make_puzzle(sample, proto, analysis, seconds):
    """The puzzle of a sampled position, or the reason it is not one."""
    if not sample["proven"] or not sample["all_optimal"]:
        return "unproven"
    position, optimal = sample["position"], sample["optimal"]
    if not alike(optimal):
        return "wide"
    instinct = policy_top(analysis, position)
    if instinct is None or instinct in optimal:
        return "instinct-right"
    accept = ordered(optimal, sample["pv"].split())
    steps = line_steps(proto, position, accept, seconds)
    if steps is None:
        return "reply-unproven"
    playouts = playouts_needed(analysis, position, accept)
    return {
        "variant": sample["variant"], "game_seed": sample["game_seed"],
        "plies_to_end": sample["plies_to_end"], "position": position,
        "theme": theme(position, accept[0]), "rating": rating(playouts),
        "playouts": playouts,
        "value": {"result": sample["result"], "margin": sample["margin"]},
        "instinct": instinct, "steps": steps}


def deviations(proto, sample, args):
    """Samples one move off the game: the positions after --children random
    legal moves (seeded by the game and the distance) of a proven sampled
    position, each solved for --child-seconds. Near the end most positions of
    a game are one move from another game's, and these prove fast."""
    proto.setup(sample["position"])
    legal = proto.legal_moves()
    rng = random.Random(sample["game_seed"] * 100 + sample["plies_to_end"])
    found = []
    for move in rng.sample(legal, min(args.children, len(legal))):
        proto.setup(sample["position"], [move])
        if proto.is_over():
            continue
        answer = proto.solve(args.child_seconds)
        found.append({
            "variant": sample["variant"], "game_seed": sample["game_seed"],
            "plies_to_end": sample["plies_to_end"] - 1, "deviation": move,
            "position": proto.position(), "proven": answer["proven"],
            "all_optimal": answer["all_optimal"],
            "result": answer.get("result"), "margin": answer.get("margin"),
            "optimal": answer["optimal"], "pv": " ".join(answer["pv"])})
    return found


def breaker_given_back(proto, sample, args):
    """The sampled 3-4 player position with the mover's used wall breaker
    given back (a game may end with breakers unused, so the position is one
    a game can reach): near the end of self-play every breaker is spent, and
    these are where a breaker can be the answer."""
    mover = field(sample["position"], "turn")
    spent = f"{mover}-breakers=0"
    if spent not in sample["position"].split():
        return None
    proto.setup(sample["position"].replace(spent, f"{mover}-breakers=1"))
    answer = proto.solve(args.breaker_seconds)
    return dict(sample, position=proto.position(), proven=answer["proven"],
                all_optimal=answer["all_optimal"],
                result=answer.get("result"), margin=answer.get("margin"),
                optimal=answer["optimal"], pv=" ".join(answer["pv"]))


def run_breakers(args, seed, variant):
    """The breaker pass over one chunk's 3-4 player samples."""
    base = os.path.join(args.work, f"{seed}-{variant}")
    if (variant not in ("3p", "4p") or os.path.exists(base + ".breakers.jsonl")
            or not os.path.exists(base + ".sample.jsonl")):
        return
    wallgo = os.path.join(args.build, "bin", "wallgo")
    proto, analysis = Protocol(wallgo, hash_mb=64), analysis_engine(wallgo)
    counts, lines = {}, []
    with open(base + ".sample.jsonl") as f:
        samples = [json.loads(line) for line in f]
    for sample in samples:
        if sample["plies_to_end"] > 2:
            continue
        candidate = breaker_given_back(proto, sample, args)
        outcome = make_puzzle(candidate, proto, analysis, args.reply_seconds
                              ) if candidate else "breaker-left"
        kept = isinstance(outcome, dict)
        counts["kept" if kept else outcome] = counts.get(
            "kept" if kept else outcome, 0) + 1
        if kept:
            lines.append(json.dumps(outcome))
    proto.close()
    analysis.close()
    lines.append(json.dumps({"stats": counts, "seed": seed, "variant": variant,
                             "pass": "breakers"}))
    with open(base + ".breakers.jsonl.part", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(base + ".breakers.jsonl.part", base + ".breakers.jsonl")
    print(f"breakers {seed} {variant}: {counts}", flush=True)


def rerate(args, seed, variant):
    """Measures the difficulty of one chunk's puzzles again (after a change
    of how it is measured), without solving anything again."""
    wallgo = os.path.join(args.build, "bin", "wallgo")
    base = os.path.join(args.work, f"{seed}-{variant}")
    for path in (base + ".puzzles.jsonl", base + ".breakers.jsonl"):
        if not os.path.exists(path):
            continue
        analysis = analysis_engine(wallgo)
        with open(path) as f:
            records = [json.loads(line) for line in f]
        for record in records:
            if "stats" not in record:
                record["playouts"] = playouts_needed(
                    analysis, record["position"], record["steps"][0]["accept"])
                record["rating"] = rating(record["playouts"])
        analysis.close()
        with open(path + ".part", "w") as f:
            f.write("".join(json.dumps(r) + "\n" for r in records))
        os.replace(path + ".part", path)
    print(f"rerated {seed} {variant}", flush=True)


def run_sampler(args, seed, variant, path):
    command = [os.path.join(args.build, "bin", "solver_bench"),
               "--games", str(args.games), "--variants", variant,
               "--min-back", "1", "--max-back", str(MAX_BACK[variant]),
               "--seconds", str(args.seconds), "--cpu-time", "--hash", "64",
               "--seed", str(seed), "--out", path + ".part"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    os.replace(path + ".part", path)


def run_chunk(args, seed, variant):
    """Samples and filters one chunk unless its files are there already."""
    base = os.path.join(args.work, f"{seed}-{variant}")
    if os.path.exists(base + ".puzzles.jsonl"):
        return
    start = time.time()
    if not os.path.exists(base + ".sample.jsonl"):
        run_sampler(args, seed, variant, base + ".sample.jsonl")
    wallgo = os.path.join(args.build, "bin", "wallgo")
    proto, analysis = Protocol(wallgo, hash_mb=64), analysis_engine(wallgo)
    counts, lines = {}, []
    with open(base + ".sample.jsonl") as f:
        samples = [json.loads(line) for line in f]
    for sample in samples:
        children = deviations(proto, sample, args) if sample["proven"] else []
        for candidate in [sample] + children:
            outcome = make_puzzle(candidate, proto, analysis,
                                  args.reply_seconds)
            kept = isinstance(outcome, dict)
            counts["kept" if kept else outcome] = counts.get(
                "kept" if kept else outcome, 0) + 1
            if kept:
                lines.append(json.dumps(outcome))
    proto.close()
    analysis.close()
    counts["seconds"] = round(time.time() - start, 1)
    lines.append(json.dumps({"stats": counts, "seed": seed,
                             "variant": variant}))
    with open(base + ".puzzles.jsonl.part", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(base + ".puzzles.jsonl.part", base + ".puzzles.jsonl")
    print(f"chunk {seed} {variant}: {counts}", flush=True)


def seed_list(text):
    """1-12,501-510: the chunk seeds, in order."""
    seeds = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        seeds += range(int(first), int(last or first) + 1)
    return seeds


def ranges(seeds):
    """[1, 2, 3, 7] -> '1-3, 7'."""
    out = []
    for s in seeds:
        if out and out[-1][1] == s - 1:
            out[-1][1] = s
        else:
            out.append([s, s])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in out)


def summary(puzzles, stats):
    """Puzzles by variant and theme, and what the chunks cost."""
    table = {}
    for p in puzzles:
        variant = p["id"].rsplit("-", 1)[0]
        table.setdefault(variant, {}).setdefault(p["theme"], 0)
        table[variant][p["theme"]] += 1
    themes = ["seal", "trap", "tempo", "breaker", "race"]
    lines = ["| variant | " + " | ".join(themes) + " | all |",
             "|---" * (len(themes) + 2) + "|"]
    for variant, row in table.items():
        lines.append(f"| `{variant}` | " + " | ".join(
            str(row.get(t, 0)) for t in themes) + f" | {sum(row.values())} |")
    kinds = {}
    for record in stats:
        for key, count in record["stats"].items():
            kinds[key] = kinds.get(key, 0) + count
    lines.append(f"chunks {len(stats)}, candidates and outcomes {kinds}")
    return "\n".join(lines)


def puzzle_id(variant, position, taken):
    digest = hashlib.sha1(position.encode()).hexdigest()
    for length in range(6, 41):
        candidate = f"{variant}-{digest[:length]}"
        if candidate not in taken:
            return candidate
    raise ValueError("no free id")


def assemble(args, seeds, recipe):
    """Every chunk's puzzles, one per position and per game, answer and
    value, in seed and variant order."""
    puzzles, seen, taken, stats = [], set(), set(), []
    for seed in seeds:
        for variant in args.variants.split(","):
            base = os.path.join(args.work, f"{seed}-{variant}")
            paths = [p for p in (base + ".puzzles.jsonl", base + ".breakers.jsonl")
                     if os.path.exists(p)]
            for line in (line for path in paths for line in open(path)):
                record = json.loads(line)
                if "stats" in record:
                    stats.append(record)
                    continue
                # Deviations from one game often leave the same answer with
                # the same value: one puzzle per game, answer and value.
                answer = (record["variant"], record["game_seed"],
                          tuple(sorted(record["steps"][0]["accept"])),
                          json.dumps(record["value"]))
                if record["position"] in seen or answer in seen:
                    continue
                seen.update([record["position"], answer])
                pid = puzzle_id(variant, record["position"], taken)
                taken.add(pid)
                # The theme is decided here, so that a change of its rules
                # reaches every chunk made before.
                record["theme"] = theme(record["position"],
                                        record["steps"][0]["accept"][0])
                puzzles.append({"id": pid, **{
                    k: record[k] for k in ("position", "theme", "rating",
                                           "playouts", "value", "instinct",
                                           "steps")}})
    document = {"format": "wallgo-puzzles", "version": 1, "license": "MIT",
                "recipe": recipe, "puzzles": puzzles}
    with open(args.out + ".part", "w") as f:
        json.dump(document, f, separators=(",", ":"))
        f.write("\n")
    os.replace(args.out + ".part", args.out)
    with open(os.path.join(args.work, "stats.json"), "w") as f:
        json.dump(stats, f)
    print(summary(puzzles, stats))
    return len(puzzles)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--work", default="build/puzzles")
    parser.add_argument("--out", default=os.path.join(here, "puzzles.json"))
    parser.add_argument("--seeds", default="1-12",
                        help="chunk seeds, FIRST-LAST[,FIRST-LAST...] "
                        "(solver_bench --seed)")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--games", type=int, default=4,
                        help="self-play games per chunk and variant")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="the solver's CPU seconds per sampled position")
    parser.add_argument("--children", type=int, default=4,
                        help="deviations tried from each proven sample")
    parser.add_argument("--child-seconds", type=float, default=0.5,
                        help="the solver's seconds for each deviation")
    parser.add_argument("--breaker-seconds", type=float, default=2.0,
                        help="the solver's seconds for a breaker given back")
    parser.add_argument("--reply-seconds", type=float, default=2.0,
                        help="the solver's seconds for each reply")
    parser.add_argument("--minutes", type=float, default=0,
                        help="start no chunk after this many minutes (0: all)")
    parser.add_argument("--assemble-only", action="store_true")
    parser.add_argument("--breaker-pass", action="store_true",
                        help="also solve 3-4 player samples with the mover's "
                        "spent breaker given back")
    parser.add_argument("--breakers-only", action="store_true",
                        help="only the breaker pass over the chunks made")
    parser.add_argument("--rerate", action="store_true",
                        help="only measure the difficulty of the chunks' "
                        "puzzles again")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    seeds = seed_list(args.seeds)
    version = subprocess.run(
        [os.path.join(args.build, "bin", "wallgo"), "--version"],
        capture_output=True, text=True, check=True).stdout.strip()
    start = time.time()
    for seed in seeds if not args.assemble_only else []:
        for variant in args.variants.split(","):
            if args.minutes and time.time() - start > args.minutes * 60:
                break
            if args.rerate:
                rerate(args, seed, variant)
                continue
            if not args.breakers_only:
                run_chunk(args, seed, variant)
            if args.breaker_pass or args.breakers_only:
                run_breakers(args, seed, variant)
    variants = args.variants.split(",")
    done = {s: [v for v in variants if os.path.exists(os.path.join(
        args.work, f"{s}-{v}.puzzles.jsonl"))] for s in seeds}
    whole = [s for s in seeds if len(done[s]) == len(variants)]
    part = {}
    for s in seeds:
        if 0 < len(done[s]) < len(variants):
            part.setdefault(", ".join(done[s]), []).append(s)
    recipe = {
        "command": f"tools/puzzles/generate.py --build BUILD --seeds "
                   f"{args.seeds} --games {args.games} --seconds "
                   f"{args.seconds} --children {args.children} --child-seconds "
                   f"{args.child_seconds} "
                   f"--reply-seconds {args.reply_seconds}",
        "seeds": "chunks " + ", ".join(
            ([ranges(whole)] if whole else [])
            + [f"{ranges(s)} ({v})" for v, s in part.items()]),
        "breaker_pass": "chunks " + ranges([s for s in seeds if any(
            os.path.exists(os.path.join(args.work, f"{s}-{v}.breakers.jsonl"))
            for v in variants)]) + f" (--breaker-pass, --breaker-seconds "
            f"{args.breaker_seconds})",
        "sampler": f"solver_bench --games {args.games} --variants V "
                   "--min-back 1 --max-back 4 --seed SEED "
                   "--cpu-time --hash 64",
        "difficulty": "wallgo analysis, 1 thread, seed 1, default options "
                      "but solver_share 0, "
                      "maxVisits 50, 100, ..., 25600",
        "engine": version}
    print(f"{assemble(args, seeds, recipe)} puzzles in {args.out}")


if __name__ == "__main__":
    main()
