#!/usr/bin/env bash
# Stops the one-node SLURM cluster that tests/slurm/start-cluster.sh started in DIR: cancels
# its jobs, then stops slurmd, slurmctld and munged by the pid files in DIR (no other
# process is touched). DIR itself is kept (logs, state); remove it when done.
#
# Usage: bash tests/slurm/stop-cluster.sh DIR
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: bash tests/slurm/stop-cluster.sh DIR" >&2; exit 1; }
dir=$1
if [[ -f $dir/slurmctld.pid && -f $dir/slurm.conf ]] && command -v squeue >/dev/null; then
  export SLURM_CONF=$dir/slurm.conf
  jobs=$(squeue -h -o %i 2>/dev/null || true)
  if [[ -n $jobs ]]; then
    # shellcheck disable=SC2086
    scancel $jobs 2>/dev/null || true
    for _ in $(seq 30); do [[ -z $(squeue -h 2>/dev/null) ]] && break; sleep 1; done
  fi
fi
stop() { # pid file, name
  [[ -f $1 ]] || return 0
  local pid
  pid=$(cat "$1")
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null && grep -q "$2" "/proc/$pid/comm" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  fi
  rm -f "$1"
}
stop "$dir/slurmd.pid" slurmd
stop "$dir/slurmctld.pid" slurmctld
stop "$dir/munge/munged.pid" munged
