// The RAM model's gradient flow and a whole-model gradient check in double.
#include <catch2/catch.hpp>

#include "src/attention/attentions.h"
#include "src/attention/retina.h"
#include "src/attention/whole_canvas.h"
#include "src/model/attention_model.h"
#include "src/model/cores.h"
#include "src/model/glimpse_encoder.h"
#include "src/rl/estimator.h"
#include "src/rl/gaussian_policy.h"
#include "tests/gradcheck.h"
#include "tests/model/read_network.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

constexpr int kN = 6, kH = 16, kW = 16;

struct Fixture {
  ModelSpec spec;
  std::unique_ptr<AttentionModel<double>> model;
  std::vector<double> images;
  std::vector<std::int32_t> labels;
  Rollout<double> r;
  std::vector<double> reward;

  // context > 0: with DRAM's context network over a context x context view. net: the registered
  // --glimpse-net (conv with 2 filters, strided with 2 in its first layer).
  explicit Fixture(const std::string& core, bool reinforce_into_core = false, int context = 0,
                   const std::string& net = "fc") {
    spec.reinforce_into_core = reinforce_into_core;
    spec.context = context;
    spec.steps = 3;
    spec.glimpse_hidden = 7;
    spec.hidden = 9;
    spec.classes = 4;
    spec.core = core;
    ExperimentConfig cfg;
    cfg.kind_options["conv-filters"] = "2";
    cfg.kind_options["strided-filters"] = "2";
    model = std::make_unique<AttentionModel<double>>(
        spec, std::make_unique<Retina<double>>(4, 2), std::make_unique<GaussianPolicy<double>>(0.2),
        context > 0 ? std::make_unique<WholeCanvas<double>>(context, 1, kH, kW) : nullptr,
        GlimpseEncoders<double>().Get(net).make(SettingsOf(GlimpseEncoders<double>().Get(net), cfg), 2, 4,
                                                spec.glimpse_hidden));
    Rng rng(11, "init");
    model->Init(rng);
    images.resize(kN * kH * kW);
    FillRandom(images.data(), images.size(), rng, 1.0);
    for (auto& p : images) p = std::abs(p);
    for (int n = 0; n < kN; ++n) labels.push_back(n % 4);
    // Half the episodes "right", half "wrong": a reward pattern fixed for the check.
    reward = {1, 0, 1, 1, 0, 0};
    Rng policy_rng(11, "policy");
    model->Forward(images.data(), kN, kH, kW, r, LocationMode::kSample, &policy_rng);
  }

  // Weights of the action, REINFORCE and baseline terms.
  LossReport Gradients(double action, double reinforce, double baseline) {
    EstimatorConfig ec;
    ec.action_weight = action;
    ec.rl_weight = reinforce;
    ec.baseline_weight = baseline;
    Estimator<double> est(ec, model->policy());
    model->store().ZeroGrad();
    const LossReport rep = est.Compute(r, labels.data(), reward.data(), r);
    model->Backward(r);
    return rep;
  }

  // Largest |gradient| over the parameters whose name starts with prefix.
  double MaxGrad(const std::string& prefix) const {
    double m = 0;
    const auto& s = model->store();
    for (const auto& p : s.info())
      if (p.name.rfind(prefix, 0) == 0)
        for (std::size_t i = 0; i < p.size; ++i) m = std::max(m, std::abs(s.grads()[p.offset + i]));
    return m;
  }
};

}  // namespace

TEST_CASE("RAM gradient flow: REINFORCE reaches only the location network", "[model][flow]") {
  for (const char* core : {"rnn", "lstm"}) {
    INFO(core);
    Fixture f(core);
    // Classification alone: everything but the location and baseline networks.
    f.Gradients(1.0, 0.0, 0.0);
    CHECK(f.MaxGrad("location.") == 0.0);
    CHECK(f.MaxGrad("baseline.") == 0.0);
    CHECK(f.MaxGrad("action.") > 0.0);
    CHECK(f.MaxGrad("core.") > 0.0);
    CHECK(f.MaxGrad("glimpse.") > 0.0);
    // REINFORCE alone: the location network, and nothing else.
    f.Gradients(0.0, 1.0, 0.0);
    CHECK(f.MaxGrad("location.") > 0.0);
    for (const char* other : {"action.", "core.", "glimpse.", "baseline."}) {
      INFO(other);
      CHECK(f.MaxGrad(other) == 0.0);
    }
    // The baseline's regression: the baseline network only, never the core.
    f.Gradients(0.0, 0.0, 1.0);
    CHECK(f.MaxGrad("baseline.") > 0.0);
    for (const char* other : {"action.", "core.", "glimpse.", "location."}) {
      INFO(other);
      CHECK(f.MaxGrad(other) == 0.0);
    }
  }
}

