#!/usr/bin/env bash
# One network for a family of rulesets on one board against one separate network per
# member, at equal total compute (README.md here). By default the XXI family.
#
#   bash experiments/az-family/run.sh
#   bash experiments/az-family/run.sh teachers   # steps 1 and the teacher games of 2 only
#   FAMILY="kowalski kowalski-parcae common back-rank" OUT=experiments/az-family/kowalski-12x8 \
#     bash experiments/az-family/run.sh
#
# 1. The separate networks: experiments/az-all/run.sh on each member (the XXI family:
#    xxi, classical and single-stone-xxi on their own 10x8 board and petteia-xxi@10x8,
#    moved from its 8x8 board to the family's), each within HOUR seconds, teacher games
#    included; a member already trained there is left as it is.
# 2. The family network (OUT/family/): the recipe of TEMPLATE with `family = [...]`,
#    warm-started on the N members' teacher datasets of step 1 (a replay window of N x
#    the template's window_games), trained for N x HOUR less the N teachers' seconds,
#    its self-play capped at the largest of the members' ply caps (each member's is its
#    separate training's). A member's teacher games gone since it was trained (runs/ is
#    not committed) are played again first, the same games, untimed.
# 3. Evaluation per member, at the member's ply cap: the family network at 200 visits
#    with the win-in-one check against alphabeta:depth=3 (eval --sprt 0,100, at most 100
#    games) and against the separate network of that member (at most 100 games); on a
#    member on its own board (not RULESET@WxH), also against the search player at
#    ms=100,cpu=1 (at most EVAL_MS_GAMES, 40), as experiments/az-all/run.sh evaluates a
#    ruleset's own network, so that the table of the twelve can take the family network
#    for it (experiments/az-all/table.py --twelve).
# `run.sh teachers` stops before the family's training, once the separate networks are
# trained and every member's teacher games are on the machine (untimed where they are
# played again), so that the timed training can run later alone on the machine.
# Every step resumes; the environment of experiments/az-all/run.sh applies (HOUR,
# TEACHER_GAMES, ...). Also: FAMILY, the members (space-separated labels as
# `latrunculi rules` and az-all/run.sh take them, RULESET or RULESET@WxH, all on one
# board; default "xxi classical single-stone-xxi petteia-xxi@10x8"); OUT, the folder
# (default experiments/az-family); TEMPLATE, the recipe (default
# experiments/az-all/template.toml); RECIPE, `selfplay` (default: TEMPLATE as it is) or
# `imitation` (TEMPLATE changed as experiments/az-all/imitate.sh changes it, with
# IMITATE_STEPS, default 1000000: the warm start alone for the whole time); SEPARATE,
# which separate network a member is compared with: `selfplay` (default,
# ALL/RULESET/latest.az, az-all/run.sh's) or `best`
# (the recipe in ALL/twelve.csv's `separate` column, the ruleset's own network's:
# ALL/imitate/RULESET/latest.az where that is imitation). Results: OUT/family/
# (members.txt lists the members; run.env records FAMILY, RECIPE and SEPARATE, with
# which experiments/az-all/twelve.sh runs the family again) and OUT/table.csv (python3
# experiments/az-family/table.py OUT).
set -euo pipefail
cd "$(dirname "$0")/../.."
teachers_only=0
case ${1-} in
  "") ;;
  teachers) teachers_only=1 ;;
  *) echo "usage: bash experiments/az-family/run.sh [teachers]" >&2; exit 2 ;;
