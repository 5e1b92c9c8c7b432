// --denormals (src/core/denormals.h): what flushing does to a subnormal float, per thread, and that
// threads started afterwards inherit it.
#include <catch2/catch.hpp>
#include <limits>

#include "src/core/denormals.h"
#include "src/core/worker_pool.h"

using namespace glimpse;

namespace {

// volatile: computed at run time, under the thread's MXCSR, not folded by the compiler.
float TinyProduct() {
  volatile float a = 1e-30f, b = 1e-10f;  // 1e-40 is subnormal (the smallest normal float is 1.2e-38)
  return a * b;
}
float SubnormalTimesOne() {
  volatile float d = std::numeric_limits<float>::denorm_min(), one = 1.0f;
  return d * one;
}

}  // namespace

TEST_CASE("Flushing turns subnormal results and inputs into 0, keeping leaves them", "[core][denormals]") {
  if (!CanFlushDenormals()) {
    WARN("this CPU build cannot flush subnormals; --denormals flush keeps them");
    CHECK_FALSE(FlushingDenormals());
    return;
  }
  {
    DenormalMode keep(false);
    CHECK_FALSE(FlushingDenormals());
    CHECK(TinyProduct() > 0);
    CHECK(TinyProduct() < std::numeric_limits<float>::min());
    CHECK(SubnormalTimesOne() == std::numeric_limits<float>::denorm_min());
    {
      DenormalMode flush(true);
      CHECK(FlushingDenormals());
      CHECK(TinyProduct() == 0);        // FTZ: a subnormal result
      CHECK(SubnormalTimesOne() == 0);  // DAZ: a subnormal input
    }
    CHECK_FALSE(FlushingDenormals());  // the inner mode ended: back to keep
  }
}

TEST_CASE("Worker threads started after the mode is set inherit it", "[core][denormals]") {
  if (!CanFlushDenormals()) return;
  for (const bool flush : {true, false}) {
    DenormalMode mode(flush);
    WorkerPool pool(2);
    int flushing[3] = {-1, -1, -1};
    float products[3] = {-1, -1, -1};
    pool.Run(3, [&](int t) {
      flushing[t] = FlushingDenormals() ? 1 : 0;
      products[t] = TinyProduct();
    });
    for (int t = 0; t < 3; ++t) {
      CHECK(flushing[t] == (flush ? 1 : 0));
      CHECK((products[t] == 0) == flush);
    }
  }
}
