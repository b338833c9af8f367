#!/usr/bin/env python3
"""Rewrites the tables of the `equal-time`, `networks`, `ab` and `ab-time` parts (and of
`ab/kowalski-fitted/`, the A/B on kowalski while it had a fitted file) in
experiments/strength/README.md from their files (`run.sh PART` writes them), and the
table of `ordering-cost.csv` (the `ordering_cost` example).

    python3 experiments/strength/parts_table.py

Each part's table sits between the lines `<!-- table:PART -->` and `<!-- /table:PART -->`
of the README; the text around them is left alone. A row per pairing, read from the
pairing's eval CSV (`PART/NAME.csv`, as `latrunculi eval` writes it after every round)
and its games (`PART/NAME-games.csv`, for the end reasons). The state column says how the
pairing stands: `H1`/`H0` (the SPRT decided), `cap` (all its games played), or
`running` (still going when the results were committed). Standard library only.
"""
import math
import os
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run  # noqa: E402

ROOT = Path(__file__).resolve().parent
# The most games of an equal-time pairing, as `run.sh equal-time` plays them.
EQUAL_TIME_GAMES = int(os.environ.get("EQUAL_TIME_GAMES", "40"))
SEEDS = ("kowalski kowalski-parcae classical xxi single-stone-xxi petteia-xxi common back-rank savard falkener bell "
         "schadler").split()


def pairings(part):
    """(eval row, end reasons, file stem) for every pairing of a part, in file order."""
    out = []
    folder = ROOT / part
    if not folder.is_dir():
        return out
    for f in sorted(folder.glob("*.csv")):
        if f.name.endswith("-games.csv") or f.name in ("table.csv", "move-time.csv"):
            continue
        games = f.with_name(f.stem + "-games.csv")
        rows = list(read_csv(f))
        played = list(read_csv(games)) if games.exists() else []
        for r in rows:
            sides = {r["agent"], r["opponent"]}
            reasons = Counter(g["reason"] for g in played if {g["white"], g["black"]} == sides)
            out.append((r, " ".join(f"{k}:{v}" for k, v in sorted(reasons.items())), f.stem))
    return out


def state(r, cap):
    if r["sprt"] in ("H0", "H1"):
        return r["sprt"]
    return "cap" if int(r["games"]) >= cap else "running"


def score(r):
    return (f"{r['wins']}-{r['draws']}-{r['losses']} {float(r['score']):.2f} "
            f"[{float(r['score_lo']):.2f}, {float(r['score_hi']):.2f}]")


def equal_time():
    times = {}
    mt = ROOT / "equal-time" / "move-time.csv"
    if mt.exists():
        for r in read_csv(mt):
            if r["agent"] == "alphabeta:depth=4":
                times[r["ruleset"]] = r
    lines = ["| ruleset | CPU ms a move (depth 4: mean, max) | player's budget | W-D-L, score [95%] | state | mean plies | ended by |",
             "|---|---|---|---|---|---|---|"]
    done = good = 0
    rows = sorted(pairings("equal-time"), key=lambda p: SEEDS.index(p[0]["ruleset"]) if p[0]["ruleset"] in SEEDS else 99)
    for r, reasons, _ in rows:
        t = times.get(r["ruleset"])
        ms = f"{float(t['cpu_ms_per_move']):.0f}, {float(t['cpu_ms_max']):.0f}" if t else "–"
        # run.sh plays falkener (about 8 minutes a game) to at most 20 games
        st = state(r, min(EQUAL_TIME_GAMES, 20) if r["ruleset"] == "falkener" else EQUAL_TIME_GAMES)
        lines.append(f"| {r['ruleset']} | {ms} | `{r['agent']}` | {score(r)} | {st} | {float(r['mean_plies']):.0f} | {reasons} |")
        if st != "running":
            done += 1
            good += float(r["score"]) >= 0.65 and float(r["score_lo"]) > 0.5
    lines.append("")
    lines.append(f"Finished: {done} of the twelve seed rulesets; score at least 0.65 with the lower bound "
                 f"above 0.5 on {good} of them.")
    return lines


