"""The examples in tools/python/examples run end to end at tiny sizes
(seconds), and the AlphaZero-style example's search is what it says."""

import importlib.util
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import wallgo


def example_path(name):
    return os.path.join(os.environ["WALLGO_SOURCE_DIR"], "tools", "python", "examples", name)


def run_example(name, *args):
    return subprocess.run([sys.executable, example_path(name), *args], capture_output=True,
                          text=True, check=True, timeout=120).stdout


def test_random_play_bench_runs_at_a_tiny_size():
    out = run_example("random_play_bench.py", "--n", "8", "--steps", "20", "--moves", "200")
    assert "M steps/s" in out and "k moves/s" in out


def test_alphazero_runs_at_a_tiny_size():
    out = run_example("alphazero.py", "--rounds", "2", "--games", "2", "--envs", "2",
                      "--eval-games", "4", "--hidden", "8", "--threads", "1")
    rounds = re.findall(r"round (\d+): (\d+) positions, trained on (\d+): value loss ([\d.]+), "
                        r"policy loss ([\d.]+)", out)
    assert [int(r[0]) for r in rounds] == [1, 2], out
    # Two whole games a round, each at least its 4 placements and a turn.
    assert all(int(r[1]) >= 2 * 5 for r in rounds)
    assert int(rounds[1][2]) == int(rounds[0][1]) + int(rounds[1][1])  # a window of 2 rounds
    assert all(0 <= float(r[3]) <= 4 and float(r[4]) >= 0 for r in rounds)
    final = re.search(r"search ([\d.]+) -> ([\d.]+), policy ([\d.]+) -> ([\d.]+)", out)
    assert final, out
    # Scores of 4 games count wins 1 and draws 1/2: multiples of 1/8.
    assert all(0 <= float(x) <= 1 and float(x) * 8 == round(float(x) * 8)
               for x in final.groups())


@pytest.fixture(scope="module")
def alphazero():
    spec = importlib.util.spec_from_file_location("alphazero", example_path("alphazero.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_alphazero_search_scores_every_legal_action(alphazero):
    """One move ahead: the legal actions in order, finished children at
    their true reward for the mover, the others at the value head's score
    of the child from the mover's side; the games are left as they were."""
    rng = np.random.default_rng(3)
    net = alphazero.Net(8)
    games = []
    while len(games) < 4:
        game = wallgo.Game()
        while not game.is_over:
            finishing = []
            for action in game.legal_actions():
                game.play(action)
                if game.is_over:
                    finishing.append(action)
                game.undo()
            if finishing:
                games.append(game)
                break
            game.play(int(rng.choice(game.legal_actions())))
    positions = [g.position() for g in games]
    found = alphazero.search(net, games)
    assert [g.position() for g in games] == positions
    for game, (legal, values) in zip(games, found):
        assert legal.tolist() == game.legal_actions()
        mover = game.to_move
        for action, value in zip(legal, values):
            child = game.copy()
            child.play(int(action))
            if child.is_over:
                assert value == child.rewards[mover]
            else:
                side = 1 if child.to_move == mover else -1
                expected = side * float(net.values([child.features()])[0])
                assert value == pytest.approx(expected, abs=1e-5)
