#!/usr/bin/env python3
"""The table of `experiments/az-all/run.sh`: one row per ruleset with a trained network.

    python3 experiments/az-all/table.py [FOLDER]     (default: experiments/az-all)
    python3 experiments/az-all/table.py --twelve [FOLDER [FAMILIES]]
                                                     (default FAMILIES: FOLDER/../az-family)

Writes FOLDER/table.csv and prints it as Markdown (folders RULESET@WxH, a ruleset on
another board trained for a family's comparison, are left out: experiments/az-family
reports them). With --twelve, writes FOLDER/twelve.csv
instead: one row per ruleset of FOLDER/rulesets.txt (in its order), by its recipe. The
ruleset's own network is the self-play recipe's (FOLDER/RULESET, run.sh) or the
imitation recipe's (FOLDER/imitate/RULESET, imitate.sh), whichever ranks higher: the bar
met, then the drawn exception, then a match still undecided, then a miss; then the
higher score against alphabeta:depth=3; self-play on a tie and where neither has run.
A family network (experiments/az-family/run.sh: a folder F of FAMILIES, or FAMILIES
itself, with F/family/members.txt) that plays the ruleset on its own board replaces it
only where the family network meets the bar (or the drawn exception) and ranks higher on
that alone: it meets the bar where the own network does not, or the own network meets
only the drawn exception; a higher score is not enough. So does a family network
fine-tuned on the ruleset at another ply cap (tune.sh: FOLDER/tune-cap-N/RULESET), on
the same terms, the better-ranked of the two where both would. Its columns: ruleset,
recipe (selfplay, imitation, family:F for the family network of folder F, or tune:T for
the tuned network of folder T, each a path from the repository's root; twelve.sh runs
each ruleset by it), separate (the own network's recipe, selfplay or imitation, which
experiments/az-family/run.sh's SEPARATE=best compares a family with), the chosen
network's columns below, then score_ab3_selfplay, score_ab3_imitation, score_ab3_family
and score_ab3_tune (each one's score against alphabeta:depth=3, empty where it has not
run; of several families or tunings the best-ranked). Columns of table.csv:
  ruleset         the seed ruleset
  ply_cap         the ply cap of every game of its run: teacher, self-play and the matches
                  (config.toml's [selfplay] ply_cap)
  teacher_s       wall-clock seconds of the teacher's games (times.csv)
  teacher_games   the teacher's games the warm start learnt from (train_log.csv's
                  iteration 0)
  train_s         wall-clock seconds of `latrunculi train` (warm start included)
  iterations      self-play iterations finished (train_log.csv)
  games_ab3 ...   the network at 200 visits with the win-in-one check against
                  alphabeta:depth=3: games, wins, draws, losses, score and its 95%
                  interval, the SPRT's decision (vs-ab3.csv)
  ends_ab3        how those games ended: reason=count over the games (vs-ab3-games.csv)
  games_ms100 ... the same against the search player at ms=100 (vs-ms100.csv)
  teacher_draw_rate  the share of the teacher's games drawn (train_log.csv's iteration 0)
  meets           yes when the score against alphabeta:depth=3 is at least 0.60 with the
                  lower bound above 0.5 after 100 games or an SPRT decision; drawn when
                  it is not, but the ruleset is one where nearly every game is drawn
                  whoever plays (the issue's exception), read as: the network lost none
                  of its games against alphabeta:depth=3, at least 90% of them were
                  drawn, and so were at least 90% of the teacher's games; no otherwise;
                  empty while the match is undecided
For a family network's row in twelve.csv: ply_cap is the member's (its separate
training's, at which the family's matches on it are played), teacher_s, teacher_games,
train_s and iterations the whole family's (its members' teacher games and its one
training, shared by its N members), teacher_draw_rate the member's own teacher games',
and the matches are F/family/RULESET-vs-ab3.csv and RULESET-vs-ms100.csv. For a tuned
network's row: ply_cap is the tuning's, teacher_s and train_s the family's (as above)
plus the tuning's own teacher games and training, teacher_games and iterations the
tuning's, and the matches its own (T/RULESET/vs-*.csv).
A ruleset still running has empty cells where its files are missing.
"""
import csv
import sys
import tomllib
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv, run  # noqa: E402


