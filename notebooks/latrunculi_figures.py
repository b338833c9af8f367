"""The figures of the analysis notebooks, shared by the notebooks and render_figures.py.

Each `fig_*` function takes data read by latrunculi_data.py and returns a matplotlib
Figure (nothing is shown or saved here). Needs numpy, pandas and matplotlib.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib import pyplot as plt
from matplotlib.figure import Figure

import latrunculi_data as ld

#: One colour per pairing / run, stable across figures.
PALETTE = plt.get_cmap("tab10").colors


def _colour(i: int):
    return PALETTE[i % len(PALETTE)]


def _ordered(values, order=None) -> list:
    seen = list(dict.fromkeys(values))
    if order is None:
        return seen
    return [v for v in order if v in set(seen)] + [v for v in seen if v not in set(order)]


# --------------------------------------------------------------------------------------
# Draw rates (survey summary.csv)
# --------------------------------------------------------------------------------------


def fig_draw_rates(summary: pd.DataFrame, title: str = "Draw rate per ruleset and pairing") -> Figure:
    """Grouped bars: draw rate per ruleset, one bar per pairing, 95% Wilson intervals."""
    rulesets = _ordered(summary["ruleset"])
    pairings = _ordered(summary["pairing"])
    by = summary.set_index(["ruleset", "pairing"])
    width = 0.8 / max(len(pairings), 1)
    fig, ax = plt.subplots(figsize=(max(7.0, 0.85 * len(rulesets) + 2), 4.2))
    for i, p in enumerate(pairings):
        xs, ys, err_lo, err_hi = [], [], [], []
        for j, rs in enumerate(rulesets):
            if (rs, p) not in by.index:
                continue
            r = by.loc[(rs, p)]
            xs.append(j - 0.4 + width * (i + 0.5))
            ys.append(r["draw_rate"])
            err_lo.append(r["draw_rate"] - r["draw_lo"])
            err_hi.append(r["draw_hi"] - r["draw_rate"])
        ax.bar(xs, ys, width, yerr=[err_lo, err_hi], capsize=1.5, color=_colour(i), label=p, error_kw={"lw": 0.8})
    ax.set_xticks(range(len(rulesets)))
    ax.set_xticklabels(rulesets, rotation=30, ha="right")
    ax.set_xlim(-0.6, len(rulesets) - 0.4)
    ax.set_ylim(0, 1.2)
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.set_xlabel("ruleset")
    ax.set_ylabel("draw rate (bars: 95% Wilson interval)")
    n = sorted(set(summary["games"]))
    ax.set_title(f"{title} ({'/'.join(map(str, n))} games per cell)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=7, ncol=4, loc="upper center", title="pairing (self-play)", title_fontsize=7)
    fig.tight_layout()
    return fig


def fig_draw_heatmap(summary: pd.DataFrame, title: str = "Draw rate") -> Figure:
    """Heat map ruleset × pairing of the draw rate, annotated with rate and interval."""
    rulesets = _ordered(summary["ruleset"])
    pairings = _ordered(summary["pairing"])
    by = summary.set_index(["ruleset", "pairing"])
    m = np.full((len(rulesets), len(pairings)), np.nan)
    for i, rs in enumerate(rulesets):
        for j, p in enumerate(pairings):
            if (rs, p) in by.index:
                m[i, j] = by.loc[(rs, p), "draw_rate"]
    fig, ax = plt.subplots(figsize=(1.6 * len(pairings) + 2.6, 0.38 * len(rulesets) + 1.6))
    im = ax.imshow(m, cmap="RdYlBu_r", vmin=0, vmax=1, aspect="auto")
    for i, rs in enumerate(rulesets):
        for j, p in enumerate(pairings):
            if np.isnan(m[i, j]):
                continue
            r = by.loc[(rs, p)]
            ax.text(j, i, f"{r['draw_rate']:.2f} [{r['draw_lo']:.2f}, {r['draw_hi']:.2f}]", ha="center",
                    va="center", fontsize=6.5, color="white" if abs(m[i, j] - 0.5) > 0.3 else "black")
    ax.set_xticks(range(len(pairings)))
    ax.set_xticklabels([p.split(" vs ")[0] + "\nself-play" for p in pairings], fontsize=8)
    ax.set_yticks(range(len(rulesets)))
    ax.set_yticklabels(rulesets, fontsize=8)
    ax.set_xlabel("pairing")
    ax.set_ylabel("ruleset")
    ax.set_title(f"{title}: rate [95% Wilson interval]", fontsize=10)
    fig.colorbar(im, ax=ax, label="draw rate", fraction=0.05)
    fig.tight_layout()
    return fig


def fig_end_reasons(summary: pd.DataFrame, title: str = "How games end") -> Figure:
    """Stacked bars of the end reasons per ruleset, one panel per pairing."""
    rulesets = _ordered(summary["ruleset"])
    pairings = _ordered(summary["pairing"])
    cols = ["reason_" + r.replace("-", "_") for r in ld.REASONS]
    cmap = plt.get_cmap("tab10")
    ncols = 2 if len(pairings) > 1 else 1
    nrows = int(np.ceil(len(pairings) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(11, 2.6 * nrows + 0.8), sharey=True, squeeze=False)
    for k, p in enumerate(pairings):
        ax = axes.flat[k]
        s = summary[summary["pairing"] == p].set_index("ruleset").reindex(rulesets)
        frac = s[cols].div(s["games"], axis=0).fillna(0)
        bottom = np.zeros(len(rulesets))
        for i, (c, reason) in enumerate(zip(cols, ld.REASONS)):
            ax.bar(range(len(rulesets)), frac[c], bottom=bottom, color=cmap(i), label=reason, width=0.8)
            bottom += frac[c].to_numpy()
        ax.set_title(p, fontsize=9)
        ax.set_xticks(range(len(rulesets)))
        ax.set_xticklabels(rulesets, rotation=35, ha="right", fontsize=7)
        if k % ncols == 0:
            ax.set_ylabel("fraction of games")
    for ax in list(axes.flat)[len(pairings):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.legend(handles, labels, loc="lower center", ncol=len(ld.REASONS), fontsize=7, title="end reason",
               title_fontsize=7, frameon=False)
    return fig


def fig_white_score(summary: pd.DataFrame, title: str = "First-move advantage") -> Figure:
    """White's score per cell with its 95% interval; 0.5 = no first-move advantage."""
    rulesets = _ordered(summary["ruleset"])
    pairings = _ordered(summary["pairing"])
    fig, ax = plt.subplots(figsize=(max(7.0, 0.85 * len(rulesets) + 2), 3.6))
    for i, p in enumerate(pairings):
        s = summary[summary["pairing"] == p].set_index("ruleset").reindex(rulesets)
        x = np.arange(len(rulesets)) - 0.3 + 0.6 * i / max(len(pairings) - 1, 1)
        ax.errorbar(x, s["white_score"], yerr=[s["white_score"] - s["white_score_lo"], s["white_score_hi"] - s["white_score"]],
                    fmt="o", ms=3, capsize=1.5, lw=0.8, color=_colour(i), label=p)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(len(rulesets)))
    ax.set_xticklabels(rulesets, rotation=30, ha="right")
    ax.set_xlabel("ruleset")
    ax.set_ylabel("White's score per game (95% CI)")
    ax.set_title(f"{title}: White's score (0.5 = none)")
    ax.legend(fontsize=7, ncol=4, loc="lower center")
    ax.set_ylim(0.2, 0.8)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------
