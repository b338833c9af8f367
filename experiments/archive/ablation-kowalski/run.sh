#!/usr/bin/env bash
# Equal-time ablation of the second kowalski recipe (issue 10): budget T = 2733 s of wall-clock
# time (datasets included), the time of the reference checkpoint
# experiments/az-v2-kowalski/curve/iter-0007.az. Trains the two ablated recipes one after the
# other, takes from each the last checkpoint finished within T, then evaluates the three networks
# (200 visits, win-in-one check on, ply cap 200, colours alternated) against greedy and
# mcts:sims=1000, 100 games each, seed 2026. Resumable: a finished train or eval is kept.
#   bash experiments/archive/ablation-kowalski/run.sh
set -euo pipefail
bin=${LATRUNCULI:-./target/release/latrunculi}
out=experiments/archive/ablation-kowalski
T=2733
for v in nowarm puct; do
  if [ ! -f "$out/$v/done" ]; then
    t0=$SECONDS
    "$bin" train --config "configs/train/ablation/kowalski-v2-$v.toml" --out "$out/$v"
    echo "$v: train $((SECONDS - t0)) s"; touch "$out/$v/done"
  fi
done
# The last checkpoint of a run finished within T (datasets: 366 s for the warm-started recipes).
pick() { python3 - "$1" "$2" <<'PY'
import csv, sys
log, offset = sys.argv[1], float(sys.argv[2])
best = None
for r in csv.DictReader(open(log + "/train_log.csv")):
    if offset + float(r["elapsed_s"]) <= 2733:
        best = int(r["iteration"])
print(f"{log}/checkpoints/iter-{best:04d}.az")
PY
}
ref=experiments/az-v2-kowalski/curve/iter-0007.az
nowarm=$(pick "$out/nowarm" 0)
puct=$(pick "$out/puct" 366)
printf 'variant,model\nreference,%s\nnowarm,%s\npuct,%s\n' "$ref" "$nowarm" "$puct" > "$out/models.csv"
for row in "reference $ref" "nowarm $nowarm" "puct $puct"; do
  set -- $row
  if [ ! -f "$out/eval-$1.csv" ]; then
    t0=$SECONDS
    "$bin" eval --ruleset kowalski --agent "az:model=$2,sims=200,wincheck=1" \
      --vs greedy,mcts:sims=1000 --games 100 --ply-cap 200 --seed 2026 \
      --out "$out/eval-$1.csv.part" --games-out "$out/eval-$1-games.csv"
    mv "$out/eval-$1.csv.part" "$out/eval-$1.csv"
    echo "$1: eval $((SECONDS - t0)) s"
  fi
done
