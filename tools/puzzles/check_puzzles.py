#!/usr/bin/python3
"""Checks a puzzle file (docs/puzzles.md): its format, every position and
move against the engine's rules, and, for a sample (or all), the proof
again with the current solver.

    tools/puzzles/check_puzzles.py --build build                # format, 10 re-proven
    tools/puzzles/check_puzzles.py --build build --sample 0     # every puzzle re-proven

Exit status 0 when everything holds, 1 with one line per problem.
"""

import argparse
import json
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "client"))
from puzzle_moves import alike  # noqa: E402
from wallgo_client import (EngineError, Protocol, field,  # noqa: E402
                           final_value)

THEMES = {"seal", "trap", "tempo", "breaker", "race"}
RESULTS = {"win", "draw", "loss"}
ID = re.compile(r"^[a-z0-9-]+$")


def format_problems(document):
    """What is wrong with the file's shape, without the engine."""
    problems = []
    for key, want in (("format", "wallgo-puzzles"), ("version", 1),
                      ("license", "MIT")):
        if document.get(key) != want:
            problems.append(f"{key} is {document.get(key)!r}, not {want!r}")
    if "recipe" not in document:
        problems.append("no recipe")
    ids, positions = set(), set()
    for p in document.get("puzzles", []):
        pid = p.get("id", "")
        where = f"puzzle {pid!r}"
        if not ID.match(pid) or pid in ids:
            problems.append(f"{where}: id not unique or not [a-z0-9-]+")
        ids.add(pid)
        if p.get("position") in positions:
            problems.append(f"{where}: its position is another puzzle's")
        positions.add(p.get("position"))
        if p.get("theme") not in THEMES:
            problems.append(f"{where}: theme {p.get('theme')!r}")
        rating, playouts = p.get("rating"), p.get("playouts")
        if not isinstance(rating, int) or not 1000 <= rating <= 2500:
            problems.append(f"{where}: rating {rating!r}")
        if not isinstance(playouts, int) or playouts < 1:
            problems.append(f"{where}: playouts {playouts!r}")
        value = p.get("value", {})
        if value.get("result") not in RESULTS or not isinstance(
                value.get("margin"), int):
            problems.append(f"{where}: value {value!r}")
        steps = p.get("steps") or []
        if not steps:
            problems.append(f"{where}: no steps")
        for n, step in enumerate(steps):
            accept = step.get("accept", [])
            if not alike(accept):
                problems.append(f"{where}: step {n + 1} accepts {accept}")
            if n < len(steps) - 1 and len(accept) != 1:
                problems.append(f"{where}: step {n + 1} of {len(steps)} "
                                "accepts more than one move")
            if not isinstance(step.get("replies"), list):
                problems.append(f"{where}: step {n + 1} has no replies list")
        if steps and p.get("instinct") in steps[0].get("accept", []):
            problems.append(f"{where}: the engine's instinct is accepted")
    return problems


def line_problems(proto, p):
    """The position loads as written, every move of the line is legal, and
    the replies lead back to the solver (or to the end)."""
    where = f"puzzle {p['id']!r}"
    try:
        proto.setup(p["position"])
    except EngineError as e:
        return [f"{where}: position does not load: {e}"]
    if proto.position() != p["position"]:
        return [f"{where}: position is not as `position` prints it"]
    solver, problems, moves = field(p["position"], "turn"), [], []
    for n, step in enumerate(p["steps"]):
        legal = proto.legal_moves()
        if proto.is_over() or proto.to_move() != solver:
            return [f"{where}: step {n + 1} is not the solver's turn"]
        wrong = [m for m in step["accept"] if m not in legal]
        if wrong or len(legal) <= len(step["accept"]):
            problems.append(f"{where}: step {n + 1}: {wrong or 'every move'}"
                            " accepted, not a choice among legal moves")
        if n == 0 and p.get("instinct") and p["instinct"] not in legal:
            problems.append(f"{where}: instinct {p['instinct']} is illegal")
        for move in [step["accept"][0]] + step["replies"]:
            if move not in proto.legal_moves():
                return problems + [f"{where}: step {n + 1}: {move} illegal"]
            proto.play(move)
            moves.append(move)
        over = proto.is_over()
        if not over and proto.to_move() != solver:
            problems.append(f"{where}: step {n + 1}'s replies stop early")
    return problems


