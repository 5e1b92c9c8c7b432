// --threads 0: the cores this process may use (src/core/usable_cores.h), not the machine's.
#include <sched.h>

#include <catch2/catch.hpp>
#include <thread>

#include "src/core/usable_cores.h"
#include "tests/cli/cli_helpers.h"

using namespace glimpse;

TEST_CASE("A cgroup v2 cpu.max line gives the quota in whole cores, rounded up", "[core][threads]") {
  CHECK(CpuQuotaCores("max 100000") == 0);  // no limit
  CHECK(CpuQuotaCores("200000 100000") == 2);
  CHECK(CpuQuotaCores("150000 100000") == 2);  // 1.5 cores: two threads may run
  CHECK(CpuQuotaCores("50000 100000") == 1);
  CHECK(CpuQuotaCores("") == 0);
  CHECK(CpuQuotaCores("garbage here") == 0);
}

TEST_CASE("Usable cores follow the affinity mask, not the machine", "[core][threads]") {
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(sched_getaffinity(0, sizeof(set), &set) == 0);
  CHECK(AffinityCores() == CPU_COUNT(&set));
  CHECK(UsableCores() >= 1);
  CHECK(UsableCores() <= AffinityCores());
  // Pinned to one CPU (taskset, as SLURM's binding does), glimpse counts one.
  const auto r = test::RunGlimpse("info --data-dir data/mnist");
  REQUIRE(r.code == 0);
  const std::string pinned = std::string("cd '") + GLIMPSE_SOURCE_DIR + "' && taskset -c 0 '" + GLIMPSE_BINARY +
                             "' info 2>&1 | grep -c '^usable_cores=1 '";
  FILE* p = popen(pinned.c_str(), "r");
  REQUIRE(p);
  char buf[16] = {0};
  const bool read = fgets(buf, sizeof(buf), p) != nullptr;
  pclose(p);
  REQUIRE(read);
  CHECK(std::string(buf) == "1\n");
}
