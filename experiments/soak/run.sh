#!/usr/bin/env bash
# The soak (issues 13 and 15): the fast engine against the reference engine on random
# games, at least 10^6 plies for each of the twelve rulesets and 10^5 plies for each
# ludii-* ruleset, every ply compared (board, hands, side to move, legal moves, captures,
# outcome, incremental hash). Resumable: rulesets already in soak.csv are skipped.
#   bash experiments/soak/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
csv=$PWD/experiments/soak/soak.csv
twelve=kowalski,kowalski-parcae,classical,xxi,single-stone-xxi,petteia-xxi,common,back-rank,savard,falkener,bell,schadler
ludii=$(ls configs/rulesets | sed -n 's/^\(ludii-.*\)\.toml$/\1/p' | paste -sd, -)
LATRUNCULI_SOAK_CSV=$csv LATRUNCULI_SOAK_PLIES=1000000 LATRUNCULI_SOAK_RULESETS=$twelve \
  cargo test --release --test differential soak -- --ignored --nocapture
LATRUNCULI_SOAK_CSV=$csv LATRUNCULI_SOAK_PLIES=100000 LATRUNCULI_SOAK_RULESETS=$ludii \
  cargo test --release --test differential soak -- --ignored --nocapture
