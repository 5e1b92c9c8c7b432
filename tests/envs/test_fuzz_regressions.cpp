// Replays the inputs under tests/fuzz/regressions/ (each once crashed a fuzz target, or guards a
// case it must handle) through the ordinary build: each is parsed or rejected with Error.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "envs/idx.h"
#include "src/core/error.h"

using namespace glimpse;

TEST_CASE("IDX fuzz regressions are rejected cleanly", "[envs][idx][fuzz]") {
  const std::string dir = std::string(GLIMPSE_SOURCE_DIR) + "/tests/fuzz/regressions/idx";
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::ifstream f(e.path(), std::ios::binary);
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(f), {}};
    INFO(e.path());
    CHECK_THROWS_AS(ParseIdxImages(bytes, e.path()), Error);
    ++n;
  }
  CHECK(n >= 2);
}
