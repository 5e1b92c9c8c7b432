// Classification after every glimpse (ModelSpec::step_logits, --step-loss): the step logits are the
// action network on every h_t, and the whole model's gradient of CE_T + w_s mean_{t<T} CE_t is checked
// against finite differences in double, for a hard attention (locations held fixed) and for every
// differentiable read, with both cores.
#include <catch2/catch.hpp>

#include "src/attention/attentions.h"
#include "src/model/attention_model.h"
#include "src/model/cores.h"
#include "src/rl/estimator.h"
#include "tests/gradcheck.h"
#include "tests/model/read_network.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

constexpr int kN = 5, kH = 16, kW = 16, kC = 4;

std::unique_ptr<AttentionModel<double>> MakeModel(const std::string& attention, const std::string& core, bool steps) {
  ModelSpec spec;
  spec.steps = 3, spec.glimpse_hidden = 6, spec.hidden = 7, spec.classes = kC, spec.core = core;
  spec.step_logits = steps;
  const ExperimentConfig cfg = SmallReads(attention);
  return MakeAttentionModel<double>(spec, cfg, kH, kW);
}

}  // namespace

TEST_CASE("Step logits: the action network after every glimpse, the last one the answer", "[model][step-loss]") {
  for (const bool steps : {false, true}) {
    auto model = MakeModel("gaussian", "rnn", steps);
    Rng rng(3, "init");
    model->Init(rng);
    std::vector<double> images(kN * kH * kW);
    FillRandom(images.data(), images.size(), rng);
    Rollout<double> r;
    model->Forward(images.data(), kN, kH, kW, r, LocationMode::kMean, nullptr);
    if (!steps) {
      CHECK(r.step_logits.shape(0) == 0);
      continue;
    }
    REQUIRE(r.step_logits.shape(0) == 3u * kN);
    // z_T is the answer; z_t = W_a h_t + b_a for every t, recomputed here.
    const auto& st = model->store();
    const double* W = st.value(st.Find("action.fc.W"));
    const double* b = st.value(st.Find("action.fc.b"));
    for (int t = 1; t <= 3; ++t)
      for (int n = 0; n < kN; ++n)
        for (int c = 0; c < kC; ++c) {
          double z = b[c];
          for (int k = 0; k < 7; ++k) z += W[c * 7 + k] * r.core.h_at(t)[n * 7 + k];
          CHECK(r.step_logits.data()[((t - 1) * kN + n) * kC + c] == Approx(z).epsilon(1e-12));
          if (t == 3) CHECK(r.logits.data()[n * kC + c] == r.step_logits.data()[((t - 1) * kN + n) * kC + c]);
        }
  }
}

TEST_CASE("Step loss: whole-model gradient check, hard and differentiable attention, both cores",
          "[model][step-loss][gradcheck]") {
  for (const auto& registered : Attentions<double>())
    for (const std::string& core : Cores<double>().Names()) {
      if (registered.hard() && registered.name != "gaussian") continue;  // the retina's kinds share one path
      if (registered.straight_through) continue;                         // a surrogate gradient: test_gumbel_grid.cpp
      INFO(registered.name << " with the " << core << " core");
      auto model = MakeModel(registered.name, core, true);
      Rng rng(21, "init");
      model->Init(rng);
      auto& st = model->store();
      MoveReadNetwork(st, rng);
      std::vector<double> images(kN * kH * kW);
      FillRandom(images.data(), images.size(), rng);
      std::vector<std::int32_t> labels(kN);
      for (int n = 0; n < kN; ++n) labels[n] = n % kC;
      std::vector<double> reward(kN, 0.0);
      Rollout<double> r;
      Rng draws(4, "policy");
      model->Forward(images.data(), kN, kH, kW, r, LocationMode::kSample, &draws);  // hard: fixes l_t
      EstimatorConfig ec;
      ec.step_loss = 0.7;
      ec.rl_weight = 0, ec.baseline_weight = 0;  // only the classification terms
      Estimator<double> est(ec, model->policy());
      const LocationMode mode = registered.hard() ? LocationMode::kGiven : LocationMode::kMean;
      double step = 0;
      auto loss = [&] {
        model->Forward(images.data(), kN, kH, kW, r, mode, nullptr);
        const LossReport rep = est.Compute(r, labels.data(), reward.data(), r);
        step = rep.step;
        return rep.total;
      };
      loss();
      CHECK(step > 0);
      st.ZeroGrad();
      model->Backward(r);
      const std::vector<double> analytic(st.grads().begin(), st.grads().end());
      std::string where;
      const double err = MaxGradError(loss, st.values().data(), analytic.data(), st.size(), 3e-6, &where, 1e-4);
      INFO(where);
      CHECK(err < 2e-6);
    }
}