def read_rows(path: Path):
    return read_csv(path) if path.is_file() else []


def seconds(folder: Path, step: str) -> str:
    rows = read_rows(folder / "times.csv")
    total = sum(float(r["seconds"]) for r in rows if r["step"] == step)
    return f"{total:.0f}" if rows else ""


def ply_cap(folder: Path) -> str:
    config = folder / "config.toml"
    if not config.is_file():
        return ""
    with config.open("rb") as f:
        return str(tomllib.load(f).get("selfplay", {}).get("ply_cap", ""))


def pairing(folder: Path, name: str, stem: str = "") -> dict:
    """The match FOLDER/STEM.csv (default vs-NAME.csv) and its games, as columns *_NAME."""
    stem = stem or f"vs-{name}"
    rows = read_rows(folder / f"{stem}.csv")
    last = rows[-1] if rows else {}
    out = {f"{k}_{name}": last.get(k, "") for k in ("games", "wins", "draws", "losses", "score", "score_lo", "score_hi", "sprt")}
    ends = Counter(g["reason"] for g in read_rows(folder / f"{stem}-games.csv"))
    out[f"ends_{name}"] = " ".join(f"{k}={v}" for k, v in sorted(ends.items()))
    return out


def drawn_exception(row: dict) -> bool:
    """The network lost nothing against depth 3, and at least 90% of its games there and
    of its teacher's games were drawn."""
    if not (row["games_ab3"] and row["teacher_draw_rate"]):
        return False
    games, draws, losses = (int(row[f"{k}_ab3"]) for k in ("games", "draws", "losses"))
    return losses == 0 and draws >= 0.9 * games and float(row["teacher_draw_rate"]) >= 0.9


def training(folder: Path) -> dict:
    """From FOLDER/train_log.csv: the warm start's row (iteration 0; empty where there is
    none) and the last iteration finished (empty without a log)."""
    log = read_rows(folder / "train_log.csv")
    return {
        "warm_start": next((r for r in log if r["iteration"] == "0"), {}),
        "iterations": str(max((int(r["iteration"]) for r in log), default=0)) if log else "",
    }


def init_network(folder: Path) -> str:
    """The init_network of FOLDER/config.toml (a run started from a trained network), or
    nothing."""
    config = folder / "config.toml"
    if not config.is_file():
        return ""
    with config.open("rb") as f:
        return tomllib.load(f).get("init_network", "")


def tune_rows(folder: Path, separate: Path) -> dict:
    """The rows of the tuned networks of FOLDER (tune.sh's OUT), by ruleset, their
    seconds with those of the family network each started from (a path from the
    repository's root, FAMILY/family/latest.az; SEPARATE as for family_rows)."""
    root = Path(__file__).resolve().parents[2]
    rows = {}
    for row in table_rows(folder):
        init = init_network(folder / row["ruleset"])
        family = (root / init).parent.parent if init else None
        if family is None or not (family / "family" / "members.txt").is_file():
            continue
        base = family_rows(family, separate).get(row["ruleset"])
        if base is None:
            continue
        for k in ("teacher_s", "train_s"):
            row[k] = f"{float(row[k]) + float(base[k]):.0f}" if row[k] and base[k] else ""
        rows[row["ruleset"]] = row
    return rows


def table_rows(folder: Path) -> list:
    """One row per ruleset folder of FOLDER (a subfolder with times.csv), by name; a
    folder RULESET@WxH (a ruleset on another board, trained for a family's comparison
    and reported with it in experiments/az-family) is left out."""
    table = []
    for d in sorted(p for p in folder.iterdir() if p.is_dir() and (p / "times.csv").is_file() and "@" not in p.name):
        trained = training(d)
        row = {
            "ruleset": d.name,
            "ply_cap": ply_cap(d),
            "teacher_s": seconds(d, "teacher"),
            "teacher_games": trained["warm_start"].get("games", ""),
            "train_s": seconds(d, "train"),
            "iterations": trained["iterations"],
            "teacher_draw_rate": trained["warm_start"].get("draw_rate", ""),
        }
        row.update(pairing(d, "ab3"))
        row.update(pairing(d, "ms100"))
        row["meets"] = meets(row)
        table.append(row)
    return table