TEST_CASE("RAM gradient flow with --rl-into-core: REINFORCE reaches the core and glimpse networks", "[model][flow]") {
  for (const char* core : {"rnn", "lstm"}) {
    INFO(core);
    Fixture f(core, /*reinforce_into_core=*/true);
    f.Gradients(0.0, 1.0, 0.0);
    for (const char* reached : {"location.", "core.", "glimpse."}) {
      INFO(reached);
      CHECK(f.MaxGrad(reached) > 0.0);
    }
    CHECK(f.MaxGrad("action.") == 0.0);
    CHECK(f.MaxGrad("baseline.") == 0.0);
    // The baseline's regression stays in the baseline network.
    f.Gradients(0.0, 0.0, 1.0);
    for (const char* other : {"action.", "core.", "glimpse.", "location."}) {
      INFO(other);
      CHECK(f.MaxGrad(other) == 0.0);
    }
  }
}

TEST_CASE("RAM whole-model gradient check with the location samples held fixed", "[model][gradcheck]") {
  for (const std::string& net : GlimpseEncoders<double>().Names())
    for (const int context : {0, 4})
      for (const bool into_core : {false, true})
        for (const char* core : {"rnn", "lstm"}) {
          if (net != "fc" && (context == 0) == into_core) continue;  // other image paths: two of the four mixes
          INFO(core << (into_core ? ", REINFORCE into the core" : ", location input detached")
                    << (context ? ", context network" : "") << ", --glimpse-net " << net);
          Fixture f(core, into_core, context, net);
          struct {
            double action = 1.0, reinforce = 0.7, baseline = 0.5;
          } w;
          f.Gradients(w.action, w.reinforce, w.baseline);
          // Advantages A = R - b are constants of the surrogate (the baseline is detached in them).
          const Rollout<double> fixed = f.r;
          const int N = kN, TT = f.spec.steps;
          // The surrogate, written out independently of HybridLoss: CE + w_r * (-1/N sum A log pi)
          // + w_b * MSE(b, R), with l_t fixed (kGiven), A fixed, and the baseline network reading the
          // *fixed* states h_{t-1} (detached in the model); the location network reads the fixed states
          // too, unless the REINFORCE signal goes into the core, when it reads the live ones.
          auto& st = f.model->store();
          auto surrogate = [&] {
            Rollout<double>& r = f.r;
            f.model->Forward(f.images.data(), N, kH, kW, r, LocationMode::kGiven, nullptr);
            const double* Wl = st.value(st.Find("location.fc.W"));
            const double* bl = st.value(st.Find("location.fc.b"));
            const double* Wb = st.value(st.Find("baseline.fc.W"));
            const double* bb = st.value(st.Find("baseline.fc.b"));
            const int Hd = f.spec.hidden;
            double ce = 0, rl = 0, mse = 0;
            for (int n = 0; n < N; ++n) {
              const double* z = r.logits.data() + n * 4;
              double m = *std::max_element(z, z + 4), s = 0;
              for (int c = 0; c < 4; ++c) s += std::exp(z[c] - m);
              ce -= z[f.labels[n]] - m - std::log(s);
            }
            for (int i = 0; i < TT * N; ++i) {  // row i = (t-1) N + n reads h_{t-1} = fixed h row i
              const int n = i % N;
              const double* h = fixed.core.h.data() + i * Hd;
              const double* h_loc = (into_core ? r.core.h.data() : fixed.core.h.data()) + i * Hd;
              const double adv = f.reward[n] - fixed.baseline.data()[i];
              double lp = 0, b = bb[0];
              for (int d = 0; d < 2; ++d) {
                double a = bl[d];
                for (int k = 0; k < Hd; ++k) a += Wl[d * Hd + k] * h_loc[k];
                const double z = (fixed.loc.data()[2 * i + d] - std::tanh(a)) / 0.2;
                lp += -0.5 * z * z;
              }
              for (int k = 0; k < Hd; ++k) b += Wb[k] * h[k];
              rl -= adv * lp;
              mse += (b - f.reward[n]) * (b - f.reward[n]);
            }
            return w.action * ce / N + w.reinforce * rl / N + w.baseline * mse / (TT * N);
          };
          auto& s = f.model->store();
          const std::vector<double> analytic(s.grads().begin(), s.grads().end());
          std::string where;
          // Over ~2,000 parameters some derivatives are ~1e-6, where central differences of a loss of
          // order 1 carry ~1e-11 of round-off: the relative error is taken against max(|a|, |n|, 1e-4).
          const double err = MaxGradError(surrogate, s.values().data(), analytic.data(), s.size(), 1e-5, &where, 1e-4);
          INFO(where);
          CHECK(err < 1e-6);
        }
}

