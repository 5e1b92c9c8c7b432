// The full-image CNN control (--attention cnn): its glimpse is the canvas itself, pixel for pixel,
// wherever the location points, and it is registered as a control (no location to learn).
#include <catch2/catch.hpp>

#include "src/attention/attentions.h"
#include "src/train/make_kinds.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("The cnn control reads the whole canvas at full resolution", "[attention][cnn]") {
  const auto& kind = Attentions<double>().Get("cnn");
  CHECK(kind.policy == "centre");
  for (const int side : {28, 60, 100}) {
    INFO("canvas " << side);
    ExperimentConfig cfg;
    const auto sensor = MakeSensor(kind, cfg, side, side);
    REQUIRE(sensor->glimpse_size() == side * side);
    const int batch = 3;
    std::vector<double> images(static_cast<std::size_t>(batch) * side * side), out(images.size());
    Rng rng(7, "test");
    FillRandom(images.data(), images.size(), rng, 1.0);
    const auto cache = sensor->MakeCache();
    sensor->Prepare(images.data(), batch, side, side, cache.get());
    for (const double l : {-0.9, 0.0, 0.7}) {  // the location plays no part
      const std::vector<double> loc(2 * batch, l);
      sensor->Read(images.data(), batch, side, side, loc.data(), out.data(), cache.get());
      double worst = 0;
      for (std::size_t i = 0; i < images.size(); ++i) worst = std::max(worst, std::abs(out[i] - images[i]));
      CHECK(worst < 1e-12);
    }
  }
  ExperimentConfig cfg;
  CHECK_THROWS_WITH(MakeSensor(kind, cfg, 28, 140), Catch::Contains("square"));
}
