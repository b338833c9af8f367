#!/usr/bin/env python3
"""Plot the learning curves of AlphaZero training runs.

Usage: python3 experiments/plot_training.py OUT.png RUN_DIR [RUN_DIR ...]
Reads RUN_DIR/train_log.csv (written by `latrunculi train`) and draws, per run and
against iteration: policy and value loss, policy entropy, self-play draw rate and mean
game length, and the score of the network against `random` and `mcts:sims=100` in the
small per-iteration match. Needs only matplotlib (experiments/requirements.txt).
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from latrunculi_analysis import read_csv, run  # noqa: E402


def read_log(folder: Path) -> list[dict]:
    return read_csv(folder / "train_log.csv", ("iteration",))


def series(rows: list[dict], key: str) -> tuple[list[int], list[float]]:
    xs, ys = [], []
    for r in rows:
        if r[key] != "":
            xs.append(int(r["iteration"]))
            ys.append(float(r[key]))
    return xs, ys


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    runs = [Path(p) for p in sys.argv[2:]]
    panels = [
        ("policy_loss", "policy cross-entropy"),
        ("value_loss", "value MSE"),
        ("policy_entropy", "policy entropy (nats)"),
        ("draw_rate", "self-play draw rate"),
        ("mean_plies", "self-play mean plies"),
        ("score", "match score (10 games each)"),
    ]
    fig, axes = plt.subplots(2, 3, figsize=(13, 7))
    for ax, (key, title) in zip(axes.flat, panels):
        for folder in runs:
            rows = read_log(folder)
            name = folder.name
            if key == "score":
                for col, style in [("score_random", "-o"), ("score_mcts100", "--s")]:
                    xs, ys = series(rows, col)
                    ax.plot(xs, ys, style, markersize=3, label=f"{name} vs {col[6:]}")
                ax.set_ylim(-0.05, 1.05)
            else:
                xs, ys = series(rows, key)
                ax.plot(xs, ys, "-o", markersize=3, label=name)
        ax.set_title(title)
        ax.set_xlabel("iteration")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    run(main)
