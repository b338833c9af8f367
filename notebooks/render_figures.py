#!/usr/bin/env python3
"""Renders the figures of the analysis notebooks to PNG files, without Jupyter.

Usage (from anywhere): python3 notebooks/render_figures.py [--out DIR] [--dpi N]

Default output: notebooks/figures/. Reads the committed results with
latrunculi_data.py and draws them with latrunculi_figures.py (the same functions the
notebooks call), using matplotlib's Agg backend. Needs notebooks/requirements.txt.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import latrunculi_data as ld  # noqa: E402
import latrunculi_figures as lf  # noqa: E402
from matplotlib import pyplot as plt  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description="Render the notebooks' figures to PNG.")
    ap.add_argument("--out", type=Path, default=HERE / "figures", help="output folder (default notebooks/figures)")
    ap.add_argument("--dpi", type=int, default=90, help="resolution of the PNG files (default 90)")
    args = ap.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def save(fig, name: str):
        path = out / f"{name}.png"
        fig.savefig(path, dpi=args.dpi)
        plt.close(fig)
        written.append(path)

    try:
        # 1. draw rates and 2. game lengths (surveys)
        for folder in ld.find_surveys():
            s = ld.load_survey(folder)
            tag = folder.name
            save(lf.fig_draw_rates(s.summary, title=f"Draw rate, {tag}"), f"{tag}_draw_rates")
            if folder.name == "draw-survey":
                save(lf.fig_draw_heatmap(s.summary, title=f"Draw rate, {tag}"), f"{tag}_draw_heatmap")
                save(lf.fig_end_reasons(s.summary, title=f"End reasons, {tag}"), f"{tag}_end_reasons")
                save(lf.fig_white_score(s.summary, title=f"First-move advantage, {tag}"), f"{tag}_white_score")
                cap = int(s.config.get("ply_cap", 1000))
                save(lf.fig_length_boxplots(s.games, s.rulesets, s.pairings, ply_cap=cap,
                                            title=f"Game length, {tag}"), f"{tag}_length_boxplots")
                save(lf.fig_length_ecdf(s.games, s.rulesets, s.pairings, title=f"Game length ECDF, {tag}"),
                     f"{tag}_length_ecdf")
                save(lf.fig_length_hist(s.games, s.rulesets[0], s.pairings), f"{tag}_length_hist_{s.rulesets[0]}")
        # 3. training curves
        logs = ld.load_train_logs()
        save(lf.fig_training(logs), "training_curves")
        save(lf.fig_training_speed(logs), "training_speed")
        # 4. Elo ladders
        for folder in ld.find_ladders():
            lad = ld.load_ladder(folder, require_ratings=False)
            if lad.ratings is None:
                print(f"note: {folder} has no ratings.csv yet (ladder running); drawing its pairings only")
                order = lad.agents or None
            else:
                save(lf.fig_ladder_ratings(lad.ratings, title=f"Elo ladder {lad.name} "
                                           f"({int(lad.pairings['games'].iloc[0])} games per pairing)"),
                     f"{lad.name}_ratings")
                order = list(lad.ratings["agent"])
            save(lf.fig_ladder_matrix(lad.pairings, order=order, title=lad.name), f"{lad.name}_scores")
        # 5. dataset
        ds = ld.load_dataset(ld.ROOT / "data" / "sample")
        save(lf.fig_dataset_overview(ds), "dataset_overview")
        row = int(ds.games["first_sample"].iloc[0]) + 20
        save(lf.fig_observation(ds, min(row, len(ds["games"]) - 1)), "dataset_observation")
    except ld.DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for p in written:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
