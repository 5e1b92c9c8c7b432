#include <catch2/catch.hpp>
#include <numeric>

#include "src/attention/spatial_transformer.h"
#include "src/core/rng.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {
using Stn = SpatialTransformer<double>;
const Stn::Sampler kSamplers[] = {Stn::Sampler::kBox, Stn::Sampler::kBilinear};
const Stn::Mode kModes[] = {Stn::Mode::kAffine, Stn::Mode::kScaleTranslation};
}  // namespace

TEST_CASE("Spatial transformer: the identity transform reproduces the image", "[attention][stn]") {
  const int H = 7, W = 7;
  std::vector<double> im(H * W);
  Rng rng(4, "test");
  for (auto& v : im) v = rng.Uniform();
  for (auto sampler : kSamplers)
    for (auto mode : kModes) {
      const Stn stn(7, 1, mode, sampler);
      const auto id = stn.Identity();
      std::vector<double> g(49);
      stn.Read(im.data(), 1, H, W, id.data(), g.data(), nullptr);
      for (int i = 0; i < 49; ++i) CHECK(g[i] == Approx(im[i]).margin(1e-12));
    }
  // Resampled to 4 x 4, the bilinear identity keeps the image's corners.
  const Stn small(4, 1, Stn::Mode::kScaleTranslation, Stn::Sampler::kBilinear);
  std::vector<double> g(16);
  const double id[3] = {1, 0, 0};
  small.Read(im.data(), 1, H, W, id, g.data(), nullptr);
  CHECK(g[0] == Approx(im[0]));
  CHECK(g[15] == Approx(im[48]));
  // Half scale, shifted right by one pixel: the first sample is at x = (-0.5 + 1/3 + 1) * 3 = 2.5,
  // y = (-0.5 + 1) * 3 = 1.5, the mean of four pixels (the box is one pixel wide there: the same).
  const double shifted[3] = {0.5, 2.0 / 6, 0};
  for (auto sampler : kSamplers) {
    const Stn half(4, 1, Stn::Mode::kScaleTranslation, sampler);
    half.Read(im.data(), 1, H, W, shifted, g.data(), nullptr);
    CHECK(g[0] == Approx(0.25 * (im[1 * 7 + 2] + im[1 * 7 + 3] + im[2 * 7 + 2] + im[2 * 7 + 3])));
  }
}

TEST_CASE("Spatial transformer gradients match finite differences (both samplers)", "[attention][stn][gradcheck]") {
  const int B = 2, H = 8, W = 9, g = 5;
  Rng rng(5, "test");
  std::vector<double> im(B * H * W);
  FillRandom(im.data(), im.size(), rng);
  for (auto sampler : kSamplers)
    for (auto mode : kModes) {
      INFO((sampler == Stn::Sampler::kBox ? "box" : "bilinear") << (mode == Stn::Mode::kAffine ? " affine" : " scale"));
      const Stn stn(g, 2, mode, sampler);
      const int P = stn.param_size(), D = stn.glimpse_size();
      std::vector<double> params(B * P), w(B * D), out(B * D), dparams(B * P), dimages(B * H * W, 0.0);
      // Away from integer sample positions (bilinear interpolation has kinks there); the scales make
      // the box wider than a pixel at both zooms (a footprint above one pixel moves with A).
      FillRandom(params.data(), params.size(), rng, 0.4);
      params[0] = 0.63, params[P] = 0.71;
      FillRandom(w.data(), w.size(), rng);
      auto loss = [&] {
        stn.Read(im.data(), B, H, W, params.data(), out.data(), nullptr);
        return Dot(w.data(), out.data(), out.size());
      };
      stn.Backward(im.data(), B, H, W, params.data(), w.data(), dparams.data(), dimages.data(), nullptr);
      std::string where;
      CHECK(MaxGradError(loss, params.data(), dparams.data(), params.size(), 1e-6, &where) < 1e-6);
      INFO(where);
      CHECK(MaxGradError(loss, im.data(), dimages.data(), im.size(), 0.1, &where) < 1e-6);  // linear in the image
    }
}

TEST_CASE("The box sampler sees a thin stroke wherever it is - bilinear point sampling misses it", "[attention][stn]") {
  // A 60 x 60 canvas with one vertical 2-pixel stroke; a 12 x 12 identity read samples every 5.4
  // pixels. The box read keeps the stroke's ink at every position; the bilinear read loses it at some.
  const int H = 60, W = 60, g = 12;
  const double id[3] = {1, 0, 0};
  double box_min = 1e9, box_max = 0, bil_min = 1e9;
  for (int x0 = 10; x0 < 16; ++x0) {
    std::vector<double> im(H * W, 0.0);
    for (int y = 0; y < H; ++y) im[y * W + x0] = im[y * W + x0 + 1] = 1.0;
    std::vector<double> out(g * g);
    const Stn box(g, 1, Stn::Mode::kScaleTranslation, Stn::Sampler::kBox);
    box.Read(im.data(), 1, H, W, id, out.data(), nullptr);
    const double box_ink = std::accumulate(out.begin(), out.end(), 0.0);
    const Stn bilinear(g, 1, Stn::Mode::kScaleTranslation, Stn::Sampler::kBilinear);
    bilinear.Read(im.data(), 1, H, W, id, out.data(), nullptr);
    const double bil_ink = std::accumulate(out.begin(), out.end(), 0.0);
    box_min = std::min(box_min, box_ink), box_max = std::max(box_max, box_ink), bil_min = std::min(bil_min, bil_ink);
  }
  // Ink per glimpse pixel row: 2 pixels / 5.36-pixel box = 0.37 per row, 12 rows: 4.5.
  CHECK(box_min > 4.0);
  CHECK(box_max < 5.0);
  CHECK(bil_min == 0.0);
}

TEST_CASE("The spatial transformer starts from a read whose coarsest scale covers the canvas", "[attention][stn]") {
  const Stn whole(8, 3, Stn::Mode::kScaleTranslation, Stn::Sampler::kBox, Stn::Start::kWhole);
  CHECK(whole.InitialParams() == std::vector<double>{0.25, 0, 0});
  const Stn identity(8, 3, Stn::Mode::kAffine, Stn::Sampler::kBox, Stn::Start::kIdentity);
  CHECK(identity.InitialParams() == identity.Identity());
}
