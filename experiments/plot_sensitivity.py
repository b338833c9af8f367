#!/usr/bin/env python3
"""Tornado plots and a table of a rule-sensitivity survey.

Usage: python3 experiments/plot_sensitivity.py DIR
Reads DIR/summary.csv of a survey whose rulesets are those written by
`latrunculi sensitivity` (each ruleset as published, then variants `ID+key=value` and
`ID@WxH`), or, for a survey still running (games.csv, no summary.csv yet), its finished
self-play games (`survey_cells` of study/xxi_claim.py), marked provisional. Writes DIR/tornado.png (one panel per ruleset: each variant's
draw rate minus the published ruleset's, with the variant's 95% Wilson interval shifted
the same way, sorted by the size of the change) and prints a Markdown table: per variant
the draw rate and White's score (wins + draws/2) with their 95% Wilson intervals, and
each one's difference to the published ruleset with Newcombe's 95% interval for a
difference of two proportions (method 10); a difference whose interval excludes 0 is
marked *. Needs only matplotlib (experiments/requirements.txt).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from latrunculi_analysis import newcombe, run, survey_cells  # noqa: E402


def base_of(label: str) -> str:
    return label.split("+", 1)[0].split("@", 1)[0]


def read(folder: Path) -> dict[str, list[dict]]:
    path = folder / "summary.csv"
    if not path.is_file() and not (folder / "games.csv").is_file():
        sys.exit(f"error: neither {path} nor {folder / 'games.csv'} found (has the survey run?)")
    cells = survey_cells(folder)
    if not path.is_file():
        print(f"note: {folder} has no summary.csv yet (survey still running?): provisional, counted from the "
              f"{sum(int(c['games']) for c in cells)} self-play games finished so far", file=sys.stderr)
    groups: dict[str, list[dict]] = {}
    for r in cells:
        groups.setdefault(base_of(r["ruleset"]), []).append(r)
    for base, rows in groups.items():
        if not any(r["ruleset"] == base for r in rows):
            sys.exit(f"error: the published ruleset '{base}' is not in {path}")
    return groups


def difference(k: float, n: int, k0: float, n0: int) -> str:
    """`p - p0 [lo, hi]` by Newcombe's method, `*` when the interval excludes 0."""
    d, lo, hi = newcombe(k, n, k0, n0)
    return f"{d:+.2f} [{lo:+.2f}, {hi:+.2f}]" + ("*" if lo > 0 or hi < 0 else "")


def table(groups: dict[str, list[dict]]) -> str:
    lines = [
        "| ruleset / variant | games | draw rate [95% CI] | Δ draw [95% CI] | white score [95% CI] | Δ white [95% CI] |",
        "|---|---:|---|---|---|---|",
    ]
    for base, rows in groups.items():
        ref = next(r for r in rows if r["ruleset"] == base)
        n0, k0 = int(ref["games"]), int(ref["draws"])
        w0 = int(ref["white_wins"]) + k0 / 2
        for r in rows:
            n, k = int(r["games"]), int(r["draws"])
            w = int(r["white_wins"]) + k / 2
            lo, hi = float(r["draw_lo"]), float(r["draw_hi"])
            wlo, whi = float(r["white_score_lo"]), float(r["white_score_hi"])
            name = r["ruleset"] if r is ref else "  " + r["ruleset"][len(base):]
            dd = "" if r is ref else difference(k, n, k0, n0)
            dw = "" if r is ref else difference(w, n, w0, n0)
            lines.append(
                f"| {name} | {n} | {k / n:.2f} [{lo:.2f}, {hi:.2f}] | {dd} | {w / n:.2f} [{wlo:.2f}, {whi:.2f}] | {dw} |"
            )
    return "\n".join(lines)


def plot(groups: dict[str, list[dict]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [(b, rows) for b, rows in groups.items() if len(rows) > 1]
    if not panels:
        print("no variants to plot", file=sys.stderr)
        return
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 1.2 + 0.35 * sum(len(r) for _, r in panels)), squeeze=False)
    for ax, (base, rows) in zip(axes[:, 0], panels):
        ref = next(r for r in rows if r["ruleset"] == base)
        d0 = float(ref["draw_rate"])
        variants = [r for r in rows if r is not ref]
        variants.sort(key=lambda r: abs(float(r["draw_rate"]) - d0))
        for i, r in enumerate(variants):
            d, lo, hi = float(r["draw_rate"]), float(r["draw_lo"]), float(r["draw_hi"])
            ax.barh(i, d - d0, color="tab:red" if d > d0 else "tab:blue", alpha=0.7)
            ax.plot([lo - d0, hi - d0], [i, i], color="black", lw=1)
        ax.set_yticks(range(len(variants)), [r["ruleset"][len(base):] for r in variants], fontsize=8)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_title(f"{base}: draw rate {d0:.2f} as published ({ref['pairing']})", fontsize=9)
        ax.set_xlim(-1, 1)
    axes[-1, 0].set_xlabel("draw rate of the variant minus the published ruleset's (bar: 95% interval of the variant)")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"-> {out}", file=sys.stderr)


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = Path(sys.argv[1])
    groups = read(folder)
    plot(groups, folder / "tornado.png")
    print(table(groups))


if __name__ == "__main__":
    run(main)
