#!/usr/bin/env python3
"""Reads every committed result with the notebooks' reading code (latrunculi_data.py)
and checks facts that must hold between files; exits 1 with the failures listed.

Usage (from anywhere): python3 notebooks/check_reading.py [--root REPO]

Checked:
- data/sample/ (and any other data/*/ with a meta.json): dtypes and shapes; row counts =
  sum of `samples` in games.jsonl = meta.json `samples`; rows contiguous per game;
  `games.npy`, `plies.npy` consistent with games.jsonl; policy rows sum to 1, are >= 0
  and 0 outside the legal mask; the action played is legal and a most-visited one;
  value targets in {-1, 0, 1} and equal to the game result for the side to move;
  `players.npy` agrees with the white_to_move plane; board planes are 0/1 and constant
  planes constant; meta.json `results` agree with the games.
- experiments/*/summary.csv (surveys): counts, rates, Wilson intervals, plies statistics
  and end reasons recomputed from games.csv.
- experiments/az-*/train_log.csv and experiments/archive/az-*/train_log.csv: consecutive
  iterations (from 0 after a warm start), non-decreasing counters and clock,
  self-play result rates summing to 1, scores in [0, 1].
- experiments/ladder-*/, experiments/archive/ladder-*/ and experiments/study/ladder/*/:
  pairings.csv recomputed from games.csv (wins, draws, losses,
  score, Wilson interval, Elo with ±inf for sweeps); ratings.csv anchored at 0, sorted,
  ranks 1..n, intervals = elo ± 1.96·std_err, per-agent totals = sums over pairings, and
  the ratings refitted from pairings.csv by maximum likelihood. A ladder without
  ratings.csv (still running) has its pairings checked only.
- experiments/az-eval*/*.csv and experiments/archive/az-eval*/*.csv files in the `eval --out`
  format: the pairings checks above that need no games file.
"""

from __future__ import annotations

import argparse
import math
import sys
import traceback
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import latrunculi_data as ld  # noqa: E402


class Checker:
    def __init__(self):
        self.failures: list[str] = []
        self.checks = 0
        self.section = ""

    def ok(self, cond, message: str) -> bool:
        self.checks += 1
        if not cond:
            self.failures.append(f"[{self.section}] {message}")
        return bool(cond)

    def close(self, a, b, tol, message: str) -> bool:
        a = np.asarray(a, dtype=np.float64)
        b = np.asarray(b, dtype=np.float64)
        same_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
        both_nan = np.isnan(a) & np.isnan(b)
        with np.errstate(invalid="ignore"):
            good = same_inf | both_nan | (np.abs(a - b) <= tol)
        if not good.all():
            i = int(np.flatnonzero(~good.ravel())[0])
            return self.ok(False, f"{message}: {float(a.ravel()[i])} != {float(b.ravel()[i])} (tolerance {tol:g}, item {i})")
        return self.ok(True, message)


# --------------------------------------------------------------------------------------


