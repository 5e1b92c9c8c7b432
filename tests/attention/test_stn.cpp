#include <catch2/catch.hpp>

#include "src/attention/spatial_transformer.h"
#include "src/core/rng.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("Spatial transformer: the identity transform reproduces the image", "[attention][stn]") {
  const int H = 7, W = 7;
  std::vector<double> im(H * W);
  Rng rng(4, "test");
  for (auto& v : im) v = rng.Uniform();
  for (auto mode : {SpatialTransformer<double>::Mode::kAffine, SpatialTransformer<double>::Mode::kScaleTranslation}) {
    const SpatialTransformer<double> stn(7, 1, mode);
    const auto id = stn.Identity();
    std::vector<double> g(49);
    stn.Read(im.data(), 1, H, W, id.data(), g.data(), nullptr);
    for (int i = 0; i < 49; ++i) CHECK(g[i] == Approx(im[i]).margin(1e-12));
  }
  // Resampled to 4 x 4, the identity keeps the image's corners.
  const SpatialTransformer<double> small(4, 1, SpatialTransformer<double>::Mode::kScaleTranslation);
  std::vector<double> g(16);
  const double id[3] = {1, 0, 0};
  small.Read(im.data(), 1, H, W, id, g.data(), nullptr);
  CHECK(g[0] == Approx(im[0]));
  CHECK(g[15] == Approx(im[48]));
  // Half scale, shifted right by one pixel: the first sample is at x = (-0.5 + 1/3 + 1) * 3 = 2.5,
  // y = (-0.5 + 1) * 3 = 1.5, the mean of four pixels.
  const double shifted[3] = {0.5, 2.0 / 6, 0};
  small.Read(im.data(), 1, H, W, shifted, g.data(), nullptr);
  CHECK(g[0] == Approx(0.25 * (im[1 * 7 + 2] + im[1 * 7 + 3] + im[2 * 7 + 2] + im[2 * 7 + 3])));
}

TEST_CASE("Spatial transformer gradients match finite differences", "[attention][stn][gradcheck]") {
  const int B = 2, H = 8, W = 9, g = 5;
  Rng rng(5, "test");
  std::vector<double> im(B * H * W);
  FillRandom(im.data(), im.size(), rng);
  for (auto mode : {SpatialTransformer<double>::Mode::kAffine, SpatialTransformer<double>::Mode::kScaleTranslation}) {
    const SpatialTransformer<double> stn(g, 2, mode);
    const int P = stn.param_size(), D = stn.glimpse_size();
    std::vector<double> params(B * P), w(B * D), out(B * D), dparams(B * P), dimages(B * H * W, 0.0);
    // Away from integer sample positions (bilinear interpolation has kinks there).
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
