#!/usr/bin/env bash
# Writes experiments/endgames/builds.csv from the build logs and the /usr/bin/time lines
# of times.log (run.sh) and times4.log (the 4-piece build): one row per ruleset and piece
# count. Run from the repository root.
set -euo pipefail
dir=experiments/endgames
out=${1:-$dir/builds.csv}
echo "ruleset,pieces,materials,positions,wall_s,positions_per_s,max_rss_mib,table_mib" > "$out"
while IFS=, read -r id pieces wall rss; do
    log="$dir/build-$id-$pieces.log"
    # Last line: "<label>: N materials built (P positions, S s, R positions/s), K kept"
    line=$(tail -1 "$log")
    materials=$(sed -E 's/.*: ([0-9]+) materials built.*/\1/' <<< "$line")
    positions=$(sed -E 's/.*\(([0-9]+) positions,.*/\1/' <<< "$line")
    rate=$(awk -v p="$positions" -v w="$wall" 'BEGIN { printf "%.0f", p / w }')
    tdir=$(sed -nE 's/.* tables up to [0-9]+ pieces in (.*)$/\1/p' "$log" | head -1)
    bytes=$(du -sb "$tdir" | cut -f1)
    mib=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
    echo "$id,$pieces,$materials,$positions,$wall,$rate,$(( rss / 1024 )),$mib" >> "$out"
done < <(cat "$dir"/times.log "$dir"/times4.log 2>/dev/null)
