#!/usr/bin/env bash
# The verdicts at strong play (experiments/verdicts/README.md). Resumable: rerun the same
# command after an interruption; every survey continues what its folder holds.
#
#   bash experiments/verdicts/run.sh [SHARD/SHARDS]   play (all, or one shard), then verdicts.csv
#   bash experiments/verdicts/run.sh merge SHARDS     merge the SHARDS finished shards, then verdicts.csv
#   bash experiments/verdicts/run.sh configs          only write the three experiment files
#   bash experiments/verdicts/run.sh verdicts         only verdicts.csv, from the games played so far
#                                                     (a survey's shards' games while it is not merged)
#   bash experiments/verdicts/run.sh networks [RULESET ...]
#                                                     each seed ruleset's trained network in
#                                                     self-play (below), then verdicts.csv
#   bash experiments/verdicts/run.sh settle [RULESET ...]
#                                                     a third budget on unsettled rulesets
#                                                     (below), then verdicts.csv
#
# Three surveys (latrunculi survey, adaptive cells: 50 games, then 50 more until the draw
# rate's 95% interval is at most +-0.05 wide, at most 400; seed 1, ply cap 1000):
#   selfplay/          alphabeta:nodes=$WEAK and alphabeta:nodes=$STRONG, each in self-play,
#                      on every built-in ruleset (`latrunculi rules`)
#   adjudication-off/  alphabeta:nodes=$STRONG in self-play on every ruleset that decides
#                      games by a piece count (`latrunculi rules --adjudicating`), with
#                      adjudication off (ID+end.adjudication=draw)
#   sensitivity/       alphabeta:nodes=$STRONG in self-play on the rule variants that moved a
#                      draw rate in the study's rule-sensitivity survey (README "Sensitivity"):
#                      the no-capture limit halved, doubled and off on kowalski, common and
#                      back-rank, and petteia-xxi on 10x8 and 12x8 (SENSITIVITY to change
#                      the list; a variant runs only where its ruleset is in RULESETS)
# then `latrunculi verdicts` over the three games.csv files -> verdicts.csv.
# `run.sh networks` adds a fourth: networks/RULESET/, the network of issue 36's table of
# the twelve (experiments/az-all/twelve.csv: the imitation recipe's
# experiments/az-all/imitate/RULESET/latest.az where its `recipe` is imitation, a family
# network's FOLDER/family/latest.az where it is family:FOLDER, else the self-play
# recipe's experiments/az-all/RULESET/latest.az; the rulesets given, default
# every one that has it) in self-play at 200 visits with the win-in-one check, as the table evaluates it;
# the same adaptive cell, but at most NET_GAMES games (default 50, one batch: a network's
# ply costs about three times the search player's at 4000 nodes, README "Cost"), so its
# interval is wider than +-0.05 unless NET_GAMES is raised (up to 400 on a cluster).
# `run.sh settle` adds a fifth: settle/RULESET/, alphabeta:nodes=$TOP (default 4 x STRONG)
# in self-play, one survey a ruleset, on the rulesets given, default those that
# verdicts.csv calls unsettled below TOP, with the same adaptive cells; the verdict rule
# then compares STRONG with TOP on them.
#
# SHARD/SHARDS (e.g. 3/16, SHARD from 0) plays every SHARDS-th cell of each survey from the
# SHARD-th (`latrunculi survey --shard SHARD+1/SHARDS`) into selfplay-shard-K/ and
# adjudication-off-shard-K/ (K = SHARD+1), so that a cluster or a many-core machine runs the
# shards side by side; `run.sh merge SHARDS` then merges them into selfplay/ and
# adjudication-off/ (byte for byte the files of one unsharded run) and writes verdicts.csv.
#
# Environment: WEAK and STRONG, the node budgets (default 1000 and 4000, 4x apart: the
# largest pair whose estimated cost fits 16 hours of a 2-core machine, README "Cost");
# RULESETS, the rulesets (default: every built-in one); SENSITIVITY, the rule variants of
# sensitivity/ (labels as `latrunculi survey` takes them, space-separated); OUT, the folder (default
# experiments/verdicts); LATRUNCULI, the binary (default target/release/latrunculi);
# RAYON_NUM_THREADS, the threads a survey plays on (default: every core); NET_GAMES, the
# cap of a network's cell (default 50; below 50 the cell plays exactly that many);
# NET_SIMS, the network's visits a move (default 200); NETS, the networks' folder
# (default experiments/az-all); TOP, the node budget of settle/ (default 4 x STRONG).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${LATRUNCULI:-target/release/latrunculi}
out=${OUT:-experiments/verdicts}
weak=alphabeta:nodes=${WEAK:-1000}
strong_nodes=${STRONG:-4000}
strong=alphabeta:nodes=$strong_nodes
# The network of a ruleset, network_of NETS RULESET: its recipe's in NETS/twelve.csv
# (imitation: NETS/imitate/; family:FOLDER: FOLDER/family/; tune:FOLDER: FOLDER/RULESET/),
# else NETS/RULESET/latest.az.
source experiments/lib/recipe_of.sh
usage="usage: run.sh [SHARD/SHARDS] | merge SHARDS | configs | verdicts | networks [RULESET ...] | settle [RULESET ...]"
nets=${NETS:-experiments/az-all}
net_games=${NET_GAMES:-50}
net_sims=${NET_SIMS:-200}
[[ $net_games =~ ^[1-9][0-9]*$ && $net_sims =~ ^[1-9][0-9]*$ ]] ||
  { echo "run.sh: NET_GAMES and NET_SIMS must be whole numbers above 0" >&2; exit 2; }