# Game lengths (survey games.csv)
# --------------------------------------------------------------------------------------


def fig_length_boxplots(games: pd.DataFrame, rulesets=None, pairings=None, ply_cap: int | None = 1000,
                        title: str = "Game length per ruleset") -> Figure:
    """Box plots of `plies` per ruleset, one panel per pairing (whiskers 5–95%, mean ◆)."""
    rulesets = _ordered(games["ruleset"], rulesets)
    pairings = _ordered(games["pairing"], pairings)
    ncols = 2 if len(pairings) > 1 else 1
    nrows = int(np.ceil(len(pairings) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(11, 2.7 * nrows + 0.6), sharey=True, squeeze=False)
    for k, p in enumerate(pairings):
        ax = axes.flat[k]
        g = games[games["pairing"] == p]
        data = [g.loc[g["ruleset"] == rs, "plies"].to_numpy() for rs in rulesets]
        ax.boxplot(data, whis=(5, 95), showfliers=False, showmeans=True, widths=0.6,
                   meanprops={"marker": "D", "markersize": 3, "markerfacecolor": "black", "markeredgecolor": "black"},
                   medianprops={"color": _colour(k)})
        if ply_cap:
            ax.axhline(ply_cap, color="red", lw=0.7, ls=":", label=f"ply cap {ply_cap}")
        ax.set_title(p, fontsize=9)
        ax.set_xticks(range(1, len(rulesets) + 1))
        ax.set_xticklabels(rulesets, rotation=35, ha="right", fontsize=7)
        if k % ncols == 0:
            ax.set_ylabel("plies")
        ax.grid(axis="y", alpha=0.3)
    for ax in list(axes.flat)[len(pairings):]:
        ax.axis("off")
    if ply_cap:
        axes.flat[0].legend(fontsize=7, loc="upper left")
    fig.suptitle(f"{title} (box: quartiles, whiskers: 5th–95th percentile, ◆ mean)", fontsize=10)
    fig.tight_layout()
    return fig


def fig_length_ecdf(games: pd.DataFrame, rulesets=None, pairings=None, title: str = "Game length ECDF") -> Figure:
    """Empirical distribution functions of `plies`: one panel per pairing, a line per ruleset."""
    rulesets = _ordered(games["ruleset"], rulesets)
    pairings = _ordered(games["pairing"], pairings)
    ncols = 2 if len(pairings) > 1 else 1
    nrows = int(np.ceil(len(pairings) / ncols))
    cmap = plt.get_cmap("tab20")
    fig, axes = plt.subplots(nrows, ncols, figsize=(11, 2.8 * nrows + 0.8), sharex=True, sharey=True, squeeze=False)
    for k, p in enumerate(pairings):
        ax = axes.flat[k]
        g = games[games["pairing"] == p]
        for i, rs in enumerate(rulesets):
            x, y = ld.ecdf(g.loc[g["ruleset"] == rs, "plies"])
            if len(x):
                ax.step(x, y, where="post", color=cmap(i % 20), lw=1.1, label=rs)
        ax.set_title(p, fontsize=9)
        ax.grid(alpha=0.3)
        if k % ncols == 0:
            ax.set_ylabel("fraction of games ≤ x")
        if k >= len(pairings) - ncols:
            ax.set_xlabel("plies")
    for ax in list(axes.flat)[len(pairings):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.legend(handles, labels, loc="lower center", ncol=min(len(rulesets), 6), fontsize=7, title="ruleset",
               title_fontsize=7, frameon=False)
    return fig


def fig_length_hist(games: pd.DataFrame, ruleset: str, pairings=None, bins: int = 40) -> Figure:
    """Histograms of `plies` of one ruleset, one colour per pairing, decisive vs drawn games."""
    g = games[games["ruleset"] == ruleset]
    pairings = _ordered(g["pairing"], pairings)
    fig, axes = plt.subplots(1, len(pairings), figsize=(2.8 * len(pairings) + 0.5, 2.9), sharey=False, squeeze=False)
    edges = np.linspace(0, max(int(g["plies"].max()), 1), bins + 1)
    for k, p in enumerate(pairings):
        ax = axes[0, k]
        gp = g[g["pairing"] == p]
        drawn = gp["winner"] == "draw"
        ax.hist([gp.loc[~drawn, "plies"], gp.loc[drawn, "plies"]], bins=edges, stacked=True,
                color=[_colour(k), "lightgrey"], label=["decisive", "draw"])
        ax.set_title(p, fontsize=8)
        ax.set_xlabel("plies")
        if k == 0:
            ax.set_ylabel("games")
        ax.legend(fontsize=7)
    fig.suptitle(f"Game length histogram: {ruleset} ({len(g)} games)", fontsize=10)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------
# Training curves (train_log.csv)
# --------------------------------------------------------------------------------------


def fig_training(logs: pd.DataFrame, title: str = "AlphaZero training runs") -> Figure:
    """Per-iteration curves of every run: losses, entropy, self-play draws and length, matches."""
    runs = _ordered(logs["run"])
    panels = [
        ("policy_loss", "policy loss (nats)"),
        ("value_loss", "value loss (MSE)"),
        ("policy_entropy", "policy entropy (nats)"),
        ("draw_rate", "self-play draw rate"),
        ("mean_plies", "self-play mean plies"),
        ("score", "match score (○ vs random, △ vs mcts:100)"),
    ]
    fig, axes = plt.subplots(2, 3, figsize=(11, 5.6))
    for ax, (col, label) in zip(axes.flat, panels):
        for i, run in enumerate(runs):
            t = logs[logs["run"] == run]
            if col == "score":
                for c, m, ls in (("score_random", "o", "-"), ("score_mcts100", "^", "--")):
                    s = t[["iteration", c]].dropna()
                    ax.plot(s["iteration"], s[c], marker=m, ls=ls, color=_colour(i), ms=4, lw=1)
            else:
                ax.plot(t["iteration"], t[col], marker=".", color=_colour(i), label=run, lw=1.2)
        if col == "score":
            ax.axhline(0.5, color="grey", ls=":", lw=0.8)
            ax.set_ylim(-0.02, 1.02)
        if col == "draw_rate":
            ax.set_ylim(-0.02, 1.02)
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("iteration")
        ax.grid(alpha=0.3)
        ax.xaxis.get_major_locator().set_params(integer=True)
    axes.flat[0].legend(fontsize=7)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def fig_training_speed(logs: pd.DataFrame) -> Figure:
    """Self-play throughput per iteration and wall-clock time of every run."""
    runs = _ordered(logs["run"])
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.0))
    for i, run in enumerate(runs):
        t = logs[logs["run"] == run]
        axes[0].plot(t["iteration"], t["selfplay_positions_per_s"], marker=".", color=_colour(i), label=run)
        axes[1].plot(t["iteration"], t["selfplay_evals_per_s"], marker=".", color=_colour(i))
        axes[2].plot(t["elapsed_s"] / 60, t["samples"] / 1000, marker=".", color=_colour(i))
    axes[0].set_ylabel("self-play moves / s")
    axes[1].set_ylabel("network evaluations / s")
    axes[2].set_ylabel("samples made (thousands)")
    axes[0].set_xlabel("iteration")
    axes[1].set_xlabel("iteration")
    axes[2].set_xlabel("wall-clock minutes")
    for ax in axes:
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.suptitle("Training throughput (2-core CPU machine, runs sharing it)", fontsize=10)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------
# Elo ladders
# --------------------------------------------------------------------------------------


