#!/usr/bin/env bash
# Fine-tuning a family network on one of its members at the member's own ply cap
# (README.md "kowalski-parcae at 1,000 plies"):
#
#   PLY_CAP=1000 bash experiments/az-all/tune.sh kowalski-parcae
#
# The imitation recipe of imitate.sh (the teacher's games of run.sh at PLY_CAP, learnt
# with no self-play; the same evaluation) with two changes: the network starts from the
# family network INIT (default experiments/az-family/kowalski-12x8/family/latest.az,
# `init_network` of the training configuration) instead of an untrained one, with its
# rulesets (the `ruleset`, `board` and `family` lines of the config.toml beside it), and
# the warm start takes TUNE_STEPS steps (1000) instead of the rest of the hour; a network
# with a fixed ply divisor keeps it (`ply_scale`, its training's cap). It writes
# OUT (experiments/az-all/tune-cap-PLY_CAP/RULESET) from RUNS (runs/az-tune-cap-PLY_CAP/
# RULESET); FIRST_RUNS and FIRST_OUT (imitate.sh's: teacher games of the ruleset at the
# same cap already on this machine, linked, not played again, their seconds counted) default to
# runs/az-imitate-cap-PLY_CAP and experiments/az-all/imitate-cap-PLY_CAP. The rest of
# run.sh's environment applies (LATRUNCULI, EVAL_GAMES, ...).
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -eq 1 ]] || { echo "usage: PLY_CAP=N bash experiments/az-all/tune.sh RULESET" >&2; exit 2; }
r=$1
[[ ${PLY_CAP:-} =~ ^[1-9][0-9]*$ ]] ||
  { echo "tune.sh: set PLY_CAP, the cap of the teacher's games and the matches (a whole number above 0)" >&2; exit 2; }
init=${INIT:-experiments/az-family/kowalski-12x8/family/latest.az}
steps=${TUNE_STEPS:-1000}
runs=${RUNS:-runs/az-tune-cap-$PLY_CAP}
out=${OUT:-experiments/az-all/tune-cap-$PLY_CAP}
template=${TEMPLATE:-experiments/az-all/template.toml}
family_config=$(dirname "$init")/config.toml
[[ -f $init ]] || { echo "tune.sh: no network $init (INIT)" >&2; exit 2; }
[[ -f $family_config ]] || { echo "tune.sh: no $family_config beside $init (its training's rulesets)" >&2; exit 2; }
rules=$(grep -E '^(ruleset|board|family) = ' "$family_config")
grep -qE "^(ruleset = \"$r\"|family = .*\"$r\")" <<< "$rules" ||
  { echo "tune.sh: $r is not one of the rulesets $init was trained on ($family_config)" >&2; exit 2; }
grep -q '^ruleset = "@RULESET@"$' "$template" ||
  { echo "tune.sh: $template has no line 'ruleset = \"@RULESET@\"' to replace by the family's rulesets" >&2; exit 2; }
# A network whose ply plane has a fixed divisor (`fixed_ply_scale`) keeps it at the new
# cap: its training's `ply_scale`, else its `ply_cap`.
source experiments/lib/trained_ply_cap.sh
scale=""
if grep -q '^fixed_ply_scale = true' "$family_config"; then
  scale=$(awk -F' = ' '$1 == "ply_scale" { print $2 + 0; exit }' "$family_config")
  [[ -n $scale && $scale != 0 ]] || scale=$(trained_ply_cap "$family_config")
fi
mkdir -p "$runs"
base=$runs/template-tune.toml
# The template with the family's rulesets and the network to start from in place of its
# ruleset line (replaced whole: another script may be reading it).
{
  sed -n '1,/^ruleset = "@RULESET@"$/p' "$template" | sed '$d'
  printf '%s\n' "$rules" "init_network = \"$init\""
  if [[ -n $scale ]]; then
    sed -e '1,/^ruleset = "@RULESET@"$/d' -e "s/^fixed_ply_scale = true\$/&\nply_scale = $scale  # the network's own (tune.sh)/" "$template"
  else
    sed '1,/^ruleset = "@RULESET@"$/d' "$template"
  fi
} > "$base.$$"
mv -f "$base.$$" "$base"
TEMPLATE=$base IMITATE_STEPS=$steps RUNS=$runs OUT=$out \
  FIRST_RUNS=${FIRST_RUNS:-runs/az-imitate-cap-$PLY_CAP} FIRST_OUT=${FIRST_OUT:-experiments/az-all/imitate-cap-$PLY_CAP} \
  bash experiments/az-all/imitate.sh "$r"
