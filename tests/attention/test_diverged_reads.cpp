// A diverged read network emits NaN, inf or huge read parameters. Every sensor must then read NaN
// (so the trainer's loss check stops or rolls the run back) and never index outside the image: a NaN
// cast to an int is undefined and crashed DRAW and the spatial transformer.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "src/attention/draw_read.h"
#include "src/attention/retina.h"
#include "src/attention/spatial_transformer.h"

using namespace glimpse;

namespace {

constexpr int kH = 20, kW = 24;
const double kNaN = std::numeric_limits<double>::quiet_NaN(), kInf = std::numeric_limits<double>::infinity();

// Reads (and back-propagates through) params, every entry set to v, with and without a prepared cache;
// returns whether every glimpse value is NaN, and checks the gradients are written without a crash.
bool ReadsNaN(const Sensor<double>& s, double v) {
  const int B = 2, P = s.param_size(), D = s.glimpse_size();
  std::vector<double> im(static_cast<std::size_t>(B) * kH * kW, 0.5), p(static_cast<std::size_t>(B) * P, v),
      g(static_cast<std::size_t>(B) * D, 0.0), dg(g.size(), 1.0), dp(p.size(), 0.0), dim(im.size(), 0.0);
  bool all_nan = true;
  for (const bool prepared : {false, true}) {
    std::unique_ptr<SensorCache> cache = prepared ? s.MakeCache() : nullptr;
    if (cache) s.Prepare(im.data(), B, kH, kW, cache.get());
    s.Read(im.data(), B, kH, kW, p.data(), g.data(), cache.get());
    for (double x : g) all_nan = all_nan && std::isnan(x);
    if (s.name() != "retina")  // the retina's location is learned by REINFORCE: it has no Backward
      s.Backward(im.data(), B, kH, kW, p.data(), dg.data(), dp.data(), dim.data(), cache.get());
  }
  return all_nan;
}

// Reads params of huge finite magnitude: the read is finite (zero far outside the image), no crash.
bool ReadsFinite(const Sensor<double>& s, double v) {
  const int B = 1, P = s.param_size(), D = s.glimpse_size();
  std::vector<double> im(static_cast<std::size_t>(kH) * kW, 0.5), p(P, v), g(D, 0.0), dg(D, 1.0), dp(P, 0.0),
      dim(im.size(), 0.0);
  s.Read(im.data(), B, kH, kW, p.data(), g.data(), nullptr);
  if (s.name() != "retina") s.Backward(im.data(), B, kH, kW, p.data(), dg.data(), dp.data(), dim.data(), nullptr);
  bool finite = true;
  for (double x : g) finite = finite && std::isfinite(x);
  return finite;
}

}  // namespace

TEST_CASE("Every sensor reads NaN from NaN read parameters, and never indexes outside the image", "[attention][nan]") {
  const Retina<double> retina(6, 3);
  const DrawRead<double> draw(5), draw3(5, 1.0, 3);
  using Stn = SpatialTransformer<double>;
  const Stn box(6, 2, Stn::Mode::kAffine), bilinear(6, 1, Stn::Mode::kAffine, Stn::Sampler::kBilinear),
      scale_shift(6, 1, Stn::Mode::kScaleTranslation);
  for (const Sensor<double>* s :
       std::vector<const Sensor<double>*>{&retina, &draw, &draw3, &box, &bilinear, &scale_shift}) {
    INFO(s->name());
    CHECK(ReadsNaN(*s, kNaN));
    CHECK(ReadsFinite(*s, 1e30));
    CHECK(ReadsFinite(*s, -1e30));
  }
  // Infinite locations: the retina and the transformer read NaN; DRAW clamps each parameter to its
  // range first (draw_read.h), so its read stays finite.
  CHECK(ReadsNaN(retina, kInf));
  CHECK(ReadsNaN(box, -kInf));
  CHECK(ReadsNaN(bilinear, kInf));
  CHECK(ReadsFinite(draw, kInf));
}
