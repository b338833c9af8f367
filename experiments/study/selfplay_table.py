#!/usr/bin/env python3
"""The study's self-play draw rates as one Markdown grid: a row per ruleset, a column per
player (in the order of experiments/study/agents.txt), each cell `rate [95% CI] (games)`.

Usage: python3 experiments/study/selfplay_table.py experiments/study [SURVEY_DIR]
       python3 experiments/study/selfplay_table.py experiments/study --networks
       python3 experiments/study/selfplay_table.py experiments/study --elo SURVEY_DIR...
Reads DIR/selfplay/ (default; or the survey folder named) through `survey_cells` of
xxi_claim.py: its summary.csv, or, for a survey still running, its finished self-play
games (the grid then says it is provisional). A cell marked `*` is still open: its
draw rate's interval is wider than the survey's `half_width` (0.05) and it has fewer
games than its cap, read from the folder's config.toml (`games`, `[[cap]]` tables), or
it stands between two round boundaries (a running survey), so it gets more games.

With --networks: a row per trained network's self-play folder (DIR/selfplay-az-*/, one
self-play cell each): the ruleset, the network's Elo [95% CI] and rank on the ruleset's
ladder (DIR/ladder/<ruleset>/ratings.csv), its draw rate [95% CI] (games, `*` while
open), its draws by the reason the game ended (from games.csv) and the mean plies.

With --elo: the self-play cells of the survey folders named (e.g. the Ludii survey's
four players, experiments/ludii, and the study's `alphabeta:depth=3` on the same
rulesets, experiments/study/selfplay-ludii), a row per ruleset and a column per player,
each cell `rate [95% CI] @ Elo`, the Elo from the ruleset's ladder
(DIR/ladder/<ruleset>/ratings.csv; `—` while its ladder has not finished), and a last
column with the draw rate of the highest-rated of those players.
Standard library only.
"""

import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from ladder_table import SHORT  # noqa: E402  (one table of the players' short names)
from latrunculi_analysis import read_games, run, survey_cells  # noqa: E402
from xxi_claim import elo_text, player, ratings  # noqa: E402


def caps_of(config: dict) -> dict[str, int]:
    """Player -> the cap of its self-play cells (`games`, or its `[[cap]]` table)."""
    caps = {}
    for first, second in config.get("pairings", []):
        if first == second:
            caps[first] = config["games"]
    for c in config.get("cap", []):
        first, second = c["pairing"]
        if first == second:
            caps[first] = c["games"]
    return caps


def read_config(survey: Path) -> dict:
    config_path = survey / "config.toml"
    if not config_path.exists():
        sys.exit(f"{config_path} not found: not a survey folder (run `latrunculi survey` first)")
    return tomllib.loads(config_path.read_text())


def cell_text(c: dict, cap: int, config: dict) -> str:
    """`rate [lo, hi] (games)`, with `*` when the cell is still open under the config's
    stopping rule (interval wider than ±half_width below its cap, or between two round
    boundaries)."""
    half_width = config.get("half_width", 0.05)
    min_games = config.get("min_games", config["games"])
    batch = config.get("batch", min_games)
    n, lo, hi = int(c["games"]), float(c["draw_lo"]), float(c["draw_hi"])
    mid_round = n < min_games or (n - min_games) % batch != 0
    still_open = n < cap and (mid_round or (hi - lo) / 2 > half_width)
    return f"{float(c['draw_rate']):.2f} [{lo:.2f}, {hi:.2f}] ({n}){'*' if still_open else ''}"


