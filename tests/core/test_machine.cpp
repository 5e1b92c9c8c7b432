// The machine recorded with each leg's provenance (src/core/machine.h, src/core/blas.h).
#include <catch2/catch.hpp>

#include "src/core/blas.h"
#include "src/core/machine.h"

using namespace glimpse;

TEST_CASE("CpuModelFrom reads the first model name of a cpuinfo text", "[core][machine]") {
  const std::string two_cpus =
      "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Processor @ 2.50GHz  \n"
      "flags\t\t: fpu sse avx2\n\nprocessor\t: 1\nmodel name\t: Other CPU\n";
  CHECK(CpuModelFrom(two_cpus) == "Intel(R) Xeon(R) Processor @ 2.50GHz");
  CHECK(CpuModelFrom("processor\t: 0\nCPU implementer\t: 0x41\n") == "unknown");  // ARM: no such field
  CHECK(CpuModelFrom("model name\t:\nmodel name\t: B\n") == "B");                 // an empty value is skipped
  CHECK(CpuModelFrom("") == "unknown");
}

TEST_CASE("CpuModel and BlasBuild name this machine's CPU and OpenBLAS kernel", "[core][machine]") {
  CHECK_FALSE(CpuModel().empty());
  const std::string blas = BlasBuild();
  CHECK(blas.find("OpenBLAS") != std::string::npos);
  CHECK(blas.find("; core ") != std::string::npos);
  CHECK(blas.substr(blas.find("; core ") + 7).size() > 0);
}
