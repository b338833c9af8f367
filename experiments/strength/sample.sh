#!/usr/bin/env bash
# A first sample of the search player against alphabeta:depth=3 and greedy on every
# built-in ruleset, one game per process so that a deadline loses only the games in
# progress: game i of a pairing is `latrunculi play` with seed 1000+i, the search player
# White in even games and Black in odd ones, 1,000-ply cap. Games are taken in rounds
# (game 0 of every pairing, then game 1, ...), JOBS at a time, until GAMES rounds are done
# or SECONDS_LEFT seconds have passed; a game still running then is stopped and not kept.
#
#   JOBS=16 GAMES=10 SECONDS_LEFT=480 LATRUNCULI=path/to/latrunculi bash experiments/strength/sample.sh OUT
#
# BUDGET (default nodes=10000) is appended to `alphabeta:` for the search player's spec;
# RULESETS and OPPONENTS (space-separated) replace every ruleset and the two opponents.
#
# Writes OUT/games/<ruleset>__<opponent>__<i>.csv (the columns of `play`); merge with
# `python3 experiments/strength/summarise.py OUT`.
set -uo pipefail
out=${1:?usage: sample.sh OUT}
bin=${LATRUNCULI:-target/release/latrunculi}
jobs=${JOBS:-2}
games=${GAMES:-10}
budget=${BUDGET:-nodes=10000}
deadline=$(( $(date +%s) + ${SECONDS_LEFT:-3600} ))
mkdir -p "$out/games"
rulesets=${RULESETS:-$("$bin" rules | awk 'NR>1 {print $1}')}
opponents=${OPPONENTS:-alphabeta:depth=3 greedy}
items() {
  for ((i = 0; i < games; i++)); do
    for r in $rulesets; do
      for opp in $opponents; do echo "$r $opp $i"; done
    done
  done
}
one() { # ruleset opponent index
  local r=$1 opp=$2 i=$3 left=$(( deadline - $(date +%s) ))
  local name="$out/games/${r}__${opp//[:=]/-}__$i.csv"
  (( left > 5 )) || return 0
  [[ -s $name ]] && return 0
  local me="alphabeta:$budget" w b
  if (( i % 2 == 0 )); then w=$me; b=$opp; else w=$opp; b=$me; fi
  RAYON_NUM_THREADS=1 timeout "$left" "$bin" play --ruleset "$r" --white "$w" --black "$b" --games 1 \
    --seed $((1000 + i)) --ply-cap 1000 --out "$name.part" >/dev/null 2>&1 && mv "$name.part" "$name"
  rm -f "$name.part"
}
export -f one
export out bin budget deadline
items | xargs -P "$jobs" -L 1 bash -c 'one $0 $1 $2'
echo "$(ls "$out/games" | wc -l) games in $out/games"