def check_dataset(c: Checker, folder: Path) -> str:
    c.section = str(folder)
    ds = ld.load_dataset(folder)
    g, meta = ds.games, ds.meta
    w, h = ds.board
    S, A = int(meta["samples"]), int(meta["action_space_size"])
    n = w * h
    c.ok(A == n * n + 3 * n, f"action_space_size {A} != N²+3N for N={n}")
    c.ok(len(g) == meta["games"], f"games.jsonl has {len(g)} games, meta.json says {meta['games']}")
    c.ok(int(g["samples"].sum()) == S, f"sum of samples in games.jsonl {int(g['samples'].sum())} != rows {S}")
    c.ok(list(g["game"]) == list(range(len(g))), "games.jsonl game indices are not 0, 1, 2, …")
    starts = np.concatenate([[0], np.cumsum(g["samples"].to_numpy())[:-1]])
    c.ok((g["first_sample"].to_numpy() == starts).all(), "first_sample is not the running sum of samples")
    c.ok((g["samples"] == g["plies"]).all(), "samples != plies for some game")
    c.ok(all(len(m) == p for m, p in zip(g["moves"], g["plies"])), "len(moves) != plies for some game")
    c.ok(meta.get("observation_shape") == [12, h, w], f"observation_shape {meta.get('observation_shape')}")
    c.ok(len(meta["planes"]) == 12, "meta.json planes should list 12 planes")

    game_of_row = np.repeat(np.arange(len(g)), g["samples"].to_numpy())
    ply_of_row = np.concatenate([np.arange(s) for s in g["samples"]]) if len(g) else np.zeros(0)
    c.ok(np.array_equal(ds["games"], game_of_row), "games.npy does not match games.jsonl row ranges")
    c.ok(np.array_equal(ds["plies"], ply_of_row), "plies.npy is not 0, 1, 2, … within each game")

    if "policy_offsets" in ds.arrays:
        off, pa, pp = ds["policy_offsets"], ds["policy_actions"], ds["policy_probs"]
        c.ok(off[0] == 0 and off[-1] == len(pa) and (np.diff(off) >= 1).all(), "policy_offsets are not row offsets")
        dense = np.zeros((S, A), dtype=np.float32)
        dense[np.repeat(np.arange(S), np.diff(off)), pa] = pp
        if "policy_targets" in ds.arrays:
            c.ok(np.array_equal(dense, ds["policy_targets"]), "the sparse policy rows differ from policy_targets")
        sv = ds["search_values"]
        c.ok((np.isnan(sv) | ((sv >= -1) & (sv <= 1))).all(), "search values outside [-1, 1]")
    if "policy_targets" not in ds.arrays:
        return f"{folder.name}: {len(g)} games, {S} rows (light)"
    pi, mask, acts = ds["policy_targets"], ds["legal_masks"], ds["actions"]
    c.close(pi.sum(axis=1, dtype=np.float64), np.ones(S), 1e-5, "policy rows sum to 1")
    c.ok((pi >= 0).all(), "negative policy target")
    outside = (pi != 0) & ~mask
    c.ok(not outside.any(), f"{int(outside.sum())} policy entries are non-zero outside the legal mask")
    c.ok(mask.any(axis=1).all(), "a row has no legal action")
    c.ok(((acts >= 0) & (acts < A)).all(), "actions.npy out of range")
    rows = np.arange(S)
    c.ok(mask[rows, acts].all(), "an action played is not legal")
    c.ok((pi[rows, acts] >= pi.max(axis=1) - 1e-6).all(), "an action played is not a most-visited one")

    z, players = ds["value_targets"], ds["players"]
    c.ok(np.isin(z, [-1.0, 0.0, 1.0]).all(), f"value targets outside {{-1, 0, 1}}: {sorted(float(v) for v in np.unique(z))}")
    c.ok(np.isin(players, [0, 1]).all(), "players.npy outside {0, 1}")
    winner = g["winner"].to_numpy()[game_of_row]
    win_side = np.where(winner == "white", 0, np.where(winner == "black", 1, -1))
    expect = np.where(win_side < 0, 0.0, np.where(win_side == players, 1.0, -1.0))
    c.ok(np.array_equal(z, expect.astype(np.float32)), "value targets disagree with the game results")

    obs = ds["observations"]
    c.ok(np.isin(obs[:, :6], [0.0, 1.0]).all(), "board planes 0-5 are not 0/1")
    const = obs[:, 6:]
    c.ok((const == const[:, :, :1, :1]).all(), "planes 6-11 are not constant over the board")
    c.ok(((const >= 0) & (const <= 1)).all(), "constant planes outside [0, 1]")
    c.ok(np.array_equal(obs[:, 9, 0, 0], (players == 0).astype(np.float32)), "white_to_move plane != players.npy")
    own = obs[:, 0] + obs[:, 1] + obs[:, 4]
    enemy = obs[:, 2] + obs[:, 3] + obs[:, 5]
    c.ok((own + enemy <= 1).all(), "two pieces on one square")

    res = meta.get("results", {})
    counts = g["winner"].value_counts()
    for k in ("white", "black", "draw"):
        c.ok(res.get(k) == int(counts.get(k, 0)), f"meta.json results[{k}] = {res.get(k)}, games say {counts.get(k, 0)}")
    if len(g):
        c.close(res.get("mean_plies", math.nan), g["plies"].mean(), 1e-6, "meta.json results.mean_plies")
    return f"{folder.relative_to(ld.ROOT) if folder.is_relative_to(ld.ROOT) else folder}: {len(g)} games, {S} rows"


