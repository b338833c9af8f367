#!/usr/bin/env bash
# The strength experiments of the search player (experiments/strength/README.md).
#
#   bash experiments/strength/run.sh PART [SHARD/SHARDS]
#
# PART:
#   all        the player at the fixed budget against alphabeta:depth=3 and greedy on
#              every built-in ruleset (eval --sprt, colours alternated, 1,000-ply cap)
#   equal-time the player against alphabeta:depth=4 on the twelve seed rulesets, given
#              as much CPU time a move as alphabeta:depth=4 uses there on average
#              (equal-time/move-time.csv, from the move_time example; ms=N,cpu=1 counts
#              the thread's CPU time, so the part may run beside other work); at most
#              EQUAL_TIME_GAMES games a ruleset (default 40; falkener at most 20)
#   budgets    a ladder of node budgets 4x apart on five rulesets (RULESETS="a b" plays
#              only those)
#   weights-ab the default evaluation weights against the fitted file on the rulesets that
#              keep one (8 games against alphabeta:depth=3; results in ab-default/)
#   ab         the A/B tests of the search's parts (equal nodes; RULESETS and SWITCHES
#              choose the rulesets and the switches)
#   ab-time    the same at equal time (100 ms of CPU time a move each) on two rulesets
#   pursuit    the player with the pursuit term (pursuit=10) against the player without
#              it, on rulesets where won positions ran into the ply cap or the limit
#   topup      the pairings of `all` that the SPRT stopped in the player's favour with the
#              lower bound of the score at 0.6 or below, played on to 30 games without
#              the SPRT (topup.py; results in experiments/strength/all-topup/)
#   networks   the player at ms=100,cpu=1 against the trained networks of kowalski, xxi,
#              classical and schadler (experiments/az-v2-*/latest.az, 200 visits, the
#              win-in-one check) at the networks' training ply cap, 200; schadler
#              also at the study's cap, 1,000 (20 games)
# RULESETS="a b ..." limits any part but pursuit and topup to those rulesets.
# SHARD/SHARDS (e.g. 3/16) runs every SHARDS-th ruleset from the SHARD-th (0-based), so
# that a cluster or a many-core machine runs the shards side by side.
# Every step is resumable (eval --resume); results land in experiments/strength/PART/.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${LATRUNCULI:-target/release/latrunculi}
part=${1:?usage: run.sh all|topup|equal-time|budgets|weights-ab|ab|ab-time|pursuit|networks [SHARD/SHARDS]}
shard=${2:-0/1}
k=${shard%/*}
n=${shard#*/}
out=experiments/strength/$part
[[ $part == topup ]] && out=experiments/strength/all-topup
[[ $part == weights-ab ]] && out=experiments/strength/ab-default
mkdir -p "$out"
BUDGET=${BUDGET:-nodes=10000}
cap=1000 # the study's ply cap

seed_rulesets="kowalski kowalski-parcae classical xxi single-stone-xxi petteia-xxi common back-rank savard falkener bell schadler"
all_rulesets=${RULESETS:-$("$bin" rules | awk 'NR>1 {print $1}')} # RULESETS="a b ..." plays only those

mine() { # the rulesets of this shard
  local i=0
  for r in "$@"; do
    if (( i % n == k )); then echo "$r"; fi
    i=$((i + 1))
  done
}

evaluate() { # ruleset agent opponents games name [extra...]
  local r=$1 agent=$2 vs=$3 games=$4 name=$5
  shift 5
  local resume=""
  [[ -f "$out/$name-games.csv" ]] && resume=--resume
  "$bin" eval --ruleset "$r" --agent "$agent" --vs "$vs" --games "$games" --seed 1 --ply-cap "$cap" \
    --out "$out/$name.csv" --games-out "$out/$name-games.csv" $resume "$@"
}

