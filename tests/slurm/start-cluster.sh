#!/usr/bin/env bash
# Starts a one-node SLURM cluster on localhost, for trying the job-array scripts of
# experiments/ (README.md, "Running on a cluster") and for tests/slurm/test_slurm_arrays.py.
#
# Usage (as root, on Debian or Ubuntu):
#   bash tests/slurm/start-cluster.sh DIR      # prints the line to export: SLURM_CONF=DIR/slurm.conf
#   export SLURM_CONF=DIR/slurm.conf           # then sbatch, squeue, scancel, sacct... talk to it
#   bash tests/slurm/stop-cluster.sh DIR       # stops the daemons this script started
#
# Installs Debian's `slurm-wlm` and `munge` with apt-get when `slurmctld`, `slurmd`,
# `sbatch` or `munged` is missing. Everything the cluster writes stays in DIR (created if
# missing): its own munge key and socket, slurm.conf, the daemons' state, logs and pid
# files; nothing under /etc is changed and a munged or slurmd already running elsewhere
# on the machine is left alone. The node is `localhost` with the CPUs and memory that
# `slurmd -C` reports, in one partition `debug`; processes are tracked without cgroups
# (proctrack/linuxproc, task/none), so it also runs inside a container; a requeued job
# starts again after 10 s (cred_expire) rather than SLURM's default 120 s. The ports are
# the first free pair from 6817 (override with SLURM_TEST_PORT=P: P and P+1).
set -euo pipefail

die() { echo "start-cluster.sh: $*" >&2; exit 1; }
[[ $# -eq 1 ]] || die "usage: bash tests/slurm/start-cluster.sh DIR"
[[ $(id -u) -eq 0 ]] || die "must run as root (slurmd starts the jobs; the daemons run as SlurmUser=root)"

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null \
  || ! command -v munged >/dev/null; then
  command -v apt-get >/dev/null || die "slurmctld, slurmd, sbatch or munged is missing and there is no apt-get to install slurm-wlm and munge"
  echo "start-cluster.sh: installing slurm-wlm and munge (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends slurm-wlm munge >&2; then
    { apt-get update >&2 && apt-get install -y --no-install-recommends slurm-wlm munge >&2; } \
      || die "could not install slurm-wlm and munge with apt-get (no network or no package registry?)"
  fi
fi

mkdir -p "$1"
dir=$(cd "$1" && pwd)
chmod 700 "$dir"
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
chmod 700 "$dir/munge"
[[ -e $dir/slurmctld.pid || -e $dir/slurmd.pid || -e $dir/munge/munged.pid ]] \
  && die "$dir already holds a cluster: stop it first (bash tests/slurm/stop-cluster.sh $dir)"

# munge: a key of our own, a socket of our own (AuthInfo below points SLURM at it).
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed" \
  || die "munged did not start (see $dir/log/munged.log)"

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=${SLURM_TEST_PORT:-6817}
if [[ -z ${SLURM_TEST_PORT:-} ]]; then
  while ! port_free "$port" || ! port_free $((port + 1)); do port=$((port + 2)); done
fi

# The node's hardware as slurmd sees it (CPUs, sockets, cores, threads, memory).
hw=$(slurmd -C | head -1 | sed 's/^NodeName=[^ ]* //')
cat > "$dir/slurm.conf" <<CONF
# Written by tests/slurm/start-cluster.sh: a one-node cluster on localhost.
ClusterName=latrunculi-test
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
# cred_expire: also the wait of a requeued job before it starts again (default 120 s).
AuthInfo=socket=$dir/munge/socket,cred_expire=10
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MinJobAge=600
KillWait=5
SlurmdTimeout=60
NodeName=localhost NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -f "$dir/slurm.conf" || die "slurmctld did not start (see $dir/log/slurmctld.log)"
slurmd -f "$dir/slurm.conf" -N localhost || die "slurmd did not start (see $dir/log/slurmd.log)"

export SLURM_CONF=$dir/slurm.conf
for _ in $(seq 60); do
  state=$(sinfo -h -N -o %t 2>/dev/null || true)
  [[ $state == idle* || $state == mix* || $state == alloc* ]] && break
  sleep 1
done
[[ $state == idle* || $state == mix* || $state == alloc* ]] \
  || die "the node did not come up (state '${state:-none}'; see $dir/log/slurmctld.log and slurmd.log)"
echo "export SLURM_CONF=$dir/slurm.conf"