# --------------------------------------------------------------------------------------


def check_survey(c: Checker, folder: Path) -> str:
    c.section = str(folder)
    s = ld.load_survey(folder)
    summ = s.summary
    re = ld.summarize_games(s.games)
    key = ["ruleset", "pairing"]
    merged = summ.merge(re, on=key, how="outer", suffixes=("", "_re"), indicator=True)
    only = merged[merged["_merge"] != "both"]
    c.ok(only.empty, f"cells in only one of summary.csv / games.csv: {only[key].values.tolist()}")
    m = merged[merged["_merge"] == "both"]
    for col in ["games", "white_wins", "black_wins", "draws", "p90_plies"] + [
        "reason_" + r.replace("-", "_") for r in ld.REASONS
    ]:
        bad = m[m[col] != m[col + "_re"]]
        c.ok(bad.empty, f"{col} of summary.csv != games.csv count for {bad[key].values.tolist()[:3]}")
    c.close(m["mean_plies"], m["mean_plies_re"], 0.05 + 1e-9, "mean_plies (1 decimal)")
    c.close(m["median_plies"], m["median_plies_re"], 1e-9, "median_plies")
    n = summ["games"].to_numpy()
    c.close(summ["draw_rate"], summ["draws"] / n, 5e-5 + 1e-9, "draw_rate = draws / games")
    c.close(summ["decisive_rate"], 1 - summ["draws"] / n, 5e-5 + 1e-9, "decisive_rate")
    pts = summ["white_wins"] + summ["draws"] / 2
    c.close(summ["white_score"], pts / n, 5e-5 + 1e-9, "white_score")
    lo, hi = ld.wilson(summ["draws"].to_numpy(), n)
    c.close(summ["draw_lo"], lo, 5e-5 + 1e-9, "draw_lo = Wilson lower bound")
    c.close(summ["draw_hi"], hi, 5e-5 + 1e-9, "draw_hi = Wilson upper bound")
    lo, hi = ld.wilson(pts.to_numpy(), n)
    c.close(summ["white_score_lo"], lo, 5e-5 + 1e-9, "white_score_lo")
    c.close(summ["white_score_hi"], hi, 5e-5 + 1e-9, "white_score_hi")
    c.ok(
        (summ["white_wins"] + summ["black_wins"] + summ["draws"] == summ["games"]).all(),
        "white_wins + black_wins + draws != games",
    )
    ply_cap = s.config.get("ply_cap", 1000)
    c.ok((s.games["plies"] <= ply_cap).all(), f"a game is longer than the ply cap {ply_cap}")
    capped = s.games["reason"] == "ply-cap"
    c.ok((s.games.loc[capped, "winner"] == "draw").all(), "a ply-cap game is not a draw")
    return f"{folder.relative_to(ld.ROOT)}: {len(summ)} cells, {len(s.games)} games"


# --------------------------------------------------------------------------------------


def check_train_logs(c: Checker, root: Path) -> str:
    c.section = " and ".join(ld.TRAIN_LOG_PATTERNS)
    logs = ld.load_train_logs(root=root)
    for run, t in logs.groupby("run", sort=False):
        c.section = next(f"experiments/{d}{run}/train_log.csv" for d in ("", "archive/")
                         if (root / "experiments" / d / run / "train_log.csv").is_file())
        # A warm-started run has a row 0 (the warm start) before iteration 1.
        first = int(t["iteration"].iloc[0]) if len(t) else 1
        c.ok(first in (0, 1) and list(t["iteration"]) == list(range(first, first + len(t))),
             "iterations are not (0,) 1, 2, 3, …")
        c.ok(t.loc[t["iteration"] > 0, "selfplay_positions_per_s"].notna().all(), "self-play rate missing after iteration 0")
        for col in ("games", "samples", "elapsed_s"):
            c.ok((np.diff(t[col].to_numpy()) >= 0).all(), f"{col} decreases")
        c.ok((t["buffer_samples"] <= t["samples"]).all(), "buffer_samples > samples")
        c.close(t["white_rate"] + t["black_rate"] + t["draw_rate"], np.ones(len(t)), 2e-4, "result rates sum to 1")
        for col in ("score_random", "score_mcts100"):
            v = t[col].dropna()
            c.ok(((v >= 0) & (v <= 1)).all(), f"{col} outside [0, 1]")
        for col in ("policy_loss", "value_loss", "policy_entropy"):
            c.ok(np.isfinite(t[col]).all() and (t[col] >= 0).all(), f"{col} not finite and >= 0")
    return f"train logs: " + ", ".join(f"{r} ({n} it.)" for r, n in logs.groupby("run", sort=False).size().items())


