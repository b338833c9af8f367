#!/usr/bin/env python3
"""The weights A/B of `run.sh weights-ab`: fitted file against default weights.

    python3 experiments/strength/weights_ab.py [RULESET...]

For each ruleset (default: every `ab-default/RULESET.csv` of a ruleset that still has a
file in configs/eval/ or whose fitted games were moved to `ab-default/RULESET-fitted-games.csv`
when its file lost the A/B and `all/` was replayed), the default player's games (`ab-default/RULESET-games.csv`, `alphabeta:nodes=10000,
eval=default` against `alphabeta:depth=3`) beside the fitted player's games with the same
seeds (the first games of `all/RULESET-games.csv`, or of the moved file, against
`alphabeta:depth=3`, as many as the default player has played), and the rule of the README applied once the 8 games are
in: the fitted file stays unless the default weights score higher. Writes a Markdown
table (ruleset, games, the fitted player's W-D-L and score, the default player's, and the
weights that ship: "pending" while the A/B is short of 8 games) between the lines
`<!-- table:weights-ab -->` and `<!-- /table:weights-ab -->` of
experiments/strength/README.md, and prints it.
"""
import sys
from pathlib import Path

from parts_table import write_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run  # noqa: E402

ROOT = Path(__file__).resolve().parent
FILES = ROOT.parents[1] / "configs" / "eval"
GAMES = 8


def tally(rows, mine):
    w = d = l = 0
    for r in rows:
        colour = "white" if mine(r["white"]) else "black"
        if r["winner"] == colour:
            w += 1
        elif r["winner"] == "draw":
            d += 1
        else:
            l += 1
    return w, d, l


def games_against_depth3(path, agent):
    rows = [r for r in read_csv(path)
            if "alphabeta:depth=3" in (r["white"], r["black"]) and agent in (r["white"], r["black"])]
    return sorted(rows, key=lambda r: int(r["game"]))


def main():
    ab = ROOT / "ab-default"
    names = sys.argv[1:] or sorted(p.stem for p in ab.glob("*.csv")
                                   if not p.stem.endswith("-games") and p.stem != "table"
                                   and not p.stem.endswith("-fitted")
                                   and ((FILES / f"{p.stem}.toml").exists() or (ab / f"{p.stem}-fitted-games.csv").exists()))
    lines = ["| ruleset | games | fitted weights (`all`, same seeds) | default weights | ships |", "|---|---|---|---|---|"]
    for name in names:
        default_file = ab / f"{name}-games.csv"
        if not default_file.exists():
            continue
        default = games_against_depth3(default_file, "alphabeta:nodes=10000,eval=default")
        # Where the file lost the A/B, the fitted player's games were moved out of all/.
        moved = ab / f"{name}-fitted-games.csv"
        fitted = games_against_depth3(moved if moved.exists() else ROOT / "all" / f"{name}-games.csv",
                                      "alphabeta:nodes=10000")
        n = min(len(default), GAMES)
        default, fitted = default[:n], fitted[:n]
        if [r["seed"] for r in default] != [r["seed"] for r in fitted]:
            sys.exit(f"{name}: the two players' games do not have the same seeds")
        fw, fd, fl = tally(fitted, lambda s: s == "alphabeta:nodes=10000")
        dw, dd, dl = tally(default, lambda s: s == "alphabeta:nodes=10000,eval=default")
        fs, ds = (fw + fd / 2) / max(n, 1), (dw + dd / 2) / max(n, 1)
        ships = "pending" if n < GAMES else ("default" if ds > fs else "fitted")
        lines.append(f"| {name} | {n} | {fw}-{fd}-{fl} {fs:.2f} | {dw}-{dd}-{dl} {ds:.2f} | {ships} |")
    print("\n".join(lines))
    write_table("weights-ab", lines)


if __name__ == "__main__":
    run(main)
