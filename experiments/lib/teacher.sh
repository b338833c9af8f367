# Sourced by experiments/az-all/run.sh and experiments/az-family/run.sh, so that both play the same teacher
# games: the teacher's spec (TEACHER) and its games.
teacher=${TEACHER:-alphabeta:nodes=1000,soft=250,noise=20}
# play_teacher RULESET DIR GAMES SEED CAP: GAMES games of the teacher against itself,
# colours alternated, from SEED, at ply cap CAP, written light into DIR (with the soft
# policies and values of the warm start); an interrupted set is resumed. Uses $bin.
play_teacher() {
  local resume=""
  [[ -f $2/partial.jsonl ]] && resume=--resume
  "$bin" dataset --ruleset "$1" --white "$teacher" --black "$teacher" --games "$3" --swap \
    --seed "$4" --ply-cap "$5" --light --out "$2" $resume
}