def networks(study: Path) -> None:
    """The --networks table: one row per DIR/selfplay-az-*/ folder."""
    print("| ruleset | network | Elo [95% CI] (rank on the ladder) | draw rate [95% CI] (games) "
          "| draws by reason | mean plies |")
    print("|---|---|---|---|---|---|")
    folders = sorted(p for p in study.glob("selfplay-az-*") if p.is_dir())
    for survey in folders:
        if not (survey / "config.toml").exists():
            continue
        config = read_config(survey)
        caps = caps_of(config)
        games = read_games(survey / "games.csv", (), finished_only=True)
        for c in survey_cells(survey):
            first, _, second = c["pairing"].partition(" vs ")
            if first != second:
                continue
            ruleset = c["ruleset"]
            ladder = ratings(study, ruleset)
            r = ladder.get(player(first, ruleset))
            elo = "—" if r is None else f"{elo_text(r)} ({r['rank']} of {len(ladder)})"
            reasons: dict[str, int] = {}
            for g in games:
                if g["ruleset"] == ruleset and g["white"] == first and g["black"] == first and g["winner"] == "draw":
                    reasons[g["reason"]] = reasons.get(g["reason"], 0) + 1
            why = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])) or "—"
            partial = " (provisional)" if c.get("partial") == "1" else ""
            print(f"| {ruleset} | `{first}` | {elo} | {cell_text(c, caps.get(first, config['games']), config)}"
                  f"{partial} | {why} | {float(c['mean_plies']):.1f} |")
    if not folders:
        print(f"\nNo network self-play folder (selfplay-az-*) under {study}.")


def by_elo(study: Path, surveys: list[Path]) -> None:
    """The --elo table: each self-play cell's draw rate beside its player's Elo."""
    cells: dict[str, dict[str, dict]] = {}
    players: list[str] = []
    partial = False
    for survey in surveys:
        if not survey.is_dir():
            sys.exit(f"error: {survey} is not a folder")
        for c in survey_cells(survey):
            first, _, second = c["pairing"].partition(" vs ")
            if first != second:
                continue
            cells.setdefault(c["ruleset"], {})[first] = c
            partial |= c.get("partial") == "1"
            if first not in players:
                players.append(first)
    if not cells:
        sys.exit(f"error: no self-play cell in {', '.join(map(str, surveys))}")
    print("| ruleset | " + " | ".join(SHORT.get(p, p) for p in players) + " | the highest-rated player's draw rate |")
    print("|---|" + "---|" * (len(players) + 1))
    unrated = 0
    for ruleset, row in cells.items():
        ladder = ratings(study, ruleset)
        out = []
        rated = []  # (Elo, player) of the row's players that have one
        for p in players:
            c = row.get(p)
            if c is None:
                out.append("—")
                continue
            r = ladder.get(player(p, ruleset))
            unrated += r is None
            if r is not None:
                rated.append((float(r["elo"]), p))
            elo = "—" if r is None else f"{float(r['elo']):.0f}"
            out.append(f"{float(c['draw_rate']):.2f} [{float(c['draw_lo']):.2f}, {float(c['draw_hi']):.2f}] @ {elo}")
        top = "—"
        if rated:
            _, best = max(rated)
            top = f"{SHORT.get(best, best)} {float(row[best]['draw_rate']):.2f}"
        print(f"| {ruleset} | " + " | ".join(out) + f" | {top} |")
    if unrated:
        print(f"\n{unrated} cells have no Elo yet (`—`): their ruleset's ladder has not finished.")
    if partial:
        print("\nProvisional: a survey named has no summary.csv yet; its cells are counted from the games "
              "finished so far.")


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    study = Path(sys.argv[1])
    if sys.argv[2:] == ["--networks"]:
        networks(study)
        return
    if sys.argv[2:3] == ["--elo"]:
        if len(sys.argv) < 4:
            sys.exit(__doc__)
        by_elo(study, [Path(a) for a in sys.argv[3:]])
        return
    survey = Path(sys.argv[2]) if len(sys.argv) > 2 else study / "selfplay"
    config = read_config(survey)
    caps = caps_of(config)
    players = [p for p in caps]
    cells = {}
    partial = False
    for row in survey_cells(survey):
        first, _, second = row["pairing"].partition(" vs ")
        if first == second:
            cells[(row["ruleset"], first)] = row
            partial |= row.get("partial") == "1"
    print("| ruleset | " + " | ".join(SHORT.get(p, p) for p in players) + " |")
    print("|---|" + "---|" * len(players))
    for ruleset in config["rulesets"]:
        out = []
        for p in players:
            c = cells.get((ruleset, p))
            if c is None:
                out.append("—")
                continue
            out.append(cell_text(c, caps[p], config))
        print(f"| {ruleset} | " + " | ".join(out) + " |")
    if partial:
        print(f"\nProvisional: {survey} has no summary.csv yet; cells are counted from the games "
              "finished so far (a running survey), `*` marks those still open.")


if __name__ == "__main__":
    run(main)