def fig_ladder_ratings(ratings: pd.DataFrame, title: str = "Elo ladder") -> Figure:
    """Ratings with their 95% intervals, best at the top; the anchor sits at 0."""
    r = ratings.iloc[::-1]
    labels = [ld.short_agent(a) for a in r["agent"]]
    fig, ax = plt.subplots(figsize=(7.5, 0.42 * len(r) + 1.3))
    y = np.arange(len(r))
    ax.errorbar(r["elo"], y, xerr=[r["elo"] - r["elo_lo"], r["elo_hi"] - r["elo"]], fmt="o", capsize=3,
                color=_colour(0), ecolor="grey")
    for yi, (e, s) in enumerate(zip(r["elo"], r["score"])):
        ax.annotate(f"{e:+.0f}  (score {s:.2f})", (e, yi), xytext=(0, 6), textcoords="offset points", ha="center",
                    fontsize=7)
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_ylim(-0.6, len(r) - 0.3)
    ax.set_xlabel("Elo (anchor = 0), bars: 95% interval")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def fig_ladder_matrix(pairings: pd.DataFrame, order=None, title: str = "Pairwise scores") -> Figure:
    """Score of the row agent against the column agent, with the Elo difference
    (`+∞` / `−∞` for clean sweeps)."""
    m = ld.score_matrix(pairings)
    agents = _ordered(m.index, order)
    m = m.loc[agents, agents]
    elo = ld.elo_from_score(m.to_numpy())
    fig, ax = plt.subplots(figsize=(0.9 * len(agents) + 3.2, 0.7 * len(agents) + 1.8))
    im = ax.imshow(m.to_numpy(dtype=float), cmap="RdBu", vmin=0, vmax=1)
    for i in range(len(agents)):
        for j in range(len(agents)):
            v = m.iat[i, j]
            if np.isnan(v):
                continue
            e = elo[i, j]
            es = "+∞" if e == np.inf else "−∞" if e == -np.inf else f"{e:+.0f}"
            ax.text(j, i, f"{v:.2f}\n{es}", ha="center", va="center", fontsize=6.5,
                    color="white" if abs(v - 0.5) > 0.35 else "black")
    labels = [ld.short_agent(a) for a in agents]
    ax.set_xticks(range(len(agents)))
    ax.set_xticklabels(labels, rotation=40, ha="right", fontsize=7)
    ax.set_yticks(range(len(agents)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title(f"{title}: row's score vs column (and Elo difference)", fontsize=9)
    fig.colorbar(im, ax=ax, label="score of row agent", fraction=0.046)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------
# The reconstruction study (latrunculi_data.load_study)
# --------------------------------------------------------------------------------------


def fig_draw_vs_elo(study: pd.DataFrame, rulesets=None, title: str = "Draw rate against strength") -> Figure:
    """Self-play draw rate (95% Wilson bars) and mean length against the player's Elo on
    that ruleset, one line per ruleset; cells without a rating are left out. Hollow
    markers: cells still short of their final size."""
    rated = study.dropna(subset=["elo"])
    rulesets = _ordered(rated["ruleset"], rulesets)
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.6))
    for i, rs in enumerate(rulesets):
        g = rated[rated["ruleset"] == rs].sort_values("elo")
        if g.empty:
            continue
        c = _colour(i)
        a.errorbar(g["elo"], g["draw_rate"], yerr=[g["draw_rate"] - g["draw_lo"], g["draw_hi"] - g["draw_rate"]],
                   color=c, capsize=2, lw=1, label=rs)
        b.plot(g["elo"], g["mean_plies"], color=c, lw=1, label=rs)
        for ax, y in ((a, g["draw_rate"]), (b, g["mean_plies"])):
            done = g["finished"].to_numpy()
            ax.scatter(g["elo"][done], y[done], color=c, s=18, zorder=3)
            ax.scatter(g["elo"][~done], y[~done], facecolors="none", edgecolors=c, s=18, zorder=3)
    a.set_ylim(-0.03, 1.03)
    a.set_ylabel("self-play draw rate (95% interval)")
    b.set_ylabel("mean game length (plies)")
    for ax in (a, b):
        ax.set_xlabel("Elo of the player on that ruleset (random = 0)")
        ax.grid(alpha=0.3)
    a.legend(fontsize=7, ncol=2)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------
