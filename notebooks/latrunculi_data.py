"""Reading code for the committed results of latrunculi, shared by the notebooks,
`render_figures.py` and `check_reading.py`.

Every loader checks that its files exist, that the documented columns are present and
that each column parses as its documented type; anything else raises `DataError`
naming the file (and the column / row) at fault. Column meanings:
`experiments/README.md` (survey, train, eval, ladder files) and `data/README.md`
(datasets).

Needs numpy and pandas only (notebooks/requirements.txt).
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

# The file reading with typed columns, and the names the notebooks use from it.
from latrunculi_csv import (  # noqa: F401
    EVAL_COLUMNS,
    GAMES_COLUMNS,
    RATINGS_COLUMNS,
    REASONS,
    ROOT,
    SUMMARY_COLUMNS,
    TRAIN_LOG_COLUMNS,
    WINNERS,
    Z95,
    DataError,
    _convert,
    read_csv,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 and older
    tomllib = None


# --------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------


def wilson(successes, n, z: float = Z95):
    """95% Wilson score interval (lo, hi) of `successes` out of `n` trials.

    Works on scalars or numpy arrays; `successes` may hold half points (wins + draws/2).
    Same definition as crates/latrunculi-arena/src/stats.rs: bounds clamped to [0, 1],
    (0, 1) when n == 0.
    """
    s = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.clip(s / n, 0.0, 1.0)
        z2 = z * z
        denom = 1.0 + z2 / n
        centre = (p + z2 / (2.0 * n)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
        lo = np.where(n > 0, np.maximum(centre - half, 0.0), 0.0)
        hi = np.where(n > 0, np.minimum(centre + half, 1.0), 1.0)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def elo_from_score(score):
    """Elo difference of a score: -400·log10(1/score - 1); ±inf for 1 and 0."""
    s = np.asarray(score, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.where(s <= 0, -np.inf, np.where(s >= 1, np.inf, -400.0 * np.log10(1.0 / s - 1.0)))
    return float(e) if e.ndim == 0 else e


def expected_score(diff):
    """Expected score of a player `diff` Elo above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-np.asarray(diff, dtype=np.float64) / 400.0))


def nearest_rank(values, q: float) -> int:
    """q-quantile by the nearest-rank method (smallest value with >= q of them at or below)."""
    v = np.sort(np.asarray(values))
    if len(v) == 0:
        return 0
    rank = int(math.ceil(q * len(v)))
    return int(v[min(max(rank, 1), len(v)) - 1])


def ecdf(values):
    """(x, y) of the empirical distribution function of `values`, for step plots."""
    x = np.sort(np.asarray(values, dtype=np.float64))
    y = np.arange(1, len(x) + 1) / max(len(x), 1)
    return x, y


