#!/usr/bin/env python3
"""Score of the `az` side in `latrunculi play` CSVs, with 95% Wilson intervals.

Usage: python3 experiments/archive/az-eval-plain/az_scores.py FILE.csv [FILE.csv ...]
Prints a Markdown table: file, opponent, games, az wins/draws/losses, az score [95% CI].
"""

import csv
import math
import sys


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (math.nan, math.nan)
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


print("| file | opponent | games | az W / D / L | az score [95% CI] |")
print("|---|---|---:|---|---|")
for path in sys.argv[1:]:
    w = d = l = 0
    opp = ""
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
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
    lo, hi = wilson(s, n)
    print(f"| {path.split('/')[-1]} | {opp} | {n} | {w} / {d} / {l} | {s:.3f} [{lo:.3f}, {hi:.3f}] |")