# --------------------------------------------------------------------------------------


def check_pairing_columns(c: Checker, p) -> None:
    """Checks within an eval / pairings.csv table: counts, score, Wilson interval, Elo."""
    c.ok((p["wins"] + p["draws"] + p["losses"] == p["games"]).all(), "wins + draws + losses != games in pairings.csv")
    pts = p["wins"] + p["draws"] / 2
    c.close(p["score"], pts / p["games"], 5e-4, "pairings score")
    lo, hi = ld.wilson(pts.to_numpy(), p["games"].to_numpy())
    c.close(p["score_lo"], lo, 5e-4, "pairings score_lo (Wilson)")
    c.close(p["score_hi"], hi, 5e-4, "pairings score_hi (Wilson)")
    # Elo is written with a few decimals; compare in score space to avoid the steep ends.
    c.close(ld.expected_score(p["elo"]), p["score"], 5e-4, "pairings elo matches score (±inf for sweeps)")
    c.ok(np.isinf(p["elo"]).sum() == ((p["score"] == 0) | (p["score"] == 1)).sum(), "±inf Elo exactly for sweeps")
    c.close(ld.expected_score(p["elo_lo"]), p["score_lo"], 5e-4, "pairings elo_lo matches score_lo")
    c.close(ld.expected_score(p["elo_hi"]), p["score_hi"], 5e-4, "pairings elo_hi matches score_hi")


def check_eval(c: Checker, path: Path) -> str:
    c.section = str(path)
    p = ld.load_pairings(path)
    check_pairing_columns(c, p)
    return f"{path.relative_to(ld.ROOT)}: {len(p)} pairing(s), {int(np.isinf(p['elo']).sum())} with ±inf Elo"