def entropy_rows(p: np.ndarray) -> np.ndarray:
    """Shannon entropy (nats) of each row of a probability matrix (0·log 0 = 0)."""
    p = np.asarray(p, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(p > 0, p * np.log(p), 0.0)
    return np.maximum(-t.sum(axis=1), 0.0)


def fit_elo(pairings: pd.DataFrame, anchor: str, prior_draws: float = 1.0):
    """Maximum-likelihood Elo ratings from a round robin's pairings.csv rows.

    The model of `latrunculi ladder` (experiments/README.md, ratings.csv): expected score
    1/(1 + 10^(-Δ/400)), `anchor` fixed at 0, `prior_draws` virtual drawn games added to
    every played pairing. Returns a DataFrame (agent, elo, std_err), best first. Written
    from the documented model, independently of the Rust code, so that check_reading.py
    can compare the two.
    """
    agents = list(dict.fromkeys(list(pairings["agent"]) + list(pairings["opponent"])))
    if anchor not in agents:
        raise DataError(f"anchor {anchor!r} is not among the agents {agents}")
    n = len(agents)
    idx = {a: i for i, a in enumerate(agents)}
    games = np.zeros((n, n))
    points = np.zeros((n, n))
    for r in pairings.itertuples():
        i, j = idx[r.agent], idx[r.opponent]
        g = float(r.games)
        p = r.wins + r.draws / 2.0
        games[i, j] += g
        games[j, i] += g
        points[i, j] += p
        points[j, i] += g - p
    played = games > 0
    games = games + prior_draws * played
    points = points + prior_draws / 2.0 * played
    k = math.log(10.0) / 400.0
    free = [i for i in range(n) if i != idx[anchor]]
    r = np.zeros(n)
    for _ in range(500):
        p = expected_score(r[:, None] - r[None, :])
        grad = k * (points - games * p).sum(axis=1)
        w = k * k * games * p * (1 - p)
        h = np.diag(w.sum(axis=1)) - w  # information matrix
        hf = h[np.ix_(free, free)]
        step = np.linalg.solve(hf, grad[free])
        m = np.abs(step).max()
        r[free] += step * (min(1.0, 400.0 / m) if m > 0 else 1.0)
        if m < 1e-9:
            break
    else:
        raise DataError("Elo fit did not converge")
    p = expected_score(r[:, None] - r[None, :])
    w = k * k * games * p * (1 - p)
    h = np.diag(w.sum(axis=1)) - w
    cov = np.linalg.inv(h[np.ix_(free, free)])
    se = np.zeros(n)
    se[free] = np.sqrt(np.maximum(np.diag(cov), 0))
    out = pd.DataFrame({"agent": agents, "elo": r, "std_err": se})
    return out.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------------------
# Surveys (latrunculi survey / play)
# --------------------------------------------------------------------------------------


def load_games(path, with_moves: bool = False) -> pd.DataFrame:
    """A games.csv (`play`, `survey`, `eval --games-out`, `ladder`), typed.

    `moves` (long text) is read only with `with_moves=True`. Checks the winner and
    reason vocabularies and that plies are positive.
    """
    path = Path(path)
    cols = None if with_moves else [c for c in GAMES_COLUMNS if c != "moves"]
    df = read_csv(path, GAMES_COLUMNS, usecols=cols)
    bad = ~df["winner"].isin(WINNERS)
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise DataError(f"{path}: data row {i + 1}: winner {df['winner'].iloc[i]!r} is not one of {WINNERS}")
    bad = ~df["reason"].isin(REASONS)
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise DataError(f"{path}: data row {i + 1}: reason {df['reason'].iloc[i]!r} is not one of {REASONS}")
    if (df["plies"] <= 0).any():
        i = int(np.flatnonzero((df["plies"] <= 0).to_numpy())[0])
        raise DataError(f"{path}: data row {i + 1}: plies must be positive")
    return df


def load_summary(path) -> pd.DataFrame:
    """A survey's summary.csv, typed (rates and intervals float, counts int)."""
    return read_csv(Path(path), SUMMARY_COLUMNS)


def _survey_swap(folder: Path) -> bool:
    cfg = folder / "config.toml"
    if tomllib is None or not cfg.is_file():
        return True
    try:
        return bool(tomllib.loads(cfg.read_text(encoding="utf-8")).get("swap", True))
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{cfg}: not valid TOML: {e}") from None


@dataclass
class Survey:
    """A survey folder: summary.csv and games.csv (with a `pairing` column added)."""

    folder: Path
    summary: pd.DataFrame
    games: pd.DataFrame
    swap: bool = True
    config: dict = field(default_factory=dict)

    @property
    def rulesets(self) -> list[str]:
        return list(dict.fromkeys(self.summary["ruleset"]))

    @property
    def pairings(self) -> list[str]:
        return list(dict.fromkeys(self.summary["pairing"]))


def load_survey(path, with_moves: bool = False) -> Survey:
    """A `latrunculi survey` output folder (summary.csv + games.csv).

    Adds to the games a `pairing` column in the form of summary.csv (`first vs second`:
    with swap, odd-numbered games give White to the second spec). The experiment file's
    order of rulesets and pairings is `Survey.rulesets` / `Survey.pairings`.
    """
    folder = Path(path)
    if not folder.is_dir():
        raise DataError(f"{folder}: survey folder not found")
    summary = load_summary(folder / "summary.csv")
    games = load_games(folder / "games.csv", with_moves=with_moves)
    swap = _survey_swap(folder)
    odd = (games["game"] % 2 == 1) & swap
    first = games["white"].where(~odd, games["black"])
    second = games["black"].where(~odd, games["white"])
    games["pairing"] = first + " vs " + second
    config = {}
    if tomllib is not None and (folder / "config.toml").is_file():
        config = tomllib.loads((folder / "config.toml").read_text(encoding="utf-8"))
    return Survey(folder=folder, summary=summary, games=games, swap=swap, config=config)


def find_surveys(root=None) -> list[Path]:
    """Survey folders under ROOT/experiments: those holding a summary.csv and a games.csv
    (other summaries, such as the endgame tables' `experiments/endgames/summary.csv`, are
    not surveys)."""
    root = Path(root) if root is not None else ROOT / "experiments"
    return sorted(p.parent for p in root.glob("*/summary.csv") if (p.parent / "games.csv").exists())


def summarize_games(games: pd.DataFrame) -> pd.DataFrame:
    """Recomputes the counts of summary.csv from games (grouped by ruleset and pairing)."""
    rows = []
    for (rs, pairing), g in games.groupby(["ruleset", "pairing"], sort=False):
        plies = np.sort(g["plies"].to_numpy())
        row = {
            "ruleset": rs,
            "pairing": pairing,
            "games": len(g),
            "white_wins": int((g["winner"] == "white").sum()),
            "black_wins": int((g["winner"] == "black").sum()),
            "draws": int((g["winner"] == "draw").sum()),
            "mean_plies": float(plies.mean()),
            "median_plies": float(np.median(plies)),
            "p90_plies": nearest_rank(plies, 0.9),
        }
        for r in REASONS:
            row["reason_" + r.replace("-", "_")] = int((g["reason"] == r).sum())
        rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------
# Training logs (latrunculi train)
# --------------------------------------------------------------------------------------


def load_train_log(path) -> pd.DataFrame:
    """One run's train_log.csv, typed; adds `run` (the folder name)."""
    path = Path(path)
    df = read_csv(path, TRAIN_LOG_COLUMNS)
    # `steps` (gradient steps of the iteration) came later: typed where a log has it.
    if "steps" in df.columns:
        df["steps"] = _convert(df["steps"], "int?", path, "steps")
    df.insert(0, "run", path.parent.name)
    return df


TRAIN_LOG_PATTERNS = ("experiments/az-*/train_log.csv", "experiments/archive/az-*/train_log.csv")
"""Where the committed training runs are: the current ones and the archived first runs."""


def load_train_logs(pattern: str | tuple[str, ...] = TRAIN_LOG_PATTERNS, root=None) -> pd.DataFrame:
    """Every train_log.csv matching the glob `pattern` (relative to the repository
    root; a tuple of globs reads all of them), concatenated with a `run` column (the
    run's folder name), runs ordered by that name. Runs still in progress are read as
    they are. Raises DataError when nothing matches."""
    root = Path(root) if root is not None else ROOT
    patterns = (pattern,) if isinstance(pattern, str) else tuple(pattern)
    paths = sorted({p for pat in patterns for p in root.glob(pat)}, key=lambda p: (p.parent.name, str(p)))
    if not paths:
        raise DataError(f"no file matches {' or '.join(str(root / pat) for pat in patterns)}")
    frames = [load_train_log(p) for p in paths]
    return pd.concat(frames, ignore_index=True)


# --------------------------------------------------------------------------------------
# Ladders and evaluations (latrunculi eval / ladder)
# --------------------------------------------------------------------------------------


def load_pairings(path) -> pd.DataFrame:
    """An `eval --out` file or a ladder's pairings.csv, typed; `elo`, `elo_lo`, `elo_hi`
    may be ±inf (clean sweeps); `sprt`/`llr` empty without a test."""
    return read_csv(Path(path), EVAL_COLUMNS)


def load_ratings(path) -> pd.DataFrame:
    """A ladder's ratings.csv, typed (best first)."""
    return read_csv(Path(path), RATINGS_COLUMNS)


@dataclass
class Ladder:
    """A ladder folder. `ratings` is None while the ladder is still running."""

    folder: Path
    pairings: pd.DataFrame
    games: pd.DataFrame
    ratings: pd.DataFrame | None
    agents: list[str]
    command: str | None

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def complete(self) -> bool:
        return self.ratings is not None


def _ladder_agents(folder: Path) -> tuple[list[str], str | None]:
    """Agents and the `latrunculi ladder` command line from the folder's agents.txt."""
    f = folder / "agents.txt"
    if not f.is_file():
        return [], None
    agents, command = [], None
    for line in f.read_text(encoding="utf-8").splitlines():
        if "latrunculi ladder" in line and line.lstrip().startswith("#"):
            command = line.lstrip("# ").strip()
        spec = line.split("#", 1)[0].strip()
        if spec:
            agents.append(spec)
    return agents, command


def load_ladder(path, require_ratings: bool = True, with_moves: bool = False) -> Ladder:
    """A `latrunculi ladder` output folder: pairings.csv, games.csv and ratings.csv.

    With `require_ratings=False`, a ladder still being played (no ratings.csv yet) is
    read with `ratings=None`. Adds to the games `agent` / `opponent` columns (the first
    agent of the pairing plays White in even-numbered games).
    """
    folder = Path(path)
    if not folder.is_dir():
        raise DataError(f"{folder}: ladder folder not found")
    ratings_path = folder / "ratings.csv"
    ratings = None
    if ratings_path.is_file():
        ratings = load_ratings(ratings_path)
    elif require_ratings:
        raise DataError(f"{ratings_path}: file not found (is the ladder still running?)")
    pairings = load_pairings(folder / "pairings.csv")
    games = load_games(folder / "games.csv", with_moves=with_moves)
    even = games["game"] % 2 == 0
    games["agent"] = games["white"].where(even, games["black"])
    games["opponent"] = games["black"].where(even, games["white"])
    agents, command = _ladder_agents(folder)
    return Ladder(folder=folder, pairings=pairings, games=games, ratings=ratings, agents=agents, command=command)


def find_ladders(root=None) -> list[Path]:
    """Ladder folders (experiments/ladder-*, the archived experiments/archive/ladder-* and
    the study's experiments/study/ladder/*) that hold at least a pairings.csv."""
    root = Path(root) if root is not None else ROOT / "experiments"
    found = list(root.glob("ladder-*")) + list(root.glob("archive/ladder-*")) + list(root.glob("study/ladder/*"))
    return sorted(p for p in found if (p / "pairings.csv").is_file())


def ladder_option(command: str | None, name: str, default):
    """The value of `--name VALUE` in a ladder command line, else `default`."""
    if command:
        m = re.search(r"--" + re.escape(name) + r"[ =](\S+)", command)
        if m:
            return type(default)(m.group(1))
    return default


def short_agent(spec: str) -> str:
    """A short label of an agent spec: `az:model=DIR/latest.az,sims=50` -> `az(DIR),sims=50`."""

    def repl(m):
        path = Path(m.group(1))
        run = path.parent.name if path.name == "latest.az" else path.stem
        return f"az[{run}]"

    return re.sub(r"az:model=([^,]+)", repl, spec)


def csv_kind(path) -> str | None:
    """`"eval"` for an `eval --out` / pairings.csv file, `"games"` for a games.csv-like
    file (`play --out`, `eval --games-out`), None for anything else (from the header)."""
    path = Path(path)
    try:
        header = pd.read_csv(path, nrows=0).columns.tolist()
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError):
        return None
    if header and all(c in header for c in EVAL_COLUMNS):
        return "eval"
    if header and all(c in header for c in GAMES_COLUMNS):
        return "games"
    return None


