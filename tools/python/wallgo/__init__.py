"""Wall Go's rules, search and self-play data from C++ (docs/python.md).

    >>> import wallgo
    >>> game = wallgo.Game("players=2")
    >>> game.play("c4"); game.legal_moves()[:3]
    ['a1', 'b1', 'c1']

Game: one game under any rules variant, with a fixed integer action space
(ACTION_SIZE actions; action_to_move / move_to_action). VectorEnv: n games
stepped together in C++ for reinforcement learning; AECEnv: one game with
PettingZoo's agent-environment-cycle conventions. Engine: the engine's search
in process, answering as `wallgo analysis` does. wallgo.data: the self-play
data files and packed shards as numpy arrays; wallgo.net: the weights
file's layout (what the trainer, tools/train/train.py, writes).
"""

import json

from wallgo._wallgo import (
    ACTION_SIZE,
    NUM_FEATURES,
    NUM_SYMMETRIES,
    OBSERVATION_PLANES,
    PASS_ACTION,
    Game,
    VectorEnv,
    action_to_move,
    list_options,
    move_to_action,
    normalize_rules,
    transform_action,
)
from wallgo._wallgo import __version__  # CMakeLists.txt's project(VERSION)
from wallgo._wallgo import _Engine
from wallgo.aec import AECEnv

COLOURS = ("red", "blue", "green", "yellow")

__all__ = [
    "ACTION_SIZE", "AECEnv", "COLOURS", "Engine", "Game", "NUM_FEATURES",
    "NUM_SYMMETRIES", "OBSERVATION_PLANES", "PASS_ACTION", "VectorEnv",
    "action_to_move", "list_options", "move_to_action", "normalize_rules",
    "transform_action",
]


class Engine:
    """The engine's search in process.

    Options are the protocol's (list_options(): threads, visits, movetime,
    hash, seed, level, eval, ...), checked as `set_option` checks them;
    `weights` / `weights_multi` are the --weights files (default: the
    built-in network). analyze() releases the GIL while it searches;
    stop() from another thread ends a running analyze().
    """

    def __init__(self, weights="", weights_multi="", **options):
        self._engine = _Engine(weights, weights_multi, **options)

    @property
    def options(self):
        """Every option's current value, as text."""
        return self._engine.options

    def analyze(self, game, *, visits=None, seconds=None, threads=None,
                ownership=False, policy=False, id=""):
        """Searches `game`'s position; returns the answer `wallgo analysis`
        gives for it as a dict (moveInfos, rootInfo, ownership, ...).

        visits / seconds are the query's maxVisits / maxTime (either given
        alone turns the other limit off); threads overrides the option.
        """
        return json.loads(self._engine.analyze_json(
            game, visits=visits, seconds=seconds, threads=threads,
            ownership=ownership, policy=policy, id=id))

    def stop(self):
        """Ends a running analyze() (safe from any thread); it returns what
        it found so far."""
        self._engine.stop()