def meets(row: dict) -> str:
    """yes, drawn or no once the match against alphabeta:depth=3 is decided (an SPRT
    decision or 100 games); empty before."""
    decided = row["sprt_ab3"] in ("H0", "H1") or (row["games_ab3"] and int(row["games_ab3"]) >= 100)
    good = row["score_ab3"] and float(row["score_ab3"]) >= 0.60 and float(row["score_lo_ab3"]) > 0.5
    return ("yes" if good else "drawn" if drawn_exception(row) else "no") if decided else ""


def family_rows(family: Path, separate: Path) -> dict:
    """The rows of a family network (FAMILY/family/, experiments/az-family/run.sh) for
    each of its members on its own board (not RULESET@WxH), by member; SEPARATE is the
    folder of the members' own runs (their ply caps and teacher games)."""
    d = family / "family"
    members = (d / "members.txt").read_text().split()
    trained = training(d)
    teacher = [seconds(separate / m, "teacher") for m in members]
    rows = {}
    for m in (m for m in members if "@" not in m):
        row = {
            "ruleset": m,
            "ply_cap": ply_cap(separate / m),
            "teacher_s": f"{sum(float(t) for t in teacher):.0f}" if all(teacher) else "",
            "teacher_games": trained["warm_start"].get("games", ""),
            "train_s": seconds(d, "train"),
            "iterations": trained["iterations"],
            "teacher_draw_rate": training(separate / m)["warm_start"].get("draw_rate", ""),
        }
        row.update(pairing(d, "ab3", f"{m}-vs-ab3"))
        row.update(pairing(d, "ms100", f"{m}-vs-ms100"))
        row["meets"] = meets(row)
        rows[m] = row
    return rows


def families(root: Path) -> list:
    """The family folders of ROOT: ROOT itself and its subfolders, those with
    family/members.txt."""
    if not root.is_dir():
        return []
    return [d for d in [root, *sorted(root.iterdir())] if (d / "family" / "members.txt").is_file()]


def label(folder: Path) -> str:
    """FOLDER as the recipe names it: from the repository's root where it is inside it."""
    root = Path(__file__).resolve().parents[2]
    try:
        return str(folder.resolve().relative_to(root))
    except ValueError:
        return str(folder.resolve())


def write_csv(path: Path, table: list) -> None:
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(table[0]))
        w.writeheader()
        w.writerows(table)


def rank(row: dict) -> tuple:
    """How a recipe's row ranks for the choice of `--twelve` (higher is better): the bar
    met, then drawn, then undecided, then missed; then the score against depth 3."""
    order = {"yes": 3, "drawn": 2, "": 1, "no": 0}
    return (order.get(row["meets"], 0), float(row["score_ab3"] or -1))


def keep_best(best: dict, recipe: str, rows: dict) -> None:
    """Puts each ruleset's row of ROWS into BEST as (RECIPE, row) where it ranks higher
    than the one there (`rank`; the earlier one on a tie)."""
    for m, r in rows.items():
        if m not in best or rank(r) > rank(best[m][1]):
            best[m] = (recipe, r)


