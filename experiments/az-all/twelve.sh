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
source experiments/az-all/recipe_of.sh
pick_rulesets twelve.sh "$@"

for r in "${rulesets[@]}"; do
  recipe=$(recipe_of "$recipes" "$r")
  echo "twelve.sh: $r by the $recipe recipe" >&2
  case $recipe in
    selfplay) bash experiments/az-all/run.sh "$r" ;;
    imitation) bash experiments/az-all/imitate.sh "$r" ;;
    *) echo "twelve.sh: $recipes gives $r the recipe '$recipe' (selfplay or imitation)" >&2; exit 2 ;;
  esac
done
