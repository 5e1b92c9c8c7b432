// The answer DRAM composes from its objects (object_answer.h): the pair's log-probability is the sum
// of the digits', the sum's marginalises the digits, every answer distribution is normalised, the
// gradient matches finite differences; and DRAM's whole model (J objects x K glimpses on one core,
// the objects named at steps K and 2 K, composed into the answer) is gradient-checked in double for
// every registered attention and both cores, with a context network, its draws held fixed.
#include <catch2/catch.hpp>
#include <cmath>

#include "src/attention/attentions.h"
#include "src/model/attention_model.h"
#include "src/model/cores.h"
#include "src/model/object_answer.h"
#include "src/nn/softmax_xent.h"
#include "tests/gradcheck.h"
#include "tests/model/read_network.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

std::vector<int> PairTable() {
  std::vector<int> t(100);
  for (int d = 0; d < 100; ++d) t[d] = d;  // 10 a + b
  return t;
}
std::vector<int> SumTable() {
  std::vector<int> t(100);
  for (int d = 0; d < 100; ++d) t[d] = d / 10 + d % 10;
  return t;
}

double LogSoftmax(const double* z, int k, int D) {
  double mx = z[0];
  for (int i = 1; i < D; ++i) mx = std::max(mx, z[i]);
  double s = 0;
  for (int i = 0; i < D; ++i) s += std::exp(z[i] - mx);
  return z[k] - mx - std::log(s);
}

}  // namespace

TEST_CASE("Object answer: pairs add the digits' log-probabilities, sums marginalise them, both normalised",
          "[model][dram]") {
  constexpr int N = 3, K = 2, D = 10;
  Rng rng(7, "test");
  std::vector<double> steps(2 * K * N * D);  // T = 4 steps; the objects are named at steps 2 and 4
  FillRandom(steps.data(), steps.size(), rng, 3.0);
  const ObjectAnswer<double> pairs(2, K, D, 100, PairTable()), sums(2, K, D, 19, SumTable());
  CHECK(pairs.steps() == 4);
  std::vector<double> Zp(N * 100), Zs(N * 19);
  pairs.Forward(steps.data(), N, Zp.data());
  sums.Forward(steps.data(), N, Zs.data());
  for (int n = 0; n < N; ++n) {
    const double* z1 = steps.data() + (1 * N + n) * D;  // step 2
    const double* z2 = steps.data() + (3 * N + n) * D;  // step 4
    double total_p = 0, total_s = 0;
    for (int a = 0; a < D; ++a)
      for (int b = 0; b < D; ++b)
        CHECK(Zp[n * 100 + 10 * a + b] == Approx(LogSoftmax(z1, a, D) + LogSoftmax(z2, b, D)).epsilon(1e-12));
    for (int c = 0; c < 100; ++c) total_p += std::exp(Zp[n * 100 + c]);
    for (int s = 0; s < 19; ++s) {
      double p = 0;
      for (int a = std::max(0, s - 9); a <= std::min(9, s); ++a)
        p += std::exp(LogSoftmax(z1, a, D) + LogSoftmax(z2, s - a, D));
      CHECK(Zs[n * 19 + s] == Approx(std::log(p)).epsilon(1e-12));
      total_s += std::exp(Zs[n * 19 + s]);
    }
    CHECK(total_p == Approx(1.0).epsilon(1e-12));
    CHECK(total_s == Approx(1.0).epsilon(1e-12));
  }
  // The gradient of the answer's cross-entropy (and of an arbitrary weighting of Z) against finite
  // differences; the steps that name no object get none.
  for (const ObjectAnswer<double>* answer : {&pairs, &sums}) {
    const int C = answer->classes();
    INFO(C << " answers");
    std::vector<double> Z(N * C), w(N * C), dsteps(steps.size());
    FillRandom(w.data(), w.size(), rng);
    auto loss = [&] {
      answer->Forward(steps.data(), N, Z.data());
      return Dot(w.data(), Z.data(), Z.size());
    };
    loss();
    answer->Backward(steps.data(), Z.data(), w.data(), N, dsteps.data());
    std::string where;
    CHECK(MaxGradError(loss, steps.data(), dsteps.data(), steps.size(), 1e-5, &where) < 1e-6);
    INFO(where);
    for (int i = 0; i < N * D; ++i) CHECK(dsteps[i] == 0.0);  // step 1
  }
  CHECK_THROWS_WITH(ObjectAnswer<double>(2, K, D, 20, SumTable()),
                    Catch::Contains("answer 19 is made by no digit tuple"));
}

TEST_CASE("DRAM's model: whole-model gradient check for every registered attention and core, with context",
          "[model][dram][gradcheck]") {
  constexpr int N = 4, H = 16, W = 16, J = 2, K = 2, D = 10;
  for (const auto& kind : Attentions<double>())
    for (const std::string& core : Cores<double>().Names()) {
      if (kind.straight_through) continue;  // a surrogate gradient: test_gumbel_grid.cpp
      INFO(kind.name << " with the " << core << " core");
      ModelSpec spec;
      spec.steps = J * K, spec.glimpse_hidden = 6, spec.hidden = 7, spec.classes = D, spec.core = core;
      spec.context = 4, spec.step_logits = true;
      const ExperimentConfig cfg = SmallReads(kind.name);
      auto model = MakeAttentionModel<double>(spec, cfg, H, W);
      Rng rng(31, "init");
      model->Init(rng);
      auto& st = model->store();
      MoveReadNetwork(st, rng);
      std::vector<double> images(N * H * W);
      FillRandom(images.data(), images.size(), rng);
      for (double& p : images) p = std::abs(p);
      const ObjectAnswer<double> answer(J, K, D, 100, PairTable());
      const std::vector<std::int32_t> labels = {7, 42, 0, 99};
      Rollout<double> r;
      Rng draws(4, "policy");
      const LocationMode mode = kind.hard() ? LocationMode::kGiven : LocationMode::kMean;
      if (kind.hard()) model->Forward(images.data(), N, H, W, r, LocationMode::kSample, &draws);  // fixes l_t
      std::vector<double> Z(N * 100), probs(N * 100), dZ(N * 100);
      auto loss = [&] {
        model->Forward(images.data(), N, H, W, r, mode, nullptr);
        answer.Forward(r.step_logits.data(), N, Z.data());
        return SoftmaxCrossEntropyForward(Z.data(), labels.data(), N, 100, probs.data());
      };
      loss();
      SoftmaxCrossEntropyBackward(probs.data(), labels.data(), N, 100, 1.0, dZ.data());
      std::fill(r.dlogits.begin(), r.dlogits.end(), 0.0);
      std::fill(r.dpre.begin(), r.dpre.end(), 0.0);
      std::fill(r.dbaseline.begin(), r.dbaseline.end(), 0.0);
      answer.Backward(r.step_logits.data(), Z.data(), dZ.data(), N, r.dstep_logits.data());
      st.ZeroGrad();
      model->Backward(r);
      const std::vector<double> analytic(st.grads().begin(), st.grads().end());
      std::string where;
      const double err = MaxGradError(loss, st.values().data(), analytic.data(), st.size(), 3e-6, &where, 1e-4);
      INFO(where);
      CHECK(err < 1e-5);  // the 100-way cross-entropy's round-off at eps 3e-6 reaches a few 1e-6
    }
}
