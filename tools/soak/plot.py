#!/usr/bin/python3
"""Plots of the soak runs (docs/fuzzing.md): for each results file of
tools/soak/*_soak.py, resident memory and open descriptors against time,
and the work done per sample interval, as docs/soak-NAME.png.

  tools/soak/plot.py docs/soak/protocol.json docs/soak/analysis.json docs/soak/gui.json
"""

import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# The counter each soak's work is measured by, and its label.
WORK = {"protocol": ("commands", "commands answered"),
        "analysis": ("answered", "queries answered"),
        "gui": ("sent", "messages sent by the pages")}


def plot(path):
    name = os.path.splitext(os.path.basename(path))[0]
    with open(path) as f:
        data = json.load(f)
    rows = data["samples"]
    t = [r["t"] / 60 for r in rows]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    ax1.plot(t, [r["rss_kb"] / 1024 for r in rows], marker=".", color="tab:blue",
             label="resident memory (MB)")
    if "engines_rss_kb" in rows[0]:
        ax1.plot(t, [r["engines_rss_kb"] / 1024 for r in rows], marker=".",
                 color="tab:purple", label="its engine processes, together (MB)")
    ax1.set_ylabel("MB")
    ax1.set_ylim(bottom=0)
    ax1b = ax1.twinx()
    ax1b.plot(t, [r["fds"] for r in rows], marker=".", color="tab:orange",
              label="open descriptors")
    ax1b.set_ylabel("descriptors")
    ax1b.set_ylim(bottom=0, top=max(r["fds"] for r in rows) * 1.3 + 1)
    lines = ax1.get_legend_handles_labels()
    lines2 = ax1b.get_legend_handles_labels()
    ax1.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="lower right", fontsize=8)
    key, label = WORK[name]
    rate = [0.0]
    for a, b in zip(rows, rows[1:]):
        dt = b["t"] - a["t"]
        rate.append((b.get(key, 0) - a.get(key, 0)) / dt if dt > 0 else 0)
    ax2.plot(t[1:], rate[1:], marker=".", color="tab:green", label=f"{label} / s")
    ax2.set_ylabel(f"{label} / s")
    # The answers' median time in each interval, where the soak measured it.
    medians = [k for k in ("other_median_ms", "genmove_median_ms", "median_ms")
               if k in rows[-1]]
    if medians:
        ax2b = ax2.twinx()
        for k, colour in zip(medians, ("tab:red", "tab:brown", "tab:red")):
            ax2b.plot(t[1:], [r.get(k) for r in rows[1:]], marker=".", color=colour,
                      linestyle="--", label=k.replace("_", " "))
        ax2b.set_ylabel("ms")
        ax2b.set_ylim(bottom=0)
        h1, l1 = ax2.get_legend_handles_labels()
        h2, l2 = ax2b.get_legend_handles_labels()
        ax2.legend(h1 + h2, l1 + l2, loc="lower right", fontsize=8)
    ax2.set_xlabel("minutes")
    ax2.set_ylim(bottom=0)
    s = data["summary"]
    fig.suptitle(f"soak: {name} (RSS {s['rss_kb_first'] / 1024:.1f} -> "
                 f"{s['rss_kb_last'] / 1024:.1f} MB, descriptors "
                 f"{s['fds_min']}..{s['fds_max']})")
    fig.tight_layout()
    out = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(path))),
                       f"soak-{name}.png")
    fig.savefig(out, dpi=90)
    print(out)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        plot(p)