def check_ladder(c: Checker, folder: Path) -> str:
    c.section = str(folder)
    lad = ld.load_ladder(folder, require_ratings=False)
    p, g = lad.pairings, lad.games
    # pairings.csv recomputed from games.csv
    for r in p.itertuples():
        gg = g[(g["agent"] == r.agent) & (g["opponent"] == r.opponent)]
        if gg.empty and len(g):
            c.ok(False, f"no games in games.csv for pairing {r.agent} vs {r.opponent}")
            continue
        agent_colour = np.where(gg["game"] % 2 == 0, "white", "black")
        wins = int((gg["winner"].to_numpy() == agent_colour).sum())
        draws = int((gg["winner"] == "draw").sum())
        what = f"{r.agent} vs {r.opponent}"
        c.ok(len(gg) == r.games, f"{what}: games.csv has {len(gg)} games, pairings.csv {r.games}")
        c.ok(wins == r.wins and draws == r.draws, f"{what}: W/D {wins}/{draws} in games.csv, {r.wins}/{r.draws} in pairings.csv")
        c.close(r.mean_plies, gg["plies"].mean(), 0.05 + 1e-9, f"{what}: mean_plies")
    check_pairing_columns(c, p)
    sweeps = int(np.isinf(p["elo"]).sum())
    if lad.ratings is None:
        return f"{folder.relative_to(ld.ROOT)}: still running, {len(p)} pairings so far ({sweeps} with ±inf Elo)"

    r = lad.ratings
    anchor = ld.ladder_option(lad.command, "anchor", "random")
    prior = ld.ladder_option(lad.command, "prior-draws", 1.0)
    c.ok(list(r["rank"]) == list(range(1, len(r) + 1)), "ranks are not 1..n")
    c.ok((np.diff(r["elo"].to_numpy()) <= 0).all(), "ratings are not sorted best first")
    c.ok(anchor in set(r["agent"]), f"anchor {anchor!r} missing from ratings.csv")
    if anchor in set(r["agent"]):
        a = r[r["agent"] == anchor].iloc[0]
        c.ok(a["elo"] == 0 and a["std_err"] == 0, f"anchor {anchor} has elo {a['elo']}, std_err {a['std_err']} (want 0, 0)")
    c.ok(np.isfinite(r["elo"]).all(), "non-finite rating")
    c.close(r["elo_hi"] - r["elo"], ld.Z95 * r["std_err"], 0.2 + 1e-9, "elo_hi = elo + 1.96·std_err")
    c.close(r["elo"] - r["elo_lo"], ld.Z95 * r["std_err"], 0.2 + 1e-9, "elo_lo = elo − 1.96·std_err")
    c.ok((r["wins"] + r["draws"] + r["losses"] == r["games"]).all(), "ratings wins + draws + losses != games")
    c.close(r["score"], (r["wins"] + r["draws"] / 2) / r["games"], 5e-4, "ratings score")
    agents = set(p["agent"]) | set(p["opponent"])
    c.ok(set(r["agent"]) == agents, f"agents of ratings.csv != agents of pairings.csv: {set(r['agent']) ^ agents}")
    if lad.agents:
        c.ok(set(lad.agents) == set(r["agent"]), "agents.txt and ratings.csv list different agents")
    for row in r.itertuples():
        a_side = p[p["agent"] == row.agent]
        o_side = p[p["opponent"] == row.agent]
        wins = a_side["wins"].sum() + o_side["losses"].sum()
        draws = a_side["draws"].sum() + o_side["draws"].sum()
        games = a_side["games"].sum() + o_side["games"].sum()
        c.ok((wins, draws, games) == (row.wins, row.draws, row.games), f"{row.agent}: totals differ from pairings.csv")
    if anchor in agents:
        fit = ld.fit_elo(p, anchor=anchor, prior_draws=prior).set_index("agent")
        c.close(r["elo"], fit.loc[r["agent"], "elo"].to_numpy(), 0.5, "ratings refitted from pairings.csv (Elo)")
        c.close(r["std_err"], fit.loc[r["agent"], "std_err"].to_numpy(), 0.5, "ratings refitted (std_err)")
    top = r.iloc[0]
    return (
        f"{folder.relative_to(ld.ROOT)}: {len(r)} agents, {len(p)} pairings, {len(g)} games, "
        f"top {top['agent']} {top['elo']:+.0f}, {sweeps} pairing(s) with ±inf Elo"
    )


# --------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=ld.ROOT, help="repository root (default: this file's ../)")
    args = ap.parse_args()
    root = args.root.resolve()
    ld.ROOT = root
    c = Checker()
    lines = []
    jobs = []
    datasets = sorted(p.parent for p in (root / "data").glob("*/meta.json"))
    if not datasets:
        c.ok(False, f"no dataset under {root / 'data'} (expected data/sample/meta.json)")
    jobs += [(check_dataset, d) for d in datasets]
    surveys = ld.find_surveys(root / "experiments")
    if not surveys:
        c.ok(False, f"no survey under {root / 'experiments'} (expected */summary.csv)")
    jobs += [(check_survey, s) for s in surveys]
    jobs.append((check_train_logs, root))
    jobs += [(check_ladder, d) for d in ld.find_ladders(root / "experiments")]
    jobs += [(check_eval, f) for f in ld.find_evals(root / "experiments")]
    for fn, arg in jobs:
        before = len(c.failures)
        try:
            info = fn(c, arg)
        except ld.DataError as e:
            c.failures.append(f"[{c.section}] cannot read: {e}")
            info = None
        except Exception:  # a bug or a malformed file the loaders did not foresee
            c.failures.append(f"[{c.section}] unexpected error:\n{traceback.format_exc()}")
            info = None
        status = "ok  " if len(c.failures) == before else "FAIL"
        lines.append(f"{status} {info or c.section}")
    print("\n".join(lines))
    if c.failures:
        print(f"\n{len(c.failures)} of {c.checks} checks failed:", file=sys.stderr)
        for f in c.failures:
            print(f"  - {f}", file=sys.stderr)
        return 1
    print(f"all checks passed ({c.checks} checks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
