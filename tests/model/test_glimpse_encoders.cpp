// The glimpse network's registered image paths (--glimpse-net, src/model/glimpse_encoder.h): every
// kind's gradients against finite differences in double, over more rows than one chunk of the
// conv kind's scratch, and with the forward pass run in step blocks as the model runs it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "src/model/conv_encoder.h"
#include "src/model/glimpse_encoder.h"
#include "src/train/make_kinds.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

// A glimpse of 2 channels of 5 x 5 (D = 50) into 3 units; --conv-filters 2, --strided-filters 2 (of 3
// layers: 5 -> 3 -> 2 -> 1 pixels a side).
constexpr int kChannels = 2, kSide = 5, kD = kChannels * kSide * kSide, kHidden = 3;

ExperimentConfig SmallConfig() {
  ExperimentConfig cfg;
  cfg.kind_options["conv-filters"] = "2";
  cfg.kind_options["strided-filters"] = "2";
  cfg.kind_options["strided-layers"] = "3";
  return cfg;
}

}  // namespace

TEST_CASE("Every registered glimpse network's image path: gradients match finite differences",
          "[model][glimpse-net][gradcheck]") {
  // More rows than ConvEncoder::kChunk, in two forward blocks of unequal size, one backward over all.
  const int rows = ConvEncoder<double>::kChunk + 9, first = 70;
  for (const auto& kind : GlimpseEncoders<double>()) {
    INFO(kind.name);
    const ExperimentConfig cfg = SmallConfig();
    if (kind.validate) kind.validate(SettingsOf(kind, cfg), SharedFactsOf(cfg));
    auto enc = kind.make(SettingsOf(kind, cfg), kChannels, kSide, kHidden);
    ParamStore<double> store;
    enc->RegisterParams(store, "glimpse");
    store.Allocate();
    Rng rng(5, "init");
    enc->Init(rng);
    std::vector<double> jitter(store.size());  // off Init's zero biases, so that no unit sits on its ReLU's kink
    FillRandom(jitter.data(), jitter.size(), rng, 0.05);
    for (std::size_t i = 0; i < jitter.size(); ++i) store.values()[i] += jitter[i];
    std::vector<double> x(static_cast<std::size_t>(rows) * kD), hg(static_cast<std::size_t>(rows) * kHidden),
        w(hg.size()), dhg(hg.size()), dx(x.size()), cache(static_cast<std::size_t>(rows) * enc->cache_size()),
        scratch(enc->scratch_size());
    FillRandom(x.data(), x.size(), rng);
    FillRandom(w.data(), w.size(), rng);
    auto loss = [&] {
      enc->Forward(x.data(), first, hg.data(), {cache.data(), rows, 0}, scratch.data());
      enc->Forward(x.data() + first * kD, rows - first, hg.data() + first * kHidden, {cache.data(), rows, first},
                   scratch.data());
      return Dot(w.data(), hg.data(), hg.size());
    };
    loss();
    double active = 0;  // the check means something only if some units are on
    for (double h : hg) active += h > 0;
    CHECK(active > 0.2 * hg.size());
    store.ZeroGrad();
    dhg = w;
    enc->Backward(x.data(), hg.data(), {cache.data(), rows, 0}, dhg.data(), rows, dx.data(), scratch.data());
    // The loss sums 411 outputs; at this step its round-off is ~1e-9 in a derivative, so below the
    // 1e-4 floor the comparison is absolute and 1e-5 leaves room for it (a wrong term is off by O(1)).
    std::string where;
    const double ex = MaxGradError(loss, x.data(), dx.data(), x.size(), 1e-6, &where, 1e-4);
    INFO("dx: " << where);
    CHECK(ex < 1e-5);
    const std::vector<double> analytic(store.grads().begin(), store.grads().end());
    const double ep = MaxGradError(loss, store.values().data(), analytic.data(), store.size(), 1e-6, &where, 1e-4);
    INFO("parameters: " << where);
    CHECK(ep < 1e-5);
    // Backward in the forward's two step blocks, as a differentiable read runs it, gives the same.
    loss();
    store.ZeroGrad();
    std::vector<double> dx_steps(x.size());
    dhg = w;
    enc->Backward(x.data(), hg.data(), {cache.data(), rows, 0}, dhg.data(), first, dx_steps.data(), scratch.data());
    enc->Backward(x.data() + first * kD, hg.data() + first * kHidden, {cache.data(), rows, first},
                  dhg.data() + first * kHidden, rows - first, dx_steps.data() + first * kD, scratch.data());
    for (std::size_t i = 0; i < dx.size(); ++i) CHECK(dx_steps[i] == Approx(dx[i]).margin(1e-12));
    for (std::size_t i = 0; i < analytic.size(); ++i) CHECK(store.grads()[i] == Approx(analytic[i]).margin(1e-12));
  }
}

