#!/usr/bin/env python3
"""Score of the `az` side in `latrunculi play` CSVs, with 95% Wilson intervals.

Usage: python3 experiments/archive/az-eval-plain/az_scores.py FILE.csv [FILE.csv ...]
Prints a Markdown table: file, opponent, games, az wins/draws/losses, az score [95% CI].
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "lib"))
from latrunculi_analysis import DataError, read_games, wilson  # noqa: E402

print("| file | opponent | games | az W / D / L | az score [95% CI] |")
print("|---|---|---:|---|---|")
for path in sys.argv[1:]:
    w = d = l = 0
    opp = ""
    try:
        games = read_games(path, ("white", "black", "winner"))
    except DataError as e:
        sys.exit(f"error: {e}")
    for r in games:
        az_white = r["white"].startswith("az:")
        opp = r["black"] if az_white else r["white"]
        if r["winner"] == "draw":
            d += 1
        elif (r["winner"] == "white") == az_white:
            w += 1
        else:
            l += 1
    n = w + d + l
    s = (w + 0.5 * d) / n
    lo, hi = wilson(w + 0.5 * d, n, 1.96)
    print(f"| {path.split('/')[-1]} | {opp} | {n} | {w} / {d} / {l} | {s:.3f} [{lo:.3f}, {hi:.3f}] |")
