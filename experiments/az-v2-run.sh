#!/usr/bin/env bash
# A 2-hour v2 run of any ruleset (issue 10): the warm-start datasets, then training with
# configs/train/RULESET-v2.toml into experiments/az-v2-RULESET, wall-clock times logged.
# Resumable: datasets already written are kept; pass --resume to continue the training.
#   bash experiments/az-v2-run.sh RULESET [--resume]
set -euo pipefail
ruleset=${1:?usage: az-v2-run.sh RULESET [--resume]}
shift
bin=${LATRUNCULI:-./target/release/latrunculi}
t0=$(date +%s)
echo "start $(date -Is)"
bash experiments/warmstart-data.sh "$ruleset" "runs/warmstart/$ruleset" 200
t1=$(date +%s)
echo "datasets done in $((t1 - t0)) s"
"$bin" train --config "configs/train/$ruleset-v2.toml" --out "experiments/az-v2-$ruleset" --quiet "$@"
t2=$(date +%s)
echo "train done in $((t2 - t1)) s; total $((t2 - t0)) s; end $(date -Is)"
