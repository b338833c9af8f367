#!/usr/bin/env bash
# A/B speed of two builds of the rules engine (issue 15: "bench on today's 12 rulesets must
# not slow down by more than 5%"): the playout_speed example of crates/latrunculi-rules
# built from two commits, run alternately (A B A B ...) on the same rulesets, one thread,
# so that drift in the machine's load hits both alike. Prints one CSV row per run.
#   bash experiments/engine-ab/ab.sh OLD_BINARY NEW_BINARY ROUNDS SECONDS ID... > out.csv
# Building the two binaries (each tree with its own target directory):
#   git worktree add /tmp/ab-old COMMIT && cp crates/latrunculi-rules/examples/playout_speed.rs /tmp/ab-old/crates/latrunculi-rules/examples/
#   (cd /tmp/ab-old && CARGO_TARGET_DIR=/tmp/ab-target-old cargo build --release -p latrunculi-rules --example playout_speed)
#   cargo build --release -p latrunculi-rules --example playout_speed   # the new one: target/release/examples/playout_speed
set -euo pipefail
old=$1; new=$2; rounds=$3; secs=$4; shift 4
echo "round,build,id,plies_per_s"
for r in $(seq 1 "$rounds"); do
  for id in "$@"; do
    for b in old new; do
      bin=$old; [ $b = new ] && bin=$new
      "$bin" "$secs" "$id" | tail -1 | sed "s/^/$r,$b,/"
    done
  done
done
