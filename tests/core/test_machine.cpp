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

TEST_CASE("BlasKernelNote speaks when OpenBLAS runs a pre-AVX kernel on a CPU with AVX2 or AVX-512",
          "[core][machine]") {
  // OpenBLAS 0.3.21 on an Intel Xeon of family 6 model 207: the Prescott fallback on an AVX-512 CPU.
  const std::string n = BlasKernelNote("Prescott", /*avx2=*/true, /*avx512=*/true, /*pinned=*/false);
  CHECK(n.find("Prescott") != std::string::npos);
  CHECK(n.find("OPENBLAS_CORETYPE=SkylakeX") != std::string::npos);
  CHECK(BlasKernelNote("Nehalem", true, false, false).find("OPENBLAS_CORETYPE=Haswell") != std::string::npos);
  CHECK(BlasKernelNote("SkylakeX", true, true, false).empty());  // the kernel fits the vectors
  CHECK(BlasKernelNote("Haswell", true, true, false).empty());   // AVX2 on AVX-512: a machine's choice, not a fallback
  CHECK(BlasKernelNote("Prescott", true, true, true).empty());   // OPENBLAS_CORETYPE set: the machine pinned it
  CHECK(BlasKernelNote("Prescott", false, false, false).empty());  // an old CPU: Prescott is its kernel
}
