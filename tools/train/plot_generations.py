#!/usr/bin/python3
"""Plots the training loop's generations: each candidate's Elo against
generation 3 (the built-in network) and against the classic evaluation,
with their error bars, and whether the gate promoted it.

    /usr/bin/python3 tools/train/plot_generations.py --state run/state.json \\
        --out docs/images/loop-generations.png
    /usr/bin/python3 tools/train/plot_generations.py --state a/state.json b/state.json \\
        --label a b --out both.png                 # runs one after another
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def elo(result):
    """(Elo, margin) of a match row, or None when it has no finite figure."""
    try:
        value, margin = float(result["elo"]), float(result["elo_margin"])
    except (KeyError, TypeError, ValueError):
        return None
    if value != value or abs(value) == float("inf") or abs(margin) == float("inf"):
        return None
    return value, margin


def load_runs(paths, labels):
    """[(label, finished rows)] of each state file, in order."""
    if labels and len(labels) != len(paths):
        raise ValueError(f"{len(labels)} --label for {len(paths)} --state files")
    runs = []
    for k, path in enumerate(paths):
        try:
            with open(path) as f:
                rows = json.load(f)["rows"]
        except (OSError, ValueError, KeyError) as e:
            raise ValueError(f"{path}: {e}")
        done = [rows[key] for key in sorted(rows, key=int) if "best_after" in rows[key]]
        if not done:
            raise ValueError(f"{path}: no finished generation")
        runs.append((labels[k] if labels else "", done))
    return runs


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, nargs="+",
                    help="the loop's state.json; several runs are plotted one after another")
    ap.add_argument("--label", nargs="+", help="a name for each run (the x axis says it)")
    ap.add_argument("--out", required=True, help="the PNG to write")
    args = ap.parse_args(argv)
    try:
        runs = load_runs(args.state, args.label)
    except ValueError as e:
        print(f"plot_generations.py: {e}", file=sys.stderr)
        return 1
    # One x position a generation, the runs side by side.
    placed, ticks = [], []
    for label, done in runs:
        if placed:
            ticks.append((len(placed) + 0.5, None))
        for row in done:
            placed.append(row)
            ticks.append((len(placed), f"{label} {row['generation']}".strip()))
    fig, ax = plt.subplots(figsize=(max(7, 0.8 * len(placed) + 2), 4))
    for key, label, colour in (("vs_generation-3", "against generation 3", "tab:blue"),
                               ("vs_classic", "against classic", "tab:orange")):
        points = [(x, elo(row.get(key))) for x, row in enumerate(placed, 1)]
        points = [(x, e) for x, e in points if e is not None]
        if points:
            ax.errorbar([x for x, _ in points], [e[0] for _, e in points],
                        yerr=[e[1] for _, e in points], fmt="o", capsize=4,
                        color=colour, label=label)
    for x, row in enumerate(placed, 1):
        if row.get("promoted"):
            ax.axvline(x, color="tab:green", alpha=0.3)
    for x, text in ticks:
        if text is None:
            ax.axvline(x, color="grey", linestyle=":", linewidth=0.8)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("generation (green line: promoted by the gate)")
    ax.set_ylabel("Elo (95% error bars)")
    ax.set_xticks([x for x, text in ticks if text is not None])
    ax.set_xticklabels([text for _, text in ticks if text is not None])
    ax.set_title("Training loop: each generation's candidate")
    if ax.get_legend_handles_labels()[0]:
        ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out} ({len(placed)} generations)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
