#!/usr/bin/env python3
"""Markdown tables of experiments/strength/README.md from the tallies of summarise.py.

    python3 experiments/strength/tables.py sample experiments/strength/sample/table.csv
    python3 experiments/strength/tables.py ab experiments/strength/sample/table.csv experiments/strength/ab-default/table.csv

`sample`: one row per ruleset (the twelve seed rulesets first), W-D-L, score and 95%
interval against each opponent, with the end reasons. `ab`: the fitted weights (first
table) against the default weights (second) against `alphabeta:depth=3`, per ruleset of
the second, and which weights ship by the rule of the README: the fitted weights stay
unless the default weights scored higher against the same opponent. Standard library
only.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run  # noqa: E402

SEED = ("kowalski kowalski-parcae classical xxi single-stone-xxi petteia-xxi common back-rank savard "
        "falkener bell schadler").split()


def load(path):
    cells = {}
    for r in read_csv(path):
        cells.setdefault(r["ruleset"], {})[r["opponent"]] = r
    return cells


def cell(r):
    if r is None:
        return "–"
    return (f"{r['wins']}-{r['draws']}-{r['losses']} {float(r['score']):.2f} "
            f"[{float(r['score_lo']):.2f}, {float(r['score_hi']):.2f}]")


def order(keys):
    return [k for k in SEED if k in keys] + sorted(k for k in keys if k not in SEED)


def main():
    mode, paths = sys.argv[1], sys.argv[2:]
    if mode == "sample":
        t = load(paths[0])
        print("| ruleset | vs `alphabeta:depth=3`: W-D-L, score [95%] | ended by | vs `greedy` | ended by |")
        print("|---|---|---|---|---|")
        for k in order(t):
            a, g = t[k].get("alphabeta:depth=3"), t[k].get("greedy")
            print(f"| {k} | {cell(a)} | {a['reasons'] if a else ''} | {cell(g)} | {g['reasons'] if g else ''} |")
    elif mode == "ab":
        fitted, default = load(paths[0]), load(paths[1])
        print("| ruleset | fitted weights (sample) | default weights (A/B) | ended by (default) | ships |")
        print("|---|---|---|---|---|")
        for k in order(default):
            f = fitted.get(k, {}).get("alphabeta:depth=3")
            d = default[k].get("alphabeta:depth=3")
            keep = f is not None and d is not None and float(f["score"]) >= float(d["score"])
            ships = "fitted" if keep else "default"
            print(f"| {k} | {cell(f)} | {cell(d)} | {d['reasons'] if d else ''} | {ships} |")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    run(main)