def value_after(proto, position, moves, colour, seconds):
    """The colour's proven value after the moves, or None (not proven, or
    a finished game whose `score` does not say: see final_values)."""
    proto.setup(position, moves)
    if proto.is_over():
        return final_value(proto.score(), colour)
    answer = proto.solve(seconds)
    return answer["values"][colour] if answer["proven"] else None


def proof_problems(proto, p, seconds, child_seconds, tally):
    """The value, the accepted moves and the replies, proven again: the
    solver's optimal moves are exactly the accepted ones; each accepted
    move, and the engine's instinct, proven on its own to keep (or not keep)
    the value; after the replies the solver's value is still the puzzle's."""
    where = f"puzzle {p['id']!r}"
    want = (p["value"]["result"], p["value"]["margin"])
    solver, moves, problems = field(p["position"], "turn"), [], []
    for n, step in enumerate(p["steps"]):
        proto.setup(p["position"], moves)
        answer = proto.solve(seconds)
        if not answer["proven"] or not answer["all_optimal"]:
            return [f"{where}: step {n + 1} not proven in {seconds} s"]
        if (answer["result"], answer["margin"]) != want:
            problems.append(f"{where}: step {n + 1} value "
                            f"{answer['result']} {answer['margin']}, not {want}")
        if sorted(answer["optimal"]) != sorted(step["accept"]):
            problems.append(f"{where}: step {n + 1} optimal "
                            f"{answer['optimal']}, accepted {step['accept']}")
        tried = [p["instinct"]] if n == 0 and p.get("instinct") else []
        for move in step["accept"] + tried:
            value = value_after(proto, p["position"], moves + [move], solver,
                                child_seconds)
            tally["children"] += 1
            if value is None:
                tally["unproven"] += 1
            elif (value == want) != (move in step["accept"]):
                problems.append(f"{where}: {move} {'keeps' if value == want else 'loses'}"
                                f" the value ({value})")
        moves += [step["accept"][0]] + step["replies"]
        if n == len(p["steps"]) - 1 and step["replies"]:
            value = value_after(proto, p["position"], moves, solver,
                                child_seconds)
            tally["children"] += 1
            if value is None:
                tally["unproven"] += 1
            elif value != want:
                problems.append(f"{where}: after the replies {value}, not {want}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--file", default=os.path.join(
        HERE, "puzzles.json"))
    parser.add_argument("--sample", type=int, default=10,
                        help="puzzles re-proven (0: all; -1: none)")
    parser.add_argument("--seed", type=int, default=None,
                        help="the sample's seed (default: from the clock)")
    parser.add_argument("--seconds", type=float, default=30,
                        help="the solver's budget for each proof")
    parser.add_argument("--child-seconds", type=float, default=3,
                        help="the budget to prove a move's child on its own")
    parser.add_argument("--min-puzzles", type=int, default=1)
    args = parser.parse_args()
    with open(args.file, encoding="utf-8") as f:
        document = json.load(f)
    puzzles = document.get("puzzles", [])
    problems = format_problems(document)
    if len(puzzles) < args.min_puzzles:
        problems.append(f"{len(puzzles)} puzzles, fewer than {args.min_puzzles}")
    proto = Protocol(os.path.join(args.build, "bin", "wallgo"), hash_mb=64)
    if not problems:
        for p in puzzles:
            problems += line_problems(proto, p)
    seed = args.seed if args.seed is not None else int(time.time())
    # Stated first, so that a run that dies can be repeated.
    print(f"re-proving a sample of {args.sample} with --seed {seed}", flush=True)
    sample = [] if args.sample < 0 or problems else (
        puzzles if args.sample == 0 else
        random.Random(seed).sample(puzzles, min(args.sample, len(puzzles))))
    start, tally = time.time(), {"children": 0, "unproven": 0}
    for p in sample:
        problems += proof_problems(proto, p, args.seconds, args.child_seconds,
                                   tally)
    proto.close()
    for problem in problems:
        print(problem)
    print(f"{len(puzzles)} puzzles checked, {len(sample)} re-proven "
          f"(seed {seed}) in {time.time() - start:.1f} s, "
          f"{tally['children'] - tally['unproven']} of {tally['children']} "
          "moves proven on their own: "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
