#!/usr/bin/env python3
"""Plot a survey's draw rates and print its summary as a Markdown table.

Usage: python3 experiments/plot_survey.py experiments/draw-survey
Reads DIR/summary.csv (written by `latrunculi survey`), writes DIR/draw_rate.png
(draw rate per ruleset and pairing, with 95% Wilson intervals) and prints a Markdown
table for README.md. Needs only matplotlib (experiments/requirements.txt).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from latrunculi_analysis import interval_text, markdown_header, markdown_row, read_summary, run  # noqa: E402

SUMMARY_COLUMNS = ("ruleset", "pairing", "games", "draw_rate", "draw_lo", "draw_hi", "white_score",
                   "white_score_lo", "white_score_hi", "mean_plies", "median_plies", "p90_plies")


def markdown_table(rows: list[dict]) -> str:
    reasons = [k for k in rows[0] if k.startswith("reason_")]
    columns = ["ruleset", "pairing", "games", "draw rate [95% CI]", "white score [95% CI]",
               "mean / median / p90 plies", "main results"]
    lines = [markdown_header(columns, right=["games"])]
    for r in rows:
        counts = sorted(((int(r[k]), k[len("reason_"):].replace("_", "-")) for k in reasons), reverse=True)
        main = ", ".join(f"{name} {n}" for n, name in counts if n > 0)
        draw = interval_text(*(float(r[k]) for k in ("draw_rate", "draw_lo", "draw_hi")))
        white = interval_text(*(float(r[k]) for k in ("white_score", "white_score_lo", "white_score_hi")))
        plies = " / ".join(f"{float(r[k]):.0f}" for k in ("mean_plies", "median_plies", "p90_plies"))
        lines.append(markdown_row([r["ruleset"], r["pairing"], r["games"], draw, white, plies, main]))
    return "\n".join(lines)


def plot(rows: list[dict], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rulesets = list(dict.fromkeys(r["ruleset"] for r in rows))
    pairings = list(dict.fromkeys(r["pairing"] for r in rows))
    by = {(r["ruleset"], r["pairing"]): r for r in rows}
    width = 0.8 / max(len(pairings), 1)
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(rulesets)), 4.5))
    for i, p in enumerate(pairings):
        xs, ys, lo, hi = [], [], [], []
        for j, rs in enumerate(rulesets):
            r = by.get((rs, p))
            if r is None:
                continue
            y = float(r["draw_rate"])
            xs.append(j - 0.4 + width * (i + 0.5))
            ys.append(y)
            lo.append(y - float(r["draw_lo"]))
            hi.append(float(r["draw_hi"]) - y)
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=2, label=p)
    ax.set_xticks(range(len(rulesets)))
    ax.set_xticklabels(rulesets, rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("draw rate (95% Wilson interval)")
    ax.set_title("Draw rate per ruleset and agent pairing (self-play)")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = Path(sys.argv[1])
    if not (folder / "summary.csv").is_file():
        sys.exit(f"error: {folder / 'summary.csv'} not found (has the survey finished?)")
    rows = read_summary(folder / "summary.csv", SUMMARY_COLUMNS)
    if not rows:
        sys.exit(f"error: {folder / 'summary.csv'} has no rows")
    plot(rows, folder / "draw_rate.png")
    print(markdown_table(rows))
    print(f"\nwrote {folder / 'draw_rate.png'}", file=sys.stderr)


if __name__ == "__main__":
    run(main)
