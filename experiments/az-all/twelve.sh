#!/usr/bin/env bash
# A trained network for each of the twelve seed rulesets, each by its own recipe
# (README.md "The twelve"): the self-play recipe of run.sh, the imitation recipe of
# imitate.sh, a family network of experiments/az-family/run.sh, or a family network tuned
# on the ruleset by tune.sh, as the `recipe` column of twelve.csv records (`selfplay`,
# `imitation`, `family:FOLDER` or `tune:FOLDER`, chosen there by `table.py --twelve` from
# the measured matches); the self-play recipe for a ruleset it does not list. A family is
# run with the settings its folder records (FOLDER/family/run.env: FAMILY, RECIPE and
# SEPARATE; az-family/run.sh's defaults where it is missing) and OUT=FOLDER, which trains
# its members' own networks first. A tuning runs the family its network started from
# (FOLDER/RULESET/config.toml's init_network, F/family/latest.az: the family F, as above),
# then tune.sh with OUT=FOLDER at that config's ply cap.
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
source experiments/lib/recipe_of.sh
source experiments/lib/trained_ply_cap.sh
pick_rulesets twelve.sh "$@"

# Trains the family network of folder FAMILY (az-family/run.sh with its run.env).
run_family() { # FAMILY RULESET
  [[ -d $1 ]] || { echo "twelve.sh: $recipes gives $2 the family of $1, which is not a folder" >&2; exit 2; }
  (
    if [[ -f $1/family/run.env ]]; then
      while IFS='=' read -r key value; do
        case $key in
          FAMILY|RECIPE|SEPARATE) export "$key=$value" ;;
          ''|'#'*) ;;
          *) echo "twelve.sh: $1/family/run.env sets '$key' (FAMILY, RECIPE or SEPARATE)" >&2; exit 2 ;;
        esac
      done < "$1/family/run.env"
    fi
    OUT=$1 bash experiments/az-family/run.sh
  )
}

for r in "${rulesets[@]}"; do
  recipe=$(recipe_of "$recipes" "$r")
  echo "twelve.sh: $r by the $recipe recipe" >&2
  case $recipe in
    selfplay) bash experiments/az-all/run.sh "$r" ;;
    imitation) bash experiments/az-all/imitate.sh "$r" ;;
    family:*) run_family "${recipe#family:}" "$r" ;;
    tune:*)
      folder=${recipe#tune:}
      config=$folder/$r/config.toml
      init="" cap=""
      if [[ -f $config ]]; then
        init=$(sed -n 's/^init_network = "\(.*\)"$/\1/p' "$config" | head -n 1)
        cap=$(trained_ply_cap "$config")
      fi
      [[ -n $init && -n $cap ]] ||
        { echo "twelve.sh: $recipes gives $r the tuning of $folder, whose $r/config.toml names no init_network and ply_cap" >&2; exit 2; }
      run_family "$(dirname "$(dirname "$init")")" "$r"
      PLY_CAP=$cap INIT=$init OUT=$folder bash experiments/az-all/tune.sh "$r" ;;
    *) echo "twelve.sh: $recipes gives $r the recipe '$recipe' (selfplay, imitation, family:FOLDER or tune:FOLDER)" >&2; exit 2 ;;
  esac
done
