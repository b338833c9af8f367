#!/usr/bin/env python3
"""The cost of `experiments/verdicts/run.sh` in core-hours, from measured games.

Usage: python3 experiments/verdicts/estimate_cost.py [SAMPLE]
       python3 experiments/verdicts/estimate_cost.py --spent [FOLDER] [SAMPLE]

The run is the one of the experiment files that run.sh writes (`run.sh configs`):
selfplay.toml (its rulesets and node budgets) and adjudication-off.toml (the rulesets
rerun at the larger budget with adjudication off).

SAMPLE (default experiments/verdicts/cost-sample.csv) holds timed self-play games of the
search player: ruleset, nodes, games, plies (all games together), cpu_s (user + system
seconds of the whole run, one thread). From it, per node budget, the CPU seconds per ply:
the ruleset's own where it was timed, the pooled figure of the sample (all its seconds
over all its plies) elsewhere. Every budget of selfplay.toml must be in the sample.

The number of games per cell and their length are not known before the run; as a
stand-in the script takes, per ruleset, the draw rate and mean game length of the
reconstruction study's `alphabeta:depth=3` self-play (experiments/study/selfplay/ and
selfplay-ludii/ summary.csv), and the games the adaptive rule of the experiment files
plays at that draw rate (min_games, then batch more until the Wilson 95% interval's
half-width is at most half_width, at most games). The adjudication-off cells are counted
at the cap (their draw rate is not known). The rule variants of sensitivity.toml (where
run.sh wrote one) stand in with their own draw rate in the study's rule-sensitivity survey
(experiments/sensitivity/summary.csv, `alphabeta:depth=2`) and its mean game length
scaled by their ruleset's ratio of depth-3 to depth-2 game lengths there (at most the
ply cap).

Prints a line per ruleset and the totals, against the 16 hours of the two-core machine
(32 core-hours).

`--spent` prices the games already played instead of the run to come: every game of the
search player in FOLDER (default experiments/verdicts): selfplay/, adjudication-off/ (or
its shards, adjudication-off-shard-K/, while it is not merged), sensitivity/ and settle/*/,
at its plies times the same CPU seconds per ply (a budget the sample did not time: the
pooled figure of the largest timed budget below it, scaled by the budget's ratio to it).
The networks' cells (networks/RULESET/) are listed with their games and plies but not
priced: the sample times no network.
"""

import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run, wilson as wilson_z  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "experiments/verdicts"
STUDY = [ROOT / "experiments/study/selfplay/summary.csv", ROOT / "experiments/study/selfplay-ludii/summary.csv"]
PROXY = "alphabeta:depth=3 vs alphabeta:depth=3"
SENSITIVITY = ROOT / "experiments/sensitivity/summary.csv"
OFF = "+end.adjudication=draw"
Z95 = 1.96
MACHINE_CORE_HOURS = 16 * 2


def wilson(k: float, n: int) -> tuple[float, float]:
    """The Wilson interval at z = 1.96, as the adaptive rule of the experiment files uses it."""
    return wilson_z(k, n, Z95)


def games_needed(draw_rate: float, config: dict) -> int:
    """The games a cell with this draw rate plays under the experiment's adaptive rule."""
    n, cap = config["min_games"], config["games"]
    while n < cap:
        lo, hi = wilson(round(draw_rate * n), n)
        if (hi - lo) / 2 <= config["half_width"]:
            break
        n = min(n + config["batch"], cap)
    return n


def nodes(spec: str) -> int:
    """The node budget of `alphabeta:nodes=N`."""
    return int(spec.split("nodes=")[1].split(",")[0])


def read_sample(sample: Path) -> list[dict]:
    """The timed games of SAMPLE, one row per ruleset and budget."""
    return read_csv(sample)