TEST_CASE("The fc image path keeps RAM's parameter name and the conv path names its layers", "[model][glimpse-net]") {
  const ExperimentConfig cfg = SmallConfig();
  ParamStore<double> fc, conv;
  GlimpseEncoders<double>().Get("fc").make(Settings{}, kChannels, kSide, kHidden)->RegisterParams(fc, "glimpse");
  GlimpseEncoders<double>()
      .Get("conv")
      .make(SettingsOf(GlimpseEncoders<double>().Get("conv"), cfg), kChannels, kSide, kHidden)
      ->RegisterParams(conv, "glimpse");
  CHECK(fc.Find("glimpse.fc_x.W") >= 0);
  CHECK(fc.info(fc.Find("glimpse.fc_x.W")).size == static_cast<std::size_t>(kHidden) * kD);
  // conv1: 2 filters of 3 x 3 x 2; conv2: 4 of 3 x 3 x 2; the fc layer reads 3 x 3 x 4 values.
  CHECK(conv.info(conv.Find("glimpse.conv1.W")).size == 2u * 3 * 3 * 2);
  CHECK(conv.info(conv.Find("glimpse.conv2.W")).size == 4u * 3 * 3 * 2);
  CHECK(conv.info(conv.Find("glimpse.fc_x.W")).size == static_cast<std::size_t>(kHidden) * 3 * 3 * 4);
  // The strided path: conv1 2 filters of 3 x 3 x 2 (5 -> 3 a side), conv2 4 of 3 x 3 x 2 (3 -> 2), conv3
  // 8 of 3 x 3 x 4 (2 -> 1); the fc layer reads 1 x 1 x 8 values.
  ParamStore<double> strided;
  const auto& kind = GlimpseEncoders<double>().Get("strided");
  kind.make(SettingsOf(kind, cfg), kChannels, kSide, kHidden)->RegisterParams(strided, "glimpse");
  CHECK(strided.info(strided.Find("glimpse.conv1.W")).size == 2u * 3 * 3 * 2);
  CHECK(strided.info(strided.Find("glimpse.conv2.W")).size == 4u * 3 * 3 * 2);
  CHECK(strided.info(strided.Find("glimpse.conv3.W")).size == 8u * 3 * 3 * 4);
  CHECK(strided.info().size() == 8);  // three layers and the fc layer, a weight and a bias each
  CHECK(strided.info(strided.Find("glimpse.fc_x.W")).size == static_cast<std::size_t>(kHidden) * 8);
}