def find_evals(root=None) -> list[Path]:
    """`latrunculi eval --out` files under ROOT/experiments/az-eval*/ and the archived
    ROOT/experiments/archive/az-eval*/ (recognised by header)."""
    root = Path(root) if root is not None else ROOT / "experiments"
    found = list(root.glob("az-eval*/*.csv")) + list(root.glob("archive/az-eval*/*.csv"))
    return sorted(p for p in found if csv_kind(p) == "eval")


def score_matrix(pairings: pd.DataFrame) -> pd.DataFrame:
    """Square matrix of scores: row agent's score against column agent (NaN on the
    diagonal and for pairings not played), in the order agents first appear."""
    agents = list(dict.fromkeys(list(pairings["agent"]) + list(pairings["opponent"])))
    m = pd.DataFrame(np.nan, index=agents, columns=agents)
    for r in pairings.itertuples():
        m.loc[r.agent, r.opponent] = r.score
        m.loc[r.opponent, r.agent] = 1.0 - r.score
    return m


# --------------------------------------------------------------------------------------
# The reconstruction study (experiments/study: ladders + self-play surveys)
# --------------------------------------------------------------------------------------


def load_selfplay_cells(folder) -> pd.DataFrame:
    """The self-play cells (`P vs P`) of a survey folder, summarised from its games.csv.

    Works on a survey still running (no summary.csv yet): each cell holds the games
    played so far. Columns: those of `summarize_games` plus `player`, `draw_rate`,
    `draw_lo`, `draw_hi` (95% Wilson), `survey` (the folder name) and `finished` (the
    folder has a summary.csv listing the cell, so the cell reached its final size).
    """
    folder = Path(folder)
    games = load_games(folder / "games.csv")
    games = games[games["white"] == games["black"]].copy()
    games["pairing"] = games["white"] + " vs " + games["black"]
    cells = summarize_games(games)
    if cells.empty:
        return cells
    cells.insert(2, "player", cells["pairing"].str.split(" vs ").str[0])
    cells["draw_rate"] = cells["draws"] / cells["games"]
    cells["draw_lo"], cells["draw_hi"] = wilson(cells["draws"].to_numpy(), cells["games"].to_numpy())
    cells["survey"] = folder.name
    finished = set()
    if (folder / "summary.csv").is_file():
        s = load_summary(folder / "summary.csv")
        finished = set(zip(s["ruleset"], s["pairing"]))
    cells["finished"] = [(r, p) in finished for r, p in zip(cells["ruleset"], cells["pairing"])]
    return cells


