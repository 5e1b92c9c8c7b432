#include <catch2/catch.hpp>

#include "src/attention/retina.h"
#include "src/core/rng.h"

using namespace glimpse;

namespace {
// 8x8 image with pixel (y, x) = 8 y + x.
std::vector<double> Ramp() {
  std::vector<double> im(64);
  for (int i = 0; i < 64; ++i) im[i] = i;
  return im;
}
}  // namespace

TEST_CASE("Retina reads a centred patch exactly", "[attention][retina]") {
  const Retina<double> r(2, 1);
  const auto im = Ramp();
  const double loc[2] = {0, 0};  // centre (4, 4): patch rows/cols 3..4
  double g[4];
  r.Read(im.data(), 1, 8, 8, loc, g, nullptr);
  CHECK(g[0] == 27);
  CHECK(g[1] == 28);
  CHECK(g[2] == 35);
  CHECK(g[3] == 36);
}

TEST_CASE("Retina scales double in width and are averaged down", "[attention][retina]") {
  const Retina<double> r(2, 2);
  CHECK(r.glimpse_size() == 8);
  const auto im = Ramp();
  const double loc[2] = {0, 0};
  double g[8];
  r.Read(im.data(), 1, 8, 8, loc, g, nullptr);
  // Scale 2 covers rows/cols 2..5 in 2x2 blocks: mean of {18, 19, 26, 27} = 22.5, etc.
  CHECK(g[4] == Approx(22.5));
  CHECK(g[5] == Approx(24.5));
  CHECK(g[6] == Approx(38.5));
  CHECK(g[7] == Approx(40.5));
}

TEST_CASE("Retina maps (-1, -1) to the top-left corner and reads zeros outside", "[attention][retina]") {
  const Retina<double> r(2, 1);
  const auto im = Ramp();
  const double loc[2] = {-1, -1};  // centre (0, 0): patch rows/cols -1..0
  double g[4];
  r.Read(im.data(), 1, 8, 8, loc, g, nullptr);
  CHECK(g[0] == 0);
  CHECK(g[1] == 0);
  CHECK(g[2] == 0);
  CHECK(g[3] == 0);                    // pixel (0, 0) = 0 too
  const double loc2[2] = {0.5, -0.5};  // centre x = 6, y = 2: rows 1..2, cols 5..6
  r.Read(im.data(), 1, 8, 8, loc2, g, nullptr);
  CHECK(g[0] == 13);
  CHECK(g[3] == 22);
  // unit_pixels = 2: x = 1 moves the centre by 2 pixels.
  const Retina<double> r2(2, 1, 2.0);
  const double loc3[2] = {1, 0};
  r2.Read(im.data(), 1, 8, 8, loc3, g, nullptr);
  CHECK(g[0] == 8 * 3 + 5);
}

TEST_CASE("Retina reads a batch image by image", "[attention][retina]") {
  const Retina<float> r(3, 2);
  std::vector<float> im(2 * 64);
  for (int i = 0; i < 128; ++i) im[i] = static_cast<float>(i % 64) * (i < 64 ? 1 : 2);
  const float loc[4] = {0.1f, -0.3f, 0.1f, -0.3f};
  std::vector<float> g(2 * r.glimpse_size());
  r.Read(im.data(), 2, 8, 8, loc, g.data(), nullptr);
  for (int d = 0; d < r.glimpse_size(); ++d) CHECK(g[r.glimpse_size() + d] == Approx(2 * g[d]));
}

TEST_CASE("Retina refuses impossible settings", "[attention][retina]") {
  CHECK_THROWS_WITH(Retina<float>(0, 1), Catch::Contains("patch size must be at least 1"));
  CHECK_THROWS_WITH(Retina<float>(8, 0), Catch::Contains("scales must be in [1, 8]"));
  CHECK_THROWS_WITH(Retina<float>(8, 1, -1), Catch::Contains("unit-pixels"));
}

TEST_CASE("Retina reads the same with and without its summed-area tables", "[attention][retina]") {
  const Retina<double> r(5, 3);
  std::vector<double> im(3 * 30 * 30);
  Rng rng(9, "test");
  for (auto& v : im) v = rng.Uniform();
  std::vector<double> loc(6), direct(3 * r.glimpse_size()), fast(3 * r.glimpse_size());
  for (int trial = 0; trial < 50; ++trial) {
    for (auto& l : loc) l = rng.Uniform(-1.3, 1.3);  // partly outside the image
    const Retina<double> plain(5, 3);                // never prepared: the direct path
    plain.Read(im.data(), 3, 30, 30, loc.data(), direct.data(), nullptr);
    const auto cache = r.MakeCache();  // prepared: the summed-area path
    r.Prepare(im.data(), 3, 30, 30, cache.get());
    r.Read(im.data(), 3, 30, 30, loc.data(), fast.data(), cache.get());
    for (std::size_t i = 0; i < fast.size(); ++i) REQUIRE(fast[i] == Approx(direct[i]).margin(1e-12));
  }
}
