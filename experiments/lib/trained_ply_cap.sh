# Sourced by experiments/az-all/{run,moonshot,tune,twelve}.sh and experiments/az-family/run.sh.
# trained_ply_cap CONFIG: the [selfplay] ply_cap of a training's config.toml (the cap its
# teacher games, self-play and matches were played at); nothing if the file is missing or
# names none.
trained_ply_cap() {
  [[ -f $1 ]] || return 0
  sed -n 's/^ply_cap = \([0-9]*\).*/\1/p' "$1" | head -n 1
}
