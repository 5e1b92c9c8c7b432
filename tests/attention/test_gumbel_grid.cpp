// Gumbel-softmax straight-through (gumbel_grid.h): the forward reads the hard (Gumbel-max) cell,
// the backward is exactly the gradient of the relaxed read sum_k softmax(p / tau)_k x_k (finite
// differences), the sampled cells follow softmax(a), and the expected straight-through gradient is
// compared with the true gradient of the expected loss on a small problem: its bias is measured and
// reported, not hidden.
#include <catch2/catch.hpp>
#include <cmath>

#include "src/attention/attentions.h"
#include "src/attention/gumbel_grid.h"
#include "src/model/attention_model.h"
#include "src/train/make_kinds.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

constexpr int kH = 12, kW = 12;

std::vector<double> Images(int B, std::uint64_t seed) {
  Rng rng(seed, "test");
  std::vector<double> im(B * kH * kW);
  FillRandom(im.data(), im.size(), rng);
  return im;
}

}  // namespace

TEST_CASE("Gumbel grid reads the retina at the most probable cell of its input", "[attention][gumbel]") {
  const GumbelGrid<double> sensor(2, 4, 2, 0.0, 1.0, 0.5);
  const Retina<double> retina(4, 2);
  CHECK(sensor.param_size() == 4);
  CHECK(sensor.read_noise().kind == ReadNoise::Kind::kGumbel);
  const std::vector<double> im = Images(2, 1);
  const double p[8] = {0.1, 0.9, -0.3, 0.2, /* row 1: */ -1, -2, -0.5, -3};
  std::vector<double> got(2 * sensor.glimpse_size()), want(got.size());
  sensor.Read(im.data(), 2, kH, kW, p, got.data(), nullptr);
  const double loc[4] = {sensor.CellX(1), sensor.CellY(1), sensor.CellX(2), sensor.CellY(2)};
  CHECK(loc[0] == 0.5);
  CHECK(loc[3] == 0.5);
  retina.Read(im.data(), 2, kH, kW, loc, want.data(), nullptr);
  CHECK(got == want);
}

TEST_CASE("Gumbel grid's backward is the gradient of the relaxed read", "[attention][gumbel][gradcheck]") {
  GumbelGrid<double> sensor(3, 4, 2, 0.0, 0.7, 0.7);
  const int B = 2, K = 9, D = sensor.glimpse_size();
  const std::vector<double> im = Images(B, 2);
  Rng rng(3, "test");
  std::vector<double> p(B * K), w(B * D), crop(D), dp(B * K);
  FillRandom(p.data(), p.size(), rng, 1.0);
  FillRandom(w.data(), w.size(), rng);
  // The relaxation: <w, sum_k y_k x_k>, y = softmax(p / tau).
  auto relaxed = [&] {
    double s = 0;
    for (int b = 0; b < B; ++b) {
      double mx = -1e300, z = 0;
      for (int k = 0; k < K; ++k) mx = std::max(mx, p[b * K + k]);
      for (int k = 0; k < K; ++k) z += std::exp((p[b * K + k] - mx) / 0.7);
      for (int k = 0; k < K; ++k) {
        std::vector<double> one(K, -1e3);
        one[k] = 1e3;  // the sensor's hard read of cell k
        sensor.Read(im.data() + b * kH * kW, 1, kH, kW, one.data(), crop.data(), nullptr);
        const double y = std::exp((p[b * K + k] - mx) / 0.7) / z;
        for (int i = 0; i < D; ++i) s += w[b * D + i] * y * crop[i];
      }
    }
    return s;
  };
  sensor.Backward(im.data(), B, kH, kW, p.data(), w.data(), dp.data(), nullptr, nullptr);
  std::string where;
  CHECK(MaxGradError(relaxed, p.data(), dp.data(), p.size(), 1e-6, &where) < 1e-6);
  INFO(where);
  // The temperature follows its schedule: tau0 (tau1 / tau0)^progress.
  GumbelGrid<double> annealed(3, 4, 2, 0.0, 2.0, 0.5);
  annealed.SetInputs(StepInputs{0.5});
  CHECK(annealed.temperature() == Approx(1.0));
  annealed.SetInputs(StepInputs{1.0});
  CHECK(annealed.temperature() == Approx(0.5));
}

