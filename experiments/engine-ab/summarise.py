#!/usr/bin/env python3
"""Summarise an A/B run of experiments/engine-ab/ab.sh: per ruleset the mean plies/s of each
build, the ratio new/old of the means and the range of the per-round ratios, as Markdown.
Usage: python3 experiments/engine-ab/summarise.py ab.csv"""
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import DataError, markdown_header, read_csv  # noqa: E402

if len(sys.argv) != 2:
    sys.exit(__doc__)
try:
    rows = read_csv(sys.argv[1], ("id", "round", "build", "plies_per_s"))
except DataError as e:
    sys.exit(f"error: {e}")
runs = defaultdict(dict)
for r in rows:
    runs[(r["id"], r["round"])][r["build"]] = float(r["plies_per_s"])
ids = list(dict.fromkeys(k[0] for k in runs))
print(markdown_header(["ruleset", "old plies/s", "new plies/s", "new / old", "per-round ratios"],
                      right=["old plies/s", "new plies/s", "new / old"]))
all_ratios = []
for i in ids:
    rounds = [v for (rid, _), v in runs.items() if rid == i and "old" in v and "new" in v]
    old = sum(v["old"] for v in rounds) / len(rounds)
    new = sum(v["new"] for v in rounds) / len(rounds)
    ratios = [v["new"] / v["old"] for v in rounds]
    all_ratios.append(new / old)
    print(f"| {i} | {old:,.0f} | {new:,.0f} | {new / old:.3f} | {min(ratios):.3f}–{max(ratios):.3f} |")
gm = 1.0
for x in all_ratios:
    gm *= x
print(f"\nGeometric mean of new / old over {len(all_ratios)} rulesets: {gm ** (1 / len(all_ratios)):.3f}")
