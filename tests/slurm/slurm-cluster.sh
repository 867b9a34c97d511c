#!/usr/bin/env bash
# A throwaway single-node Slurm cluster for tests and benchmarks, entirely inside DIR:
#   tests/slurm/slurm-cluster.sh start DIR   starts munged, slurmctld and slurmd; prints
#                                             the SLURM_CONF to export; exit 77 if they cannot run
#   tests/slurm/slurm-cluster.sh stop DIR    stops exactly the daemons it started, by pid
# Needs root (the daemons run as root here) and Debian's slurm-wlm and munge.
set -euo pipefail
cmd="${1:?usage: slurm-cluster.sh start|stop DIR}"
dir="$(mkdir -p "${2:?usage: slurm-cluster.sh start|stop DIR}" && cd "$2" && pwd)"

stop() {
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
    [ -s "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$pidfile"
  done
}

unavailable() {
  echo "slurm-cluster: cannot start a Slurm cluster here: $*" >&2
  stop
  exit 77
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "usage: slurm-cluster.sh start|stop DIR" >&2; exit 2; }
for tool in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || unavailable "$tool is not installed (scripts/setup.sh test installs slurm-wlm and munge)"
done
[ "$(id -u)" -eq 0 ] || unavailable "the daemons need root"

mkdir -p "$dir"/{state,spool,log,munge}
chmod 700 "$dir/munge"
head -c 1024 /dev/urandom > "$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
/usr/sbin/munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munge.seed" \
  || unavailable "munged did not start (see $dir/munge/munged.log)"

host="$(hostname -s)"
port=$(( 20000 + ($$ % 20000) ))
cat > "$dir/slurm.conf" <<CONF
ClusterName=npusimtest
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$(( port + 1 ))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
SchedulerParameters=${NPUSIM_SLURM_SCHEDULER_PARAMETERS:-batch_sched_delay=0,sched_min_interval=0}
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
/usr/sbin/slurmctld -f "$SLURM_CONF" || unavailable "slurmctld did not start (see $dir/log/slurmctld.log)"
/usr/sbin/slurmd -f "$SLURM_CONF" || unavailable "slurmd did not start (see $dir/log/slurmd.log)"
for _ in $(seq 100); do
  if sinfo -h -o %t 2>/dev/null | grep -q idle; then echo "$SLURM_CONF"; exit 0; fi
  sleep 0.2
done
unavailable "the node never became idle (see $dir/log)"
