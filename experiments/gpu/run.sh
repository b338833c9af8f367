#!/usr/bin/env bash
# The network on a GPU against the same network on the CPU, one binary, one machine
# (README.md here).
#
#   cargo build --release -p latrunculi-cli --features wgpu
#   bash experiments/gpu/run.sh [OUT]          (default OUT: runs/gpu)
#
# Writes OUT/bench-az-wgpu.txt and OUT/bench-az-cpu.txt (`latrunculi bench-az`: network
# evaluations a second at batch 1, 32 and 256, training steps a second, batched search in
# self-play) and OUT/train-wgpu.csv and OUT/train-cpu.csv (train_log.csv of two training
# iterations of the az-all recipe on kowalski, train-short.toml). The GPU runs are
# LATRUNCULI_DEVICE=wgpu (burn's wgpu backend; on NVIDIA through Vulkan); the CPU runs
# LATRUNCULI_DEVICE=cpu (burn's flex backend on every core, as when it is unset). Each
# step stops after its timeout.
# Environment: LATRUNCULI (the binary; default target/release/latrunculi), GPU (the
# LATRUNCULI_DEVICE value of the GPU runs: wgpu, or cuda for a build with that feature),
# STEP_S (seconds each step may take; default 110).
set -u
cd "$(dirname "$0")/../.."
bin=${LATRUNCULI:-target/release/latrunculi}
out=${1:-runs/gpu}
gpu=${GPU:-wgpu}
step_s=${STEP_S:-110}
[[ -x $bin ]] || { echo "run.sh: no binary $bin (cargo build --release -p latrunculi-cli --features wgpu, or set LATRUNCULI)" >&2; exit 2; }
mkdir -p "$out"
bench=(bench-az --ruleset kowalski --seconds 2 --games 16 --parallel 16 --sims 64 --heads spatial)
for dev in "$gpu" cpu; do
  LATRUNCULI_DEVICE=$dev timeout "$step_s" "$bin" "${bench[@]}" > "$out/bench-az-$dev.txt" ||
    echo "bench-az on $dev: exit $?" >&2
done
for dev in "$gpu" cpu; do
  rm -rf "$out/train-$dev"
  LATRUNCULI_DEVICE=$dev timeout "$step_s" "$bin" train --config experiments/gpu/train-short.toml \
    --out "$out/train-$dev" --quiet || echo "train on $dev: exit $? (the log keeps the iterations that finished)" >&2
  cp "$out/train-$dev/train_log.csv" "$out/train-$dev.csv" 2>/dev/null
done
echo "-> $out"
