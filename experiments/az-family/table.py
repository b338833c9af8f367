#!/usr/bin/env python3
"""The table of `experiments/az-family/run.sh`: per member of the family, the family
network and the separate network against alphabeta:depth=3, and the two head to head.

    python3 experiments/az-family/table.py [FAMILY_FOLDER [SEPARATE_FOLDER]]
    (defaults: experiments/az-family, experiments/az-all)

The members are those of FAMILY_FOLDER/family/members.txt (run.sh writes it; the XXI
family where it is missing). The separate network of a member is the one its
head-to-head match played (the `opponent` of family/RULESET-vs-separate.csv), else
SEPARATE_FOLDER/RULESET's; its score against depth 3 is that folder's vs-ab3.csv.

Writes FAMILY_FOLDER/table.csv and prints it as Markdown. Columns, each score from the
first-named network's side with its 95% interval (`latrunculi eval`'s) and games:
  ruleset                                 the member (petteia-xxi@10x8: on the family's board)
  family_vs_ab3, _lo, _hi, _games         the family network against alphabeta:depth=3
  separate_vs_ab3, _lo, _hi, _games       the separate network (experiments/az-all/RULESET,
                                          or its imitate/RULESET with run.sh's SEPARATE=best)
  family_vs_separate, _lo, _hi, _games    the family network against the separate one
Empty cells: not run yet.
"""
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import markdown_header, markdown_row, read_csv, run  # noqa: E402

XXI_FAMILY = ["xxi", "classical", "single-stone-xxi", "petteia-xxi@10x8"]


def last_row(path: Path) -> dict:
    rows = read_csv(path) if path.is_file() else []
    return rows[-1] if rows else {}


def separate_folder(head_to_head: Path, default: Path) -> Path:
    """The folder of the separate network HEAD_TO_HEAD's match played (its `opponent`,
    az:model=FOLDER/latest.az,...; run.sh names it from the repository's root); DEFAULT
    where the match has not been played."""
    opponent = last_row(head_to_head).get("opponent", "")
    for option in opponent.removeprefix("az:").split(","):
        if option.startswith("model="):
            root = Path(__file__).resolve().parents[2]
            return root / Path(option.removeprefix("model=")).parent
    return default


def main() -> None:
    here = Path(__file__).resolve().parent
    family = Path(sys.argv[1]) if len(sys.argv) > 1 else here
    separate = Path(sys.argv[2]) if len(sys.argv) > 2 else here.parent / "az-all"
    if not family.is_dir():
        sys.exit(f"table.py: no folder {family} (the family's folder: experiments/az-family by default)")
    listed = family / "family" / "members.txt"
    members = listed.read_text().split() if listed.is_file() else XXI_FAMILY
    table = []
    for m in members:
        row = {"ruleset": m}
        head_to_head = family / "family" / f"{m}-vs-separate.csv"
        for name, path in [("family_vs_ab3", family / "family" / f"{m}-vs-ab3.csv"),
                           ("separate_vs_ab3", separate_folder(head_to_head, separate / m) / "vs-ab3.csv"),
                           ("family_vs_separate", head_to_head)]:
            r = last_row(path)
            row[name] = r.get("score", "")
            row[f"{name}_lo"] = r.get("score_lo", "")
            row[f"{name}_hi"] = r.get("score_hi", "")
            row[f"{name}_games"] = r.get("games", "")
        table.append(row)
    with (family / "table.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(table[0]))
        w.writeheader()
        w.writerows(table)
    print(markdown_header(["ruleset", "family vs ab3", "separate vs ab3", "family vs separate"]))
    for r in table:
        def cell(n):
            if not r[n]:
                return ""
            return f"{float(r[n]):.2f} [{float(r[n + '_lo']):.2f}, {float(r[n + '_hi']):.2f}] ({r[n + '_games']})"
        print(markdown_row([r["ruleset"], cell("family_vs_ab3"), cell("separate_vs_ab3"), cell("family_vs_separate")]))


if __name__ == "__main__":
    run(main)
