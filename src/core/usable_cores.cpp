#include "src/core/usable_cores.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

namespace glimpse {

int AffinityCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
  return CPU_COUNT(&set);
}

int CpuQuotaCores(const std::string& line) {
  std::istringstream in(line);
  std::string quota;
  double period = 0;
  if (!(in >> quota >> period) || quota == "max" || period <= 0) return 0;
  try {
    const double q = std::stod(quota);
    return q > 0 ? static_cast<int>(std::ceil(q / period)) : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

namespace {

// The cgroup CPU quota of this process in cores, 0 if none: v2's cpu.max, else v1's cfs files.
int CgroupQuotaCores() {
  std::string line;
  if (std::ifstream v2("/sys/fs/cgroup/cpu.max"); v2 && std::getline(v2, line)) return CpuQuotaCores(line);
  std::ifstream q("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), p("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
  long quota = 0, period = 0;
  if (q >> quota && p >> period && quota > 0 && period > 0)
    return static_cast<int>(std::ceil(static_cast<double>(quota) / static_cast<double>(period)));
  return 0;
}

}  // namespace

int UsableCores() {
  int n = AffinityCores();
  if (n <= 0) n = static_cast<int>(std::thread::hardware_concurrency());
  const int quota = CgroupQuotaCores();
  if (quota > 0) n = n > 0 ? std::min(n, quota) : quota;
  return std::max(1, n);
}

}  // namespace glimpse
