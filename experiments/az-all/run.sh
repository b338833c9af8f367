#!/usr/bin/env bash
# A trained network for every seed ruleset, taught by the search player (README.md here).
#
#   bash experiments/az-all/run.sh [RULESET ...]        (default: the twelve seed rulesets, rulesets.txt)
#   bash experiments/az-all/run.sh SHARD/SHARDS         (every SHARDS-th of the twelve)
#
# Per ruleset, each step resumable and skipped once done:
#   1. teacher  the search player against itself (colours alternated, the ruleset's ply
#               cap, below), written light with its soft policy and values, for TEACHER_S
#               seconds: first TEACHER_GAMES games (seed 1, runs/az-all/RULESET/teacher),
#               timed; then as many more as that rate fits in the rest of TEACHER_S
#               (seed 2, runs/az-all/RULESET/teacher-more; the count is kept in
#               teacher-more.games), at most TEACHER_MAX games in all
#   2. train    configs from template.toml (the hour less the teacher's time, the ply
#               cap) into experiments/az-all/RULESET (latest.az, train_log.csv,
#               config.toml)
#   3. eval     the network at 200 visits with the win-in-one check against
#               alphabeta:depth=3 (eval --sprt 0,100, at most 100 games) and against the
#               search player at ms=100,cpu=1 (100 ms of CPU time a move; at most 40
#               games), the ruleset's ply cap:
#               experiments/az-all/RULESET/vs-*.csv and *-games.csv
#   4. curve    the learning curve: the checkpoints of the warm start, of a quarter and
#               a half of the training time and the last, each against
#               alphabeta:depth=3 and the teacher (CURVE_GAMES, 10 games each), and the
#               teacher against alphabeta:depth=3 (20 games), at the same settings:
#               experiments/az-all/RULESET/curve/ (python3 experiments/az-all/curve.py
#               draws the figure). CURVE=0 leaves it out. Checkpoints are not committed:
#               one lost before its match is played stops that match where it stands,
#               with a warning (the last one is latest.az too).
# Wall-clock seconds of steps 1 and 2 go to experiments/az-all/RULESET/times.csv; the
# table of all rulesets is made by `python3 experiments/az-all/table.py`.
# The ply cap of every game (teacher, self-play, evaluations, curve) is 400 on the eight
# rulesets whose strong games run long or stopped at 200 (kowalski-parcae, classical,
# common, back-rank, savard, falkener, bell, schadler: README.md "The ply cap") and 200 on
# the others; PLY_CAP sets one cap for all. A ruleset's folders record their cap (the
# teacher dataset's meta.json and the config.toml of its training), and a run with
# another cap is refused; so is a TEMPLATE whose ply_cap is not @PLY_CAP@.
# Environment: LATRUNCULI (the binary; default target/release/latrunculi), TEACHER_S
# (1800), TEACHER_GAMES (100), TEACHER_MAX (4000), TEACHER (the teacher's spec), HOUR
# (seconds per ruleset, data included; 3600), PLY_CAP,
# TEMPLATE (experiments/az-all/template.toml), EVAL_GAMES (100 against alphabeta:depth=3),
# EVAL_MS_GAMES (40 against ms=100), EVAL_MS (100: the search player's milliseconds a
# move in that match), CURVE, CURVE_GAMES (step 4), RUNS (runs/az-all), OUT
# (experiments/az-all).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${LATRUNCULI:-target/release/latrunculi}
[[ -x $bin ]] || { echo "run.sh: no binary $bin (cargo build --release -p latrunculi-cli, or set LATRUNCULI)" >&2; exit 2; }
teacher_s=${TEACHER_S:-1800}
teacher_games=${TEACHER_GAMES:-100}
teacher_max=${TEACHER_MAX:-4000}
hour=${HOUR:-3600}
eval_games=${EVAL_GAMES:-100}
eval_ms_games=${EVAL_MS_GAMES:-40}
eval_ms=${EVAL_MS:-100}
curve=${CURVE:-1}
curve_games=${CURVE_GAMES:-10}
template=${TEMPLATE:-experiments/az-all/template.toml}
runs=${RUNS:-runs/az-all}
out=${OUT:-experiments/az-all}
source experiments/lib/trained_ply_cap.sh
source experiments/lib/teacher.sh
source experiments/az-all/pick_rulesets.sh
pick_rulesets run.sh "$@"

