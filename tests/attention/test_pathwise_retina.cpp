// The pathwise retina (pathwise_retina.h): the retina's read at whole-pixel centres, a finite-difference
// check of its gradient in the location parameters p (read at l = tanh(p), so never off the canvas),
// and the model's reparameterised location (p = mu + std eps when sampling, mu when evaluating),
// gradient-checked through the whole model with eps fixed.
#include <catch2/catch.hpp>
#include <cmath>

#include "src/attention/attentions.h"
#include "src/attention/pathwise_retina.h"
#include "src/attention/retina.h"
#include "src/model/attention_model.h"
#include "src/rl/estimator.h"
#include "src/train/make_kinds.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("Pathwise retina reads what the retina reads where the patch sits on whole pixels", "[attention][pathwise]") {
  const int H = 16, W = 16, B = 3;
  Rng rng(2, "test");
  std::vector<double> im(B * H * W);
  FillRandom(im.data(), im.size(), rng);
  for (const double unit : {0.0, 5.0}) {
    INFO("unit pixels " << unit);
    const Retina<double> retina(4, 3, unit);
    const PathwiseRetina<double> pathwise(4, 3, H, W, unit, 0.1);
    REQUIRE(pathwise.glimpse_size() == retina.glimpse_size());
    CHECK(pathwise.param_size() == 2);
    CHECK(pathwise.read_noise().scale == 0.1);
    CHECK(pathwise.read_noise().kind == ReadNoise::Kind::kGaussian);
    CHECK(pathwise.InitialParams() == std::vector<double>{0, 0});
    // Box centres W/2 + x u on whole pixels: u = 8 (half the canvas) or 5; partly off the canvas.
    const double u = unit > 0 ? unit : 8.0;
    const double loc[6] = {0.0, 0.0, 2 / u, -3 / u, -4 / u, 1 / u};  // |l| < 1, as tanh reads
    double params[6];                                                // the pathwise read's parameters: l = tanh(p)
    for (int i = 0; i < 6; ++i) params[i] = std::atanh(loc[i]);
    std::vector<double> a(B * retina.glimpse_size()), b(a.size());
    retina.Read(im.data(), B, H, W, loc, a.data(), nullptr);
    pathwise.Read(im.data(), B, H, W, params, b.data(), nullptr);
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(b[i] == Approx(a[i]).margin(1e-12));
  }
}

TEST_CASE("Pathwise retina: gradient in the location and the image against finite differences",
          "[attention][pathwise][gradcheck]") {
  const int H = 12, W = 14, B = 2;
  Rng rng(3, "test");
  std::vector<double> im(B * H * W);
  FillRandom(im.data(), im.size(), rng);
  const PathwiseRetina<double> sensor(4, 2, H, W, 0.0, 0.1);
  const int D = sensor.glimpse_size();
  std::vector<double> w(B * D);
  FillRandom(w.data(), w.size(), rng);
  // Locations between pixel centres (bilinear kinks sit on them).
  std::vector<double> loc = {0.131, -0.207, -0.418, 0.359};
  std::vector<double> out(B * D), dloc(B * 2), dimages(B * H * W, 0.0);
  auto loss = [&] {
    sensor.Read(im.data(), B, H, W, loc.data(), out.data(), nullptr);
    double s = 0;
    for (int i = 0; i < B * D; ++i) s += w[i] * out[i];
    return s;
  };
  loss();
  sensor.Backward(im.data(), B, H, W, loc.data(), w.data(), dloc.data(), dimages.data(), nullptr);
  std::string where;
  CHECK(MaxGradError(loss, loc.data(), dloc.data(), loc.size(), 1e-6, &where) < 1e-6);
  INFO(where);
  CHECK(MaxGradError(loss, im.data(), dimages.data(), im.size(), 0.1, &where) < 1e-6);  // linear in the image
  double norm = 0;
  for (double d : dloc) norm += std::abs(d);
  CHECK(norm > 0);
  // However large p, the glimpse stays on the canvas: at p = +-50 it reads the canvas's corner.
  const double far[2] = {50, -50}, corner[2] = {1, -1};
  std::vector<double> at_far(D), at_corner(D);
  sensor.Read(im.data(), 1, H, W, far, at_far.data(), nullptr);
  const Retina<double> retina(4, 2);
  retina.Read(im.data(), 1, H, W, corner, at_corner.data(), nullptr);
  for (int i = 0; i < D; ++i) CHECK(at_far[i] == Approx(at_corner[i]).margin(1e-12));
}

TEST_CASE("Pathwise attention: a reparameterised location, gradient-checked with its noise held fixed",
          "[model][pathwise][gradcheck]") {
  const int N = 4, H = 16, W = 16;
  ModelSpec spec;
  spec.steps = 3, spec.glimpse_hidden = 6, spec.hidden = 7, spec.classes = 4, spec.core = "lstm";
  ExperimentConfig cfg;
  cfg.attention = "pathwise";
  cfg.patch = 4, cfg.scales = 2;
  cfg.kind_options["read-std"] = "0.2";
  auto model = MakeAttentionModel<double>(spec, cfg, H, W);
  REQUIRE(model->policy() == nullptr);
  CHECK(model->noise_size() == 2);
  Rng rng(8, "init");
  model->Init(rng);
  auto& st = model->store();
  const ParamInfo& lw = st.info(st.Find("location.fc.W"));
  for (std::size_t i = 0; i < lw.size; ++i) st.values()[lw.offset + i] = rng.Uniform(-0.3, 0.3);
  std::vector<double> images(N * H * W);
  FillRandom(images.data(), images.size(), rng);
  std::vector<std::int32_t> labels = {0, 1, 2, 3};
  std::vector<double> reward(N, 0.0);
  Rollout<double> r;
  Rng draws(9, "policy");
  model->Forward(images.data(), N, H, W, r, LocationMode::kSample, &draws);
  // Sampling reads at mu + 0.2 eps; the means are the read network's outputs.
  for (std::size_t i = 0; i < r.read.size(); ++i)
    CHECK(r.read.data()[i] == Approx(r.head.data()[i] + 0.2 * r.noise[i]));
  Rollout<double> mean;
  model->Forward(images.data(), N, H, W, mean, LocationMode::kMean, nullptr);
  for (std::size_t i = 0; i < mean.read.size(); ++i) CHECK(mean.read.data()[i] == mean.head.data()[i]);
  // The whole model's gradient with eps fixed (kGiven reuses r.noise): no REINFORCE anywhere.
  EstimatorConfig ec;
  Estimator<double> est(ec, nullptr);
  auto loss = [&] {
    model->Forward(images.data(), N, H, W, r, LocationMode::kGiven, nullptr);
    return est.Compute(r, labels.data(), reward.data(), r).total;
  };
  loss();
  st.ZeroGrad();
  model->Backward(r);
  const std::vector<double> analytic(st.grads().begin(), st.grads().end());
  double read_grad = 0;
  for (std::size_t i = 0; i < lw.size; ++i) read_grad = std::max(read_grad, std::abs(analytic[lw.offset + i]));
  CHECK(read_grad > 0);  // the classification loss reaches the location network by backpropagation
  std::string where;
  const double err = MaxGradError(loss, st.values().data(), analytic.data(), st.size(), 3e-6, &where, 1e-4);
  INFO(where);
  CHECK(err < 2e-6);
}
