#!/usr/bin/python3
"""Plots the level ladder (tools/gui/web/levels.json, written by ladder.py):
each level's Elo over level 1 with its 95% interval; a level whose sum has a
clean sweep below it is only a lower bound, drawn with an upward arrow.

  plot_ladder.py [--levels tools/gui/web/levels.json] [--out docs/images/gui-ladder.png] [--markdown]

--markdown also prints the table of docs/gui.md.
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def print_table(data):
    print("| pair | higher level's score | Elo difference (95%) | level | Elo over level 1 (95%) |")
    print("|---|---|---|---|---|")
    for p, level in zip(data["pairs"], data["levels"][1:]):
        diff = f"≥ {p['elo']:+.0f} (sweep)" if p["atLeast"] else f"{p['elo']:+.0f} ± {p['error']:.0f}"
        total = f"{'≥ ' if level['atLeast'] else ''}{level['elo']} ± {level['error']}"
        print(f"| {p['high']} v {p['low']} | +{p['wins']} ={p['draws']} −{p['losses']} | {diff} | "
              f"{level['level']} | {total} |")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default=os.path.join(here, "web", "levels.json"))
    parser.add_argument("--out", default=os.path.join(here, "..", "..", "docs", "images", "gui-ladder.png"))
    parser.add_argument("--markdown", action="store_true", help="print the docs' table too")
    args = parser.parse_args()
    data = json.load(open(args.levels))
    if args.markdown:
        print_table(data)
    levels = data["levels"]
    x = [l["level"] for l in levels]
    y = [l["elo"] for l in levels]
    err = [l["error"] for l in levels]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    ax.errorbar(x, y, yerr=err, fmt="o-", capsize=4, color="#1f5fa8", label="Elo over level 1 (95% interval)")
    for l in levels:
        if l["atLeast"]:
            ax.annotate("", xy=(l["level"], l["elo"] + 250), xytext=(l["level"], l["elo"]),
                        arrowprops=dict(arrowstyle="->", color="#c62828"))
    for p in data["pairs"]:
        ax.text(p["high"], -350, f"+{p['wins']}={p['draws']}-{p['losses']}", ha="center", fontsize=7, color="#555")
    ax.set_xticks(x)
    ax.set_xlabel("level")
    ax.set_ylabel("Elo (level 1 = 0)")
    ax.set_ylim(-450, max(v + e for v, e in zip(y, err)) + 300)
    ax.set_title(f"wallgo levels, adjacent pairs, {data['gamesPerPair']} games each, {data['movetime']:g} s a move\n"
                 "red arrow: a clean sweep below, so at least this", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
