// How many cores this process may use: what `--threads 0` means. Not the machine's count
// (std::thread::hardware_concurrency) but the smaller of the CPUs in this process's affinity mask
// (taskset, SLURM's binding, numactl) and the cgroup's CPU quota rounded up (a container's --cpus,
// cgroup v2 cpu.max or v1 cpu.cfs_quota_us / cpu.cfs_period_us). At least 1.
#pragma once

#include <string>

namespace glimpse {

int UsableCores();

// The parts, for tests and `glimpse info`: the affinity count (0 if unknown), and the quota of a
// cgroup v2 cpu.max line ("max 100000" or "150000 100000"; 0 for no limit or unreadable) rounded up.
int AffinityCores();
int CpuQuotaCores(const std::string& cpu_max_line);

}  // namespace glimpse