# The ply cap of a ruleset's games: PLY_CAP, or 400 where strong games run long, else 200.
ply_cap() { # RULESET
  if [[ -n ${PLY_CAP:-} ]]; then
    echo "$PLY_CAP"
    return
  fi
  case $1 in
    kowalski-parcae | classical | common | back-rank | savard | falkener | bell | schadler) echo 400 ;;
    *) echo 200 ;;
  esac
}
[[ -z ${PLY_CAP:-} || $PLY_CAP =~ ^[1-9][0-9]*$ ]] ||
  { echo "run.sh: PLY_CAP must be a whole number above 0, not '$PLY_CAP'" >&2; exit 2; }

# Appends STEP,SECONDS to the ruleset's times.csv.
record() { # RULESET STEP SECONDS
  local f=$out/$1/times.csv
  [[ -f $f ]] || echo "step,seconds" > "$f"
  echo "$2,$3" >> "$f"
}
# Plays GAMES teacher games with SEED into DIR (resuming an interrupted set) and records
# their seconds as the ruleset's teacher step.
teacher_data() { # RULESET DIR GAMES SEED
  local t0=$SECONDS
  play_teacher "$1" "$2" "$3" "$4" "$cap"
  record "$1" teacher $((SECONDS - t0))
}
# Seconds recorded for a step (summed over interrupted tries), 0 if none.
spent() { # RULESET STEP
  local f=$out/$1/times.csv
  [[ -f $f ]] || { echo 0; return; }
  awk -F, -v s="$2" '$1 == s { t += $2 } END { print t + 0 }' "$f"
}

