#!/usr/bin/env bash
# Speed of two builds of `latrunculi` on the study's slow cells, as a ratio measured in one
# run: each line of the list below plays the same games (same seeds) with OLD and then
# with NEW and prints both wall-clock times, OLD/NEW and whether the two game CSVs are
# byte-identical (an engine speed-up must not change a game). Run from the repository root:
#   bash experiments/compare-binaries.sh OLD_BINARY NEW_BINARY > out.csv
# Columns: ruleset, white, black, ply_cap, games (colours alternate), old_s and new_s
# (wall-clock seconds), old_over_new (above 1: NEW is faster), identical (yes / no).
# The machine's load changes both times alike only roughly: compare ratios, not seconds.
set -euo pipefail
old=$1 new=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "ruleset,white,black,ply_cap,games,old_s,new_s,old_over_new,identical"
while IFS=, read -r r w b cap g; do
  for bin in old new; do
    exe=$old
    [ $bin = new ] && exe=$new
    t0=$(date +%s.%N)
    if ! "$exe" play --rules-dir configs/rulesets -r "$r" --white "$w" --black "$b" --swap --games "$g" \
      --ply-cap "$cap" --out "$tmp/$bin.csv" > "$tmp/log" 2>&1; then
      echo "$exe failed on $r:" >&2
      cat "$tmp/log" >&2
      exit 1
    fi
    t1=$(date +%s.%N)
    printf -v "t_$bin" '%s' "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
  done
  same=no
  cmp -s "$tmp/old.csv" "$tmp/new.csv" && same=yes
  echo "$r,$w,$b,$cap,$g,$t_old,$t_new,$(awk -v a="$t_old" -v b="$t_new" 'BEGIN { printf "%.2f", a / b }'),$same"
done <<'LIST'
ludii-kharebga-11x16,alphabeta:depth=3,alphabeta:depth=3,60,1
ludii-seega-11x12,alphabeta:depth=3,alphabeta:depth=3,200,1
schadler,mcts:sims=1000,alphabeta:depth=3,300,2
falkener,alphabeta:depth=3,alphabeta:depth=3,200,1
common,alphabeta:depth=3,alphabeta:depth=2,400,2
savard,alphabeta:depth=3,mcts:sims=1000,200,2
kowalski,alphabeta:depth=3,mcts:sims=1000,200,2
LIST