TEST_CASE("Gumbel straight-through: sampled cells follow softmax(a), and the gradient's bias, measured",
          "[attention][gumbel][bias]") {
  // One image, a 2 x 2 grid, loss L(k) = <w, x_k> for the cell read. The model adds Gumbel noise to the
  // logits a; E[L] = sum_k pi_k L(k), pi = softmax(a), so the true gradient is pi_j (L(j) - E[L]).
  ModelSpec spec;
  spec.steps = 1, spec.glimpse_hidden = 3, spec.hidden = 4, spec.classes = 2;
  ExperimentConfig cfg;
  cfg.attention = "gumbel";
  cfg.grid = 2, cfg.patch = 4, cfg.scales = 2;
  double previous_bias = 1e300;
  for (const double tau : {1.0, 0.5, 0.25}) {
    cfg.kind_options["gumbel-tau"] = cfg.kind_options["gumbel-tau-end"] = std::to_string(tau);
    auto model = MakeAttentionModel<double>(spec, cfg, kH, kW);
    const auto& sensor = static_cast<const GumbelGrid<double>&>(model->sensor());
    const int K = 4, D = sensor.glimpse_size();
    const std::vector<double> im = Images(1, 4);
    std::vector<double> w(D);
    Rng rng(5, "test");
    FillRandom(w.data(), w.size(), rng);
    std::vector<double> L(K), crop(D);
    for (int k = 0; k < K; ++k) {
      std::vector<double> one(K, -1e3);
      one[k] = 1e3;
      sensor.Read(im.data(), 1, kH, kW, one.data(), crop.data(), nullptr);
      L[k] = 0;
      for (int i = 0; i < D; ++i) L[k] += w[i] * crop[i];
    }
    const double a[4] = {0.4, -0.2, 0.1, -0.6};
    double pi[4], z = 0, EL = 0;
    for (int k = 0; k < K; ++k) z += std::exp(a[k]);
    for (int k = 0; k < K; ++k) pi[k] = std::exp(a[k]) / z, EL += pi[k] * L[k];
    // Monte Carlo over the Gumbel noise: the frequencies of the hard cell and the mean ST gradient.
    const int draws = 40000;
    std::vector<double> count(K, 0), st(K, 0), p(K), g(K);
    Rng noise(6, "gumbel");
    for (int n = 0; n < draws; ++n) {
      for (int k = 0; k < K; ++k) p[k] = a[k] - std::log(-std::log(std::max(noise.Uniform(), 1e-300)));
      count[std::max_element(p.begin(), p.end()) - p.begin()] += 1.0 / draws;
      sensor.Backward(im.data(), 1, kH, kW, p.data(), w.data(), g.data(), nullptr, nullptr);
      for (int k = 0; k < K; ++k) st[k] += g[k] / draws;
    }
    double dot = 0, nt = 0, ns = 0, bias = 0;
    for (int k = 0; k < K; ++k) {
      CHECK(std::abs(count[k] - pi[k]) < 0.01);  // Gumbel-max samples softmax(a)
      const double truth = pi[k] * (L[k] - EL);
      dot += truth * st[k], nt += truth * truth, ns += st[k] * st[k], bias += (st[k] - truth) * (st[k] - truth);
    }
    const double cosine = dot / std::sqrt(nt * ns), relative_bias = std::sqrt(bias / nt);
    // Reported with -s: the estimator's expected gradient against the true one.
    WARN("Gumbel straight-through at tau " << tau << ": cosine " << cosine << ", relative bias |E[g] - grad| / |grad| "
                                           << relative_bias);
    // Seen (seeds as here): cosine 0.9990, 0.9999, 1.0000 and relative bias 0.34, 0.13, 0.032 at tau
    // 1, 0.5, 0.25: on this problem it points the right way, and its bias is mostly one of scale,
    // shrinking with the temperature.
    CHECK(cosine > 0.99);
    CHECK(relative_bias > 0.01);  // biased: its expectation is not the gradient
    CHECK(relative_bias < previous_bias);
    previous_bias = relative_bias;
  }
}