case $part in
  all)
    for r in $(mine $all_rulesets); do
      evaluate "$r" "alphabeta:$BUDGET" "alphabeta:depth=3,greedy" 100 "$r" --sprt 0,200
    done ;;
  topup)
    i=0
    python3 experiments/strength/topup.py "$out/../all" "$out" 30 > "$out/pairings.txt"
    while read -r r opp name; do
      if (( i % n == k )); then
        "$bin" eval --ruleset "$r" --agent "alphabeta:$BUDGET" --vs "$opp" --games 30 --seed 1 --ply-cap "$cap" \
          --out "$out/$name.csv" --games-out "$out/$name-games.csv" --resume
      fi
      i=$((i + 1))
    done < "$out/pairings.txt" ;;
  equal-time)
    times=$out/move-time.csv
    # falkener last: alphabeta:depth=4 takes about a second a move there (move-time.csv)
    for r in $(mine ${RULESETS:-${seed_rulesets/falkener /} falkener}); do
      ms=$(awk -F, -v r="$r" '$1 == r && $2 == "alphabeta:depth=4" { printf "%d", $4 + 0.5 }' "$times" 2>/dev/null)
      if [[ -z $ms ]]; then
        echo "run.sh: no CPU time a move of alphabeta:depth=4 on $r in $times; measure it with" >&2
        echo "  cargo run --release -p latrunculi-agents --example move_time -- 1000 1 $r alphabeta:depth=4" >&2
        exit 2
      fi
      games=${EQUAL_TIME_GAMES:-40}
      # falkener: about 8 minutes of CPU a game (depth 4 takes about a second a move and
      # the games run to the no-capture limit), so at most 20 games there
      [[ $r == falkener ]] && games=$(( games < 20 ? games : 20 ))
      evaluate "$r" "alphabeta:ms=$ms,cpu=1" "alphabeta:depth=4" "$games" "$r" --sprt 0,150
    done ;;
  budgets)
    for r in $(mine ${RULESETS:-kowalski xxi schadler falkener ludii-seega-8x8}); do
      agents=$out/agents-$r.txt
      printf '%s\n' alphabeta:nodes=1250 alphabeta:nodes=5000 alphabeta:nodes=20000 alphabeta:nodes=80000 > "$agents"
      resume=""
      [[ -d "$out/$r" ]] && resume=--resume
      "$bin" ladder --ruleset "$r" --agents "$agents" --anchor alphabeta:nodes=1250 --games 20 --seed 1 --ply-cap 1000 \
        --out "$out/$r" $resume
    done ;;
  weights-ab)
    # The default weights against the fitted file, 8 games against alphabeta:depth=3 with
    # the seeds and colours of the first 8 games of the `all` pairing (the fitted player's
    # side), on the rulesets that keep a file and had not had this A/B, where the fitted
    # player dropped points in those 8 (weights_ab.py tallies both sides and applies the
    # rule of the README: the file stays unless the default weights score higher).
    for r in $(mine ${RULESETS:-classical kowalski-parcae ludii-bell-8x8 ludii-seega-10x10 ludii-seega-6x6 ludii-seega-6x8 ludii-seega-7x8 ludii-seega-8x8 ludii-seega-8x9}); do
      evaluate "$r" "alphabeta:$BUDGET,eval=default" "alphabeta:depth=3" 8 "$r"
    done ;;
  ab)
    # The parts that change what a search sees first; the ordering and window parts
    # (pvs, asp, killers, hist) last: the ordering_cost example measures what they save
    # on all 42 rulesets exactly.
    # RULESETS="a b" and SWITCHES="eval=default ..." play only those (the weights
    # head-to-head: SWITCHES=eval=default on the rulesets that keep a file).
    # Not schadler: between search players its games are drawn (40 of 40 in the weights
    # head-to-head), so 40 games resolve nothing there.
    for r in $(mine ${RULESETS:-kowalski xxi}); do
      for off in ${SWITCHES:-qs=0 lmr=0 null=1 eval=default eval=material pvs=0 asp=0 killers=0 hist=0}; do
        evaluate "$r" "alphabeta:$BUDGET" "alphabeta:$BUDGET,$off" 40 "$r-${off//=/}" --sprt 0,100
      done
    done ;;
  ab-time)
    for r in $(mine ${RULESETS:-kowalski xxi}); do
      for off in qs=0 lmr=0 null=1 pvs=0 hist=0; do
        evaluate "$r" "alphabeta:ms=100,cpu=1" "alphabeta:ms=100,cpu=1,$off" 40 "$r-${off//=/}" --sprt 0,100
      done
    done ;;
  pursuit)
    for r in $(mine kowalski-parcae falkener classical ludii-kharebga-8x8 ludii-schadler-1994 ludii-seega-10x10); do
      evaluate "$r" "alphabeta:$BUDGET,pursuit=10" "alphabeta:$BUDGET" 40 "$r" --sprt 0,100
    done ;;
  networks)
    cap=200
    for r in $(mine ${RULESETS:-kowalski xxi classical schadler}); do
      evaluate "$r" "alphabeta:ms=100,cpu=1" "az:model=experiments/az-v2-$r/latest.az,sims=200,wincheck=1" 40 "$r" \
        --sprt 0,100
    done
    # schadler's games between search players run 470 to 640 plies: at the cap of 200 all
    # were drawn, so schadler is played again at the study's cap, 20 games.
    cap=1000
    for r in $(mine ${RULESETS:-schadler}); do
      [[ $r == schadler ]] || continue
      evaluate "$r" "alphabeta:ms=100,cpu=1" "az:model=experiments/az-v2-$r/latest.az,sims=200,wincheck=1" 20 \
        "$r-cap1000" --sprt 0,100
    done ;;
  *) echo "unknown part $part" >&2; exit 2 ;;
esac
