// libFuzzer target: the IDX parser must accept or reject any bytes with glimpse::Error, never crash,
// and an accepted file must be internally consistent.
#include <cstdint>
#include <vector>

#include "envs/idx.h"
#include "src/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes(data, data + size);
  try {
    const glimpse::IdxImages im = glimpse::ParseIdxImages(bytes, "fuzz");
    const std::size_t n = static_cast<std::size_t>(im.count) * im.rows * im.cols;
    if (n != im.pixels.size()) __builtin_trap();
    if (im.count > 0) {
      volatile std::uint8_t last = im.image(im.count - 1)[im.rows * im.cols - 1];
      (void)last;
    }
  } catch (const glimpse::Error&) {
  }
  try {
    const glimpse::IdxLabels lb = glimpse::ParseIdxLabels(bytes, "fuzz");
    if (lb.labels.size() + 8 != size) __builtin_trap();
  } catch (const glimpse::Error&) {
  }
  return 0;
}