def load_study_ratings(folder=None) -> pd.DataFrame:
    """Every finished ladder of the study (FOLDER/ladder/<ruleset>/ratings.csv), with a
    `ruleset` column; FOLDER defaults to experiments/study."""
    folder = Path(folder) if folder is not None else ROOT / "experiments" / "study"
    frames = []
    for path in sorted((folder / "ladder").glob("*/ratings.csv")):
        frames.append(load_ratings(path).assign(ruleset=path.parent.name))
    if not frames:
        raise DataError(f"{folder / 'ladder'}: no ratings.csv yet (no ladder has finished)")
    return pd.concat(frames, ignore_index=True)


def load_study(folder=None) -> pd.DataFrame:
    """The study's self-play cells joined with the players' Elo on the same ruleset.

    Reads FOLDER/selfplay*/games.csv (`load_selfplay_cells`) and the ladders
    (`load_study_ratings`); cells whose ruleset has no finished ladder get NaN ratings.
    Sorted by ruleset, then Elo.
    """
    folder = Path(folder) if folder is not None else ROOT / "experiments" / "study"
    frames = [load_selfplay_cells(p.parent) for p in sorted(folder.glob("selfplay*/games.csv"))]
    frames = [f for f in frames if not f.empty]
    if not frames:
        raise DataError(f"{folder}: no self-play games yet (selfplay*/games.csv)")
    return join_study_ratings(pd.concat(frames, ignore_index=True), load_study_ratings(folder))


