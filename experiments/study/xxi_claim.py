#!/usr/bin/env python3
"""The XXI claim (issue 11): do XXI's rules end fewer games in draws than the classical ones?

Usage: python3 experiments/study/xxi_claim.py experiments/study [BASE] [VARIANT]
(BASE defaults to `classical`, VARIANT to `xxi`.)

The claim (source 001, the XXI reconstruction): under the classical rules games between
good players end in draws; XXI's rules fix that. For every player that has a self-play
cell on both rulesets (DIR/selfplay*/summary.csv, written by `latrunculi survey`), this
prints the two draw rates with their Wilson 95% intervals, their difference
(BASE - VARIANT) with Newcombe's hybrid-score 95% interval (Newcombe 1998, method 10),
and each player's Elo on both rulesets where its ladder exists (DIR/ladder/<ruleset>/
ratings.csv). Players are ordered by their Elo on BASE (by name when unrated). A trained
network is trained per ruleset, so its spec names the ruleset (`az:model=experiments/
az-v2-classical/latest.az,...`); the two rulesets' networks of one recipe count as one
player, "each ruleset's own network", written with `<ruleset>` in place of the ruleset's
id (`az:model=experiments/az-v2-<ruleset>/latest.az,...`).

Then a verdict per player: "fewer draws under VARIANT" when the difference's interval
lies above 0, "more draws under VARIANT" when below, "no difference resolved" when it
contains 0; and one overall sentence for the three strongest players both rulesets share.
Works on a partial study: it says which players are missing, and a self-play survey still
running (games.csv but no summary.csv yet) is counted from its finished games, marked
provisional. Standard library only.
"""

import csv
import math
import re
import sys
from pathlib import Path

