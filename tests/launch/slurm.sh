#!/usr/bin/env bash
# A single-node Slurm for the tests, started and torn down around one command:
#   slurm.sh COMMAND [ARGS...]        e.g. slurm.sh srun --mpi=pmix -n 2 ./prog
# munged, slurmctld and slurmd run from a temporary directory (configuration,
# munge key, state, logs) on ports of their own, so nothing of a site's Slurm
# is touched; everything is stopped and removed on exit, however the command
# ends.  Exits 77 (a skip for CTest) when not root or Slurm is missing;
# otherwise with the command's status.
set -uo pipefail
if [ "$(id -u)" != 0 ]; then
    echo "slurm.sh: skipped: starting slurmd needs root" >&2
    exit 77
fi
for p in munged slurmctld slurmd srun sinfo; do
    if ! command -v "$p" >/dev/null; then
        echo "slurm.sh: skipped: $p is not installed (apt-get install slurm-wlm munge)" >&2
        exit 77
    fi
done
dir=$(mktemp -d /tmp/ordo-slurm.XXXXXX)
pids=()
# Fast, so that it completes within the grace a caller gives before SIGKILL
# (ordo-bench: 1-2 s): this Slurm keeps no state worth a clean shutdown.
cleanup() {
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Two free ports, held at once while the kernel picks them so that they
# differ (one at a time, the same port can come back twice: slurmctld then
# "talks with itself" and slurmd cannot bind).
free_ports() {
    python3 -c 'import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])'
}
host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool" "$dir/munge" "$dir/tmp"
chmod 700 "$dir" "$dir/munge"
head -c 1024 /dev/urandom >"$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
munged --foreground --force --num-threads=16 --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
    --pid-file="$dir/munge/pid" --log-file="$dir/munge/log" --seed-file="$dir/munge/seed" \
    >"$dir/munge/out" 2>&1 &
pids+=($!)
read -r ctld_port slurmd_port < <(free_ports)
cat >"$dir/slurm.conf" <<CONF
ClusterName=ordotest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
TmpFS=$dir/tmp
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=64 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
for _ in $(seq 50); do [ -S "$dir/munge/socket" ] && break; sleep 0.1; done
slurmctld -D -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$dir/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 300); do
    state=$(sinfo -h -o %T 2>/dev/null | head -1)
    [ "$state" = idle ] && break
    sleep 0.1
done
if [ "$state" != idle ]; then
    echo "slurm.sh: the single-node Slurm did not come up (node state '$state'):" >&2
    tail -n 20 "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/*.out "$dir/munge/log" >&2 2>/dev/null
    exit 1
fi
"$@"
status=$?
if [ $status -ne 0 ]; then
    echo "slurm.sh: '$*' exited $status; slurmd's log ends:" >&2
    tail -n 20 "$dir/slurmd.log" >&2 2>/dev/null
fi
exit $status