def networks():
    lines = ["| ruleset | network | ply cap | W-D-L, score [95%] of the player | state | mean plies | ended by |",
             "|---|---|---|---|---|---|---|"]
    for r, reasons, stem in pairings("networks"):
        net = re.sub(r"^az:model=", "", r["opponent"])
        # run.sh names a pairing at the study's cap NAME-cap1000 (20 games); the others
        # are at the networks' training cap, 200 (40 games).
        cap, most = (1000, 20) if stem.endswith("-cap1000") else (200, 40)
        lines.append(f"| {r['ruleset']} | `{net}` | {cap} | {score(r)} | {state(r, most)} | {float(r['mean_plies']):.0f} | {reasons} |")
    return lines


def ab(part="ab"):
    lines = ["| ruleset | switch (the opponent's change) | W-D-L, score [95%] of the default player | state | mean plies | ended by |",
             "|---|---|---|---|---|---|"]
    for r, reasons, _ in pairings(part):
        switch = r["opponent"][len(r["agent"]) + 1:] if r["opponent"].startswith(r["agent"] + ",") else r["opponent"]
        lines.append(f"| {r['ruleset']} | `{switch}` | {score(r)} | {state(r, 40)} | {float(r['mean_plies']):.0f} | {reasons} |")
    return lines


def ordering():
    """Nodes to a fixed depth with each switch, over the default's: a row per ruleset and
    the geometric mean over the rulesets."""
    path = ROOT / "ordering-cost.csv"
    if not path.exists():
        return ["(not measured yet)"]
    rows = list(read_csv(path))
    switches = []
    table = {}
    for r in rows:
        if r["switch"] != "default" and r["switch"] not in switches:
            switches.append(r["switch"])
        table.setdefault(r["ruleset"], {"depth": r["depth"], "positions": r["positions"]})[r["switch"]] = float(r["ratio"])
    lines = ["| ruleset | depth | positions | " + " | ".join(f"`{w}`" for w in switches) + " |",
             "|---|---|---|" + "---|" * len(switches)]
    order = [k for k in SEEDS if k in table] + sorted(k for k in table if k not in SEEDS)
    for k in order:
        t = table[k]
        lines.append(f"| {k} | {t['depth']} | {t['positions']} | " +
                     " | ".join(f"{t[w]:.2f}" if w in t else "–" for w in switches) + " |")
    done = [k for k in order if all(w in table[k] for w in switches)]
    if done:
        gm = [math.exp(sum(math.log(table[k][w]) for k in done) / len(done)) for w in switches]
        lines.append(f"| geometric mean ({len(done)} rulesets) | | | " + " | ".join(f"{g:.2f}" for g in gm) + " |")
    return lines


def write_table(part, lines):
    """Puts `lines` between the lines `<!-- table:PART -->` and `<!-- /table:PART -->` of
    this folder's README (the other table scripts here write theirs with it too)."""
    readme = ROOT / "README.md"
    text = readme.read_text()
    begin, end = f"<!-- table:{part} -->", f"<!-- /table:{part} -->"
    if begin not in text or end not in text:
        raise SystemExit(f"{readme}: no lines {begin} and {end} to write the {part} table between")
    i = text.index(begin) + len(begin)
    j = text.index(end)
    readme.write_text(text[:i] + "\n" + "\n".join(lines) + "\n" + text[j:])


def main():
    parts = (("equal-time", equal_time), ("networks", networks), ("ab", ab), ("ab-time", lambda: ab("ab-time")),
             ("ab-kowalski-fitted", lambda: ab("ab/kowalski-fitted")), ("ordering", ordering))
    for part, make in parts:
        write_table(part, make())


if __name__ == "__main__":
    run(main)
