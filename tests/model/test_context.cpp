// DRAM's context network (Ba et al. 2015): h_0 from a coarse view of the whole canvas, for every
// registered attention and both cores, gradient-checked; and what it changes. The fade
// (ModelSpec::context_fade): h_0 = s tanh(.), s = max(0, 1 - progress / F), checked the same way.
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

constexpr int kN = 4, kH = 16, kW = 16, kContext = 4;

std::unique_ptr<AttentionModel<double>> Model(const std::string& attention, const std::string& core, int context,
                                              double fade = 0) {
  ModelSpec spec;
  spec.steps = 3, spec.glimpse_hidden = 6, spec.hidden = 7, spec.classes = 4;
  spec.core = core;
  spec.context = context;
  spec.context_fade = fade;
  const ExperimentConfig cfg = SmallReads(attention);
  auto model = MakeAttentionModel<double>(spec, cfg, kH, kW);
  Rng rng(21, "init");
  model->Init(rng);
  auto& st = model->store();
  MoveReadNetwork(st, rng);
  return model;
}

std::vector<double> Images(std::uint64_t seed) {
  std::vector<double> images(kN * kH * kW);
  Rng rng(seed, "test");
  FillRandom(images.data(), images.size(), rng);
  for (double& p : images) p = std::abs(p);
  return images;
}

double MaxAbs(const ParamStore<double>& s, const char* prefix, bool grads) {
  double m = 0;
  for (const auto& p : s.info())
    if (p.name.rfind(prefix, 0) == 0)
      for (std::size_t i = 0; i < p.size; ++i)
        m = std::max(m, std::abs((grads ? s.grads() : s.values())[p.offset + i]));
  return m;
}

// The action loss (no REINFORCE or baseline term) of rollout r, run again with mode (kGiven holds
// its draws), its analytic gradient, and that gradient's largest error against central differences
// at test_attention_model.cpp's step and floor. context_grad: the largest |gradient| reaching the
// context network.
struct GradCheck {
  double error = 0, context_grad = 0;
  std::string where;
};
GradCheck CheckActionLoss(AttentionModel<double>& model, const std::vector<double>& images, LocationMode mode,
                          Rollout<double>& r) {
  const std::vector<std::int32_t> labels = {0, 1, 2, 3};
  const std::vector<double> reward = {1, 0, 0, 1};
  EstimatorConfig ec;
  ec.rl_weight = 0, ec.baseline_weight = 0;
  Estimator<double> est(ec, model.policy());
  auto loss = [&] {
    model.Forward(images.data(), kN, kH, kW, r, mode, nullptr);
    return est.Compute(r, labels.data(), reward.data(), r).total;
  };
  loss();
  auto& st = model.store();
  st.ZeroGrad();
  model.Backward(r);
  const std::vector<double> analytic(st.grads().begin(), st.grads().end());
  GradCheck c;
  c.context_grad = MaxAbs(st, AttentionModel<double>::kContext, true);
  c.error = MaxGradError(loss, st.values().data(), analytic.data(), st.size(), 3e-6, &c.where, 1e-4);
  return c;
}

}  // namespace

TEST_CASE("Context network: whole-model gradient check for every registered attention and core",
          "[model][gradcheck][context]") {
  for (const auto& kind : Attentions<double>())
    for (const std::string& core : Cores<double>().Names()) {
      if (kind.straight_through) continue;  // a surrogate gradient: test_gumbel_grid.cpp
      INFO(kind.name << " with the " << core << " core and a context network");
      auto model = Model(kind.name, core, kContext);
      const std::vector<double> images = Images(3);
      Rollout<double> r;
      Rng policy(4, "policy");
      // Hard attention: draw once, then hold the draws fixed (kGiven); the loss is the action loss
      // (REINFORCE into h_0 is checked with the hybrid loss in test_attention_model.cpp).
      const LocationMode mode = kind.hard() ? LocationMode::kGiven : LocationMode::kMean;
      if (kind.hard()) model->Forward(images.data(), kN, kH, kW, r, LocationMode::kSample, &policy);
      const GradCheck c = CheckActionLoss(*model, images, mode, r);
      CHECK(c.context_grad > 0);  // the loss reaches the context network
      INFO(c.where);
      // The step and bound of test_attention_model.cpp's whole-model check: 3e-6 keeps the
      // transformer's kinks out of a step, and central differences then carry ~1e-10 of round-off,
      // 1e-6 of the 1e-4 floor. Measured on one machine (AMD EPYC, DRAW + LSTM, the worst): 3.3e-7,
      // 1.03e-6 and 3.0e-6 at steps 1e-5, 3e-6 and 1e-6 (round-off, as 1 / step): hence 2e-6.
      CHECK(c.error < 2e-6);
    }
}

TEST_CASE("With a context network the first location depends on the image - without, it cannot", "[model][context]") {
  for (const int context : {0, kContext}) {
    INFO("context " << context);
    auto model = Model("gaussian", "rnn", context);
    const std::vector<double> images = Images(5);
    Rollout<double> r;
    model->Forward(images.data(), kN, kH, kW, r, LocationMode::kMean, nullptr);
    double spread = 0;  // of l_1 over the batch
    for (int n = 1; n < kN; ++n)
      for (int d = 0; d < 2; ++d) spread = std::max(spread, std::abs(r.loc.data()[2 * n + d] - r.loc.data()[d]));
    if (context)
      CHECK(spread > 1e-3);
    else
      CHECK(spread == 0.0);
  }
  CHECK_THROWS(Model("gaussian", "lstm", 0)->store().Find("context.fc.W"));  // no parameters without it
}

TEST_CASE("Context fade: h_0 = s tanh(W v + b) with s = 1 - progress / F, gradient-checked while it fades",
          "[model][gradcheck][context]") {
  const std::vector<double> images = Images(7);
  auto full = Model("gaussian", "rnn", kContext);  // no fade: the reference h_0
  Rollout<double> r0;
  full->Forward(images.data(), kN, kH, kW, r0, LocationMode::kMean, nullptr);
  const std::vector<double> h0_full(r0.core.h_at(0), r0.core.h_at(0) + kN * 7);
  for (const std::string& core : Cores<double>().Names())
    for (const double progress : {0.0, 0.2, 0.5, 0.9}) {
      INFO(core << " core, fade over 0.4 of training, progress " << progress);
      auto model = Model("gaussian", core, kContext, 0.4);
      model->SetInputs(StepInputs{progress});
      const double s = std::max(0.0, 1.0 - progress / 0.4);
      CHECK(model->context_scale() == Approx(s).margin(1e-15));
      Rollout<double> r;
      Rng policy(4, "policy");
      model->Forward(images.data(), kN, kH, kW, r, LocationMode::kSample, &policy);
      if (core == "rnn")  // the same parameters as `full` (same seed): h_0 is s times its h_0
        for (int i = 0; i < kN * 7; ++i) CHECK(r.core.h_at(0)[i] == Approx(s * h0_full[i]).margin(1e-14));
      const GradCheck c = CheckActionLoss(*model, images, LocationMode::kGiven, r);
      if (s > 0)
        CHECK(c.context_grad > 0);
      else  // faded out: h_0 = 0, and the context network gets no gradient
        CHECK(c.context_grad == 0.0);
      INFO(c.where);
      CHECK(c.error < 2e-6);
    }
}
