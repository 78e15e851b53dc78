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


def resident_kb():
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith("VmRSS")).split()[1])


def vector_env_rate(n, steps, rules):
    """Steps a second, games finished, and the resident memory (kB) after
    a tenth of the steps and at the end."""
    env = wallgo.VectorEnv(n, rules=rules, seed=1)
    env.step(env.random_actions())  # warm up
    games, warm_kb = 0, resident_kb()
    start = time.perf_counter()
    for step in range(steps):
        _, _, _, dones = env.step(env.random_actions())
        games += int(dones.sum())
        if step == steps // 10:
            warm_kb = resident_kb()
    seconds = time.perf_counter() - start
    return n * steps / seconds, games, warm_kb, resident_kb()


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
    rate, games, warm_kb, end_kb = vector_env_rate(args.n, args.steps, args.rules)
    print(f"VectorEnv n={args.n} rules='{args.rules}': {rate / 1e6:.2f} M steps/s "
          f"({games} games finished; resident memory {warm_kb} kB after warm-up, "
          f"{end_kb} kB at the end)")
    print(f"Game.play + legal_moves: {game_rate(args.moves, args.rules) / 1e3:.0f} k moves/s")


if __name__ == "__main__":
    main()
