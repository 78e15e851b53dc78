#!/usr/bin/python3
"""Random play through the wallgo module: VectorEnv steps a second with
random legal actions (drawn in C++ by random_actions), and Game.play +
legal_moves moves a second from Python. One core (the module's stepping is
single-threaded). docs/python.md has the figures.

    PYTHONPATH=build/python /usr/bin/python3 tools/python/examples/random_play_bench.py
"""

import argparse
import random
import time

import wallgo


def vector_env_rate(n, steps, rules):
    env = wallgo.VectorEnv(n, rules=rules, seed=1)
    env.step(env.random_actions())  # warm up
    games = 0
    start = time.perf_counter()
    for _ in range(steps):
        _, _, _, dones = env.step(env.random_actions())
        games += int(dones.sum())
    seconds = time.perf_counter() - start
    return n * steps / seconds, games


def game_rate(moves, rules):
    rng = random.Random(1)
    game = wallgo.Game(rules)
    start = time.perf_counter()
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            game = wallgo.Game(rules)
            legal = game.legal_moves()
        game.play(rng.choice(legal))
    return moves / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1024, help="games in the VectorEnv")
    parser.add_argument("--steps", type=int, default=1000, help="VectorEnv steps")
    parser.add_argument("--moves", type=int, default=200000, help="Game moves")
    parser.add_argument("--rules", default="players=2")
    args = parser.parse_args()
    rate, games = vector_env_rate(args.n, args.steps, args.rules)
    print(f"VectorEnv n={args.n} rules='{args.rules}': {rate / 1e6:.2f} M steps/s "
          f"({games} games finished)")
    print(f"Game.play + legal_moves: {game_rate(args.moves, args.rules) / 1e3:.0f} k moves/s")


if __name__ == "__main__":
    main()