TEST_CASE(
    "The conv and strided image paths give the same values and gradients whatever rows their "
    "convolutions take per pass",
    "[model][glimpse-net]") {
  using E = ConvEncoder<double>;
  // One pass per kChunk rows (a budget that fits them all) against one row at a time and 7 at a time
  // (a ragged last pass), over two forward blocks and one backward, as in the gradient check.
  const int rows = E::kChunk + 9, first = 70, filters = 2;
  const bool two = GENERATE(true, false);
  INFO((two ? "conv" : "strided"));
  const Index all = Index{1} << 40;
  std::vector<std::vector<double>> hg, dx, grads;
  // The largest column matrix is conv1's: S S output positions (conv: stride 1; strided: S1 S1, stride 2)
  // of 3 x 3 x C values a row.
  const Index s1 = two ? kSide : (kSide - 1) / 2 + 1;
  for (const Index budget : {all, Index{1}, Index{7} * s1 * s1 * 9 * kChannels}) {
    E enc = two ? E(kChannels, kSide, E::TwoLayers(filters), E::Draw::kDefault, kHidden, budget)
                : E(kChannels, kSide, E::Strided(filters, 3), E::Draw::kHe, kHidden, budget);
    ParamStore<double> store;
    enc.RegisterParams(store, "glimpse");
    store.Allocate();
    Rng rng(5, "init");
    enc.Init(rng);
    std::vector<double> x(static_cast<std::size_t>(rows) * kD), h(static_cast<std::size_t>(rows) * kHidden),
        dh(h.size()), d(x.size()), cache(static_cast<std::size_t>(rows) * enc.cache_size()),
        scratch(enc.scratch_size());
    FillRandom(x.data(), x.size(), rng);
    FillRandom(dh.data(), dh.size(), rng);
    enc.Forward(x.data(), first, h.data(), {cache.data(), rows, 0}, scratch.data());
    enc.Forward(x.data() + first * kD, rows - first, h.data() + first * kHidden, {cache.data(), rows, first},
                scratch.data());
    store.ZeroGrad();
    enc.Backward(x.data(), h.data(), {cache.data(), rows, 0}, dh.data(), rows, d.data(), scratch.data());
    hg.push_back(h);
    dx.push_back(d);
    grads.emplace_back(store.grads().begin(), store.grads().end());
  }
  for (std::size_t k = 1; k < hg.size(); ++k) {
    INFO("budget " << k);
    for (std::size_t i = 0; i < hg[0].size(); ++i) CHECK(hg[k][i] == Approx(hg[0][i]).margin(1e-12));
    for (std::size_t i = 0; i < dx[0].size(); ++i) CHECK(dx[k][i] == Approx(dx[0][i]).margin(1e-12));
    // The convolutions' weight gradients sum over the rows in another order.
    for (std::size_t i = 0; i < grads[0].size(); ++i) CHECK(grads[k][i] == Approx(grads[0][i]).margin(1e-12));
  }
}

TEST_CASE("The strided image path draws its convolutions for a deep ReLU stack (He et al. 2015)",
          "[model][glimpse-net]") {
  // W ~ U(-sqrt(6 / fan_in), sqrt(6 / fan_in)) (variance 2 / fan_in), b = 0: with the fully connected
  // layers' default (variance 1 / (3 fan_in)) four layers on a cluttered100 canvas never left chance
  // (results/benchmark/README.md, "Protocol").
  using E = ConvEncoder<double>;
  E enc(1, 100, E::Strided(16, 4), E::Draw::kHe, 8);
  ParamStore<double> store;
  enc.RegisterParams(store, "glimpse");
  store.Allocate();
  Rng rng(3, "init");
  enc.Init(rng);
  for (int l = 1; l <= 4; ++l) {
    const auto& w = store.info(store.Find("glimpse.conv" + std::to_string(l) + ".W"));
    const double fan_in = static_cast<double>(w.shape[1] * w.shape[2] * w.shape[3]), bound = std::sqrt(6 / fan_in);
    double sum2 = 0, most = 0;
    for (std::size_t i = 0; i < w.size; ++i) {
      const double v = store.values()[w.offset + i];
      sum2 += v * v;
      most = std::max(most, std::abs(v));
    }
    INFO("conv" << l << ": fan-in " << fan_in << ", " << w.size << " weights");
    CHECK(most <= bound);
    CHECK(sum2 / w.size == Approx(2 / fan_in).epsilon(0.25));  // 144 to 36,864 draws: within 3 sigma
    const auto& b = store.info(store.Find("glimpse.conv" + std::to_string(l) + ".b"));
    for (std::size_t i = 0; i < b.size; ++i) CHECK(store.values()[b.offset + i] == 0);
  }
}
