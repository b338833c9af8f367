#!/usr/bin/env bash
# One network for the XXI family against four separate networks, at equal total compute
# (README.md here).
#
#   bash experiments/az-family/run.sh
#
# 1. The four separate networks: experiments/az-all/run.sh on xxi, classical and
#    single-stone-xxi (their own 10x8 board) and petteia-xxi@10x8 (moved from its 8x8
#    board to the family's), each within HOUR seconds, teacher games included.
# 2. The family network (experiments/az-family/family/): the recipe of
#    experiments/az-all/template.toml with `family = [...]`, warm-started on the four
#    teacher datasets of step 1 (a replay window of 4 x the template's window_games),
#    trained for 4 x HOUR less the four teachers' seconds, its self-play capped at the
#    largest of the members' ply caps (each member's is its separate training's). A
#    member's teacher games gone since it was trained (runs/ is not committed) are
#    played again first, the same games, untimed.
# 3. Evaluation per ruleset, at the member's ply cap: the family network at 200 visits
#    with the win-in-one check against alphabeta:depth=3 (eval --sprt 0,100, at most 100
#    games) and against the separate network of that ruleset (at most 100 games).
# Every step resumes; the environment of experiments/az-all/run.sh applies (HOUR,
# TEACHER_GAMES, ...). Results: experiments/az-family/family/ and table.csv
# (python3 experiments/az-family/table.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${LATRUNCULI:-target/release/latrunculi}
hour=${HOUR:-3600}
runs=${RUNS:-runs/az-all}
all=${ALL:-experiments/az-all}
out=${OUT:-experiments/az-family}
eval_games=${EVAL_GAMES:-100}
template=${TEMPLATE:-experiments/az-all/template.toml}
members=(xxi classical single-stone-xxi petteia-xxi@10x8)

RUNS=$runs OUT=$all bash experiments/az-all/run.sh "${members[@]}"

mkdir -p "$out/family"
source experiments/az-all/trained_ply_cap.sh
source experiments/az-all/teacher.sh
# A member's ply cap: its separate training's (az-all/run.sh chose it and recorded it).
member_cap() { # MEMBER
  local c
  c=$(trained_ply_cap "$all/$1/config.toml")
  [[ -n $c ]] || { echo "az-family/run.sh: $all/$1/config.toml names no ply_cap" >&2; exit 2; }
  echo "$c"
}
# A member's teacher games are not needed by its own run once trained, so they may be
# gone (runs/ is not committed) when the family's training needs them: they are played
# again, the same games (the first TEACHER_GAMES with seed 1, the rest with seed 2, as
# many as the member's warm start learnt from: its train_log.csv, iteration 0), and not
# timed again (the member's times.csv keeps the first time). The same games need the
# same search: a build whose search player differs plays other games of the same kind.
restore_teacher() { # MEMBER CAP
  local m=$1 total first more
  [[ -f $runs/$m/teacher/games.jsonl && -f $runs/$m/teacher-more.games ]] && return
  total=$(awk -F, 'NR == 2 { print $2 }' "$all/$m/train_log.csv")
  [[ $total =~ ^[0-9]+$ ]] || { echo "az-family/run.sh: no teacher game count in $all/$m/train_log.csv" >&2; exit 2; }
  first=${TEACHER_GAMES:-100}
  (( first <= total )) || first=$total
  more=$((total - first))
  echo "az-family/run.sh: $m's teacher games are gone; playing them again ($first + $more games)" >&2
  mkdir -p "$runs/$m"
  [[ -f $runs/$m/teacher/games.jsonl ]] || play_teacher "$m" "$runs/$m/teacher" "$first" 1 "$2"
  if (( more > 0 )) && [[ ! -f $runs/$m/teacher-more/games.jsonl ]]; then
    play_teacher "$m" "$runs/$m/teacher-more" "$more" 2 "$2"
  fi
  echo "$more" > "$runs/$m/teacher-more.games"
}
# The family's training, which alone needs the teacher games (so a run resumed for its
# evaluations needs neither them nor a new configuration).
if [[ ! -f $out/family/done ]]; then
  teacher_s=0
  datasets=""
  cap=0
  for m in "${members[@]}"; do
    c=$(member_cap "$m")
    if (( c > cap )); then cap=$c; fi
    restore_teacher "$m" "$c"
    s=$(awk -F, '$1 == "teacher" { t += $2 } END { print t + 0 }' "$all/$m/times.csv")
    teacher_s=$((teacher_s + s))
    datasets="$datasets\"$runs/$m/teacher\", "
    # run.sh's count of the member's extra teacher games (0: none were played).
    (( $(cat "$runs/$m/teacher-more.games") > 0 )) && datasets="$datasets\"$runs/$m/teacher-more\", "
  done
  limit=$((4 * hour - teacher_s))
  # Four members' teacher games: a window four times the template's keeps them all.
  window=$(awk -F' *= *' '$1 == "window_games" { print 4 * $2 }' "$template")
  [[ -n $window ]] || { echo "az-family/run.sh: no window_games in $template" >&2; exit 2; }
  config=$out/family.toml
  sed -e "s|^window_games = .*|window_games = $window|" -e 's|^ruleset = "@RULESET@"|ruleset = "xxi"\nfamily = ["classical", "single-stone-xxi", "petteia-xxi"]\nboard = "10x8"|' \
    -e "s|^datasets = \[@TEACHER@\]|datasets = [${datasets%, }]|" -e "/^#/!s|@TIME_LIMIT@|$limit|" \
    -e "/^#/!s|@PLY_CAP@|$cap|" "$template" > "$config"
  grep -q "^ply_cap = $cap\$" "$config" ||
    { echo "az-family/run.sh: $template must set [selfplay] ply_cap = @PLY_CAP@" >&2; exit 2; }
  t0=$SECONDS
  "$bin" train --config "$config" --out "$out/family" --quiet --resume
  [[ -f $out/family/times.csv ]] || echo "step,seconds" > "$out/family/times.csv"
  echo "train,$((SECONDS - t0))" >> "$out/family/times.csv"
  touch "$out/family/done"
fi

net="az:model=$out/family/latest.az,sims=200,wincheck=1"
for m in "${members[@]}"; do
  cap=$(member_cap "$m")
  for vs in ab3 separate; do
    case $vs in
      ab3) opponent=alphabeta:depth=3 ;;
      separate) opponent="az:model=$all/$m/latest.az,sims=200,wincheck=1" ;;
    esac
    name=$out/family/$m-vs-$vs
    resume=""
    [[ -f $name-games.csv ]] && resume=--resume
    "$bin" eval --ruleset "$m" --agent "$net" --vs "$opponent" --games "$eval_games" --seed 1 --ply-cap "$cap" \
      --sprt 0,100 --out "$name.csv" --games-out "$name-games.csv" $resume
  done
done
