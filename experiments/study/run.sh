#!/usr/bin/env bash
# The reconstruction study (issue 11), resumable: rerun the same command after an
# interruption. For each ruleset: a ladder of the study's players (ratings), then the
# self-play survey of every player (draw rates, adaptive up to 400 games), then the
# metrics of its games. Long (many hours on 2 cores); shard the survey on a cluster
# (experiments/README.md, "Shards and job arrays").
#   bash experiments/study/run.sh [RULESET...]     (default: the twelve rulesets)
set -euo pipefail
bin=${LATRUNCULI:-./target/release/latrunculi}
out=experiments/study
rulesets=("$@")
[ ${#rulesets[@]} -gt 0 ] || rulesets=(kowalski kowalski-parcae classical xxi single-stone-xxi petteia-xxi common back-rank savard falkener bell schadler)
for r in "${rulesets[@]}"; do
  agents=$out/agents.txt
  [ -f "$out/agents-$r.txt" ] && agents=$out/agents-$r.txt
  resume=""
  [ -f "$out/ladder/$r/pairings.csv" ] && resume=--resume
  "$bin" ladder --ruleset "$r" --agents "$agents" --games 20 --seed 1 --ply-cap 1000 --out "$out/ladder/$r" $resume
done
for cfg in selfplay selfplay-az-kowalski selfplay-az-xxi; do
  "$bin" survey --config $out/$cfg.toml
  "$bin" metrics --games $out/$cfg/games.csv
done
python3 experiments/plot_study.py $out
