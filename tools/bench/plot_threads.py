#!/usr/bin/python3
"""Plots thread scaling from the raw outputs of a thread run (docs/runs/threads1):
playouts a second of one search against that many one-thread searches at
once (`wallgo speedtest` tables), and the Elo of N threads at T seconds a move
against one thread at N x T (`tools/bench/thread_match.sh` results).

    /usr/bin/python3 tools/bench/plot_threads.py docs/runs/threads1 docs/images/threads.png
"""
import argparse
import math
import pathlib
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# A table's title: a deferral setting of the throw-away build of threads1,
# or the build's commit (device_threads.sh).
TABLE_TITLE = re.compile(r"^-- (?:WG_DEFER=(\d+) WG_BATCH=(\d+)|speedtest (\S+))")
TABLE_ROW = re.compile(r"^\s+(\d+)\s+(\d+)\s+[\d.]+x\s+(\d+|-)")
MATCH_TITLE = re.compile(r"^thread_match: (\d+) threads at")
SCORE = re.compile(r"^Score of t\d+ vs t1: (\d+) - (\d+) - (\d+)")
PROBE = re.compile(r"^threads (\d+) defer (\d+) round \d+: .* (\d+)/s$")
# Fewer games than this give an error bar too wide to draw.
MIN_GAMES = 20


def speed_tables(text):
    """{label: [(threads, search/s, ceiling/s or None)]} from speedtest tables."""
    tables, label = {}, None
    for line in text.splitlines():
        if line.startswith("=="):
            label = None
        title = TABLE_TITLE.match(line)
        if title:
            defer, batch, build = title.groups()
            label = (build if build else "no deferral" if defer == "0"
                     else f"deferred from {defer}/thread, batch {batch}")
            tables[label] = []
            continue
        row = TABLE_ROW.match(line)
        if row and label:
            threads, rate, ceiling = row.groups()
            tables[label].append((int(threads), int(rate),
                                  None if ceiling == "-" else int(ceiling)))
    return tables


def match_scores(texts):
    """{threads: [wins, losses, draws]} summed over every match line."""
    scores, threads = {}, None
    for text in texts:
        for line in text.splitlines():
            title = MATCH_TITLE.match(line)
            if title:
                threads = int(title.group(1))
            score = SCORE.match(line)
            if score and threads:
                total = scores.setdefault(threads, [0, 0, 0])
                for i, n in enumerate(score.groups()):
                    total[i] += int(n)
    return scores


def probe_means(text):
    """{(threads, defer): mean playouts/s} of the alternating genmove probe."""
    rates = {}
    for line in text.splitlines():
        probe = PROBE.match(line)
        if probe:
            threads, defer, rate = map(int, probe.groups())
            rates.setdefault((threads, defer), []).append(rate)
    return {key: sum(r) / len(r) for key, r in rates.items()}


def elo(wins, losses, draws):
    """Elo difference and its 95% half-width (trinomial, normal approx)."""
    games = wins + losses + draws
    score = (wins + 0.5 * draws) / games
    score = min(max(score, 1e-3), 1 - 1e-3)
    var = (wins * (1 - score) ** 2 + losses * score ** 2 +
           draws * (0.5 - score) ** 2) / games
    stderr = math.sqrt(var / games)

    def to_elo(s):
        s = min(max(s, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / s - 1)

    return (to_elo(score), (to_elo(score + 1.96 * stderr) -
                            to_elo(score - 1.96 * stderr)) / 2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=pathlib.Path)
    parser.add_argument("output", type=pathlib.Path)
    parser.add_argument("--machine", default="16-core Xeon",
                        help="the machine, for the speed plot's title")
    args = parser.parse_args()
    texts = [p.read_text() for p in sorted(args.run.glob("*.txt"))]
    tables = speed_tables("\n".join(texts))
    scores = match_scores(texts)

    fig, (speed, strength) = plt.subplots(1, 2, figsize=(11, 4.5))
    for label, rows in tables.items():
        threads = [r[0] for r in rows]
        line, = speed.plot(threads, [r[1] / 1e3 for r in rows], "o-",
                           label=f"one search, {label}")
        ceiling = [(r[0], r[2] / 1e3) for r in rows if r[2]]
        speed.plot([c[0] for c in ceiling], [c[1] for c in ceiling], ":",
                   color=line.get_color(), alpha=0.6)
    speed.plot([], [], "k:", label="that many one-thread searches (ceiling)")
    for (threads, defer), rate in sorted(probe_means("\n".join(texts)).items()):
        speed.plot(threads, rate / 1e3, "s" if defer else "x", color="k",
                   label=None if threads != 16 else
                   f"genmove probe, 3-round mean, {'deferred' if defer else 'no deferral'}")
    speed.set_xscale("log", base=2)
    speed.set_xlabel("threads")
    speed.set_ylabel("thousand playouts a second")
    speed.set_title(f"wallgo speedtest, {args.machine}")
    speed.legend(fontsize=7)
    speed.grid(alpha=0.3)

    ns = sorted(n for n in scores if sum(scores[n]) >= MIN_GAMES)
    points = [elo(*scores[n]) for n in ns]
    strength.errorbar(ns, [p[0] for p in points], yerr=[p[1] for p in points],
                      fmt="o", capsize=4)
    for n, (value, _) in zip(ns, points):
        games = sum(scores[n])
        strength.annotate(f"{value:+.0f} ({games} games)", (n, value),
                          textcoords="offset points", xytext=(6, 6),
                          fontsize=8)
    strength.axhline(0, color="k", lw=0.8)
    if ns:  # a log axis needs a point; a short run may have no match to draw
        strength.set_xscale("log", base=2)
        strength.set_xticks(ns, [str(n) for n in ns])
    else:
        strength.text(0.5, 0.5, f"no match of {MIN_GAMES} games or more",
                      ha="center", transform=strength.transAxes)
    strength.set_xlabel("threads N (N x T seconds for one thread)")
    strength.set_ylabel("Elo of N threads against 1 thread, 95%")
    strength.set_title("N threads at T against 1 thread at N x T")
    strength.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    for n in sorted(scores):
        value, half = elo(*scores[n])
        print(f"{n} threads: {'-'.join(map(str, scores[n]))}, "
              f"{value:+.0f} +- {half:.0f}")


if __name__ == "__main__":
    main()