net_first=$(( net_games < 50 ? net_games : 50 ))
[[ $strong_nodes =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: STRONG must be a whole number above 0" >&2; exit 2; }
top_nodes=${TOP:-$(( 4 * strong_nodes ))}
[[ $top_nodes =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: TOP must be a whole number above 0" >&2; exit 2; }
top=alphabeta:nodes=$top_nodes

all_rulesets=${RULESETS:-$("$bin" rules | awk 'NR>1 {print $1}')}
counting=$("$bin" rules --adjudicating | awk 'NR>1 {print $1}')
# The rulesets of this run that decide games by a piece count.
adjudicating=()
for r in $all_rulesets; do
  if grep -qx -- "$r" <<< "$counting"; then adjudicating+=("$r"); fi
done

# The rule variants of sensitivity/ whose ruleset is in this run.
default_sensitivity="kowalski+end.no_capture_limit=30 kowalski+end.no_capture_limit=120 kowalski+end.no_capture_limit=0
common+end.no_capture_limit=50 common+end.no_capture_limit=200 common+end.no_capture_limit=0
back-rank+end.no_capture_limit=50 back-rank+end.no_capture_limit=200 back-rank+end.no_capture_limit=0
petteia-xxi@10x8 petteia-xxi@12x8"
variants=()
for v in ${SENSITIVITY-$default_sensitivity}; do
  for r in $all_rulesets; do
    if [[ $r == "${v%%[+@]*}" ]]; then variants+=("$v"); fi
  done
done

toml_list() { # items... -> ["a", "b"]
  local first=1 item
  printf '['
  for item in "$@"; do
    (( first )) || printf ', '
    printf '"%s"' "$item"
    first=0
  done
  printf ']'
}

# experiment_file NAME RULESETS PAIRINGS [CAP FIRST]: the adaptive survey of
# experiments/verdicts/README.md, $out/NAME.toml into $out/NAME/: FIRST games a cell (50),
# then FIRST more until the draw rate's interval is narrow enough, at most CAP (400).
experiment_file() {
  local cap=${4:-400} first=${5:-50}
  cat > "$out/$1.toml" <<EOF
# Written by experiments/verdicts/run.sh; see experiments/verdicts/README.md. Adaptive
# cells: $first games, then $first more until the draw rate's 95% interval is at most
# +-0.05 wide, at most $cap.
rulesets = $2
pairings = $3
games = $cap
min_games = $first
batch = $first
half_width = 0.05
seed = 1
swap = true
ply_cap = 1000
out = "$out/$1"
EOF
}

configs() {
  mkdir -p "$out"
  # shellcheck disable=SC2086
  experiment_file selfplay "$(toml_list $all_rulesets)" "[[\"$weak\", \"$weak\"], [\"$strong\", \"$strong\"]]"
  local off=()
  for r in "${adjudicating[@]}"; do off+=("$r+end.adjudication=draw"); done
  if (( ${#off[@]} > 0 )); then
    experiment_file adjudication-off "$(toml_list "${off[@]}")" "[[\"$strong\", \"$strong\"]]"
  else
    rm -f "$out/adjudication-off.toml"
  fi
  if (( ${#variants[@]} > 0 )); then
    experiment_file sensitivity "$(toml_list "${variants[@]}")" "[[\"$strong\", \"$strong\"]]"
  else
    rm -f "$out/sensitivity.toml"
  fi
}

# The surveys of this run: selfplay, adjudication-off where a ruleset counts pieces, and
# sensitivity where a variant's ruleset is in the run.
surveys() {
  echo selfplay
  if (( ${#adjudicating[@]} > 0 )); then echo adjudication-off; fi
  if (( ${#variants[@]} > 0 )); then echo sensitivity; fi
}

# has_games FILE: FILE holds a game below its header (a shard given no cell has none).
has_games() { [[ -f $1 ]] && (( $(head -n 2 "$1" | wc -l) == 2 )); }

verdicts() {
  local games=() f
  for s in selfplay adjudication-off sensitivity; do
    if has_games "$out/$s/games.csv"; then
      games+=("$out/$s/games.csv")
    else
      # Not merged yet: the games of its shards so far (merged, they are the same games).
      for f in "$out/$s"-shard-*/games.csv; do
        if has_games "$f"; then games+=("$f"); fi
      done
    fi
  done
  for f in "$out"/settle/*/games.csv "$out"/networks/*/games.csv; do
    if has_games "$f"; then games+=("$f"); fi
  done
  if (( ${#games[@]} == 0 )); then
    echo "no games yet in $out/selfplay, $out/adjudication-off, $out/sensitivity, $out/settle/* or $out/networks/*" >&2
    exit 1
  fi
  "$bin" verdicts --games "${games[@]}" --dlp experiments/ludii/dlp.csv --out "$out/verdicts.csv"
}

case ${1:-0/1} in
  configs)
    configs ;;
  verdicts)
    verdicts ;;
  networks)
    shift
    picked=("$@")
    if (( ${#picked[@]} == 0 )); then
      for r in $all_rulesets; do
        [[ -f $(network_of "$nets" "$r") ]] && picked+=("$r")
      done
    fi
    (( ${#picked[@]} > 0 )) || { echo "run.sh networks: no $nets/RULESET/latest.az yet" >&2; exit 1; }
    mkdir -p "$out/networks"
    for r in "${picked[@]}"; do
      net=$(network_of "$nets" "$r")
      [[ -f $net ]] || { echo "run.sh networks: no network $net" >&2; exit 2; }
      # The network of the ruleset's row in experiments/az-all's table of the twelve, at
      # NET_SIMS visits with the win-in-one check.
      spec="az:model=$net,sims=$net_sims,wincheck=1"
      experiment_file "networks/$r" "[\"$r\"]" "[[\"$spec\", \"$spec\"]]" "$net_games" "$net_first"
      "$bin" survey --config "$out/networks/$r.toml"
    done
    verdicts ;;
  settle)
    shift
    picked=("$@")
    if (( ${#picked[@]} == 0 )); then
      [[ -f $out/verdicts.csv ]] ||
        { echo "run.sh settle: no $out/verdicts.csv to find the unsettled rulesets in; name them, or run 'run.sh verdicts' first" >&2; exit 2; }
      # The rulesets whose search-player row says unsettled, below the budget TOP (one
      # already played at TOP and still unsettled needs a larger TOP, not the same again).
      mapfile -t picked < <(awk -F, -v top="nodes=$top_nodes" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["player"] == "alphabeta" && $col["verdict"] == "unsettled" && $col["budget"] != top { print $col["ruleset"] }' "$out/verdicts.csv")
    fi
    (( ${#picked[@]} > 0 )) || { echo "run.sh settle: no ruleset is unsettled below $top in $out/verdicts.csv" >&2; exit 0; }
    mkdir -p "$out/settle"
    for r in "${picked[@]}"; do
      # One survey a ruleset (settle/RULESET.toml into settle/RULESET/), so that rulesets
      # added later, or played on other machines, each resume their own folder.
      echo "settle/$r/: $top in self-play"
      experiment_file "settle/$r" "[\"$r\"]" "[[\"$top\", \"$top\"]]"
      "$bin" survey --config "$out/settle/$r.toml"
    done
    verdicts ;;
  merge)
    n=${2:?$usage}
    [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "$usage" >&2; exit 2; }
    configs
    for s in $(surveys); do
      shards=()
      for ((k = 1; k <= n; k++)); do shards+=("$out/$s-shard-$k"); done
      "$bin" survey --config "$out/$s.toml" --out "$out/$s" --merge "${shards[@]}"
    done
    verdicts ;;
  */*)
    shard=${1:-0/1}
    k=${shard%/*}
    n=${shard#*/}
    if ! [[ $k =~ ^[0-9]+$ && $n =~ ^[1-9][0-9]*$ ]] || (( k >= n )); then
      echo "$usage (SHARD from 0 to SHARDS-1)" >&2
      exit 2
    fi
    configs
    for s in $(surveys); do
      if (( n == 1 )); then
        "$bin" survey --config "$out/$s.toml"
      else
        "$bin" survey --config "$out/$s.toml" --out "$out/$s-shard-$((k + 1))" --shard "$((k + 1))/$n"
      fi
    done
    if (( n == 1 )); then verdicts; else echo "shard $shard done; when all $n are: bash experiments/verdicts/run.sh merge $n"; fi ;;
  *)
    echo "$usage" >&2
    exit 2 ;;
esac
