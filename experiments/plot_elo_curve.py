#!/usr/bin/env python3
"""Plot a training run's learning curve as Elo against wall-clock time.

Usage: python3 experiments/plot_elo_curve.py OUT.png RATINGS.csv TRAIN_LOG.csv [OFFSET_S]

RATINGS.csv is written by `latrunculi ladder` on a field of baselines and checkpoints
of one run. A checkpoint is any agent whose spec names a file `iter-NNNN.az`; its time is
the `elapsed_s` of row NNNN of TRAIN_LOG.csv (written by `latrunculi train`) plus
OFFSET_S, the seconds spent before training started (e.g. writing the warm-start
datasets), so that the x axis is the recipe's whole wall-clock time. Checkpoints are
drawn as one line with their 95% intervals; every other agent (the baselines) as a
horizontal line with its interval as a band. Needs only matplotlib
(experiments/requirements.txt).
"""

import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from latrunculi_analysis import read_csv, run  # noqa: E402

CHECKPOINT = re.compile(r"iter-(\d{4})\.az")


def main() -> None:
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    out, ratings_path, log_path = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    try:
        offset = float(sys.argv[4]) if len(sys.argv) == 5 else 0.0
    except ValueError:
        sys.exit(f"error: OFFSET_S must be a number of seconds, not {sys.argv[4]!r}")
    elapsed = {}
    for row in read_csv(log_path):
        try:
            elapsed[int(row["iteration"])] = float(row["elapsed_s"])
        except (KeyError, ValueError):
            sys.exit(f"error: {log_path}: a row without a numeric iteration and elapsed_s: {row}")
    points, baselines = [], []
    for row in read_csv(ratings_path):
        try:
            elo, lo, hi = float(row["elo"]), float(row["elo_lo"]), float(row["elo_hi"])
        except (KeyError, ValueError):
            sys.exit(f"error: {ratings_path}: a row without numeric elo, elo_lo, elo_hi: {row}")
        m = CHECKPOINT.search(row["agent"])
        if m is None:
            baselines.append((row["agent"], elo, lo, hi))
            continue
        it = int(m.group(1))
        if it not in elapsed:
            sys.exit(f"error: {row['agent']} is iteration {it}, which {log_path} does not have")
        points.append(((elapsed[it] + offset) / 60.0, elo, lo, hi, it))
    if not points:
        sys.exit(f"error: {ratings_path} rates no checkpoint (no spec names iter-NNNN.az)")
    points.sort()
    fig, ax = plt.subplots(figsize=(8, 5))
    xmax = max(p[0] for p in points) * 1.05
    for i, (name, elo, lo, hi) in enumerate(sorted(baselines, key=lambda b: -b[1])):
        colour = f"C{(i + 1) % 10}"
        ax.axhspan(lo, hi, color=colour, alpha=0.12)
        ax.axhline(elo, color=colour, linestyle="--", linewidth=1)
        ax.text(xmax, elo, f" {name}", color=colour, va="center", fontsize=8)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    err = [[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]]
    ax.errorbar(xs, ys, yerr=err, color="C0", marker="o", capsize=3, label="network at 200 visits")
    for x, y, _, _, it in points:
        ax.annotate(str(it), (x, y), textcoords="offset points", xytext=(4, -10), fontsize=7, color="C0")
    ax.set_xlim(0, xmax)
    ax.set_xlabel("wall-clock minutes (datasets + training)")
    ax.set_ylabel("Elo (ladder, 95% interval)")
    ax.set_title(f"{log_path.parent.name}: Elo of checkpoints (labels: iteration)")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"-> {out}")


if __name__ == "__main__":
    run(main)
