#!/usr/bin/env bash
# A trained network for each of the twelve seed rulesets, each by its own recipe
# (README.md "The twelve"): the self-play recipe of run.sh or the imitation recipe of
# imitate.sh, as the `recipe` column of twelve.csv records (`selfplay` or `imitation`,
# chosen there by `table.py --twelve` from the two recipes' measured matches); the
# self-play recipe for a ruleset it does not list.
#
#   bash experiments/az-all/twelve.sh [RULESET ...]    (default: rulesets.txt's twelve)
#   bash experiments/az-all/twelve.sh SHARD/SHARDS     (every SHARDS-th of the twelve)
#
# Every step resumes and is skipped once done (those of run.sh and imitate.sh, whose
# environment applies: LATRUNCULI, HOUR, ...). RECIPES names another table
# (experiments/az-all/twelve.csv).
set -euo pipefail
cd "$(dirname "$0")/../.."
recipes=${RECIPES:-experiments/az-all/twelve.csv}
source experiments/az-all/pick_rulesets.sh
pick_rulesets twelve.sh "$@"

# The recipe twelve.csv records for a ruleset (its `recipe` column), selfplay if none.
recipe_of() { # RULESET
  [[ -f $recipes ]] || { echo selfplay; return; }
  python3 - "$recipes" "$1" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r.get("ruleset") == sys.argv[2]]
print(rows[0].get("recipe") or "selfplay" if rows else "selfplay")
PY
}

for r in "${rulesets[@]}"; do
  recipe=$(recipe_of "$r")
  echo "twelve.sh: $r by the $recipe recipe" >&2
  case $recipe in
    selfplay) bash experiments/az-all/run.sh "$r" ;;
    imitation) bash experiments/az-all/imitate.sh "$r" ;;
    *) echo "twelve.sh: $recipes gives $r the recipe '$recipe' (selfplay or imitation)" >&2; exit 2 ;;
  esac
done
