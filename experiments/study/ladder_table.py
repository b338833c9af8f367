#!/usr/bin/env python3
"""The study's ladders side by side: each player's Elo on each ruleset, and how many of
the ladder's games were drawn.

Usage: python3 experiments/study/ladder_table.py experiments/study
Reads DIR/ladder/<ruleset>/ratings.csv and pairings.csv (`latrunculi ladder`; a ladder
whose ratings.csv is missing is still running and is left out) and prints a Markdown
table: one row per ruleset, one column per player of agents.txt (weakest first, short
names), "network" for a trained `az:` player, then the ladder's games, its draws and
the draws among the games between its three highest-rated players. Elo is relative to
`random` (0) on each ruleset; the 95% intervals are in the ratings files.
"""

import csv
import sys
from pathlib import Path

SHORT = {
    "random": "random",
    "mcts:sims=100": "mcts100",
    "alphabeta:depth=1": "ab1",
    "mcts:sims=1000": "mcts1000",
    "alphabeta:depth=2": "ab2",
    "greedy": "greedy",
    "alphabeta:depth=3": "ab3",
}
COLUMNS = ["random", "mcts100", "ab1", "mcts1000", "ab2", "greedy", "ab3", "network"]


def short(agent: str) -> str:
    return "network" if agent.startswith("az:") else SHORT.get(agent, agent)


def read_csv(path: Path) -> list[dict]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def ladder_row(folder: Path) -> str:
    ratings = read_csv(folder / "ratings.csv")
    elo = {short(r["agent"]): float(r["elo"]) for r in ratings}
    top3 = {r["agent"] for r in sorted(ratings, key=lambda r: -float(r["elo"]))[:3]}
    games = draws = top_games = top_draws = 0
    for p in read_csv(folder / "pairings.csv"):
        g, d = int(p["games"]), int(p["draws"])
        games += g
        draws += d
        if p["agent"] in top3 and p["opponent"] in top3:
            top_games += g
            top_draws += d
    cells = [f"{elo[c]:.0f}" if c in elo else "—" for c in COLUMNS]
    return (
        f"| {folder.name} | " + " | ".join(cells) + f" | {games} | {draws} ({draws / games:.2f}) "
        f"| {top_draws} of {top_games} |"
    )


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = Path(sys.argv[1]) / "ladder"
    folders = sorted(d for d in root.glob("*") if (d / "ratings.csv").is_file())
    if not folders:
        sys.exit(f"error: no finished ladder under {root}")
    print("| ruleset | " + " | ".join(COLUMNS) + " | games | draws | draws among the top three |")
    print("|---|" + "---:|" * (len(COLUMNS) + 3))
    for folder in folders:
        print(ladder_row(folder))


if __name__ == "__main__":
    main()
