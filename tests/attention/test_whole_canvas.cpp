// The whole-canvas control sensor: an exact box filter of the whole canvas, blind to the location.
#include <catch2/catch.hpp>
#include <numeric>

#include "src/attention/attentions.h"
#include "src/attention/whole_canvas.h"
#include "src/train/make_kinds.h"

using namespace glimpse;

TEST_CASE("Whole canvas: an 8x8 canvas to 4x4 averages 2x2 blocks, wherever the location", "[attention][control]") {
  const WholeCanvas<double> s(2, 4, 8, 8);  // s = round(2 sqrt(4)) = 4
  REQUIRE(s.side() == 4);
  CHECK(s.glimpse_size() == 16);
  std::vector<double> im(64);
  std::iota(im.begin(), im.end(), 0.0);  // pixel (y, x) = 8 y + x
  const double centre[2] = {0, 0}, corner[2] = {-1, 0.7};
  double a[16], b[16];
  s.Read(im.data(), 1, 8, 8, centre, a, nullptr);
  s.Read(im.data(), 1, 8, 8, corner, b, nullptr);
  CHECK(a[0] == Approx((0 + 1 + 8 + 9) / 4.0));
  CHECK(a[5] == Approx((18 + 19 + 26 + 27) / 4.0));
  CHECK(a[15] == Approx((54 + 55 + 62 + 63) / 4.0));
  CHECK(std::equal(a, a + 16, b));
}

TEST_CASE("Whole canvas: a ratio that is not whole keeps every pixel's mass", "[attention][control]") {
  const WholeCanvas<double> s(3, 1, 7, 5);  // 7 x 5 -> 3 x 3: cells of 7/3 x 5/3 pixels
  std::vector<double> im(35);
  Rng rng(2, "test");
  for (double& p : im) p = rng.Uniform();
  double g[9];
  const double loc[2] = {0, 0};
  s.Read(im.data(), 1, 7, 5, loc, g, nullptr);
  const double cell = (7.0 / 3) * (5.0 / 3);
  CHECK(std::accumulate(g, g + 9, 0.0) * cell == Approx(std::accumulate(im.begin(), im.end(), 0.0)));
  // Cell (0, 0) covers rows [0, 7/3) and columns [0, 5/3): rows 0, 1 whole and a third of row 2.
  double want = 0;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 2; ++x) want += im[y * 5 + x] * (y < 2 ? 1.0 : 1.0 / 3) * (x < 1 ? 1.0 : 2.0 / 3);
  CHECK(g[0] == Approx(want / cell));
}

TEST_CASE("Whole canvas: batches, bad canvases, and its registered kind", "[attention][control]") {
  const WholeCanvas<float> s(2, 1, 4, 4);
  std::vector<float> im(32, 1.0f);
  std::fill(im.begin() + 16, im.end(), 3.0f);
  const float loc[4] = {0, 0, 0, 0};
  float g[8];
  s.Read(im.data(), 2, 4, 4, loc, g, nullptr);
  CHECK(g[0] == 1.0f);
  CHECK(g[7] == 3.0f);
  CHECK_THROWS_WITH(s.Read(im.data(), 1, 4, 8, loc, g, nullptr), Catch::Contains("made for 4 x 4"));
  CHECK_THROWS_WITH(WholeCanvas<float>(12, 4, 20, 20), Catch::Contains("larger than the 20 x 20 canvas"));
  const AttentionKind<float>& kind = Attentions<float>().Get("whole");
  CHECK(kind.policy == "centre");
  ExperimentConfig cfg;
  cfg.patch = 12, cfg.scales = 3;
  CHECK(MakeSensor(kind, cfg, 60, 60)->glimpse_size() == 21 * 21);
}
