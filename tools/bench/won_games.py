#!/usr/bin/python3
"""Does the engine keep a won game won? Replays game records and, at every
position where the engine stood at a margin of at least --stand points (by a
reference search), asks the engine for its move at a playing budget and
measures what that move keeps of the margin: the reference search (by
default 100,000 playouts) of the position after it, against the same search
after the reference's best move. A move is kept when it loses at most
--tolerance points. docs/search.md, "Won games stay won".

    tools/bench/won_games.py tests/data/won-games-drawn.jsonl \\
        --engine build/bin/wallgo --play-movetime 0.1

Every search runs with one thread and a fixed seed; a playing budget in
playouts (--play-visits) makes the whole report repeatable. Reference
searches are kept in --cache (JSON), so that another build's moves are
measured against the same references without searching them again.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "client"))
from wallgo_client import Analysis, EngineError  # noqa: E402

SEED = 1


def analyse(analysis, rules, moves, turns, budget):
    """Answers for `turns` of the game `moves` (by turn), with `budget` a
    dict of maxVisits / maxTime."""
    query = {"rules": rules, "moves": moves, "analyzeTurns": turns,
             "overrideOptions": {"seed": SEED}, **budget}
    return {answer["turnNumber"]: answer
            for answer in analysis.ask(query, answers=len(turns))}


def analysis_engine(engine, hash_mb):
    return Analysis(["nice", "-n", "19", engine],
                    ["--analysis-threads", "1", "--search-threads", "1",
                     "--hash", str(hash_mb)])


class References:
    """Reference searches of positions, cached by (rules, moves, visits)."""

    def __init__(self, analysis, visits, path):
        self.analysis, self.visits, self.path = analysis, visits, path
        self.table = {}
        if path and os.path.exists(path):
            with open(path) as f:
                self.table = json.load(f)

    def key(self, rules, moves):
        return f"{rules}|{' '.join(moves)}|{self.visits}"

    def root(self, rules, moves):
        """The reference answer for the position after `moves`: the mover's
        margin, win rate, best move and whether it is proven exact."""
        k = self.key(rules, moves)
        if k not in self.table:
            answer = analyse(
                self.analysis, rules, moves, [len(moves)],
                {"maxVisits": self.visits})[len(moves)]
            info = answer["rootInfo"]
            self.table[k] = {
                "margin": info["scoreMargin"], "winrate": info["winrate"],
                "exact": info["exact"],
                "best": answer["moveInfos"][0]["move"]
                if answer["moveInfos"] else None}
        return self.table[k]

    def after(self, rules, moves, move):
        """The margin of `move` for its mover: minus the reference margin of
        the position after it (two players; a finished game's is exact)."""
        child = self.root(rules, moves + [move])
        return -child["margin"], child["exact"]

    def save(self):
        if self.path:
            with open(self.path, "w") as f:
                json.dump(self.table, f, indent=0, sort_keys=True)


def engine_turns(record, prefix):
    """The game's moves (opening first) and the turns at which the seat
    whose name starts with `prefix` is to move."""
    opening = record["opening"].split() if record["opening"] else []
    moves = opening + [m["move"] for m in record["moves"]]
    colours = [c for c, name in record["seats"].items()
               if name.startswith(prefix)]
    turns = [len(opening) + i for i, m in enumerate(record["moves"])
             if m["colour"] in colours]
    return moves, turns


def measure_game(record, args, refs, player):
    """One report row per position of the game where the engine stood at
    args.stand or more."""
    moves, turns = engine_turns(record, args.player_prefix)
    rules = record["rules"]
    standing = [t for t in turns
                if refs.root(rules, moves[:t])["margin"] >= args.stand]
    budget = ({"maxVisits": args.play_visits} if args.play_visits
              else {"maxTime": args.play_movetime})
    chosen = (analyse(player, rules, moves, standing, budget) if standing
              else {})
    rows = []
    for t in standing:
        before = moves[:t]
        root = refs.root(rules, before)
        move = chosen[t]["moveInfos"][0]["move"]
        best_margin, best_exact = refs.after(rules, before, root["best"])
        margin, exact = refs.after(rules, before, move)
        best = max(best_margin, margin)
        rows.append({
            "game": record["game"], "turn": t, "stand": root["margin"],
            "winrate": root["winrate"], "played": moves[t], "move": move,
            "best": root["best"], "margin": margin, "best_margin": best,
            "loss": round(best - margin, 2), "exact": exact and best_exact,
            "kept": best - margin <= args.tolerance})
    return rows


def print_row(row):
    print(f"game {row['game']:>3} turn {row['turn']:>3}: stood "
          f"{row['stand']:+6.1f} (win {row['winrate']:.3f}), plays "
          f"{row['move']:<6} ({row['margin']:+6.1f}), best {row['best']:<6} "
          f"({row['best_margin']:+6.1f}), loss {row['loss']:5.1f}"
          f"{'' if row['kept'] else '  LOST'}", flush=True)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="referee records (JSON Lines)")
    parser.add_argument("--engine", required=True,
                        help="the wallgo program whose moves are measured")
    parser.add_argument("--reference-engine",
                        help="the wallgo program of the reference searches "
                        "(default --engine)")
    parser.add_argument("--player-prefix", default="wallgo",
                        help="the engine's seats: names starting with this")
    parser.add_argument("--stand", type=float, default=10,
                        help="positions where the engine stood at this "
                        "margin or more (default 10)")
    parser.add_argument("--tolerance", type=float, default=2,
                        help="points a kept move may lose (default 2)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--play-visits", type=int,
                        help="the engine's budget in playouts")
    budget.add_argument("--play-movetime", type=float, default=0.1,
                        help="the engine's budget in seconds (default 0.1)")
    parser.add_argument("--reference-visits", type=int, default=100000,
                        help="playouts of a reference search (default "
                        "100000)")
    parser.add_argument("--hash", type=int, default=512,
                        help="MB of search memory of each engine")
    parser.add_argument("--cache", help="reference searches kept here (JSON)")
    parser.add_argument("--games", help="game numbers, e.g. 3,10")
    parser.add_argument("--json", help="write the rows here (JSON Lines)")
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    with open(args.records) as f:
        records = [json.loads(line) for line in f if line.strip()]
    if args.games:
        wanted = {int(g) for g in args.games.split(",")}
        records = [r for r in records if r["game"] in wanted]
    refs = References(analysis_engine(args.reference_engine or args.engine,
                                      args.hash),
                      args.reference_visits, args.cache)
    player = analysis_engine(args.engine, args.hash)
    rows = []
    try:
        for record in records:
            for row in measure_game(record, args, refs, player):
                print_row(row)
                rows.append(row)
    except EngineError as e:
        sys.exit(f"won_games: {e}")
    finally:
        refs.save()
        refs.analysis.close()
        player.close()
    if args.json:
        with open(args.json, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
    kept = sum(r["kept"] for r in rows)
    lost = sum(r["loss"] for r in rows)
    print(f"kept {kept}/{len(rows)} within {args.tolerance:g} points; "
          f"{lost:.1f} points lost in all")
    return 0 if kept == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
