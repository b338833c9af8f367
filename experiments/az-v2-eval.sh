#!/usr/bin/env bash
# Final evaluations of a v2 network (issue 10): 200 games against each of greedy,
# mcts:sims=1000 and alphabeta:depth=2, then alphabeta:depth=3, at 200 visits, colours
# alternated, ply cap 200 as in training. Every game is kept in a games CSV. OPTIONS are
# added to the agent spec, e.g. `wincheck=1` (the search's win-in-one check).
#   bash experiments/az-v2-eval.sh RULESET MODEL OUTDIR [GAMES] [AB3_GAMES] [OPTIONS]
set -euo pipefail
ruleset=${1:?usage: az-v2-eval.sh RULESET MODEL OUTDIR [GAMES] [AB3_GAMES] [OPTIONS]}
model=${2:?usage: az-v2-eval.sh RULESET MODEL OUTDIR [GAMES] [AB3_GAMES] [OPTIONS]}
out=${3:?usage: az-v2-eval.sh RULESET MODEL OUTDIR [GAMES] [AB3_GAMES] [OPTIONS]}
games=${4:-200}
ab3=${5:-100}
agent="az:model=$model,sims=200${6:+,$6}"
bin=${LATRUNCULI:-./target/release/latrunculi}
mkdir -p "$out"
t0=$SECONDS
"$bin" eval --ruleset "$ruleset" --agent "$agent" \
  --vs greedy,mcts:sims=1000,alphabeta:depth=2 --games "$games" --ply-cap 200 --seed 2026 \
  --out "$out/baselines.csv" --games-out "$out/baselines-games.csv"
echo "baselines: $((SECONDS - t0)) s"
t0=$SECONDS
"$bin" eval --ruleset "$ruleset" --agent "$agent" \
  --vs alphabeta:depth=3 --games "$ab3" --ply-cap 200 --seed 2027 \
  --out "$out/ab3.csv" --games-out "$out/ab3-games.csv"
echo "alphabeta:depth=3: $((SECONDS - t0)) s"
