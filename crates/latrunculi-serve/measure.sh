#!/usr/bin/env bash
# Response times of `latrunculi serve` with curl: the page load (the page, its script and
# style, and the lists it asks for) and a person's move answered by `random` and by
# `greedy` (the move request, then the agent's move request), each the sum of curl's
# time_total of its requests (curl's own start not counted). Prints the median and the
# largest of N tries of each, in milliseconds.
#   bash crates/latrunculi-serve/measure.sh [BINARY] [N]
# BINARY defaults to target/release/latrunculi; run from the repository root.
set -euo pipefail
bin=${1:-target/release/latrunculi}
n=${2:-50}
log=$(mktemp)
"$bin" serve --port 0 --root . > "$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q http "$log" && break; sleep 0.05; done
url=$(grep -o 'http://[0-9.:]*/' "$log")
t() { curl -s -o /dev/null -w '%{time_total}\n' "$@"; }
stats() { sort -n | awk '{a[NR]=$1*1000} END {printf "median %.1f ms, max %.1f ms (%d tries)\n", a[int((NR+1)/2)], a[NR], NR}'; }
echo "page load (/, app.js, app.css, /api/rulesets, /api/agents, /api/files):"
for _ in $(seq "$n"); do
  for p in "" app.js app.css api/rulesets api/agents api/files; do t "$url$p"; done | paste -sd+ | bc
done | stats
for agent in random greedy; do
  echo "a move against $agent (xxi; the move, then the agent's reply):"
  for _ in $(seq "$n"); do
    id=$(curl -s -X POST -H 'content-type: application/json' -d "{\"ruleset\":\"xxi\",\"black\":\"$agent\"}" "${url}api/games" | grep -o '"id":"[0-9a-f]*"' | cut -d'"' -f4)
    { t -X POST -H 'content-type: application/json' -d '{"move":"e1-e6"}' "${url}api/games/$id/move"
      t -X POST "${url}api/games/$id/agent"; } | paste -sd+ | bc
  done | stats
done
