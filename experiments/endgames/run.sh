#!/usr/bin/env bash
# Builds the 3-piece tables of every ruleset in configs/rulesets (one core, low
# priority), then writes summary.csv (build logs and times.log stay beside it).
# Run from the repository root: experiments/endgames/run.sh [PIECES] [RULESET...]
set -euo pipefail
bin=${LATRUNCULI:-target/release/latrunculi}
pieces=${1:-3}
shift || true
out=experiments/endgames/tables
ids=("$@")
if [ ${#ids[@]} -eq 0 ]; then
    for f in configs/rulesets/*.toml; do ids+=("$(basename "$f" .toml)"); done
fi
mkdir -p "$out"
for id in "${ids[@]}"; do
    log="experiments/endgames/build-$id-$pieces.log"
    /usr/bin/time -f "$id,$pieces,%e,%M" -a -o experiments/endgames/times.log \
        nice "$bin" tablebase build --ruleset "$id" --pieces "$pieces" --out "$out" 2> "$log"
    tail -1 "$log"
done
"$bin" tablebase summary --dir "$out" > experiments/endgames/summary.csv