Z95 = 1.959963984540054


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of k successes in n trials ((0, 1) when n = 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """p1 - p2 and Newcombe's hybrid-score 95% interval (method 10)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


def read_csv(path: Path) -> list[dict]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def finished_games(path: Path) -> list[dict]:
    """The complete rows of a games.csv that a survey may still be appending to (a last
    line without its newline is left out)."""
    text = path.read_text()
    if not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
    return list(csv.DictReader(text.splitlines()))


def survey_cells(d: Path) -> list[dict]:
    """The cells of the survey folder `d`: the rows of its summary.csv, or, for a survey
    still running (games.csv, no summary.csv yet), its self-play cells counted from the
    finished games (`ruleset`, `pairing`, `games`, `white_wins`, `draws`, `draw_rate`,
    `draw_lo`, `draw_hi`, `white_score`, `white_score_lo`, `white_score_hi`, `mean_plies`,
    and `partial` = "1"); empty when it has neither file."""
    if (d / "summary.csv").exists():
        return read_csv(d / "summary.csv")
    if not (d / "games.csv").exists():
        return []
    tally: dict[tuple[str, str], list[int]] = {}
    for g in finished_games(d / "games.csv"):
        if g["white"] == g["black"]:
            t = tally.setdefault((g["ruleset"], g["white"]), [0, 0, 0, 0])
            t[0] += 1
            t[1] += g["winner"] == "draw"
            t[2] += int(g["plies"])
            t[3] += g["winner"] == "white"
    rows = []
    for (ruleset, player), (games, draws, plies, white) in tally.items():
        lo, hi = wilson(draws, games)
        score = white + draws / 2
        wlo, whi = wilson(score, games)
        rows.append({"ruleset": ruleset, "pairing": f"{player} vs {player}", "games": str(games),
                     "white_wins": str(white), "draws": str(draws), "draw_rate": str(draws / games),
                     "draw_lo": str(lo), "draw_hi": str(hi), "white_score": str(score / games),
                     "white_score_lo": str(wlo), "white_score_hi": str(whi),
                     "mean_plies": str(plies / games), "partial": "1"})
    return rows


def player(spec: str, ruleset: str) -> str:
    """The player a spec on `ruleset` stands for: the spec itself, except that a model file
    under a folder named after the ruleset (`.../az-v2-classical/latest.az` on `classical`)
    becomes `.../az-v2-<ruleset>/latest.az`, the same recipe's network on every ruleset."""
    return re.sub(r"(model=[^,]*[-/])" + re.escape(ruleset) + "/", r"\g<1><ruleset>/", spec)


def self_play_cells(folder: Path, ruleset: str) -> dict[str, dict]:
    """Player (see `player`) -> its self-play cell on `ruleset` (`games`, `draws`; `partial`
    set when counted from the games.csv of a survey that has not written its summary.csv
    yet)."""
    cells = {}
    for sub in sorted(p for p in folder.glob("selfplay*") if p.is_dir()):
        for row in survey_cells(sub):
            first, _, second = row["pairing"].partition(" vs ")
            if row["ruleset"] == ruleset and first == second:
                cells[player(first, ruleset)] = row
    return cells


def ratings(folder: Path, ruleset: str) -> dict[str, dict]:
    """Player (see `player`) -> its row of the ruleset's ladder ratings.csv."""
    path = folder / "ladder" / ruleset / "ratings.csv"
    return {player(r["agent"], ruleset): r for r in read_csv(path)} if path.exists() else {}


def verdict(lo: float, hi: float, variant: str) -> str:
    if lo > 0:
        return f"fewer draws under {variant}"
    if hi < 0:
        return f"more draws under {variant}"
    return "no difference resolved"


def elo_text(r: dict | None) -> str:
    return "—" if r is None else f"{float(r['elo']):.0f} [{float(r['elo_lo']):.0f}, {float(r['elo_hi']):.0f}]"


def main() -> None:
    if len(sys.argv) not in (2, 3, 4):
        sys.exit(__doc__)
    folder = Path(sys.argv[1])
    base = sys.argv[2] if len(sys.argv) > 2 else "classical"
    variant = sys.argv[3] if len(sys.argv) > 3 else "xxi"
    cb, cv = self_play_cells(folder, base), self_play_cells(folder, variant)
    rb, rv = ratings(folder, base), ratings(folder, variant)
    shared = [p for p in cb if p in cv]
    missing = sorted(set(cb) ^ set(cv))
    if not shared:
        sys.exit(f"error: no player has a self-play cell on both {base} and {variant} under {folder}")

    def strength(p: str) -> tuple:
        return (0, float(rb[p]["elo"])) if p in rb else (1, p)

    shared.sort(key=strength)
    print(f"| player | Elo on {base} | Elo on {variant} | {base} draws | {variant} draws "
          f"| difference ({base} − {variant}) [95% CI] | verdict |")
    print("|---|---|---|---|---|---|---|")
    results = []
    for p in shared:
        b, v = cb[p], cv[p]
        kb, nb, kv, nv = int(b["draws"]), int(b["games"]), int(v["draws"]), int(v["games"])
        d, lo, hi = newcombe(kb, nb, kv, nv)
        results.append((p, d, lo, hi))
        print(f"| {p} | {elo_text(rb.get(p))} | {elo_text(rv.get(p))} "
              f"| {kb}/{nb} = {kb / nb:.2f} | {kv}/{nv} = {kv / nv:.2f} "
              f"| {d:+.2f} [{lo:+.2f}, {hi:+.2f}] | {verdict(lo, hi, variant)} |")
    if missing:
        print(f"\nNot on both rulesets yet: {', '.join(missing)}.")
    partial = [p for p in shared if cb[p].get("partial") or cv[p].get("partial")]
    if partial:
        print(f"\nProvisional: the cells of {', '.join(partial)} are counted from the games finished so far "
              f"(their survey has not written summary.csv yet), so their games may still grow.")
    rated = [r for r in results if r[0] in rb]
    if len(rated) < 3:
        print(f"\nNo verdict yet: fewer than three shared players are rated on {base} "
              f"({folder / 'ladder' / base / 'ratings.csv'}).")
        return
    top = rated[-3:]
    names = ", ".join(p for p, *_ in top)
    fewer = [p for p, _, lo, _ in top if lo > 0]
    more = [p for p, _, _, hi in top if hi < 0]
    label = "Provisional verdict" if any(p in partial for p, *_ in top) else "Verdict"
    print()
    if len(fewer) == len(top):
        print(f"{label}: at the {len(top)} strongest shared players ({names}) every game set shows fewer draws "
              f"under {variant} than under {base}, each difference's 95% interval above 0: the claim holds "
              f"at these strengths.")
    elif more:
        print(f"{label}: at the strongest shared players ({names}), {variant} draws more than {base} for "
              f"{', '.join(more)}: the claim fails there.")
    else:
        print(f"{label}: at the strongest shared players ({names}), {len(fewer)} of {len(top)} show fewer draws "
              f"under {variant} with 95% confidence; for the others the difference is not resolved.")


if __name__ == "__main__":
    main()
