#!/usr/bin/env python3
"""Draw rate (and game length) against playing strength, one line per ruleset.

Usage: python3 experiments/plot_study.py experiments/study [SURVEY_DIR...]
Reads DIR/ladder/<ruleset>/ratings.csv (`latrunculi ladder`: Elo of each player on that
ruleset, random = 0), the summary.csv of every DIR/selfplay*/ folder (`latrunculi
survey`: self-play cells `P vs P`) and SURVEY_DIR/summary.csv of each further survey
folder named (e.g. experiments/ludii, the Ludii survey's cells); a survey still running
(games.csv, no summary.csv yet) is counted from its finished games, with a note that its
cells are provisional. Joins them on (ruleset,
player), writes DIR/draw_vs_elo.png for the twelve rulesets and DIR/draw_vs_elo_ludii.png
for the `ludii-*` ones (draw rate with its 95% interval against the player's Elo; a
second panel: mean game length) and prints a Markdown table per ruleset. Players without a
rating on a ruleset (its ladder not run yet) are left out, with a note. Needs only
matplotlib (experiments/requirements.txt).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from latrunculi_analysis import read_csv, run, survey_cells  # noqa: E402


def cells_of(d: Path) -> list[dict]:
    """`survey_cells(d)` (lib/latrunculi_analysis.py), with a note when `d` has no games yet or is a
    survey still running (its cells counted from the games finished so far)."""
    rows = survey_cells(d)
    if (d / "summary.csv").exists():
        return rows
    if not (d / "games.csv").exists():
        print(f"note: {d} has no summary.csv or games.csv yet: its cells are left out", file=sys.stderr)
    else:
        print(f"note: {d} has no summary.csv yet (survey still running?): its cells are counted from the "
              f"{sum(int(r['games']) for r in rows)} self-play games finished so far (provisional)", file=sys.stderr)
    return rows


def collect(folder: Path, surveys: tuple[Path, ...] | list[Path] = ()) -> dict[str, list[dict]]:
    ratings: dict[tuple[str, str], dict] = {}
    for rfile in sorted((folder / "ladder").glob("*/ratings.csv")):
        for r in read_csv(rfile):
            ratings[(rfile.parent.name, r["agent"])] = r
    out: dict[str, list[dict]] = {}
    missing = []
    cells = []
    for d in sorted(p for p in folder.glob("selfplay*") if p.is_dir()) + list(surveys):
        cells.extend(cells_of(d))
    for cell in cells:
        first, _, second = cell["pairing"].partition(" vs ")
        if first != second:
            continue
        key = (cell["ruleset"], first)
        if key not in ratings:
            missing.append(f"{cell['ruleset']} / {first}")
            continue
        out.setdefault(cell["ruleset"], []).append({**cell, "player": first, "elo": float(ratings[key]["elo"]),
                                                   "elo_lo": float(ratings[key]["elo_lo"]),
                                                   "elo_hi": float(ratings[key]["elo_hi"])})
    if missing:
        print(f"note: no rating yet for {len(missing)} self-play cells, e.g. {missing[0]}", file=sys.stderr)
    for rows in out.values():
        rows.sort(key=lambda r: r["elo"])
    return out


def table(data: dict[str, list[dict]]) -> str:
    lines = ["| ruleset | player | Elo [95% CI] | games | draw rate [95% CI] | mean plies |", "|---|---|---|---:|---|---:|"]
    for rs, rows in data.items():
        for r in rows:
            lines.append(
                f"| {rs} | {r['player']} | {r['elo']:.0f} [{r['elo_lo']:.0f}, {r['elo_hi']:.0f}] | {r['games']} "
                f"| {float(r['draw_rate']):.2f} [{float(r['draw_lo']):.2f}, {float(r['draw_hi']):.2f}] "
                f"| {float(r['mean_plies']):.0f} |"
            )
    return "\n".join(lines)


def plot(data: dict[str, list[dict]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(13, 5.5))
    colours = plt.get_cmap("tab10").colors
    for i, (rs, rows) in enumerate(data.items()):
        # Ten colours, then the same colours dashed and dotted with other markers, so that
        # no two of up to 30 rulesets look alike.
        style = {"color": colours[i % 10], "ls": ["-", "--", ":"][i // 10 % 3], "marker": "osD"[i // 10 % 3]}
        x = [r["elo"] for r in rows]
        y = [float(r["draw_rate"]) for r in rows]
        # Clamped at 0: at a rate of exactly 0 or 1 the interval's end can miss it by a rounding error.
        err = [[max(0.0, y[i] - float(r["draw_lo"])) for i, r in enumerate(rows)],
               [max(0.0, float(r["draw_hi"]) - y[i]) for i, r in enumerate(rows)]]
        a.errorbar(x, y, yerr=err, ms=4, capsize=2, label=rs, **style)
        b.plot(x, [float(r["mean_plies"]) for r in rows], ms=4, label=rs, **style)
    a.set_xlabel("Elo of the player on that ruleset (random = 0)")
    a.set_ylabel("self-play draw rate (95% interval)")
    a.set_ylim(-0.02, 1.02)
    b.set_xlabel("Elo of the player on that ruleset (random = 0)")
    b.set_ylabel("mean game length (plies)")
    a.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"-> {out}", file=sys.stderr)


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder = Path(sys.argv[1])
    surveys = [Path(a) for a in sys.argv[2:]]
    for d in surveys:
        if not d.is_dir():
            sys.exit(f"error: {d} is not a folder")
    data = collect(folder, surveys)
    if not data:
        sys.exit(f"error: no self-play cell with a rating under {folder}")
    twelve = {rs: rows for rs, rows in data.items() if not rs.startswith("ludii-")}
    ludii = {rs: rows for rs, rows in data.items() if rs.startswith("ludii-")}
    if twelve:
        plot(twelve, folder / "draw_vs_elo.png")
    if ludii:
        plot(ludii, folder / "draw_vs_elo_ludii.png")
    print(table(data))


if __name__ == "__main__":
    run(main)
