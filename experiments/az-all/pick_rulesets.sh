# Sourced by run.sh and twelve.sh: the rulesets of a command line, into the array
# `rulesets`: those named (RULESET ...), every SHARDS-th of rulesets.txt's twelve from the
# SHARD-th (SHARD/SHARDS, SHARD from 0), or all twelve (no argument). A bad shard exits 2,
# naming the script.
pick_rulesets() { # SCRIPT ARG...
  local me=$1 k n i
  shift
  local all=()
  mapfile -t all < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' experiments/az-all/rulesets.txt)
  rulesets=()
  if [[ $# -eq 1 && $1 =~ ^([0-9]+)/([1-9][0-9]*)$ ]]; then
    k=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]}
    (( k < n )) || { echo "$me: shard $k of $n (shards are 0..$((n - 1)))" >&2; exit 2; }
    for i in "${!all[@]}"; do
      (( i % n == k )) && rulesets+=("${all[$i]}")
    done
  elif [[ $# -gt 0 ]]; then
    rulesets=("$@")
  else
    rulesets=("${all[@]}")
  fi
}
