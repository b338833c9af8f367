#!/usr/bin/env python3
"""Our figures for Ludii's rulesets beside the Digital Ludeme Project's (issue 15).

Usage: python3 experiments/ludii_vs_dlp.py experiments/ludii
Reads DIR/metrics.csv (written by `latrunculi metrics --games DIR/games.csv`) and prints
a Markdown table: per ruleset and pairing, games, draw rate, decisive rate and mean
length with their 95% intervals, and the DLP's stored draw rate where it has one (30
trials per ruleset with Ludii's search agents, every draw a 2,500-turn timeout) with
the difference of the two draw rates (ours - DLP) and its 95% interval by Newcombe's
method 10, which counts the DLP's 30 trials as a sample too; a difference whose interval
excludes 0 is marked "resolved". Works on a partial survey.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from latrunculi_analysis import newcombe, read_csv, run  # noqa: E402

# The draws the DLP publishes for these rulesets, in its trials (30 each): one file, which
# `latrunculi verdicts --dlp` reads too.
DLP_FILE = Path(__file__).resolve().parent / "ludii" / "dlp.csv"


def dlp_figures():
    """{ruleset: (draws, trials)} from DLP_FILE."""
    return {r["ruleset"]: (int(r["draws"]), int(r["trials"])) for r in read_csv(DLP_FILE, ("ruleset", "draws", "trials"))}


def signed(x: float) -> str:
    """`x` with a sign and 2 decimals, or 3 where 2 would show a nonzero bound as 0."""
    return f"{x:+.3f}" if x != 0 and round(x, 2) == 0 else f"{x:+.2f}"


def interval(row, key, scale=1.0, digits=2):
    v, lo, hi = (float(row[k]) * scale for k in (key, f"{key}_lo", f"{key}_hi"))
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = Path(sys.argv[1]) / "metrics.csv"
    if not path.is_file():
        sys.exit(f"error: {path} not found (run `latrunculi metrics --games {path.parent}/games.csv`)")
    rows = read_csv(path)
    print("| ruleset | pairing | games | draw rate | decisive | mean plies | DLP draw rate (30 trials) "
          "| ours − DLP [95% CI] |")
    print("|---|---|---:|---|---|---|---|---|")
    figures = dlp_figures()
    for r in rows:
        dlp = figures.get(r["ruleset"])
        dlp_text = diff_text = ""
        if dlp is not None:
            dlp_draws, dlp_trials = dlp
            dlp_text = f"{dlp_draws / dlp_trials:.2f}"
            n = int(r["games"])
            draws = round(float(r["draw"]) * n)
            d, lo, hi = newcombe(draws, n, dlp_draws, dlp_trials)
            diff_text = f"{signed(d)} [{signed(lo)}, {signed(hi)}]" + (" resolved" if lo > 0 or hi < 0 else "")
        print(
            f"| {r['ruleset']} | {r['pairing']} | {r['games']} | {interval(r, 'draw')} | "
            f"{interval(r, 'decisive')} | {interval(r, 'plies', digits=1)} | {dlp_text} | {diff_text} |"
        )

if __name__ == "__main__":
    run(main)
