#!/usr/bin/python3
"""Soak: one `wallgo` process answering a million protocol commands with
tiny searches (docs/fuzzing.md, Soak runs).

Games of every player count are played by the engine against itself with
`genmove` at 1..8 visits, between which the script asks what a GUI asks
(position, legal_moves, score, showboard, undo and play again, get_option,
set_option). Commands are sent one at a time and each answer is timed.
Every 10 s the process's resident memory, open descriptors and threads are
sampled. The result (summary and samples) is a JSON file for plot.py.

  tools/soak/protocol_soak.py --wallgo build/bin/wallgo --commands 1000000 \\
      --out docs/soak/protocol.json
"""

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "client"))
import soak_common  # noqa: E402
from wallgo_client import Protocol  # noqa: E402

RULES = ["players=2", "players=3", "players=4", "players=2 stay=mobile wall-limit=6",
         "players=3 breakers=0", "players=2 setup=empty"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wallgo", default="build/bin/wallgo")
    ap.add_argument("--commands", type=int, default=1_000_000)
    ap.add_argument("--interval", type=float, default=10.0)
    ap.add_argument("--out", default="soak-protocol.json")
    args = ap.parse_args()

    # `genmove` writes its summary to stderr.
    engine = Protocol([args.wallgo, "--hash", "16", "--visits", "4", "--seed", "1"],
                      stderr=subprocess.DEVNULL)
    engine.exchange("name")  # started: the first sample is of a running engine
    done = 0
    games = 0
    latencies = []  # (command index, seconds, kind) of every command
    window = {"n": 0}

    sampled = {"at": 0}

    def extra():
        # The median answer times since the previous sample.
        part = latencies[sampled["at"]:]
        sampled["at"] += len(part)
        return {"commands": done, "games": games,
                "genmove_median_ms": round(
                    soak_common.percentile([x for x, k in part if k == "genmove"], 0.5) * 1e3, 4),
                "other_median_ms": round(
                    soak_common.percentile([x for x, k in part if k == "other"], 0.5) * 1e3, 4)}

    def ask(command, kind):
        nonlocal done
        t0 = time.perf_counter()
        answer = engine.exchange(command)
        latencies.append((time.perf_counter() - t0, kind))
        done += 1
        return answer

    with soak_common.Sampler(lambda: [engine.proc.pid], extra, args.interval) as sampler:
        step = 0
        while done < args.commands:
            ask(f"newgame {RULES[games % len(RULES)]}", "other")
            games += 1
            ask(f"set_option visits {1 + games % 8}", "other")
            while done < args.commands:
                step += 1
                position = ask("position", "other")[0]
                turn = position.split("turn=")[1].split()[0]
                answer = ask(f"genmove {turn}", "genmove")
                if answer[0].startswith("?"):
                    break  # game over
                move = answer[0][2:].strip()
                ask("legal_moves", "other")
                if step % 5 == 0:
                    ask("score", "other")
                if step % 7 == 0:
                    ask("undo", "other")
                    ask(f"play {turn} {move}", "other")
                if step % 11 == 0:
                    ask("showboard", "other")
                if step % 13 == 0:
                    ask("get_option visits", "other")
    engine.exchange("quit")
    engine.proc.wait(timeout=30)
    window["n"] = min(10_000, len(latencies) // 10)
    n = window["n"]

    def median(part, kind):
        return soak_common.percentile([s for s, k in part if k == kind], 0.5) * 1e3

    rows = sampler.rows
    summary = {
        "commands": done, "games": games, "seconds": rows[-1]["t"],
        "commands_per_s": round(done / rows[-1]["t"]),
        "first_genmove_median_ms": round(median(latencies[:n], "genmove"), 3),
        "last_genmove_median_ms": round(median(latencies[-n:], "genmove"), 3),
        "first_other_median_ms": round(median(latencies[:n], "other"), 4),
        "last_other_median_ms": round(median(latencies[-n:], "other"), 4),
        "rss_kb_first": rows[0]["rss_kb"], "rss_kb_last": rows[-1]["rss_kb"],
        "rss_change_after_warmup": round(soak_common.flatness(rows, "rss_kb"), 4),
        "fds_min": min(r["fds"] for r in rows), "fds_max": max(r["fds"] for r in rows),
        "exit_status": engine.proc.returncode,
    }
    soak_common.write_results(args.out, summary, rows)


if __name__ == "__main__":
    main()
