#!/usr/bin/env python3
"""The study's ladders side by side: each player's Elo on each ruleset, and how many of
the ladder's games were drawn.

Usage: python3 experiments/study/ladder_table.py experiments/study
Reads DIR/ladder/<ruleset>/ratings.csv and pairings.csv (`latrunculi ladder`; a ladder
whose ratings.csv is missing is still running and is left out) and prints a Markdown
table: one row per ruleset, one column per player of agents.txt (weakest first, short
names), "network" for a trained `az:` player, then the ladder's games, its draws and
the draws among the games between its three highest-rated players. The ladders of
Ludii's rulesets (`ludii-*`, the players of agents-ludii.txt) get a second table of
their own; a player outside a table's usual columns gets a column of its own at the
end, never left out. Elo is relative to `random` (0) on each ruleset; the 95% intervals
are in the ratings files.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run  # noqa: E402

SHORT = {
    "random": "random",
    "mcts:sims=100": "mcts100",
    "alphabeta:depth=1": "ab1",
    "mcts:sims=1000": "mcts1000",
    "alphabeta:depth=2": "ab2",
    "greedy": "greedy",
    "alphabeta:depth=3": "ab3",
    "mcts:sims=200": "mcts200",
}
# The twelve rulesets' players (agents.txt), and those of Ludii's rulesets (agents-ludii.txt).
COLUMNS = ["random", "mcts100", "ab1", "mcts1000", "ab2", "greedy", "ab3", "network"]
LUDII_COLUMNS = ["random", "greedy", "ab1", "mcts200", "ab2", "ab3"]


def short(agent: str) -> str:
    return "network" if agent.startswith("az:") else SHORT.get(agent, agent)


def ladder_row(folder: Path, columns: list[str]) -> str:
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
    cells = [f"{elo[c]:.0f}" if c in elo else "—" for c in columns]
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
    twelve = [d for d in folders if not d.name.startswith("ludii-")]
    ludii = [d for d in folders if d.name.startswith("ludii-")]
    for i, (group, base) in enumerate([(twelve, COLUMNS), (ludii, LUDII_COLUMNS)]):
        if not group:
            continue
        # Any player outside the usual columns gets one of its own, at the end.
        columns = list(base)
        for folder in group:
            for r in read_csv(folder / "ratings.csv"):
                if short(r["agent"]) not in columns:
                    columns.append(short(r["agent"]))
        if i and twelve:
            print()
        print("| ruleset | " + " | ".join(columns) + " | games | draws | draws among the top three |")
        print("|---|" + "---:|" * (len(columns) + 3))
        for folder in group:
            print(ladder_row(folder, columns))


if __name__ == "__main__":
    run(main)
