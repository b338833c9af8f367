#!/usr/bin/env python3
"""The budget ladders of `run.sh budgets`: a README table and one figure.

    python3 experiments/strength/budgets_table.py

Reads experiments/strength/budgets/RULESET/ (`latrunculi ladder` output: pairings.csv,
and ratings.csv once the ladder is finished) and writes

- the table between `<!-- table:budgets -->` and `<!-- /table:budgets -->` of
  experiments/strength/README.md: per ruleset and budget, the Elo of the ladder's fit
  (anchored at the smallest budget) with its 95% interval, the step from the budget below
  (Elo difference of the fit), the head-to-head score of that step (the larger budget
  against the one below, W-D-L and the Wilson 95% interval, from pairings.csv), and the
  milliseconds a move that the budget takes at the ruleset's nodes per second of
  depth-all.csv (rough: measured beside other runs);
- budgets/elo-by-budget.png: Elo against nodes a move (log scale), a line per finished
  ruleset, with the 95% intervals (needs matplotlib; skipped without it).

A ladder still being played is listed with the pairings it has finished.
"""
import re
import sys
from pathlib import Path

from parts_table import write_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run, wilson  # noqa: E402

ROOT = Path(__file__).resolve().parent
ORDER = ["kowalski", "xxi", "schadler", "falkener", "ludii-seega-8x8"]


def nodes_of(spec):
    m = re.search(r"nodes=(\d+)", spec)
    return int(m.group(1)) if m else None


def ladders():
    """ruleset -> (budgets, ratings by budget or None, head-to-head by (weaker, stronger))."""
    out = {}
    folder = ROOT / "budgets"
    names = sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
    for r in sorted(names, key=lambda n: ORDER.index(n) if n in ORDER else 99):
        d = folder / r
        pairs = {}
        budgets = set()
        if (d / "pairings.csv").exists():
            for row in read_csv(d / "pairings.csv"):
                a, b = nodes_of(row["agent"]), nodes_of(row["opponent"])
                w, dr, l = int(row["wins"]), int(row["draws"]), int(row["losses"])
                budgets |= {a, b}
                # from the larger budget's side
                pairs[(min(a, b), max(a, b))] = (w, dr, l) if a > b else (l, dr, w)
        agents = d.parent / f"agents-{r}.txt"
        if agents.exists():
            budgets |= {nodes_of(line) for line in agents.read_text().split() if nodes_of(line)}
        ratings = None
        if (d / "ratings.csv").exists():
            ratings = {nodes_of(row["agent"]): row for row in read_csv(d / "ratings.csv")}
        out[r] = (sorted(budgets), ratings, pairs)
    return out


def speeds():
    path = ROOT / "depth-all.csv"
    if not path.exists():
        return {}
    return {row["ruleset"]: float(row["nodes_per_s"]) for row in read_csv(path)}


def table(data, nps):
    lines = ["| ruleset | nodes a move | ≈ ms a move | Elo [95%] | step | the step head to head: W-D-L, score [95%] |",
             "|---|---:|---:|---|---:|---|"]
    for r, (budgets, ratings, pairs) in data.items():
        state = "" if ratings else " (running)"
        prev = None
        for n in budgets:
            ms = f"{1000 * n / nps[r]:.0f}" if r in nps else "–"
            if ratings and n in ratings:
                e = ratings[n]
                elo = f"{float(e['elo']):.0f} [{float(e['elo_lo']):.0f}, {float(e['elo_hi']):.0f}]"
                step = f"{float(e['elo']) - float(ratings[prev]['elo']):+.0f}" if prev else ""
            else:
                elo, step = "–", ""
            h2h = ""
            if prev and (prev, n) in pairs:
                w, d, l = pairs[(prev, n)]
                g = w + d + l
                lo, hi = wilson(w + 0.5 * d, g)
                h2h = f"{w}-{d}-{l} {(w + 0.5 * d) / g:.2f} [{lo:.2f}, {hi:.2f}]"
            lines.append(f"| {r}{state} | {n:,} | {ms} | {elo} | {step} | {h2h} |")
            prev = n
    return lines


def figure(data):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for r, (budgets, ratings, _) in data.items():
        if not ratings:
            continue
        xs = [n for n in budgets if n in ratings]
        ys = [float(ratings[n]["elo"]) for n in xs]
        lo = [y - float(ratings[n]["elo_lo"]) for n, y in zip(xs, ys)]
        hi = [float(ratings[n]["elo_hi"]) - y for n, y in zip(xs, ys)]
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=r)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("nodes a move (alphabeta:nodes=N)")
    ax.set_ylabel("Elo (the smallest budget = 0), 95% interval")
    ax.set_title("The search player's strength by budget (ladders of 20 games a pairing)")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(ROOT / "budgets" / "elo-by-budget.png", dpi=120)


def main():
    data = ladders()
    write_table("budgets", table(data, speeds()))
    figure(data)


if __name__ == "__main__":
    run(main)
