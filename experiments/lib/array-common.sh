# The part the job-array scripts experiments/*-array.sbatch share, sourced by each of
# them after `set -euo pipefail` and `me=NAME-array.sbatch` (README.md, "Running on a
# cluster"; experiments/README.md, "Shards and job arrays"). It checks the task and finds
# the binary and the threads, and defines die, note, shard_count (sharded commands) and
# task_item (one item of a list per task); each script keeps only its own arguments and
# command. crates/latrunculi-cli/tests/job_arrays.rs runs every script with it.
die() { echo "$me: error: $*" >&2; exit 2; }
note() { echo "$me: $*" >&2; }
# The task: this job array task's index.
task=${SLURM_ARRAY_TASK_ID:-}
[[ $task =~ ^[0-9]+$ ]] || die "not a task of a job array (no SLURM_ARRAY_TASK_ID): submit it with sbatch --array=1-N; usage above in $me"
# The binary: $LATRUNCULI, else latrunculi on PATH.
if [[ -n ${LATRUNCULI:-} ]]; then
  bin=$LATRUNCULI
  [[ -f $bin && -x $bin ]] || die "LATRUNCULI=$LATRUNCULI is not an executable file (seen from $PWD on $(hostname))"
elif ! bin=$(command -v latrunculi); then
  die "latrunculi not found on $(hostname): set LATRUNCULI to the binary (e.g. LATRUNCULI=\$PWD/target/release/latrunculi sbatch ...) or put the folder holding latrunculi on PATH before sbatch (sbatch passes the environment on)"
fi
# Threads: the CPUs SLURM gave the task (--cpus-per-task; 1 without it), not the node's.
export RAYON_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}
# Sharded commands: the shard count N. --shards N if given; else the count that the shard
# folders OUT-shard-* already there record (so that a resubmitted task, `--array=K`,
# continues as K/N); else the array's last task, for an array from 1.
shard_count() { # EXPLICIT_N OUT RECORD_FILE
  local n=$1 f m
  if [[ -z $n ]]; then
    for f in "$2"-shard-[0-9]*/"$3"; do
      [[ -f $f ]] || continue
      m=$(sed -n 's|^shard = [0-9]*/\([0-9]*\)$|\1|p' "$f")
      [[ -z $m || -z $n || $m == "$n" ]] || die "the shard folders $2-shard-* record different shard counts ($n and $m); give it with --shards N"
      n=${m:-$n}
    done
  fi
  if [[ -z $n && ${SLURM_ARRAY_TASK_MIN:-} == 1 ]]; then n=${SLURM_ARRAY_TASK_MAX:-}; fi
  [[ -n $n ]] || die "the shard count is unknown: this array (${SLURM_ARRAY_TASK_MIN:-?}-${SLURM_ARRAY_TASK_MAX:-?}) does not start at 1 and no folder $2-shard-K records it; pass --shards N after the script's name"
  [[ $n =~ ^[1-9][0-9]*$ ]] || die "bad shard count '$n'"
  (( task <= n )) || die "task $task is past the shard count $n (shards 1..$n)"
  echo "$n"
}
# Item-per-task commands: line TASK of LIST ('#' starts a comment; blank lines skipped) and
# its name: the file name without a .toml ending (the item's output is OUTDIR/NAME).
list_items() { sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"; }
item_name() { local b=${1##*/}; echo "${b%.toml}"; }
task_item() { # LIST
  [[ -f $1 ]] || die "no list file $1 (seen from $PWD)"
  local items n
  items=$(list_items "$1")
  n=$(grep -c . <<<"$items" || true)
  (( task >= 1 && task <= n )) || die "task $task, but $1 lists $n items (submit with --array=1-$n)"
  local dup
  dup=$(while read -r i; do item_name "$i"; done <<<"$items" | sort | uniq -d | head -1)
  [[ -z $dup ]] || die "two items of $1 have the name $dup: their outputs would be the same"
  sed -n "${task}p" <<<"$items"
}
