#!/usr/bin/python3
"""Plots the training loop's generations: each candidate's Elo against
generation 3 (the built-in network) and against the classic evaluation,
with their error bars, and whether the gate promoted it.

    /usr/bin/python3 tools/train/plot_generations.py --state run/state.json \\
        --out docs/images/loop-generations.png
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


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, help="the loop's state.json")
    ap.add_argument("--out", required=True, help="the PNG to write")
    args = ap.parse_args(argv)
    try:
        with open(args.state) as f:
            rows = json.load(f)["rows"]
    except (OSError, ValueError, KeyError) as e:
        print(f"plot_generations.py: {args.state}: {e}", file=sys.stderr)
        return 1
    done = [rows[k] for k in sorted(rows, key=int) if "best_after" in rows[k]]
    if not done:
        print(f"plot_generations.py: {args.state}: no finished generation", file=sys.stderr)
        return 1
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label, colour in (("vs_generation-3", "against generation 3", "tab:blue"),
                               ("vs_classic", "against classic", "tab:orange")):
        points = [(row["generation"], elo(row.get(key))) for row in done]
        points = [(g, e) for g, e in points if e is not None]
        if points:
            ax.errorbar([g for g, _ in points], [e[0] for _, e in points],
                        yerr=[e[1] for _, e in points], fmt="o-", capsize=4,
                        color=colour, label=label)
    for row in done:
        if row.get("promoted"):
            ax.axvline(row["generation"], color="tab:green", alpha=0.3)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("generation (green line: promoted by the gate)")
    ax.set_ylabel("Elo (95% error bars)")
    ax.set_xticks([row["generation"] for row in done])
    ax.set_title("Training loop: each generation's candidate")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out} ({len(done)} generations)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
