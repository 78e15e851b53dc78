"""What the puzzle tools ask of a puzzle's moves: whether accepted answers
are alike, the engine's first instinct and the move its search finds at a
budget. The engine itself is tools/client/wallgo_client.py."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "client"))
from wallgo_client import Analysis  # noqa: E402

SEED = 1


def analysis_engine(wallgo, hash_mb=64):
    """`wallgo analysis` with one thread and a fixed seed, so that a
    puzzle's difficulty is repeatable."""
    return Analysis(wallgo, ["--analysis-threads", "1", "--search-threads",
                             "1", "--hash", str(hash_mb), "--seed", str(SEED)])


def policy_top(analysis, position):
    """The root move with the highest prior (the search's first instinct)."""
    answer = analysis.ask({"position": position, "maxVisits": 1,
                           "includePolicy": True})[0]
    policy = answer.get("policy", {})
    if not policy:
        return None
    return max(sorted(policy), key=lambda move: policy[move])


def best_move(analysis, position, visits):
    """The graph search's move at `visits` playouts, the solver off: with
    it, the engine proves nearly every puzzle at the first budget, which
    says nothing of how hard the answer is to find."""
    answer = analysis.ask({"position": position, "maxVisits": visits,
                           "overrideOptions": {"seed": SEED,
                                               "solver_share": 0}})[0]
    infos = answer.get("moveInfos", [])
    return infos[0]["move"] if infos else None


def stone_and_destination(move):
    """('c3', 'c5') for c3c5n or c3c4xw; None for placements and passes."""
    if len(move) < 5:
        return None
    return move[0:2], move[2:4]


def alike(moves):
    """At most 3 moves, all of the same stone to the same destination."""
    if not moves or len(moves) > 3:
        return False
    ends = {stone_and_destination(m) for m in moves}
    return len(ends) == 1 and None not in ends
