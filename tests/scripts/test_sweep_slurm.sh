#!/usr/bin/env bash
# scripts/sweep --slurm against a real single-node SLURM (Debian's slurm-wlm and munge) started here
# on localhost, on private ports; installs the two packages if they are missing (needs root).
set -euo pipefail
root=$1
tmp=$(mktemp -d)
pids=()
# The daemons save their state into $tmp as they stop: wait for them before removing it, or rm races
# slurmctld's last write ("Directory not empty") and fails a test that passed.
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null
fi
# munge: the daemon runs as its own user; the key comes with the package.
mkdir -p /run/munge && chown munge:munge /run/munge
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged
port=$((20000 + RANDOM % 20000))
mkdir -p "$tmp/state" "$tmp/spool"
cat > "$tmp/slurm.conf" <<CONF
ClusterName=glimpsetest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
NodeName=localhost CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -f "$SLURM_CONF" & pids+=($!)
slurmd -D -f "$SLURM_CONF" & pids+=($!)
for i in $(seq 1 30); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 1; done
sinfo -h -o %T | grep -q idle || { echo "FAIL: SLURM did not come up"; cat "$tmp"/*.log; exit 1; }
. "$root/tests/scripts/sweep_common.sh"
make_tiny_experiment
cd "$root"
# --threads 2: each job asks for 2 CPUs and trains with SLURM_CPUS_PER_TASK threads.
scripts/sweep tiny --threads 2 --slurm --time=5
for i in $(seq 1 120); do [ -z "$(squeue -h)" ] && break; sleep 1; done
[ -z "$(squeue -h)" ] || { echo "FAIL: jobs still queued"; squeue; exit 1; }
ls "$tmp/results/tiny"/slurm-*_0.log "$tmp/results/tiny"/slurm-*_1.log >/dev/null
expect_finished a b
for id in a b; do
  t=$(/usr/bin/python3 -c "import h5py, sys; print(int(h5py.File(sys.argv[1], 'r')['provenance/threads'][-1]))" \
      "$tmp/results/tiny/$id.h5")
  [ "$t" = 2 ] || { echo "FAIL: tiny/$id trained with $t threads, expected SLURM_CPUS_PER_TASK = 2"; exit 1; }
done
echo "1 passed, 0 failed"
