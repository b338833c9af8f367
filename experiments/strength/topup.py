#!/usr/bin/env python3
"""The pairings of the `all` part to play on (`run.sh topup`), and their first games.

    python3 experiments/strength/topup.py ALL_DIR TOPUP_DIR GAMES

A pairing is played on when its SPRT stopped it in the player's favour (H1) with the
lower 95% bound of its score at 0.6 or below, before GAMES games: the SPRT decides
between 0 and 200 Elo, which it can do before the interval clears the issue's bar of 0.6.
The rule is fixed before any extra game is seen, and the extra games are played without
the SPRT to exactly GAMES games. For each such pairing this writes
TOPUP_DIR/NAME-games.csv holding its games from ALL_DIR/RULESET-games.csv (the first
games of the longer run: same seeds, same games), unless that file exists, and prints
`RULESET OPPONENT NAME`, one pairing per line (NAME: RULESET--OPPONENT with `:` and `=`
as `-`). Standard library only.
"""
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run  # noqa: E402


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    all_dir, topup, games = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    topup.mkdir(parents=True, exist_ok=True)
    for summary in sorted(all_dir.glob("*.csv")):
        if summary.name.endswith("-games.csv") or summary.name == "table.csv":
            continue
        rows = read_csv(summary)
        for r in rows:
            if r.get("sprt") != "H1" or float(r["score_lo"]) > 0.6 or int(r["games"]) >= games:
                continue
            opp = r["opponent"]
            name = f"{r['ruleset']}--{opp.replace(':', '-').replace('=', '-')}"
            out = topup / f"{name}-games.csv"
            if not out.exists():
                with (all_dir / f"{r['ruleset']}-games.csv").open(newline="") as f:
                    reader = csv.DictReader(f)
                    mine = [g for g in reader if opp in (g["white"], g["black"])]
                    header = reader.fieldnames
                if len(mine) != int(r["games"]):
                    sys.exit(f"{summary}: {r['games']} games against {opp}, but {len(mine)} in the games file")
                with out.open("w", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
                    w.writeheader()
                    w.writerows(mine)
            print(r["ruleset"], opp, name)


if __name__ == "__main__":
    run(main)