def seconds_a_ply(timed: list[dict], budgets) -> tuple[dict, dict]:
    """The sample's CPU seconds per ply: per (ruleset, budget) where timed, and pooled per
    budget (all its seconds over all its plies) for each of `budgets`. A budget the sample
    did not time takes the pooled figure of the largest timed budget below it, scaled by
    the ratio of the budgets; none below is an error."""
    own = {(r["ruleset"], int(r["nodes"])): float(r["cpu_s"]) / int(r["plies"]) for r in timed}
    sampled = {}
    for b in {int(r["nodes"]) for r in timed}:
        rows = [r for r in timed if int(r["nodes"]) == b]
        sampled[b] = sum(float(r["cpu_s"]) for r in rows) / sum(int(r["plies"]) for r in rows)
    pooled = {}
    for b in budgets:
        if b in sampled:
            pooled[b] = sampled[b]
            continue
        below = [s for s in sampled if s < b]
        if not below:
            raise ValueError(f"no timed games at nodes={b} or at a smaller budget")
        pooled[b] = sampled[max(below)] * b / max(below)
    return own, pooled


def games_files(folder: Path) -> dict[str, list[Path]]:
    """The games.csv files of each survey in a verdicts folder: adjudication-off's merged
    file where there is one, else its shards'; settle's rulesets together; every network's
    cell apart."""
    files = {}
    for survey in ["selfplay", "adjudication-off", "sensitivity"]:
        merged = folder / survey / "games.csv"
        shards = sorted(folder.glob(f"{survey}-shard-*/games.csv"))
        found = [merged] if merged.is_file() else shards
        if found:
            files[survey] = found
    settle = sorted(folder.glob("settle/*/games.csv"))
    if settle:
        files["settle"] = settle
    for cell in sorted(folder.glob("networks/*/games.csv")):
        files[f"networks/{cell.parent.name}"] = [cell]
    return files


