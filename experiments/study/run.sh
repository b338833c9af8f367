#!/usr/bin/env bash
# The reconstruction study (issue 11), resumable: rerun the same command after an
# interruption. For each ruleset: a ladder of the study's players (ratings), then the
# self-play survey of every player (draw rates, adaptive up to 400 games) and the
# metrics of its games, the plot, the XXI claim and the rule-sensitivity survey.
# Long (many hours on 2 cores); shard the surveys on a cluster (experiments/README.md,
# "Shards and job arrays").
#   bash experiments/study/run.sh              the whole study (the twelve rulesets, then Ludii's 30)
#   bash experiments/study/run.sh RULESET...   only the ladders of these rulesets
#   bash experiments/study/run.sh ludii        only the part on Ludii's 30 rulesets: alphabeta:depth=3
#                                              self-play, then a ladder per ruleset (agents-ludii.txt)
#   bash experiments/study/run.sh sensitivity  only the rule-sensitivity survey and its plot (also a
#                                              step of the whole study; to run it beside the rest on a
#                                              free core: the step that finds it running elsewhere fails,
#                                              the folder being claimed, and the whole study stops there)
set -euo pipefail
bin=${LATRUNCULI:-./target/release/latrunculi}
out=experiments/study
# Each step's wall-clock time is appended to timings.csv (a resumed step gets a row per
# run; the sum over the rows is the study's time on this machine). While a step runs,
# a heartbeat file (.timings-running-main or -ludii) holds its time so far, rewritten each
# minute: a run killed without a chance to record its step (SIGKILL, a machine switched
# off) leaves it behind, and the next run of the same part appends it to timings.csv with
# status `killed` (the time up to the last heartbeat: at most a minute short).
timings=$out/timings.csv
[ -f "$timings" ] || echo "step,started,seconds,status" > "$timings"
part=main
[ "${1:-}" = ludii ] && part=ludii
[ "${1:-}" = sensitivity ] && part=sensitivity
running=$out/.timings-running-$part
if [ -s "$running" ]; then
  cat "$running" >> "$timings"
fi
rm -f "$running" "$running.tmp"
step="" step_t0=0 step_started="" beat=""
stop_beat() {
  if [ -n "$beat" ]; then
    kill "$beat" 2>/dev/null || true
    wait "$beat" 2>/dev/null || true
    beat=""
  fi
  rm -f "$running" "$running.tmp"
}
timed() {
  local status=done
  step=$1 step_t0=$SECONDS step_started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  shift
  (
    while sleep 60; do
      echo "$step,$step_started,$((SECONDS - step_t0)),killed" > "$running.tmp" && mv "$running.tmp" "$running"
    done
  ) &
  beat=$!
  "$@" || status=failed
  stop_beat
  echo "$step,$step_started,$((SECONDS - step_t0)),$status" >> "$timings"
  step=""
  [ "$status" = done ]
}
# A stopped run (Ctrl-C, kill, a closed terminal) still records the step it was in.
on_stop() {
  stop_beat
  [ -n "$step" ] && echo "$step,$step_started,$((SECONDS - step_t0)),interrupted" >> "$timings"
  exit 130
}
trap on_stop INT TERM HUP
# The part on Ludii's 30 rulesets: strong self-play first (the draw rates at strong play),
# then a ladder per ruleset (10 games per pairing) that puts every self-play cell on these
# rulesets, the Ludii survey's included, on an Elo scale.
ludii_part() {
  timed "survey selfplay-ludii" "$bin" survey --config $out/selfplay-ludii.toml
  timed "metrics selfplay-ludii" "$bin" metrics --games $out/selfplay-ludii/games.csv
  local r resume
  # The rulesets of the self-play config, in its order (Python 3.11's TOML reader).
  for r in $(python3 -c 'import sys, tomllib; print(*tomllib.load(open(sys.argv[1], "rb"))["rulesets"])' $out/selfplay-ludii.toml); do
    resume=""
    [ -f "$out/ladder/$r/pairings.csv" ] && resume=--resume
    timed "ladder $r" "$bin" ladder --ruleset "$r" --agents $out/agents-ludii.txt --games 10 --seed 1 --ply-cap 1000 --out "$out/ladder/$r" $resume
  done
  python3 experiments/plot_study.py $out experiments/ludii
}
# Rule sensitivity: every [assumed] parameter changed in turn, alphabeta:depth=2 self-play.
sensitivity_part() {
  timed "survey sensitivity" "$bin" survey --config experiments/sensitivity.toml
  python3 experiments/plot_sensitivity.py experiments/sensitivity
}
if [ "${1:-}" = ludii ]; then
  ludii_part
  exit 0
fi
if [ "${1:-}" = sensitivity ]; then
  sensitivity_part
  exit 0
fi
rulesets=("$@")
[ ${#rulesets[@]} -gt 0 ] || rulesets=(kowalski kowalski-parcae classical xxi single-stone-xxi petteia-xxi common back-rank savard falkener bell schadler)
for r in "${rulesets[@]}"; do
  agents=$out/agents.txt
  [ -f "$out/agents-$r.txt" ] && agents=$out/agents-$r.txt
  resume=""
  [ -f "$out/ladder/$r/pairings.csv" ] && resume=--resume
  timed "ladder $r" "$bin" ladder --ruleset "$r" --agents "$agents" --games 20 --seed 1 --ply-cap 1000 --out "$out/ladder/$r" $resume
done
if [ $# -gt 0 ]; then
  echo "ladders done; run without arguments for the self-play surveys and the rest"
  exit 0
fi
for cfg in selfplay selfplay-az-kowalski selfplay-az-xxi selfplay-az-classical selfplay-az-schadler; do
  timed "survey $cfg" "$bin" survey --config $out/$cfg.toml
  timed "metrics $cfg" "$bin" metrics --games $out/$cfg/games.csv
done
python3 experiments/plot_study.py $out
python3 experiments/study/xxi_claim.py $out
sensitivity_part
ludii_part
