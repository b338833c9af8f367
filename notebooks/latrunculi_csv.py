"""Typed CSV reading for latrunculi_data.py: the repository root, the documented columns
of each results file, and `read_csv`, which checks a file's header and parses every
column as its documented kind, raising `DataError` naming the file, column and row.

Its public names are importable from `latrunculi_data` as well, where the notebooks
read them. Column meanings: `experiments/README.md`. Needs numpy and pandas only.
"""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

#: The repository root (this file lives in ROOT/notebooks/).
ROOT = Path(__file__).resolve().parent.parent

#: z of a two-sided 95% interval, as in crates/latrunculi-arena/src/stats.rs.
Z95 = 1.96

#: Game results and end reasons (docs/rules.md §1), in the order of summary.csv.
WINNERS = ("white", "black", "draw")
REASONS = (
    "immobilized",
    "bare",
    "annihilated",
    "dux-captured",
    "stalemate",
    "repetition",
    "no-capture-limit",
    "material",
    "ply-cap",
)


class DataError(Exception):
    """A results file is missing or does not have the documented form."""


# --------------------------------------------------------------------------------------
# Generic CSV reading with typed columns
# --------------------------------------------------------------------------------------

# Column kinds:
#   "str"   text (kept as text even when it looks numeric, e.g. params_hash)
#   "int"   integer, no empty cells
#   "int?"  integer or empty (pandas nullable Int64)
#   "u64"   unsigned 64-bit integer (seeds; may exceed the int64 range)
#   "float" real, no empty cells; `inf` / `-inf` allowed
#   "float?" real or empty (NaN); `inf` / `-inf` allowed

GAMES_COLUMNS = {
    "ruleset": "str",
    "params_hash": "str",
    "game": "int",
    "seed": "u64",
    "white": "str",
    "black": "str",
    "winner": "str",
    "reason": "str",
    "plies": "int",
    "captures_white": "int",
    "captures_black": "int",
    "pieces_white": "int",
    "pieces_black": "int",
    "first_capture_ply": "int?",
    "moves": "str",
}

SUMMARY_COLUMNS = {
    "ruleset": "str",
    "pairing": "str",
    "games": "int",
    "white_wins": "int",
    "black_wins": "int",
    "draws": "int",
    "draw_rate": "float",
    "draw_lo": "float",
    "draw_hi": "float",
    "decisive_rate": "float",
    "white_score": "float",
    "white_score_lo": "float",
    "white_score_hi": "float",
    "mean_plies": "float",
    "median_plies": "float",
    "p90_plies": "int",
    **{"reason_" + r.replace("-", "_"): "int" for r in REASONS},
}

TRAIN_LOG_COLUMNS = {
    "iteration": "int",
    "games": "int",
    "samples": "int",
    "buffer_samples": "int",
    "policy_loss": "float",
    "value_loss": "float",
    "policy_entropy": "float",
    "mean_plies": "float",
    "white_rate": "float",
    "black_rate": "float",
    "draw_rate": "float",
    "score_random": "float?",
    "score_mcts100": "float?",
    # Empty in the warm-start row (iteration 0), which has no self-play.
    "selfplay_positions_per_s": "float?",
    "selfplay_evals_per_s": "float?",
    "elapsed_s": "float",
}

EVAL_COLUMNS = {
    "ruleset": "str",
    "agent": "str",
    "opponent": "str",
    "games": "int",
    "wins": "int",
    "draws": "int",
    "losses": "int",
    "score": "float",
    "score_lo": "float",
    "score_hi": "float",
    "elo": "float",
    "elo_lo": "float",
    "elo_hi": "float",
    "mean_plies": "float",
    "sprt": "str?",
    "llr": "float?",
    "seed": "u64",
}

RATINGS_COLUMNS = {
    "rank": "int",
    "agent": "str",
    "elo": "float",
    "elo_lo": "float",
    "elo_hi": "float",
    "std_err": "float",
    "games": "int",
    "wins": "int",
    "draws": "int",
    "losses": "int",
    "score": "float",
}


