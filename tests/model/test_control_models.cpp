// The controls inside the model: the random-location control samples even when evaluated (its mean,
// the centre, is not what it does), and no control's location network learns.
#include <catch2/catch.hpp>

#include "src/model/attention_model.h"
#include "src/rl/estimator.h"
#include "src/train/make_kinds.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

constexpr int kN = 5, kH = 20, kW = 20;

std::unique_ptr<AttentionModel<double>> Control(const std::string& attention) {
  ModelSpec spec;
  spec.steps = 3, spec.glimpse_hidden = 6, spec.hidden = 7, spec.classes = 4;
  ExperimentConfig cfg;
  cfg.attention = attention;
  cfg.patch = 4, cfg.scales = 2;
  auto model = MakeAttentionModel<double>(spec, cfg, kH, kW);
  Rng rng(3, "init");
  model->Init(rng);
  return model;
}

}  // namespace

TEST_CASE("The random-location control samples when evaluated, reproducibly from the given stream",
          "[model][control]") {
  auto model = Control("random");
  std::vector<double> images(kN * kH * kW);
  Rng fill(1, "test");
  FillRandom(images.data(), images.size(), fill);
  Rollout<double> a, b;
  Rng r1(7, "eval"), r2(7, "eval");
  model->Forward(images.data(), kN, kH, kW, a, LocationMode::kMean, &r1);
  model->Forward(images.data(), kN, kH, kW, b, LocationMode::kMean, &r2);
  CHECK(xt::allclose(a.loc, b.loc, 0.0, 0.0));
  double spread = 0;
  for (double v : a.loc) spread = std::max(spread, std::abs(v));
  CHECK(spread > 0.3);  // not the centre
  CHECK_THROWS_WITH(model->Forward(images.data(), kN, kH, kW, a, LocationMode::kMean, nullptr),
                    Catch::Contains("needs an Rng"));
}

TEST_CASE("No control's location network gets a gradient - the rest of the model does", "[model][control]") {
  for (const std::string attention : {"random", "centre", "whole"}) {
    INFO(attention);
    auto model = Control(attention);
    std::vector<double> images(kN * kH * kW);
    Rng fill(2, "test");
    FillRandom(images.data(), images.size(), fill);
    std::vector<std::int32_t> labels = {0, 1, 2, 3, 0};
    std::vector<double> reward = {1, 0, 1, 0, 0};
    Rollout<double> r;
    Rng rng(9, "policy");
    model->Forward(images.data(), kN, kH, kW, r, LocationMode::kSample, &rng);
    if (attention != "random")
      for (double v : r.loc) CHECK(v == 0.0);
    EstimatorConfig ec;
    Estimator<double> est(ec, model->policy());
    model->store().ZeroGrad();
    est.Compute(r, labels.data(), reward.data(), r);
    model->Backward(r);
    const auto& s = model->store();
    double location = 0, glimpse = 0;
    for (const auto& p : s.info())
      for (std::size_t i = 0; i < p.size; ++i) {
        const double g = std::abs(s.grads()[p.offset + i]);
        if (p.name.rfind(AttentionModel<double>::kLocation, 0) == 0) location = std::max(location, g);
        if (p.name.rfind(AttentionModel<double>::kGlimpse, 0) == 0) glimpse = std::max(glimpse, g);
      }
    CHECK(location == 0.0);
    CHECK(glimpse > 0.0);
  }
}
