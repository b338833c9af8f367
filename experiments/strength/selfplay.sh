#!/usr/bin/env bash
# Self-play games of the search player for fitting evaluation weights (tune-eval), one
# game per process, in rounds over every built-in ruleset (game i has seed 2000+i), JOBS
# at a time, until GAMES rounds are done or SECONDS_LEFT seconds have passed (a game
# still running then is stopped and not kept).
#
#   JOBS=16 GAMES=40 SECONDS_LEFT=180 SPEC=alphabeta:nodes=2000,eval=default \
#     LATRUNCULI=path/to/latrunculi bash experiments/strength/selfplay.sh OUT
#
# Writes OUT/<ruleset>/game-<i>.csv (the columns of `play`); join a ruleset's games into
# one games.csv (header once) before `latrunculi tune-eval --games OUT`.
set -uo pipefail
out=${1:?usage: selfplay.sh OUT}
bin=${LATRUNCULI:-target/release/latrunculi}
jobs=${JOBS:-2}
games=${GAMES:-40}
spec=${SPEC:-alphabeta:nodes=2000,eval=default}
deadline=$(( $(date +%s) + ${SECONDS_LEFT:-3600} ))
rulesets=$("$bin" rules | awk 'NR>1 {print $1}')
items() {
  for ((i = 0; i < games; i++)); do
    for r in $rulesets; do echo "$r $i"; done
  done
}
one() { # ruleset index
  local r=$1 i=$2 left=$(( deadline - $(date +%s) ))
  local name="$out/$r/game-$i.csv"
  (( left > 3 )) || return 0
  [[ -s $name ]] && return 0
  mkdir -p "$out/$r"
  RAYON_NUM_THREADS=1 timeout "$left" "$bin" play --ruleset "$r" --white "$spec" --black "$spec" --games 1 \
    --seed $((2000 + i)) --ply-cap 1000 --out "$name.part" >/dev/null 2>&1 && mv "$name.part" "$name"
  rm -f "$name.part"
}
export -f one
export out bin spec deadline
items | xargs -P "$jobs" -L 1 bash -c 'one $0 $1'
echo "$(find "$out" -name 'game-*.csv' | wc -l) games in $out"
