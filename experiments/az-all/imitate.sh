#!/usr/bin/env bash
# The imitation recipe (README.md "Imitation alone"): per ruleset, the teacher's games of
# run.sh, then the rest of the hour learning them, with no self-play; the same
# evaluation as run.sh (no learning curve).
#
#   bash experiments/az-all/imitate.sh RULESET [RULESET ...]
#
# Runs run.sh with run.sh's own recipe (TEMPLATE, experiments/az-all/template.toml)
# changed in three places and nowhere else: `iterations = 0` (the warm start alone), the
# warm start's `steps` raised to IMITATE_STEPS (1000000: more than the time allows) with
# `time_limit_s = @TIME_LIMIT@` after it (the rest of the hour), and `keep_in_buffer =
# false` where the template keeps the teacher's games for self-play (none follows). The
# network, its targets, the learning rate and the batch are run.sh's. The derived
# template is written to RUNS/template-imitate.toml; a TEMPLATE lacking `iterations` or
# the warm start's `steps` is refused.
# It writes OUT (experiments/az-all/imitate/RULESET) from RUNS (runs/az-imitate/RULESET).
# Where run.sh's own teacher games of the ruleset are on this machine (FIRST_RUNS,
# runs/az-all/RULESET: teacher, teacher-more and teacher-more.games), they are linked,
# not played again, and their recorded seconds (FIRST_OUT, experiments/az-all/RULESET/
# times.csv) count in the hour, so both recipes learn from the same games; otherwise
# run.sh plays them (the same games: the same teacher, counts and seeds). The rest of
# run.sh's environment applies (LATRUNCULI, HOUR, EVAL_GAMES, ...).
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -gt 0 ]] || { echo "usage: bash experiments/az-all/imitate.sh RULESET [RULESET ...]" >&2; exit 2; }
runs=${RUNS:-runs/az-imitate}
out=${OUT:-experiments/az-all/imitate}
first_runs=${FIRST_RUNS:-runs/az-all}
first_out=${FIRST_OUT:-experiments/az-all}
template=${TEMPLATE:-experiments/az-all/template.toml}
steps=${IMITATE_STEPS:-1000000}

# The imitation template (experiments/lib/imitation_template.sh: each change checked before anything is
# written).
source experiments/lib/imitation_template.sh
imitate_template=$runs/template-imitate.toml
imitation_template "$template" "$steps" "$imitate_template"

for r in "$@"; do
  mkdir -p "$runs/$r" "$out/$r"
  first=$first_runs/$r
  if [[ ! -e $runs/$r/teacher && -f $first/teacher/games.jsonl && -f $first/teacher-more.games &&
    -f $first_out/$r/times.csv ]]; then
    n=$(cat "$first/teacher-more.games")
    if (( n == 0 )) || [[ -f $first/teacher-more/games.jsonl ]]; then
      ln -s "$(cd "$first" && pwd)/teacher" "$runs/$r/teacher"
      (( n == 0 )) || ln -s "$(cd "$first" && pwd)/teacher-more" "$runs/$r/teacher-more"
      cp "$first/teacher-more.games" "$runs/$r/"
      { echo "step,seconds"; grep '^teacher,' "$first_out/$r/times.csv"; } > "$out/$r/times.csv"
    fi
  fi
  TEMPLATE=$imitate_template RUNS=$runs OUT=$out CURVE=0 bash experiments/az-all/run.sh "$r"
done