esac
bin=${LATRUNCULI:-target/release/latrunculi}
hour=${HOUR:-3600}
runs=${RUNS:-runs/az-all}
all=${ALL:-experiments/az-all}
out=${OUT:-experiments/az-family}
eval_games=${EVAL_GAMES:-100}
eval_ms_games=${EVAL_MS_GAMES:-40}
eval_ms=${EVAL_MS:-100}
template=${TEMPLATE:-experiments/az-all/template.toml}
read -ra members <<< "${FAMILY:-xxi classical single-stone-xxi petteia-xxi@10x8}"
n=${#members[@]}
(( n >= 2 )) || { echo "az-family/run.sh: FAMILY must name at least two rulesets" >&2; exit 2; }
separate_recipe=${SEPARATE:-selfplay}
[[ $separate_recipe == selfplay || $separate_recipe == best ]] ||
  { echo "az-family/run.sh: SEPARATE must be selfplay or best, not '$separate_recipe'" >&2; exit 2; }
# The family's board: the first member's (RULESET@WxH's WxH, else its own board).
first=${members[0]}
if [[ $first == *@* ]]; then
  board=${first#*@}
else
  board=$("$bin" rules | awk -v r="$first" 'NR > 1 && $1 == r { print $2 }')
fi
[[ $board =~ ^[0-9]+x[0-9]+$ ]] || { echo "az-family/run.sh: no board for '$first' (latrunculi rules)" >&2; exit 2; }
# The recipe, last of the checks: the imitation template is written only once the rest is valid.
recipe=${RECIPE:-selfplay}
case $recipe in
  selfplay) ;;
  imitation)
    source experiments/lib/imitation_template.sh
    imitation_template "$template" "${IMITATE_STEPS:-1000000}" "$runs/family-template-imitation.toml"
    template=$runs/family-template-imitation.toml ;;
  *) echo "az-family/run.sh: RECIPE must be selfplay or imitation, not '$recipe'" >&2; exit 2 ;;
esac
# The family's rulesets by id (the board is the family's): ruleset = the first, family = the rest.
family_ids=""
for m in "${members[@]:1}"; do family_ids="$family_ids\"${m%%@*}\", "; done

RUNS=$runs OUT=$all bash experiments/az-all/run.sh "${members[@]}"

mkdir -p "$out/family"
printf '%s\n' "${members[@]}" > "$out/family/members.txt"
printf 'FAMILY=%s\nRECIPE=%s\nSEPARATE=%s\n' "${members[*]}" "$recipe" "$separate_recipe" > "$out/family/run.env"
source experiments/lib/trained_ply_cap.sh
source experiments/lib/teacher.sh
source experiments/lib/recipe_of.sh
# The separate network a member is compared with (SEPARATE above).
separate_net() { # MEMBER
  if [[ $separate_recipe == best ]]; then
    network_of "$all" "$1" separate
  else
    echo "$all/$1/latest.az"
  fi
}
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
if (( teachers_only )); then
  for m in "${members[@]}"; do restore_teacher "$m" "$(member_cap "$m")"; done
  echo "az-family/run.sh: the separate networks and the teacher games of ${members[*]} are ready in $runs" >&2
  exit 0
fi
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
  limit=$((n * hour - teacher_s))
  # N members' teacher games: a window N times the template's keeps them all.
  window=$(awk -F' *= *' -v n="$n" '$1 == "window_games" { print n * $2 }' "$template")
  [[ -n $window ]] || { echo "az-family/run.sh: no window_games in $template" >&2; exit 2; }
  config=$out/family.toml
  sed -e "s|^window_games = .*|window_games = $window|" -e "s|^ruleset = \"@RULESET@\"|ruleset = \"${first%%@*}\"\nfamily = [${family_ids%, }]\nboard = \"$board\"|" \
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
  pairings="ab3 separate"
  [[ $m == *@* ]] || pairings="$pairings ms100"
  for vs in $pairings; do
    case $vs in
      ab3) opponent=alphabeta:depth=3 games=$eval_games ;;
      separate) opponent="az:model=$(separate_net "$m"),sims=200,wincheck=1" games=$eval_games ;;
      ms100) opponent=alphabeta:ms=$eval_ms,cpu=1 games=$eval_ms_games ;;
    esac
    name=$out/family/$m-vs-$vs
    resume=""
    [[ -f $name-games.csv ]] && resume=--resume
    "$bin" eval --ruleset "$m" --agent "$net" --vs "$opponent" --games "$games" --seed 1 --ply-cap "$cap" \
      --sprt 0,100 --out "$name.csv" --games-out "$name-games.csv" $resume
  done
done
