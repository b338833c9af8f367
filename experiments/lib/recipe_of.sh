# Sourced by experiments/az-all/twelve.sh, experiments/verdicts/run.sh and experiments/az-family/run.sh:
# a ruleset's recipe as a table of the twelve (twelve.csv, `table.py --twelve`) records
# it in its `recipe` column (selfplay, imitation, family:FOLDER or tune:FOLDER), or in another column
# (`separate`: the ruleset's own network's recipe, selfplay or imitation; a table without
# that column gives `recipe`'s value there); selfplay where the file, the ruleset's row or
# the cell is missing.
recipe_of() { # TWELVE_CSV RULESET [COLUMN]
  [[ -f $1 ]] || { echo selfplay; return; }
  python3 - "$1" "$2" "${3:-recipe}" <<'PY'
import csv, sys
path, ruleset, column = sys.argv[1:]
with open(path, newline="") as f:
    reader = csv.DictReader(f)
    if column not in (reader.fieldnames or []):
        column = "recipe"
    rows = [r for r in reader if r.get("ruleset") == ruleset]
print((rows[0].get(column) if rows else "") or "selfplay")
PY
}
# network_of FOLDER RULESET [COLUMN]: the ruleset's network by the recipe FOLDER/twelve.csv
# records in COLUMN (default recipe): FOLDER/imitate/RULESET/latest.az for imitation,
# F/family/latest.az for family:F, T/RULESET/latest.az for tune:T (F and T from the
# repository's root), else FOLDER/RULESET/latest.az.
network_of() {
  local recipe
  recipe=$(recipe_of "$1/twelve.csv" "$2" "${3:-recipe}")
  case $recipe in
    imitation) echo "$1/imitate/$2/latest.az" ;;
    family:*) echo "${recipe#family:}/family/latest.az" ;;
    tune:*) echo "${recipe#tune:}/$2/latest.az" ;;
    *) echo "$1/$2/latest.az" ;;
  esac
}
