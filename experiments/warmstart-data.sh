#!/usr/bin/env bash
# Warm-start datasets for `latrunculi train` ([warmstart] datasets = [...]): games of the
# toolkit's own search players, written light (no dense arrays; train replays the moves).
#   bash experiments/warmstart-data.sh RULESET DIR [PLY_CAP]
# writes DIR/ab3-ab2 (200 games), DIR/ab2-ab2 (2000) and DIR/ab2-greedy (1000, colours
# alternated) and prints the wall-clock seconds of each (they count in a run's budget).
set -euo pipefail
ruleset=${1:?usage: warmstart-data.sh RULESET DIR [PLY_CAP]}
dir=${2:?usage: warmstart-data.sh RULESET DIR [PLY_CAP]}
cap=${3:-200}
bin=${LATRUNCULI:-./target/release/latrunculi}
mkdir -p "$dir"
run() {
  local name=$1 white=$2 black=$3 games=$4 seed=$5 swap=$6
  if [ -f "$dir/$name/games.jsonl" ]; then echo "$dir/$name exists, kept"; return; fi
  local t0=$SECONDS
  "$bin" dataset --ruleset "$ruleset" --white "$white" --black "$black" --games "$games" \
    --seed "$seed" $swap --ply-cap "$cap" --light --out "$dir/$name"
  echo "$dir/$name: $((SECONDS - t0)) s"
}
run ab3-ab2 alphabeta:depth=3 alphabeta:depth=2 200 101 --swap
run ab2-ab2 alphabeta:depth=2 alphabeta:depth=2 2000 201 ""
run ab2-greedy alphabeta:depth=2 greedy 1000 301 --swap
