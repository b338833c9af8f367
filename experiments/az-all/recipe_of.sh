# Sourced by twelve.sh and experiments/verdicts/run.sh: a ruleset's recipe as a table of
# the twelve (twelve.csv, `table.py --twelve`) records it in its `recipe` column; selfplay
# where the file, the ruleset's row or the cell is missing.
recipe_of() { # TWELVE_CSV RULESET
  [[ -f $1 ]] || { echo selfplay; return; }
  python3 - "$1" "$2" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r.get("ruleset") == sys.argv[2]]
print((rows[0].get("recipe") if rows else "") or "selfplay")
PY
}
