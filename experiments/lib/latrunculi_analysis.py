"""The code that the analysis scripts under experiments/ share (standard library only).

- `wilson` and `newcombe`: the 95% intervals of a proportion and of a difference of two;
- `read_csv`, `read_games`, `read_summary`: the committed CSV files as lists of dicts
  (one per row, every value a string), with a clear error (`DataError`: the file, the
  line, what is wrong) for a missing file, a missing column or a row whose number of
  fields is not the header's; `finished_only=True` reads a file that a run may still be
  appending to (a half-written last line, one without its newline, is left out);
- `survey_cells`: the cells of a survey folder, finished or still running;
- `markdown_header`, `markdown_row`, `interval_text`: the Markdown tables the scripts print.

A script in a folder of experiments/ imports it with

    sys.path.insert(0, str(Path(__file__).resolve().parents[N] / "lib"))
    from latrunculi_analysis import wilson, read_games  # noqa: E402

where N is 1 for a script directly in experiments/, 2 for one in experiments/FOLDER/.
The column meanings are in experiments/README.md ("Output columns").
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

#: The two-sided 95% normal quantile (the interval of `latrunculi` uses the same).
Z95 = 1.959963984540054

#: The columns every games.csv-like file has that the scripts count from (`play --out`,
#: `survey` games, `eval --games-out`; the full list is in experiments/README.md).
GAMES_COLUMNS = ("ruleset", "white", "black", "winner", "plies")

#: The columns of a survey's summary.csv that identify a cell.
SUMMARY_COLUMNS = ("ruleset", "pairing", "games")


class DataError(Exception):
    """A file that cannot be read as the script expects; the message names the file, the
    line (where one is at fault) and what is wrong."""


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of `k` successes in `n` trials (k may be a score, with a
    draw counted as a half), clipped to [0, 1]; (0, 1) when n = 0 (nothing is known)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """p1 - p2 and Newcombe's hybrid-score 95% interval of it (his method 10), from the
    Wilson intervals of the two proportions k1/n1 and k2/n2 (n1, n2 > 0)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


_MISSING = object()
_EXTRA = "\0extra"


def read_csv(path, required=(), *, finished_only: bool = False) -> list[dict]:
    """The rows of the CSV file `path` as dicts keyed by its header (values are strings;
    blank lines are skipped). Raises DataError when the file is missing, when its header
    lacks one of the `required` columns, or when a row has more or fewer fields than the
    header. With `finished_only`, a last line without its newline (a row still being
    written) is left out."""
    path = Path(path)
    if not path.is_file():
        raise DataError(f"{path}: no such file")
    with path.open(newline="") as f:
        text = f.read()
    if finished_only and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
    reader = csv.DictReader(text.splitlines(keepends=True), restkey=_EXTRA, restval=_MISSING)
    header = reader.fieldnames or []
    missing = [c for c in required if c not in header]
    if missing:
        what = f"its header is {','.join(header)}" if header else "it is empty"
        raise DataError(f"{path}: no column {', '.join(missing)} ({what})")
    rows = []
    for row in reader:
        if _EXTRA in row or any(v is _MISSING for v in row.values()):
            fields = len(header) + len(row.get(_EXTRA, [])) - sum(v is _MISSING for v in row.values())
            raise DataError(f"{path} line {reader.line_num}: {fields} fields where the header has {len(header)}")
        rows.append(row)
    return rows


def read_games(path, required=GAMES_COLUMNS, *, finished_only: bool = False) -> list[dict]:
    """The games of a games.csv-like file (`read_csv` with the games columns required)."""
    return read_csv(path, required, finished_only=finished_only)


def read_summary(path, required=SUMMARY_COLUMNS) -> list[dict]:
    """The cells of a survey's summary.csv (`read_csv` with the cell columns required)."""
    return read_csv(path, required)


def survey_cells(d) -> list[dict]:
    """The cells of the survey folder `d`: the rows of its summary.csv, or, for a survey
    still running (games.csv, no summary.csv yet), its self-play cells counted from the
    finished games (`ruleset`, `pairing`, `games`, `white_wins`, `draws`, `draw_rate`,
    `draw_lo`, `draw_hi`, `white_score`, `white_score_lo`, `white_score_hi`, `mean_plies`,
    and `partial` = "1"); empty when it has neither file."""
    d = Path(d)
    if (d / "summary.csv").exists():
        return read_csv(d / "summary.csv")
    if not (d / "games.csv").exists():
        return []
    tally: dict[tuple[str, str], list[int]] = {}
    for g in read_csv(d / "games.csv", finished_only=True):
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


def markdown_header(columns, right=()) -> str:
    """The first two lines of a Markdown table: the column names, then the separator
    (`---:`, right-aligned, for the columns named in `right`)."""
    columns = list(columns)
    rule = "|".join("---:" if c in right else "---" for c in columns)
    return f"| {' | '.join(columns)} |\n|{rule}|"


def markdown_row(cells) -> str:
    """One row of a Markdown table."""
    return f"| {' | '.join(str(c) for c in cells)} |"


def interval_text(value: float, lo: float, hi: float, digits: int = 2) -> str:
    """`value [lo, hi]` with `digits` decimals, as the tables print an estimate."""
    return f"{value:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def run(main, *args) -> None:
    """Runs a script's `main(*args)`; a DataError ends it with `error: MESSAGE` on stderr
    and exit status 1 instead of a traceback."""
    import sys

    try:
        main(*args)
    except DataError as e:
        sys.exit(f"error: {e}")