def join_study_ratings(cells: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """Self-play cells (`load_selfplay_cells`, any survey) with their player's Elo and its
    interval on the same ruleset (`load_study_ratings`); NaN where that ruleset's ladder
    has not finished. Sorted by ruleset, then Elo."""
    ratings = ratings[["ruleset", "agent", "elo", "elo_lo", "elo_hi"]]
    out = cells.merge(ratings, how="left", left_on=["ruleset", "player"], right_on=["ruleset", "agent"])
    return out.drop(columns="agent").sort_values(["ruleset", "elo"], kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------------------
# Datasets (latrunculi dataset)
# --------------------------------------------------------------------------------------

#: dtype of each .npy file and its shape in terms of S (rows), A (actions), H, W.
DATASET_ARRAYS = {
    "observations": ("float32", ("S", 12, "H", "W")),
    "legal_masks": ("bool", ("S", "A")),
    "policy_targets": ("float32", ("S", "A")),
    "value_targets": ("float32", ("S",)),
    "actions": ("int32", ("S",)),
    "plies": ("int32", ("S",)),
    "games": ("int32", ("S",)),
    "players": ("int8", ("S",)),
}

#: Arrays of format 2 (meta.json "format_version": 2), in light datasets too: the policy
#: targets as sparse rows (row r is policy_actions/policy_probs[policy_offsets[r]:
#: policy_offsets[r + 1]]) and the mover's own value (NaN where its agent gives none).
DATASET_ARRAYS_V2 = {
    "policy_offsets": ("int64", ("S+1",)),
    "policy_actions": ("int32", ("K",)),
    "policy_probs": ("float32", ("K",)),
    "search_values": ("float32", ("S",)),
}

#: The three large arrays a `--light` dataset leaves out.
DATASET_HEAVY = ("observations", "legal_masks", "policy_targets")

DATASET_GAME_FIELDS = {
    "game": int,
    "ruleset": str,
    "params_hash": str,
    "board": list,
    "white": str,
    "black": str,
    "seed": int,
    "moves": list,
    "winner": str,
    "reason": str,
    "plies": int,
    "first_sample": int,
    "samples": int,
}


@dataclass
class Dataset:
    """A `latrunculi dataset` folder: meta.json, games (one row per game of
    games.jsonl; `moves` as lists) and the arrays by name (without `.npy`)."""

    folder: Path
    meta: dict
    games: pd.DataFrame
    arrays: dict[str, np.ndarray]

    def __getitem__(self, name: str) -> np.ndarray:
        return self.arrays[name]

    @property
    def board(self) -> tuple[int, int]:
        w, h = self.meta["board"]
        return int(w), int(h)


def load_dataset(path, mmap: bool = False) -> Dataset:
    """Reads a dataset folder, checking every file's presence, dtype and shape against
    data/README.md and meta.json. `mmap=True` memory-maps the arrays. A light dataset
    (meta.json "light": true) has no observations, legal_masks or policy_targets; a
    dataset of format 2 also has the arrays of `DATASET_ARRAYS_V2`."""
    folder = Path(path)
    meta_path = folder / "meta.json"
    if not meta_path.is_file():
        raise DataError(f"{meta_path}: file not found")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise DataError(f"{meta_path}: not valid JSON: {e}") from None
    for key in ("format", "board", "action_space_size", "games", "samples", "planes", "files"):
        if key not in meta:
            raise DataError(f"{meta_path}: missing key {key!r}")
    if meta["format"] != "latrunculi-dataset":
        raise DataError(f"{meta_path}: format is {meta['format']!r}, expected 'latrunculi-dataset'")

    games_path = folder / "games.jsonl"
    if not games_path.is_file():
        raise DataError(f"{games_path}: file not found (an incomplete dataset has no games.jsonl)")
    records = []
    for n, line in enumerate(games_path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise DataError(f"{games_path}: line {n}: not valid JSON: {e}") from None
        for key, typ in DATASET_GAME_FIELDS.items():
            if key not in rec:
                raise DataError(f"{games_path}: line {n}: missing field {key!r}")
            if not isinstance(rec[key], typ) or (typ is int and isinstance(rec[key], bool)):
                raise DataError(f"{games_path}: line {n}: field {key!r} should be {typ.__name__}, got {rec[key]!r}")
        records.append(rec)
    games = pd.DataFrame(records)
    if len(games):
        games["seed"] = np.array([r["seed"] for r in records], dtype=np.uint64)

    w, h = (int(x) for x in meta["board"])
    dims = {"S": int(meta["samples"]), "S+1": int(meta["samples"]) + 1, "A": int(meta["action_space_size"]),
            "H": h, "W": w}
    expected = {k: v for k, v in DATASET_ARRAYS.items() if not (meta.get("light") and k in DATASET_HEAVY)}
    if int(meta.get("format_version", 1)) >= 2:
        expected.update(DATASET_ARRAYS_V2)
        doc = meta["files"].get("policy_actions.npy", {})
        dims["K"] = int(doc.get("shape", [-1])[0])
    arrays = {}
    for name, (dtype, shape) in expected.items():
        p = folder / f"{name}.npy"
        if not p.is_file():
            raise DataError(f"{p}: file not found")
        try:
            a = np.load(p, mmap_mode="r" if mmap else None, allow_pickle=False)
        except ValueError as e:
            raise DataError(f"{p}: not a readable .npy file: {e}") from None
        want = tuple(dims[d] if isinstance(d, str) else d for d in shape)
        if a.dtype != np.dtype(dtype):
            raise DataError(f"{p}: dtype {a.dtype}, expected {dtype}")
        if a.shape != want:
            raise DataError(f"{p}: shape {a.shape}, expected {want} (S={dims['S']} from meta.json)")
        doc = meta["files"].get(f"{name}.npy")
        if doc is not None and (doc.get("dtype") != dtype or tuple(doc.get("shape", ())) != want):
            raise DataError(f"{meta_path}: files[{name}.npy] = {doc} disagrees with the file ({a.dtype}, {a.shape})")
        arrays[name] = a
    return Dataset(folder=folder, meta=meta, games=games, arrays=arrays)


def square_name(s: int, width: int) -> str:
    """Square index (rank·W + file) -> `a1`-style name."""
    return "abcdefghijklmnopqrstuvwxyz"[s % width] + str(s // width + 1)


def action_name(a: int, width: int, height: int) -> str:
    """A readable name of an action index (data/README.md, action encoding)."""
    n = width * height
    if a < n * n:
        return f"{square_name(a // n, width)}-{square_name(a % n, width)}"
    a -= n * n
    kind, s = divmod(a, n)
    return ["@", "D@", "x"][kind] + square_name(s, width)