# Dataset
# --------------------------------------------------------------------------------------


def dataset_rows(ds: ld.Dataset) -> pd.DataFrame:
    """One row per sample: game, ply, mover (0/1), mover's agent spec, value target,
    legal move count, policy entropy (nats) and whether the policy is one-hot."""
    games = ds.games
    g = ds["games"].astype(int)
    players = ds["players"].astype(int)
    white = games["white"].to_numpy()[g]
    black = games["black"].to_numpy()[g]
    pi = ds["policy_targets"]
    return pd.DataFrame({
        "game": g,
        "ply": ds["plies"].astype(int),
        "player": np.where(players == 0, "white", "black"),
        "agent": np.where(players == 0, white, black),
        "value": ds["value_targets"].astype(float),
        "legal": ds["legal_masks"].sum(axis=1),
        "entropy": ld.entropy_rows(pi),
        "one_hot": (pi.max(axis=1) >= 1.0 - 1e-6),
    })


def fig_dataset_overview(ds: ld.Dataset) -> Figure:
    """Value-target balance, policy entropy per ply and legal-move count per ply."""
    rows = dataset_rows(ds)
    agents = _ordered(rows["agent"])
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.3))
    # (a) value targets by mover agent
    vals = [-1.0, 0.0, 1.0]
    width = 0.8 / len(agents)
    for i, a in enumerate(agents):
        c = rows.loc[rows["agent"] == a, "value"].value_counts().reindex(vals, fill_value=0)
        axes[0].bar(np.arange(3) - 0.4 + width * (i + 0.5), c.to_numpy(), width, color=_colour(i), label=a)
    axes[0].set_xticks(range(3))
    axes[0].set_xticklabels(["−1 (loss)", "0 (draw)", "+1 (win)"])
    axes[0].set_xlabel("value target (side to move)")
    axes[0].set_ylabel("rows")
    axes[0].set_title("value targets by mover", fontsize=9)
    axes[0].legend(fontsize=7)
    # (b) entropy per ply
    for i, a in enumerate(agents):
        r = rows[rows["agent"] == a]
        axes[1].scatter(r["ply"], r["entropy"], s=6, color=_colour(i), label=a, alpha=0.7)
    axes[1].set_xlabel("ply")
    axes[1].set_ylabel("policy target entropy (nats)")
    axes[1].set_title("policy entropy per ply (one-hot = 0)", fontsize=9)
    axes[1].legend(fontsize=7)
    # (c) legal moves per ply, one line per game
    for gi, r in rows.groupby("game"):
        axes[2].plot(r["ply"], r["legal"], lw=0.9, label=f"game {gi}")
    axes[2].set_xlabel("ply")
    axes[2].set_ylabel("legal actions")
    axes[2].set_title("legal actions per position", fontsize=9)
    axes[2].legend(fontsize=7)
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.suptitle(f"Dataset {ds.folder.name}: {ds.meta['ruleset']}, {len(ds.games)} games, {len(rows)} rows", fontsize=10)
    fig.tight_layout()
    return fig


