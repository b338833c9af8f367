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

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import newcombe, read_csv, run, survey_cells  # noqa: E402


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
    run(main)
