# Sourced by experiments/az-all/imitate.sh and experiments/az-family/run.sh, so that both derive the
# imitation recipe the same way (experiments/az-all/README.md, "Imitation alone").
# imitation_template TEMPLATE STEPS OUT: writes OUT, TEMPLATE changed in three places and
# nowhere else: `iterations = 0` (the warm start alone), the warm start's `steps` raised
# to STEPS (the callers' IMITATE_STEPS) with `time_limit_s = @TIME_LIMIT@` after it (the rest of the hour), and
# `keep_in_buffer = false` where the template keeps the teacher's games for self-play
# (none follows). Each change is checked before anything is written; a TEMPLATE lacking
# `iterations` or the warm start's `steps` is refused (exit 2).
imitation_template() {
  local template=$1 steps=$2 out=$3 derived
  [[ $steps =~ ^[1-9][0-9]*$ ]] ||
    { echo "imitation_template: IMITATE_STEPS must be a whole number above 0, not '$steps'" >&2; exit 2; }
  [[ -f $template ]] || { echo "imitation_template: no template $template" >&2; exit 2; }
  derived=$(sed -e 's/^iterations = [0-9][0-9]*\( *#.*\)\{0,1\}$/iterations = 0  # imitation: the warm start alone/' \
    -e "/^\[warmstart\]/,/^\[/{s/^steps = [0-9][0-9]*\( *#.*\)\{0,1\}\$/steps = $steps  # imitation: as many as time_limit_s allows\ntime_limit_s = @TIME_LIMIT@/;s/^keep_in_buffer = true/keep_in_buffer = false  # imitation: no self-play follows/}" \
    "$template")
  grep -q '^iterations = 0  # imitation' <<< "$derived" ||
    { echo "imitation_template: $template has no top-level 'iterations = N' line to set to 0" >&2; exit 2; }
  grep -q "^steps = $steps  # imitation" <<< "$derived" ||
    { echo "imitation_template: $template has no 'steps = N' line in its [warmstart] section" >&2; exit 2; }
  mkdir -p "$(dirname "$out")"
  # Replaced whole (another script may be reading it).
  printf '%s\n' "$derived" > "$out.$$"
  mv -f "$out.$$" "$out"
}