def fig_observation(ds: ld.Dataset, row: int) -> Figure:
    """The 12 observation planes of one row as images (side to move's view: the mover
    advances towards higher rows, drawn at the top), with the played move and the policy
    target on the move's destination squares."""
    obs = ds["observations"][row]
    planes = ds.meta["planes"]
    w, h = ds.board
    fig, axes = plt.subplots(2, 7, figsize=(12, 5.0))
    for k in range(12):
        ax = axes.flat[k]
        ax.imshow(obs[k], cmap="Greys", vmin=0, vmax=1, origin="lower")
        const = k >= 6
        name = planes[k] + (f"\n= {obs[k, 0, 0]:.2f}" if const else "")
        ax.set_title(name, fontsize=7)
        if k % 7 == 0:
            ax.set_ylabel("row (mover's rank)", fontsize=6)
        ax.set_xticks(range(w))
        ax.set_xticklabels("abcdefghijkl"[:w], fontsize=6)
        ax.set_yticks(range(h))
        ax.set_yticklabels(range(h), fontsize=6)
    # summary board: own +1, enemy -1 (soldiers), dux ±2
    ax = axes.flat[12]
    board = obs[0] + 2 * obs[1] - obs[2] - 2 * obs[3] + 0.5 * obs[4] - 0.5 * obs[5]
    im = ax.imshow(board, cmap="bwr_r", vmin=-2, vmax=2, origin="lower")
    ax.set_title("own (+) / enemy (−)\nDux ±2", fontsize=7)
    ax.set_xticks(range(w))
    ax.set_xticklabels("abcdefghijkl"[:w], fontsize=6)
    ax.set_yticks(range(h))
    ax.set_yticklabels(range(h), fontsize=6)
    # policy mass per destination square, in the board frame of the observation
    ax = axes.flat[13]
    n = w * h
    pi = ds["policy_targets"][row]
    dest = np.zeros(n)
    moves = pi[: n * n].reshape(n, n)
    dest += moves.sum(axis=0)
    for kind in range(3):
        dest += pi[n * n + kind * n: n * n + (kind + 1) * n]
    dest = dest.reshape(h, w)
    if ds["players"][row] == 1:  # actions are absolute, observations flipped for Black
        dest = dest[::-1]
    ax.imshow(dest, cmap="viridis", origin="lower")
    ax.set_title("policy target mass\nby destination", fontsize=7)
    ax.set_xticks(range(w))
    ax.set_xticklabels("abcdefghijkl"[:w], fontsize=6)
    ax.set_yticks([])
    g = int(ds["games"][row])
    ply = int(ds["plies"][row])
    a = int(ds["actions"][row])
    mover = "White" if ds["players"][row] == 0 else "Black"
    move = ds.games["moves"].iloc[g][ply]
    fig.suptitle(
        f"Observation of row {row} (game {g}, ply {ply}, {mover} to move, rows = ranks from the mover's side); "
        f"move played {move} (action {a} = {ld.action_name(a, w, h)}, target {pi[a]:.2f}); "
        f"value target {ds['value_targets'][row]:+.0f}",
        fontsize=8,
    )
    fig.tight_layout()
    return fig
