#!/usr/bin/env python3
"""The learning curves of `experiments/az-all/run.sh` (step 4): Elo against the wall-clock
time of the ruleset's hour (the teacher's games, then training), one line per ruleset.

    python3 experiments/az-all/curve.py [FOLDER]      (default: experiments/az-all)

Reads FOLDER/RULESET/curve/iter-NNNN.csv (a checkpoint against alphabeta:depth=3 and the
teacher), curve/teacher.csv (the teacher against alphabeta:depth=3) and train_log.csv
(the training seconds at each iteration) and times.csv (the teacher's seconds); writes
FOLDER/curve.csv and FOLDER/learning_curves.png. Folders RULESET@WxH (a ruleset on another
board, trained for a family's comparison: experiments/az-family) are left out, as in
table.py.

The Elo scale puts alphabeta:depth=3 at 0 on every ruleset. The teacher's Elo is
400·log10(s / (1 − s)) of its score s against alphabeta:depth=3; a checkpoint's Elo is
the games-weighted mean, over its two opponents, of the opponent's Elo plus
400·log10(s / (1 − s)) of its score s against that opponent. Scores are smoothed as
(points + 0.5) / (games + 1) so that a clean sweep gives a finite figure: with 10 games
a pairing, the scale spans about ±530 Elo around each opponent, and a point is only as
precise as its 10–20 games (about ±150 Elo).

curve.csv columns: ruleset, iteration, elapsed_s (training seconds when the checkpoint
was written, warm start included), wall_s (the teacher's seconds plus elapsed_s: where the
checkpoint stands in the ruleset's hour), games_ab3, score_ab3, games_teacher,
score_teacher, teacher_elo, elo.
"""
import csv
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run  # noqa: E402


def rows(path: Path):
    return read_csv(path)


def smoothed_elo(points: float, games: int) -> float:
    s = (points + 0.5) / (games + 1)
    return 400 * math.log10(s / (1 - s))


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
    out = []
    for d in sorted(p for p in folder.iterdir() if (p / "curve" / "teacher.csv").is_file() and "@" not in p.name):
        t = rows(d / "curve" / "teacher.csv")[-1]
        teacher_elo = smoothed_elo(float(t["score"]) * int(t["games"]), int(t["games"]))
        elapsed = {int(r["iteration"]): float(r["elapsed_s"] or 0) for r in rows(d / "train_log.csv")}
        teacher_s = sum(float(r["seconds"]) for r in rows(d / "times.csv") if r["step"] == "teacher")
        for f in sorted((d / "curve").glob("iter-[0-9][0-9][0-9][0-9].csv")):
            it = int(f.stem.split("-")[1])
            by_opp = {r["opponent"]: r for r in rows(f)}
            ab3 = by_opp.get("alphabeta:depth=3")
            teacher = next((r for o, r in by_opp.items() if o != "alphabeta:depth=3"), None)
            parts = []
            for r, base in ((ab3, 0.0), (teacher, teacher_elo)):
                if r:
                    n = int(r["games"])
                    parts.append((n, base + smoothed_elo(float(r["score"]) * n, n)))
            if not parts:
                continue
            elo = sum(n * e for n, e in parts) / sum(n for n, _ in parts)
            at = elapsed.get(it, float("nan"))
            out.append({
                "ruleset": d.name, "iteration": it, "elapsed_s": f"{at:.0f}", "wall_s": f"{teacher_s + at:.0f}",
                "games_ab3": ab3["games"] if ab3 else "", "score_ab3": ab3["score"] if ab3 else "",
                "games_teacher": teacher["games"] if teacher else "", "score_teacher": teacher["score"] if teacher else "",
                "teacher_elo": f"{teacher_elo:.0f}", "elo": f"{elo:.0f}",
            })
    if not out:
        sys.exit(f"{folder}: no curve yet (RULESET/curve/teacher.csv)")
    with (folder / "curve.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(out[0]))
        w.writeheader()
        w.writerows(out)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5))
    # Twelve lines: a colour each, tab20's ten dark shades before its ten light ones, and
    # markers in turn, so that no two rulesets look alike.
    tab20 = plt.get_cmap("tab20").colors
    colours = tab20[0::2] + tab20[1::2]
    markers = "osD^v<>p"
    for i, name in enumerate(sorted({r["ruleset"] for r in out})):
        pts = sorted((float(r["wall_s"]) / 60, float(r["elo"])) for r in out if r["ruleset"] == name)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=markers[i % len(markers)],
                color=colours[i % len(colours)], label=name)
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("wall-clock minutes of the ruleset's hour (the teacher's games, then training)")
    ax.set_ylabel("Elo (alphabeta:depth=3 = 0)")
    ax.set_title("Networks taught by the search player: Elo against wall-clock time")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(folder / "learning_curves.png", dpi=120)
    print(f"-> {folder / 'curve.csv'}, {folder / 'learning_curves.png'} ({len(out)} points)")


if __name__ == "__main__":
    run(main)
