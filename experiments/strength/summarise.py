#!/usr/bin/env python3
"""Tallies the search player's games by (ruleset, opponent).

    python3 experiments/strength/summarise.py DIR [--agent SPEC] > table.csv

DIR holds games CSVs (the columns of `latrunculi play`; searched recursively). For every
game in which AGENT (default: any `alphabeta:` spec with `nodes=` or `ms=`) played, the
row of its (ruleset, opponent) pairing counts a win, draw or loss from AGENT's side.
Columns: ruleset, agent, opponent, games, wins, draws, losses, score, score_lo, score_hi
(95% Wilson interval of the score, as `latrunculi eval` reports it), mean_plies, the
end reasons as `reason:count` pairs separated by spaces, and draws_ahead, draws_level,
draws_behind: the drawn games in which AGENT ended with more, as many or fewer pieces on
the board than its opponent (a draw with AGENT ahead is a position it led and did not
convert). Standard library only.
"""
import csv
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run, wilson  # noqa: E402


def is_search(spec):
    return spec.startswith("alphabeta:") and ("nodes=" in spec or "ms=" in spec)


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    root = Path(args[0])
    agent = args[args.index("--agent") + 1] if "--agent" in args else None
    cells = defaultdict(lambda: {"w": 0, "d": 0, "l": 0, "plies": 0, "reasons": defaultdict(int),
                                 "ahead": 0, "level": 0, "behind": 0})
    order = []
    for path in sorted(root.rglob("*.csv")):
        for row in read_csv(path):
            if "winner" not in row:
                break
            w, b = row["white"], row["black"]
            mine = (lambda s: s == agent) if agent else is_search
            if mine(w) and not mine(b):
                me, opp, colour = w, b, "white"
            elif mine(b) and not mine(w):
                me, opp, colour = b, w, "black"
            else:
                continue
            key = (row["ruleset"], me, opp)
            if key not in cells:
                order.append(key)
            c = cells[key]
            if row["winner"] == "draw":
                c["d"] += 1
                mine_left = int(row[f"pieces_{colour}"])
                theirs_left = int(row["pieces_black" if colour == "white" else "pieces_white"])
                c["ahead" if mine_left > theirs_left else "level" if mine_left == theirs_left else "behind"] += 1
            elif row["winner"] == colour:
                c["w"] += 1
            else:
                c["l"] += 1
            c["plies"] += int(row["plies"])
            c["reasons"][row["reason"]] += 1
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["ruleset", "agent", "opponent", "games", "wins", "draws", "losses", "score", "score_lo",
                  "score_hi", "mean_plies", "reasons", "draws_ahead", "draws_level", "draws_behind"])
    for key in order:
        c = cells[key]
        n = c["w"] + c["d"] + c["l"]
        pts = c["w"] + 0.5 * c["d"]
        lo, hi = wilson(pts, n)
        reasons = " ".join(f"{r}:{k}" for r, k in sorted(c["reasons"].items()))
        out.writerow([*key, n, c["w"], c["d"], c["l"], f"{pts / n:.4f}", f"{lo:.4f}", f"{hi:.4f}",
                      f"{c['plies'] / n:.1f}", reasons, c["ahead"], c["level"], c["behind"]])


if __name__ == "__main__":
    run(main)
