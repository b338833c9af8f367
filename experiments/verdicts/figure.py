#!/usr/bin/env python3
"""The figure and the table of the verdicts (issue: "The verdicts at strong play").

    python3 experiments/verdicts/figure.py [VERDICTS_CSV [OUT_PNG]]
    (defaults: experiments/verdicts/verdicts.csv, experiments/verdicts/verdicts.png)

The figure: one row of bars per ruleset, one bar per budget of each self-play player
(weaker above, stronger below), each bar split into the shares of games won by play
(dark), won by a piece count (adjudicated, hatched) and drawn (grey), with the draw
rate's 95% interval as a line; the ruleset's verdict is written at the right. A trained
network (`az:model=...`) is labelled "network".

The table (printed as Markdown, for the top README): per ruleset and self-play player,
the verdict, the largest budget with its draw rate, won-by-play and adjudicated rates
(95% intervals) and games, the next budget's draw rate, and the DLP's draw rate where
one exists. The rulesets of the sources come first, then Ludii's; a ruleset's variants
(adjudication turned off, `+end.adjudication=draw`; a rule changed; another board,
`@WxH`) are listed right after it, in the table and in the figure. Standard library and
matplotlib only.
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run  # noqa: E402

HERE = Path(__file__).resolve().parent


def fmt(r, k):
    return f"{float(r[k + '_rate']):.2f} [{float(r[k + '_lo']):.2f}, {float(r[k + '_hi']):.2f}]"


def short(player: str) -> str:
    """A player's name for the figure's labels: a trained network (`az:model=PATH,...`)
    is "network"; other specs as they are."""
    return "network" if player.startswith("az:") else player


def base(ruleset: str) -> str:
    """The ruleset a label varies: `kowalski+end.adjudication=draw` and `petteia-xxi@10x8`
    vary `kowalski` and `petteia-xxi`."""
    for sep in "+@":
        ruleset = ruleset.split(sep, 1)[0]
    return ruleset


def natural(name: str) -> list:
    """A sort key that orders the numbers in a name by value: `seega-6x6` < `seega-10x10`."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name)]


def ordered(keys: list) -> list:
    """(ruleset, player) keys in the order the table and the figure list them: the
    rulesets of the sources in the order of first appearance in the file, then Ludii's
    (`ludii-...`) by name, and every variant of a ruleset (adjudication off, a
    rule changed, another board) right after the ruleset itself."""
    bases = []
    for ruleset, _ in keys:
        if base(ruleset) not in bases:
            bases.append(base(ruleset))
    # The sources' rulesets in the order of first appearance (that of `latrunculi rules`
    # when the games were played in it); Ludii's by name, board sizes by number
    # (`ludii-seega-6x6` before `ludii-seega-10x10`).
    bases.sort(key=lambda b: (b.startswith("ludii-"), natural(b) if b.startswith("ludii-") else []))
    rank = {b: i for i, b in enumerate(bases)}
    first = {k: i for i, k in enumerate(keys)}
    return sorted(keys, key=lambda k: (rank[base(k[0])], k[0] != base(k[0]), first[k]))


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "verdicts.csv"
    png = Path(sys.argv[2]) if len(sys.argv) > 2 else src.with_suffix(".png")
    rows = [r for r in read_csv(src, ("budget",)) if r["budget"]]  # self-play players at a budget
    if not rows:
        sys.exit(f"{src}: no self-play cell with a budget")
    by = defaultdict(list)  # (ruleset, player) -> rows in budget order (as the file has them)
    for r in rows:
        by[(r["ruleset"], r["player"])].append(r)
    order = ordered(list(by))

    print("| ruleset | player | verdict | draw rate at the larger budget | won by play | by count | games | at the smaller budget | DLP |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key in order:
        cells = by[key]
        top = cells[-1]
        prev = cells[-2] if len(cells) > 1 else None
        dlp = f"{float(top['dlp_draw_rate']):.2f} ({top['dlp_trials']})" if top["dlp_draw_rate"] else ""
        smaller = f"{fmt(prev, 'draw')} (`{prev['budget']}`)" if prev else ""
        print(f"| {key[0]} | `{key[1]}` at `{top['budget']}` | {top['verdict']} | {fmt(top, 'draw')} | "
              f"{fmt(top, 'won_by_play')} | {fmt(top, 'adjudicated')} | {top['games']} | {smaller} | {dlp} |")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    bars = [(key, r) for key in order for r in by[key]]
    fig, ax = plt.subplots(figsize=(9, 0.28 * len(bars) + 1.2))
    y = list(range(len(bars)))[::-1]
    labels = []
    for yi, (key, r) in zip(y, bars):
        play, count, draw = (float(r[k]) for k in ("won_by_play_rate", "adjudicated_rate", "draw_rate"))
        ax.barh(yi, play, color="#2b5d8a", height=0.8)
        ax.barh(yi, count, left=play, color="#9fc3e0", hatch="//", edgecolor="#2b5d8a", height=0.8)
        ax.barh(yi, draw, left=play + count, color="#c8c8c8", height=0.8)
        lo, hi = float(r["draw_lo"]), float(r["draw_hi"])
        ax.plot([1 - hi, 1 - lo], [yi, yi], color="black", lw=1.2)
        labels.append(f"{key[0]}  {short(key[1])} {r['budget']}")
        if r["verdict"]:
            ax.text(1.01, yi, r["verdict"], va="center", fontsize=7)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games: won by play | won by a piece count | drawn (line: the draw rate's 95% interval)")
    ax.set_title("How self-play games end, at each budget", fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=110, bbox_inches="tight")
    print(f"\n-> {png}", file=sys.stderr)


if __name__ == "__main__":
    run(main)