def twelve(folder: Path, family_root: Path) -> list:
    """The twelve seed rulesets (rulesets.txt's order), each by its recipe: the self-play
    recipe (FOLDER's own rows) or the imitation recipe (FOLDER/imitate's), whichever
    ranks higher (`rank`; the self-play recipe on a tie, and where neither has run); a
    family network of FAMILY_ROOT in their place where it meets the bar or the drawn
    exception and ranks higher on that alone (`rank`'s first part)."""
    names = [l.split("#")[0].strip() for l in (folder / "rulesets.txt").read_text().splitlines()]
    recipes = {
        "selfplay": {r["ruleset"]: r for r in table_rows(folder)},
        "imitation": {r["ruleset"]: r for r in table_rows(folder / "imitate")} if (folder / "imitate").is_dir() else {},
    }
    # Of several families playing a ruleset, the best-ranked (the first folder on a tie);
    # so of several tunings (folders FOLDER/tune-cap-N).
    family, tuned = {}, {}
    for f in families(family_root):
        keep_best(family, f"family:{label(f)}", family_rows(f, folder))
    for t in sorted(d for d in folder.iterdir() if d.is_dir() and d.name.startswith("tune-cap-")):
        keep_best(tuned, f"tune:{label(t)}", tune_rows(t, folder))
    # The columns of a ruleset no recipe has run: those of any row, empty.
    empty = {k: "" for rows in recipes.values() for r in list(rows.values())[:1] for k in r if k != "ruleset"}
    table = []
    for name in (n for n in names if n):
        runs = {k: rows[name] for k, rows in recipes.items() if name in rows}
        separate = max(runs, key=lambda k: (rank(runs[k]), k == "selfplay")) if runs else "selfplay"
        recipe, chosen = separate, runs.get(separate, empty)
        # A family network or a tuned one replaces it where it meets the bar (or the drawn
        # exception) and the own network ranks lower on that; the better-ranked of the two.
        derived = sorted((d[name] for d in (family, tuned) if name in d), key=lambda d: rank(d[1]), reverse=True)
        if derived and derived[0][1]["meets"] in ("yes", "drawn") and (
                not runs or rank(derived[0][1])[0] > rank(chosen)[0]):
            recipe, chosen = derived[0]
        row = {"ruleset": name, "recipe": recipe, "separate": separate}
        row.update({k: v for k, v in chosen.items() if k != "ruleset"})
        for k in recipes:
            row[f"score_ab3_{k}"] = runs[k]["score_ab3"] if k in runs else ""
        row["score_ab3_family"] = family[name][1]["score_ab3"] if name in family else ""
        row["score_ab3_tune"] = tuned[name][1]["score_ab3"] if name in tuned else ""
        table.append(row)
    return table


def cell(r: dict, n: str) -> tuple:
    if not r[f"games_{n}"]:
        return "", ""
    return (f"{r[f'wins_{n}']}-{r[f'draws_{n}']}-{r[f'losses_{n}']}",
            f"{float(r[f'score_{n}']):.2f} [{float(r[f'score_lo_{n}']):.2f}, {float(r[f'score_hi_{n}']):.2f}]")


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "--twelve":
        folder = Path(args[1]) if len(args) > 1 else Path(__file__).resolve().parent
        family_root = Path(args[2]) if len(args) > 2 else folder.resolve().parent / "az-family"
        table = twelve(folder, family_root)
        write_csv(folder / "twelve.csv", table)
        print("| ruleset | recipe | ply cap | teacher s | train s | vs ab3: W-D-L | score [95%] | SPRT | vs ms=100: W-D-L | score [95%] | meets | score vs ab3, the others |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in table:
            a, b = cell(r, "ab3"), cell(r, "ms100")
            kind = r["recipe"].split(":")[0]
            others = [f"{k} {float(r[f'score_ab3_{k}']):.2f}" for k in ("selfplay", "imitation", "family", "tune")
                      if k != kind and r[f"score_ab3_{k}"]]
            print(f"| {r['ruleset']} | {r['recipe']} | {r['ply_cap']} | {r['teacher_s']} | {r['train_s']} | {a[0]} | {a[1]} | {r['sprt_ab3']} | {b[0]} | {b[1]} | {r['meets']} | {', '.join(others) or 'not run'} |")
        return
    folder = Path(args[0]) if args else Path(__file__).resolve().parent
    table = table_rows(folder)
    if not table:
        sys.exit(f"{folder}: no ruleset folder with times.csv yet")
    write_csv(folder / "table.csv", table)
    print("| ruleset | ply cap | teacher s | teacher games | train s | iterations | vs ab3: W-D-L | score [95%] | vs ms=100: W-D-L | score [95%] | meets |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in table:
        a, b = cell(r, "ab3"), cell(r, "ms100")
        print(f"| {r['ruleset']} | {r['ply_cap']} | {r['teacher_s']} | {r['teacher_games']} | {r['train_s']} | {r['iterations']} | {a[0]} | {a[1]} | {b[0]} | {b[1]} | {r['meets']} |")


if __name__ == "__main__":
    run(main)
