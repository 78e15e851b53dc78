#!/usr/bin/python3
"""The level ladder: how strong each of wallgo's levels 1..10 is, in Elo.

  ladder.py --bin build/bin [--games 20] [--movetime 1] [--out DIR]
            [--levels tools/gui/web/levels.json]

Plays wallgo-referee matches between adjacent levels (1 v 2, 2 v 3, ...,
9 v 10), each at the GUI's default time per move (the engine's own 1 s),
writes every match's records under --out (so a stopped run goes on with
--resume), and then writes the levels file the GUI's level picker reads:
level 1 = 0 Elo and each level the sum of the differences below it, with a
95% interval. A match one side wins every game has no finite Elo: its
difference is computed as if the loser had scored half a game, and flagged
`atLeast`.
"""
import argparse
import json
import math
import os
import subprocess
import sys


def pair_result(records, low, high):
    """Wins, draws and losses of level `high` against level `low`."""
    wins = draws = losses = 0
    name_high = f"level{high}"
    for line in open(records):
        if not line.strip():
            continue
        game = json.loads(line)
        winners = game.get("winners") or ([game["winner"]] if game.get("winner") else [])
        seat = next((c for c, e in game["seats"].items() if e == name_high), None)
        if seat is None:
            continue
        if len(winners) != 1:
            draws += 1
        elif winners[0] == seat:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses


def elo(score):
    return -400 * math.log10(1 / score - 1)


def difference(wins, draws, losses):
    """Elo of the higher level over the lower, its 95% interval, and whether
    it is only a lower bound (or upper: a clean sweep either way)."""
    n = wins + draws + losses
    sweep = wins == n or losses == n
    # A sweep counts half a game for the side that scored nothing.
    w, l = (wins, losses)
    if wins == n:
        w, l = wins - 0.5, 0.5
    elif losses == n:
        w, l = 0.5, losses - 0.5
    score = (w + draws / 2) / n
    # The variance of one game's result (1, 1/2, 0) around the mean.
    var = (w * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + l * score ** 2) / n
    se = math.sqrt(var / n)
    lo = min(max(score - 1.96 * se, 1e-3), 1 - 1e-3)
    hi = min(max(score + 1.96 * se, 1e-3), 1 - 1e-3)
    return elo(score), (elo(hi) - elo(lo)) / 2, sweep


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="folder with wallgo and wallgo-referee")
    parser.add_argument("--games", type=int, default=20, help="games per adjacent pair")
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds per move")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--out", default="ladder", help="folder for the records")
    parser.add_argument("--levels", default=os.path.join(os.path.dirname(__file__), "web", "levels.json"))
    parser.add_argument("--only-summary", action="store_true", help="play nothing: summarise the records")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    wallgo = os.path.abspath(os.path.join(args.bin, "wallgo"))
    referee = os.path.join(args.bin, "wallgo-referee")
    pairs = []
    for low in range(1, 10):
        high = low + 1
        records = os.path.join(args.out, f"level{low}-level{high}.jsonl")
        if not args.only_summary:
            command = [referee, "--engine", f"name=level{low}:{wallgo} --level {low} --hash 16",
                       "--engine", f"name=level{high}:{wallgo} --level {high} --hash 16",
                       "--games", str(args.games), "--movetime", str(args.movetime),
                       "--concurrency", str(args.concurrency), "--seed", str(low),
                       "--records", records, "--quiet"]
            if os.path.exists(records):
                command.append("--resume")
            print(" ".join(command), flush=True)
            subprocess.run(command, check=True)
        if not os.path.exists(records):
            break
        wins, draws, losses = pair_result(records, low, high)
        if wins + draws + losses == 0:
            break
        d, err, sweep = difference(wins, draws, losses)
        pairs.append({"low": low, "high": high, "wins": wins, "draws": draws, "losses": losses,
                      "elo": round(d, 1), "error": round(err, 1), "atLeast": sweep})
        print(f"level {high} v level {low}: +{wins} ={draws} -{losses}: {d:+.0f} +/- {err:.0f}"
              f"{' (a sweep: at least)' if sweep else ''}", flush=True)
    levels = [{"level": 1, "elo": 0, "error": 0, "atLeast": False}]
    total = variance = 0.0
    sweep = False
    for p in pairs:
        total += p["elo"]
        variance += (p["error"] / 1.96) ** 2
        sweep = sweep or p["atLeast"]
        levels.append({"level": p["high"], "elo": round(total), "error": round(1.96 * math.sqrt(variance)),
                       "atLeast": sweep})
    out = {"command": "tools/gui/ladder.py " + " ".join(
               f"--{k} {v}" for k, v in (("games", args.games), ("movetime", args.movetime))),
           "movetime": args.movetime, "gamesPerPair": args.games, "levels": levels, "pairs": pairs}
    with open(args.levels, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {args.levels}")


if __name__ == "__main__":
    sys.exit(main())