TEST_CASE("Policy-mean forward is deterministic and sampled forward follows the seed", "[model]") {
  Fixture f("rnn");
  Rollout<double> a, b;
  f.model->Forward(f.images.data(), kN, kH, kW, a, LocationMode::kMean, nullptr);
  f.model->Forward(f.images.data(), kN, kH, kW, b, LocationMode::kMean, nullptr);
  CHECK(xt::allclose(a.logits, b.logits));
  CHECK(xt::allclose(a.loc, a.head));
  Rng r1(5, "policy"), r2(5, "policy");
  f.model->Forward(f.images.data(), kN, kH, kW, a, LocationMode::kSample, &r1);
  f.model->Forward(f.images.data(), kN, kH, kW, b, LocationMode::kSample, &r2);
  CHECK(xt::allclose(a.loc, b.loc));
  CHECK(!xt::allclose(a.loc, a.head));
  for (double v : a.read) CHECK((v >= -1.0 && v <= 1.0));
}

TEST_CASE("Differentiable reads: whole-model gradient check for every registered read, core and glimpse network",
          "[model][gradcheck][differentiable]") {
  for (const auto& registered : Attentions<double>())
    for (const std::string& core : Cores<double>().Names())
      for (const std::string& net : GlimpseEncoders<double>().Names()) {
        if (registered.hard() || registered.straight_through) continue;  // (straight-through: test_gumbel_grid.cpp)
        if (net != "fc" && core != "lstm") continue;                     // other image paths: with one core
        INFO(registered.name << " with the " << core << " core and --glimpse-net " << net);
        ModelSpec spec;
        spec.steps = 3;
        spec.glimpse_hidden = 6;
        spec.hidden = 7;
        spec.classes = 4;
        spec.core = core;
        ExperimentConfig cfg = SmallReads(registered.name);
        cfg.glimpse_net = net;
        cfg.kind_options["conv-filters"] = "2";
        cfg.kind_options["strided-filters"] = "2";
        const auto owned = MakeAttentionModel<double>(spec, cfg, kH, kW);
        AttentionModel<double>& model = *owned;

        Rng rng(21, "init");
        model.Init(rng);
        // Start the read network away from its zero-weight initialisation, so h reaches the reads.
        auto& st = model.store();
        MoveReadNetwork(st, rng);
        const ParamInfo& w = st.info(st.Find("location.fc.W"));
        std::vector<double> images(kN * kH * kW);
        FillRandom(images.data(), images.size(), rng);
        std::vector<std::int32_t> labels(kN);
        for (int n = 0; n < kN; ++n) labels[n] = n % 4;
        std::vector<double> reward(kN, 0.0);
        Rollout<double> r;
        EstimatorConfig ec;
        Estimator<double> est(ec, nullptr);
        auto loss = [&] {
          model.Forward(images.data(), kN, kH, kW, r, LocationMode::kMean, nullptr);
          return est.Compute(r, labels.data(), reward.data(), r).total;
        };
        loss();
        st.ZeroGrad();
        model.Backward(r);
        const std::vector<double> analytic(st.grads().begin(), st.grads().end());
        double read_grad = 0;
        for (std::size_t i = 0; i < w.size; ++i) read_grad = std::max(read_grad, std::abs(analytic[w.offset + i]));
        CHECK(read_grad > 0);  // the classification loss reaches the read network
        std::string where;
        // A small step: fewer of the transformer's samples (bilinear, or box edges crossing pixel
        // borders) fall within a step of a kink. At this step, central differences of a loss of ~1.4
        // carry ~1e-10 of round-off, 1e-6 of the 1e-4 floor of the relative error: hence 2e-6 below.
        const double eps = 3e-6;
        const double err = MaxGradError(loss, st.values().data(), analytic.data(), st.size(), eps, &where, 1e-4);
        INFO(where);
        CHECK(err < 2e-6);
      }
}