def spent(folder: Path, sample: Path):
    """Prints what the games already played in FOLDER cost (`--spent`)."""
    timed = read_sample(sample)
    played = {}  # (survey, player) -> [games, plies, rows of (ruleset, budget, plies)]
    for survey, paths in games_files(folder).items():
        for path in paths:
            for r in read_csv(path):
                spec = r["white"]
                player = f"alphabeta:nodes={nodes(spec)}" if spec.startswith("alphabeta:nodes=") else "network"
                cell = played.setdefault((survey, player), [0, 0, []])
                cell[0] += 1
                cell[1] += int(r["plies"])
                if player != "network":
                    cell[2].append((r["ruleset"].split("+")[0].split("@")[0], nodes(spec), int(r["plies"])))
    budgets = {b for _, _, rows in played.values() for _, b, _ in rows}
    try:
        own, pooled = seconds_a_ply(timed, budgets)
    except ValueError as e:
        sys.exit(f"error: {sample}: {e}")
    print("| survey | player | games | plies | core-hours |")
    print("|---|---|---:|---:|---:|")
    total = 0.0
    unpriced = 0
    for (survey, player), (games, plies, rows) in sorted(played.items()):
        if player == "network":
            unpriced += games
            print(f"| {survey} | {player} | {games} | {plies} | not priced |")
            continue
        hours = sum(p * own.get((ruleset, b), pooled[b]) for ruleset, b, p in rows) / 3600
        total += hours
        print(f"| {survey} | {player} | {games} | {plies} | {hours:.1f} |")
    print(f"the search player's games: {total:.1f} core-hours, {total / MACHINE_CORE_HOURS:.2f} times the "
          f"{MACHINE_CORE_HOURS} core-hours of 16 hours on the two-core machine; "
          f"{unpriced} network games not priced")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--spent":
        rest = sys.argv[2:]
        folder = Path(rest[0]) if rest else HERE
        sample = Path(rest[1]) if len(rest) > 1 else HERE / "cost-sample.csv"
        spent(folder, sample)
        return
    sample = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "cost-sample.csv"
    timed = read_sample(sample)
    with (HERE / "selfplay.toml").open("rb") as f:
        selfplay = tomllib.load(f)
    with (HERE / "adjudication-off.toml").open("rb") as f:
        off_config = tomllib.load(f)
    sensitivity_file = HERE / "sensitivity.toml"
    sens_config = None
    if sensitivity_file.is_file():
        with sensitivity_file.open("rb") as f:
            sens_config = tomllib.load(f)
    budgets = [nodes(a) for a, _ in selfplay["pairings"]]
    off_budget = nodes(off_config["pairings"][0][0])
    sens_budgets = {nodes(sens_config["pairings"][0][0])} if sens_config else set()
    off_rulesets = {r.removesuffix(OFF) for r in off_config["rulesets"]}
    wanted = set(budgets) | {off_budget} | sens_budgets
    for b in wanted:
        if not any(int(r["nodes"]) == b for r in timed):
            sys.exit(f"error: {sample} has no timed games at nodes={b}")
    own, pooled = seconds_a_ply(timed, wanted)
    proxy = {}
    for path in STUDY:
        for r in read_csv(path):
            if r["pairing"] == PROXY:
                proxy[r["ruleset"]] = (float(r["draw_rate"]), float(r["mean_plies"]))
    per_ply = lambda ruleset, b: own.get((ruleset, b), pooled[b])  # noqa: E731
    print("pooled CPU seconds per ply: " + ", ".join(f"nodes={b} {pooled[b] * 1000:.1f} ms" for b in sorted(pooled)))
    print("| ruleset | draw rate, mean plies (depth=3) | games a cell | "
          + " | ".join(f"core-h nodes={b}" for b in budgets) + f" | core-h adjudication off (nodes={off_budget}) |")
    print("|---|---|---:|" + "---:|" * (len(budgets) + 1))
    total = 0.0
    for ruleset in selfplay["rulesets"]:
        if ruleset not in proxy:
            sys.exit(f"error: no {PROXY} self-play of {ruleset} in the study to stand in for its games")
        rate, plies = proxy[ruleset]
        n = games_needed(rate, selfplay)
        hours = [n * plies * per_ply(ruleset, b) / 3600 for b in budgets]
        off = off_config["games"] * plies * per_ply(ruleset, off_budget) / 3600 if ruleset in off_rulesets else 0.0
        total += sum(hours) + off
        cells = " | ".join(f"{h:.2f}" for h in hours)
        print(f"| {ruleset} | {rate:.2f}, {plies:.0f} | {n} | {cells} | {off:.2f} |")
    if sens_config:
        depth2 = {r["ruleset"]: (float(r["draw_rate"]), float(r["mean_plies"])) for r in read_csv(SENSITIVITY)}
        sens_budget = nodes(sens_config["pairings"][0][0])
        print(f"| rule variant | draw rate, mean plies (depth=2) | games a cell | core-h nodes={sens_budget} |")
        print("|---|---|---:|---:|")
        sens_total = 0.0
        for variant in sens_config["rulesets"]:
            base = variant.split("+")[0].split("@")[0]
            if variant not in depth2 or base not in depth2 or base not in proxy:
                sys.exit(f"error: {variant} or {base} is not in {SENSITIVITY} or the study's depth=3 self-play")
            rate, plies2 = depth2[variant]
            plies = min(plies2 * proxy[base][1] / depth2[base][1], sens_config["ply_cap"])
            n = games_needed(rate, sens_config)
            hours = n * plies * per_ply(base, sens_budget) / 3600
            sens_total += hours
            print(f"| {variant} | {rate:.2f}, {plies2:.0f} (as depth=3: {plies:.0f}) | {n} | {hours:.2f} |")
        print(f"{len(sens_config['rulesets'])} rule variants: {sens_total:.1f} core-hours")
        total += sens_total
    print(f"{len(selfplay['rulesets'])} rulesets and the variants: {total:.1f} core-hours in all, {total / MACHINE_CORE_HOURS:.2f} "
          f"times the {MACHINE_CORE_HOURS} core-hours of 16 hours on the two-core machine")


if __name__ == "__main__":
    run(main)
