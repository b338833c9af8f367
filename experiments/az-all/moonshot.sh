#!/usr/bin/env bash
# The moonshot of issue 36: the trained network against the search player at equal time
# per move (README.md here, "Equal time").
#
#   bash experiments/az-all/moonshot.sh [RULESET ...]     (default: kowalski xxi)
#
# Per ruleset, after `run.sh` has trained experiments/az-all/RULESET/latest.az:
#   1. timing   the network against itself at 200 visits with the win-in-one check, on one
#               thread (RAYON_NUM_THREADS=1), TIMING_GAMES games at the training ply cap;
#               its CPU seconds (user + system, /usr/bin/time) over the plies played give
#               the CPU milliseconds a move at 200 visits;
#   2. visits   the visits that take the search player's budget (EVAL_MS, 100 ms a move):
#               200 x EVAL_MS / that figure, rounded; timed again the same way at those
#               visits to check;
#   3. match    the network at those visits against alphabeta:ms=EVAL_MS,cpu=1
#               (eval --sprt 0,100, at most GAMES games, colours alternated, the
#               training ply cap), on one thread, so that each side's move has one core.
# The training ply cap is the [selfplay] ply_cap of experiments/az-all/RULESET/config.toml.
# Writes experiments/az-all/RULESET/moonshot/: timing.csv (visits, games, plies,
# cpu_s, ms_per_move), vs-ms.csv and vs-ms-games.csv. A step already done is skipped.
# Environment: LATRUNCULI (binary), EVAL_MS (100), TIMING_GAMES (4), GAMES (100), OUT
# (experiments/az-all).
set -euo pipefail
cd "$(dirname "$0")/../.."
source experiments/lib/trained_ply_cap.sh
bin=${LATRUNCULI:-target/release/latrunculi}
[[ -x $bin ]] || { echo "moonshot.sh: no binary $bin (cargo build --release -p latrunculi-cli, or set LATRUNCULI)" >&2; exit 2; }
eval_ms=${EVAL_MS:-100}
timing_games=${TIMING_GAMES:-4}
games=${GAMES:-100}
out=${OUT:-experiments/az-all}
rulesets=("$@")
[[ ${#rulesets[@]} -gt 0 ]] || rulesets=(kowalski xxi)

# Prints the CPU milliseconds a move of the network at VISITS, and appends a row to timing.csv.
timing() { # RULESET VISITS DIR
  local r=$1 visits=$2 dir=$3 tmp
  tmp=$(mktemp -d)
  local net="az:model=$out/$r/latest.az,sims=$visits,wincheck=1"
  RAYON_NUM_THREADS=1 /usr/bin/time -f "%U %S" -o "$tmp/time" \
    "$bin" play --ruleset "$r" --white "$net" --black "$net" --games "$timing_games" --seed 7 \
    --ply-cap "$cap" --out "$tmp/games.csv" > /dev/null
  python3 - "$tmp/time" "$tmp/games.csv" "$visits" "$dir/timing.csv" <<'PY'
import csv, sys
from pathlib import Path
user, system = (float(x) for x in Path(sys.argv[1]).read_text().split()[-2:])
played = [int(g["plies"]) for g in csv.DictReader(open(sys.argv[2], newline=""))]
games, plies = len(played), sum(played)
ms = 1000 * (user + system) / plies
out = Path(sys.argv[4])
new = not out.is_file()
with out.open("a", newline="") as f:
    w = csv.writer(f)
    if new:
        w.writerow(["visits", "games", "plies", "cpu_s", "ms_per_move"])
    w.writerow([sys.argv[3], games, plies, f"{user + system:.2f}", f"{ms:.1f}"])
print(f"{ms:.3f}")
PY
  rm -rf "$tmp"
}

for r in "${rulesets[@]}"; do
  model=$out/$r/latest.az
  [[ -f $model ]] || { echo "moonshot.sh: $model is missing: train it first (bash experiments/az-all/run.sh $r)" >&2; exit 2; }
  cap=$(trained_ply_cap "$out/$r/config.toml")
  [[ -n $cap ]] || { echo "moonshot.sh: $out/$r/config.toml names no ply_cap (the training's)" >&2; exit 2; }
  dir=$out/$r/moonshot
  mkdir -p "$dir"
  if [[ ! -f $dir/timing.csv ]]; then
    ms200=$(timing "$r" 200 "$dir")
    visits=$(python3 -c "import sys; print(max(1, round(200 * $eval_ms / $ms200)))")
    timing "$r" "$visits" "$dir" > /dev/null
  fi
  # The visits of the match: the second timing row's.
  visits=$(awk -F, 'NR == 3 { print $1 }' "$dir/timing.csv")
  [[ -n $visits ]] || { echo "moonshot.sh: $dir/timing.csv has no second row (delete it to time again)" >&2; exit 2; }
  resume=""
  [[ -f $dir/vs-ms-games.csv ]] && resume=--resume
  RAYON_NUM_THREADS=1 "$bin" eval --ruleset "$r" --agent "az:model=$model,sims=$visits,wincheck=1" --vs "alphabeta:ms=$eval_ms,cpu=1" \
    --games "$games" --seed 1 --ply-cap "$cap" --sprt 0,100 --out "$dir/vs-ms.csv" --games-out "$dir/vs-ms-games.csv" $resume
done
