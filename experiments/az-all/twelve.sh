#!/usr/bin/env bash
# A trained network for each of the twelve seed rulesets, each by its own recipe
# (README.md "The twelve"): the self-play recipe of run.sh, the imitation recipe of
# imitate.sh, or a family network of experiments/az-family/run.sh, as the `recipe` column
# of twelve.csv records (`selfplay`, `imitation` or `family:FOLDER`, chosen there by
# `table.py --twelve` from the measured matches); the self-play recipe for a ruleset it
# does not list. A family is run with the settings its folder records
# (FOLDER/family/run.env: FAMILY, RECIPE and SEPARATE; az-family/run.sh's defaults where
# it is missing) and OUT=FOLDER, which trains its members' own networks first.
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
    family:*)
      family=${recipe#family:}
      [[ -d $family ]] || { echo "twelve.sh: $recipes gives $r the family of $family, which is not a folder" >&2; exit 2; }
      (
        if [[ -f $family/family/run.env ]]; then
          while IFS='=' read -r key value; do
            case $key in
              FAMILY|RECIPE|SEPARATE) export "$key=$value" ;;
              ''|'#'*) ;;
              *) echo "twelve.sh: $family/family/run.env sets '$key' (FAMILY, RECIPE or SEPARATE)" >&2; exit 2 ;;
            esac
          done < "$family/family/run.env"
        fi
        OUT=$family bash experiments/az-family/run.sh
      ) ;;
    *) echo "twelve.sh: $recipes gives $r the recipe '$recipe' (selfplay, imitation or family:FOLDER)" >&2; exit 2 ;;
  esac
done