for r in "${rulesets[@]}"; do
  cap=$(ply_cap "$r")
  # A ruleset's games are all played at one cap: its teacher data and its training say
  # which (a teacher set still being played is checked by `dataset --resume` itself).
  taught=""
  [[ -f $runs/$r/teacher/meta.json ]] &&
    taught=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["args"]["ply_cap"])' "$runs/$r/teacher/meta.json")
  if [[ -n $taught && $taught != "$cap" ]]; then
    echo "run.sh: $runs/$r holds teacher games at ply cap $taught, not $cap; move it (and $out/$r) away to start $r again at $cap" >&2
    exit 2
  fi
  trained=$(trained_ply_cap "$out/$r/config.toml")
  if [[ -n $trained && $trained != "$cap" ]]; then
    echo "run.sh: $out/$r was trained at ply cap $trained, not $cap; move it (and $runs/$r) away to start $r again at $cap" >&2
    exit 2
  fi
  mkdir -p "$runs/$r" "$out/$r"
  # Steps 1 and 2, until the network is trained (its teacher's games are not needed
  # after, nor played again if lost).
  if [[ ! -f $out/$r/done ]]; then
    # The teacher's games: a first set (timed), then more to fill TEACHER_S at its rate.
    data=$runs/$r/teacher
    more=$runs/$r/teacher-more
    if [[ ! -f $data/games.jsonl ]]; then
      teacher_data "$r" "$data" "$teacher_games" 1
    fi
    if [[ ! -f $runs/$r/teacher-more.games ]]; then
      first=$(spent "$r" teacher)
      (( first > 0 )) || first=1
      n=$(( (teacher_s - first) * teacher_games / first ))
      (( n <= teacher_max - teacher_games )) || n=$(( teacher_max - teacher_games ))
      (( n > 0 )) || n=0
      echo "$n" > "$runs/$r/teacher-more.games"
    fi
    n=$(cat "$runs/$r/teacher-more.games")
    if (( n > 0 )) && [[ ! -f $more/games.jsonl ]]; then
      teacher_data "$r" "$more" "$n" 2
    fi
    datasets="\"$data\""
    (( n > 0 )) && datasets="$datasets, \"$more\""
    limit=$(( hour - $(spent "$r" teacher) ))
    (( limit > 60 )) || limit=60
    config=$runs/$r/config.toml
    # The placeholders outside the template's comments (which name them).
    sed -e "/^#/!s|@RULESET@|$r|" -e "/^#/!s|@TEACHER@|$datasets|" -e "/^#/!s|@TIME_LIMIT@|$limit|" \
      -e "/^#/!s|@PLY_CAP@|$cap|" "$template" > "$config"
    grep -q "^ply_cap = $cap\$" "$config" ||
      { echo "run.sh: $template must set [selfplay] ply_cap = @PLY_CAP@ (the cap of the teacher's games and the matches, $cap)" >&2; exit 2; }
    t0=$SECONDS
    "$bin" train --config "$config" --out "$out/$r" --quiet --resume
    record "$r" train $((SECONDS - t0))
    touch "$out/$r/done"
  fi

  net="az:model=$out/$r/latest.az,sims=200,wincheck=1"
  for vs in ab3 ms100; do
    case $vs in
      ab3) opponent=alphabeta:depth=3 games=$eval_games sprt=(--sprt 0,100) ;;
      ms100) opponent=alphabeta:ms=$eval_ms,cpu=1 games=$eval_ms_games sprt=(--sprt 0,100) ;;
    esac
    resume=""
    [[ -f $out/$r/vs-$vs-games.csv ]] && resume=--resume
    "$bin" eval --ruleset "$r" --agent "$net" --vs "$opponent" --games "$games" --seed 1 --ply-cap "$cap" \
      --out "$out/$r/vs-$vs.csv" --games-out "$out/$r/vs-$vs-games.csv" "${sprt[@]}" $resume
  done

  [[ $curve == 1 ]] || continue
  mkdir -p "$out/$r/curve"
  # The iterations of the curve: 0 (the warm start), the first to pass a quarter and a
  # half of the run's time, and the last (train_log.csv: iteration, ..., elapsed_s).
  points=$(python3 - "$out/$r/train_log.csv" <<'PY'
import csv, sys
rows = [(int(r["iteration"]), float(r["elapsed_s"] or 0)) for r in csv.DictReader(open(sys.argv[1]))]
last, end = rows[-1]
picks = {rows[0][0], last}
for frac in (0.25, 0.5):
    picks.add(next(i for i, t in rows if t >= frac * end))
print(" ".join(str(i) for i in sorted(picks)))
PY
)
  last=${points##* } # the last iteration (the points are in order)
  for it in $points; do
    ckpt=$(printf '%s/%s/checkpoints/iter-%04d.az' "$out" "$r" "$it")
    name=$(printf '%s/%s/curve/iter-%04d' "$out" "$r" "$it")
    # The last checkpoint is saved twice, as latest.az too (which is committed); its games
    # already played from the checkpoint are not resumed under the other name.
    [[ -f $ckpt || $it != "$last" || -f $name-games.csv ]] || ckpt=$out/$r/latest.az
    if [[ ! -f $ckpt ]]; then
      echo "run.sh: $ckpt is missing (checkpoints are not committed): no more games for iteration $it of $r's curve" >&2
      continue
    fi
    resume=""
    [[ -f $name-games.csv ]] && resume=--resume
    "$bin" eval --ruleset "$r" --agent "az:model=$ckpt,sims=200,wincheck=1" --vs "alphabeta:depth=3,$teacher" \
      --games "$curve_games" --seed 1 --ply-cap "$cap" --out "$name.csv" --games-out "$name-games.csv" $resume
  done
  name=$out/$r/curve/teacher
  resume=""
  [[ -f $name-games.csv ]] && resume=--resume
  "$bin" eval --ruleset "$r" --agent "$teacher" --vs alphabeta:depth=3 --games $((2 * curve_games)) --seed 1 \
    --ply-cap "$cap" --out "$name.csv" --games-out "$name-games.csv" $resume
done
