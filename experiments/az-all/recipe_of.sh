# Sourced by twelve.sh, experiments/verdicts/run.sh and experiments/az-family/run.sh:
# a ruleset's recipe as a table of the twelve (twelve.csv, `table.py --twelve`) records
# it in its `recipe` column; selfplay where the file, the ruleset's row or the cell is
# missing.
recipe_of() { # TWELVE_CSV RULESET
  [[ -f $1 ]] || { echo selfplay; return; }
  python3 - "$1" "$2" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r.get("ruleset") == sys.argv[2]]
print((rows[0].get("recipe") if rows else "") or "selfplay")
PY
}
# network_of FOLDER RULESET: the ruleset's network by the recipe FOLDER/twelve.csv
# records, FOLDER/imitate/RULESET/latest.az for imitation, else FOLDER/RULESET/latest.az.
network_of() {
  if [[ $(recipe_of "$1/twelve.csv" "$2") == imitation ]]; then
    echo "$1/imitate/$2/latest.az"
  else
    echo "$1/$2/latest.az"
  fi
}