def _parse_float(cell: str, path: Path, col: str, row: int) -> float:
    s = cell.strip()
    low = s.lower()
    if low in ("inf", "+inf", "infinity", "+infinity"):
        return math.inf
    if low in ("-inf", "-infinity"):
        return -math.inf
    try:
        return float(s)
    except ValueError:
        raise DataError(f"{path}: column {col!r}, data row {row + 1}: {cell!r} is not a number") from None


def _convert(raw: pd.Series, kind: str, path: Path, col: str) -> pd.Series:
    """Converts a column read as text to `kind`, raising DataError on bad cells."""
    empty = raw.isna() | (raw.astype(str).str.strip() == "")
    optional = kind.endswith("?")
    base = kind.rstrip("?")
    if empty.any() and not optional and base != "str":
        row = int(np.flatnonzero(empty.to_numpy())[0])
        raise DataError(f"{path}: column {col!r}, data row {row + 1}: empty cell (a value is required)")
    if base == "str":
        return raw.fillna("").astype(str)
    cells = raw.astype(str).tolist()
    mask = empty.to_numpy()
    if base == "float":
        vals = np.array(
            [math.nan if m else _parse_float(c, path, col, i) for i, (c, m) in enumerate(zip(cells, mask))],
            dtype=np.float64,
        )
        return pd.Series(vals, index=raw.index, name=col)
    if base in ("int", "u64"):
        out = []
        for i, (c, m) in enumerate(zip(cells, mask)):
            if m:
                out.append(None)
                continue
            try:
                v = int(c.strip())
            except ValueError:
                raise DataError(f"{path}: column {col!r}, data row {i + 1}: {c!r} is not an integer") from None
            if base == "u64" and not 0 <= v < 2**64:
                raise DataError(f"{path}: column {col!r}, data row {i + 1}: {c!r} is not a 64-bit unsigned integer")
            out.append(v)
        if base == "u64":
            return pd.Series(np.array(out, dtype=np.uint64), index=raw.index, name=col)
        if optional:
            return pd.Series(pd.array(out, dtype="Int64"), index=raw.index, name=col)
        return pd.Series(np.array(out, dtype=np.int64), index=raw.index, name=col)
    raise ValueError(f"unknown column kind {kind!r}")


def read_csv(path, columns: dict[str, str], usecols=None) -> pd.DataFrame:
    """Reads a CSV file whose header must contain `columns` (name -> kind, see above).

    `usecols`: read only these of the documented columns (e.g. skip `moves`). Extra
    columns of the file are kept as text. A last line without its newline (a file cut
    while being written) is dropped with a warning on stderr.
    """
    path = Path(path)
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    text = path.read_text(encoding="utf-8")
    if not text.strip():
        raise DataError(f"{path}: empty file (no header)")
    if not text.endswith("\n") and text.count("\n") >= 1:
        print(f"warning: {path}: dropping an incomplete last line", file=sys.stderr)
        text = text[: text.rfind("\n") + 1]
    header = pd.read_csv(io.StringIO(text), nrows=0).columns.tolist()
    missing = [c for c in columns if c not in header]
    if missing:
        raise DataError(f"{path}: missing column(s) {', '.join(missing)} (header: {','.join(header)})")
    wanted = list(columns) if usecols is None else [c for c in columns if c in usecols]
    try:
        raw = pd.read_csv(
            io.StringIO(text),
            dtype=str,
            keep_default_na=False,
            usecols=wanted if usecols is not None else None,
        )
    except (pd.errors.ParserError, ValueError) as e:
        raise DataError(f"{path}: cannot parse as CSV: {e}") from None
    df = pd.DataFrame(index=raw.index)
    for col in raw.columns:
        kind = columns.get(col, "str")
        df[col] = _convert(raw[col], kind, path, col)
    return df

