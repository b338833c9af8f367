#!/usr/bin/env python3
"""What the ply cap cut short: the evidence for the ply caps of `run.sh` (README.md here,
"The ply cap").

    python3 experiments/az-all/at_cap.py [FOLDER ...] [--study GAMES_CSV]

For each FOLDER (a ruleset's folder of run.sh, default every one under experiments/az-all
and experiments/az-all/cap-200 with a vs-ab3-games.csv), the network's games against
alphabeta:depth=3: how many, how many were drawn at the ply cap, and in how many of those
the network had more pieces on the board than depth 3 when the cap came, as many, or
fewer (the games' pieces_white and pieces_black).

With --study (the reconstruction study's experiments/study/selfplay/games.csv), also how
long alphabeta:depth=3's self-play games on the seed rulesets ran at that survey's ply cap
of 1,000: games, the share longer than 200 plies, the median length.
"""
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import markdown_header, markdown_row, read_games, run  # noqa: E402

# The twelve seed rulesets, as run.sh's job array lists them.
SEED_RULESETS = [
    line.strip()
    for line in (Path(__file__).resolve().parent / "rulesets.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]


def at_cap(folder: Path) -> dict:
    """The ply-cap draws of a folder's vs-ab3-games.csv, split by who had more pieces."""
    counts = {"games": 0, "at_cap": 0, "ahead": 0, "level": 0, "behind": 0}
    for g in read_games(folder / "vs-ab3-games.csv", ("white", "reason", "pieces_white", "pieces_black")):
        counts["games"] += 1
        if g["reason"] != "ply-cap":
            continue
        counts["at_cap"] += 1
        net_white = g["white"].startswith("az:")
        mine, theirs = int(g["pieces_white"]), int(g["pieces_black"])
        if not net_white:
            mine, theirs = theirs, mine
        counts["ahead" if mine > theirs else "level" if mine == theirs else "behind"] += 1
    return counts


def study_lengths(path: Path) -> dict:
    """Per seed ruleset, the plies of alphabeta:depth=3's self-play games."""
    plies = {}
    for g in read_games(path, ("ruleset", "white", "black", "plies")):
        if g["white"] == g["black"] == "alphabeta:depth=3" and g["ruleset"] in SEED_RULESETS:
            plies.setdefault(g["ruleset"], []).append(int(g["plies"]))
    return plies


def main(argv: list) -> None:
    study = None
    if "--study" in argv:
        i = argv.index("--study")
        if i + 1 >= len(argv):
            sys.exit("at_cap.py: --study needs the study's games.csv")
        study = Path(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    here = Path(__file__).resolve().parent
    folders = [Path(a) for a in argv] or sorted(
        d for base in (here, here / "cap-200") if base.is_dir() for d in base.iterdir()
        if (d / "vs-ab3-games.csv").is_file()
    )
    print(markdown_header(["folder", "games against depth 3", "drawn at the ply cap", "the network ahead in pieces",
                           "level", "behind"]))
    for d in folders:
        if not (d / "vs-ab3-games.csv").is_file():
            sys.exit(f"at_cap.py: {d / 'vs-ab3-games.csv'} is missing")
        c = at_cap(d)
        name = os.path.relpath(d)
        print(markdown_row([name, *(c[k] for k in ("games", "at_cap", "ahead", "level", "behind"))]))
    if study is not None:
        plies = study_lengths(study)
        print()
        print(markdown_header(["ruleset", "depth-3 self-play games", "longer than 200 plies", "median plies"]))
        for r in SEED_RULESETS:
            p = plies.get(r)
            if p:
                over = sum(n > 200 for n in p) / len(p)
                print(markdown_row([r, len(p), f"{over:.2f}", f"{statistics.median(p):g}"]))


if __name__ == "__main__":
    run(main, sys.argv[1:])
