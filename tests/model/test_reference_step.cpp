// The default RAM step written out for an independent reference (tests/scripts/test_torch_reference.py,
// which runs this hidden case and recomputes everything in PyTorch, double precision): RAM's mnist28
// networks (6 glimpses of one 8 x 8 patch, ReLU RNN 256, glimpse network 128, Gaussian policy std
// 0.1, learned baseline) in double, its parameters from the run's initialisation, one batch, the
// sampled locations, the reward (1 for a right answer), the losses and every parameter's gradient.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "src/attention/retina.h"
#include "src/model/attention_model.h"
#include "src/model/glimpse_encoder.h"
#include "src/rl/estimator.h"
#include "src/rl/gaussian_policy.h"
#include "src/store/run_file.h"
#include "src/train/make_kinds.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("The default RAM step, written for the PyTorch reference", "[.][reference]") {
  // Where the reference asks (GLIMPSE_REFERENCE_OUT); run alone (ctest lists every case), a temporary file.
  const char* asked = std::getenv("GLIMPSE_REFERENCE_OUT");
  const std::string out =
      asked ? asked : (std::filesystem::temp_directory_path() / "glimpse_reference_step.h5").string();
  constexpr int kN = 16, kSide = 28;
  ModelSpec spec;
  spec.steps = 6, spec.glimpse_hidden = 128, spec.hidden = 256, spec.classes = 10, spec.core = "rnn";
  ExperimentConfig cfg;
  AttentionModel<double> model(spec, std::make_unique<Retina<double>>(8, 1),
                               std::make_unique<GaussianPolicy<double>>(0.1), nullptr,
                               GlimpseEncoders<double>().Get("fc").make(Settings{}, 1, 8, spec.glimpse_hidden));
  Rng init(1, "init");
  model.Init(init);
  std::vector<double> images(kN * kSide * kSide);
  Rng data(5, "data");
  FillRandom(images.data(), images.size(), data, 1.0);
  for (auto& p : images) p = std::abs(p) > 0.5 ? std::abs(p) : 0.0;  // strokes on a black canvas
  std::vector<std::int32_t> labels;
  for (int n = 0; n < kN; ++n) labels.push_back((3 * n + 1) % 10);
  Rollout<double> r;
  Rng policy(1, "policy");
  model.Forward(images.data(), kN, kSide, kSide, r, LocationMode::kSample, &policy);
  std::vector<double> reward(kN);
  for (int n = 0; n < kN; ++n) reward[n] = r.actions[n] == labels[n] ? 1.0 : 0.0;
  EstimatorConfig ec;  // the trainer's defaults: learned baseline, every weight 1
  Estimator<double> est(ec, model.policy());
  auto& store = model.store();
  store.ZeroGrad();
  const LossReport rep = est.Compute(r, labels.data(), reward.data(), r);
  model.Backward(r);

  RunFile f(out, RunFile::Mode::kOverwrite);
  const auto N = static_cast<std::size_t>(kN), T = static_cast<std::size_t>(spec.steps);
  f.WriteArray<double>("/images", {N, kSide, kSide}, images.data());
  f.WriteArray<std::int32_t>("/labels", {N}, labels.data());
  f.WriteArray<double>("/reward", {N}, reward.data());
  f.WriteArray<double>("/locations", {T, N, 2}, r.loc.data());  // (t-1) N + n: the sampled l_t
  f.WriteArray<double>("/logits", {N, static_cast<std::size_t>(spec.classes)}, r.logits.data());
  f.WriteArray<double>("/baseline", {T, N}, r.baseline.data());
  const std::vector<double> losses = {rep.total, rep.action, rep.reinforce, rep.baseline};
  f.WriteArray<double>("/losses", {4}, losses.data());  // total, action, reinforce, baseline
  f.CreateGroup("/params");
  f.CreateGroup("/grads");
  for (const auto& p : store.info()) {
    std::vector<std::size_t> shape(p.shape.begin(), p.shape.end());
    f.WriteArray<double>("/params/" + p.name, shape, store.values().data() + p.offset);
    f.WriteArray<double>("/grads/" + p.name, shape, store.grads().data() + p.offset);
  }
  f.Commit();
  CHECK(rep.action > 0);  // a loss was computed and written
}
