// The query model of strip5: whole-model gradient checks in double (soft attention with every score;
// hard attention with its choices fixed), and where each loss term's gradient goes.
#include <catch2/catch.hpp>

#include "src/model/query_model.h"
#include "src/rl/estimator.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

constexpr int kN = 5;
// Most slot-network weights see inputs of ~0.05 and have derivatives of ~1e-6; central differences
// resolve those only to ~1e-10 absolute, so derivatives below kFloor are compared absolutely.
constexpr double kFloor = 1e-4;

struct Fixture {
  QuerySpec spec;
  std::unique_ptr<QueryModel<double>> model;
  std::vector<double> strips;
  std::vector<std::int32_t> queries = {3, 0, 9, 3, 7}, answers = {1, 5, 4, 0, 5};
  std::vector<double> reward = {1, 0, 1, 1, 0};  // fixed, so the REINFORCE loss is differentiable
  QueryRollout<double> qr;

  Fixture(ScoreKind score, bool hard) {
    spec.slot_hidden = 6;
    spec.features = 5;
    spec.att = 4;
    spec.score = score;
    spec.hard = hard;
    model = std::make_unique<QueryModel<double>>(spec);
    Rng rng(5, "init");
    model->Init(rng);
    FillRandom(model->store().values().data(), model->store().size(), rng, 0.6);
    strips.resize(static_cast<std::size_t>(kN) * 28 * 140);
    FillRandom(strips.data(), strips.size(), rng, 1.0);
    for (auto& p : strips) p = std::abs(p) * 0.1;  // small inputs keep the ReLUs off their kinks
    Rng policy(5, "policy");
    model->Forward(strips.data(), queries.data(), kN, qr, LocationMode::kSample, &policy);
  }

  Estimator<double> MakeEstimator() const {
    EstimatorConfig ec;
    ec.baseline = "none";
    ec.rl_weight = 0.7;
    return Estimator<double>(ec, model->policy());
  }

  // The estimator's total loss at the current parameters, choices fixed.
  double Loss() {
    model->Forward(strips.data(), queries.data(), kN, qr, LocationMode::kGiven, nullptr);
    Estimator<double> est = MakeEstimator();
    return est.Compute(qr.r, answers.data(), reward.data(), qr.r).total;
  }

  std::vector<double> Gradient() {
    Loss();
    Estimator<double> est = MakeEstimator();
    est.Compute(qr.r, answers.data(), reward.data(), qr.r);
    model->store().ZeroGrad();
    model->Backward(qr);
    auto& g = model->store().grads();
    return std::vector<double>(g.begin(), g.end());
  }
};

}  // namespace

TEST_CASE("Query model gradients match finite differences (soft, every score)", "[model][query][gradcheck]") {
  for (ScoreKind score : {ScoreKind::kAdditive, ScoreKind::kDot, ScoreKind::kScaledDot}) {
    INFO("score " << static_cast<int>(score));
    Fixture f(score, /*hard=*/false);
    const std::vector<double> g = f.Gradient();
    std::string where;
    const double err = MaxGradError([&] { return f.Loss(); }, f.model->store().values().data(), g.data(), g.size(),
                                    1e-5, &where, kFloor);
    INFO(where);
    CHECK(err < 1e-5);
  }
}

TEST_CASE("Query model gradients match finite differences (hard, choices fixed)", "[model][query][gradcheck]") {
  Fixture f(ScoreKind::kAdditive, /*hard=*/true);
  const std::vector<double> g = f.Gradient();
  std::string where;
  const double err = MaxGradError([&] { return f.Loss(); }, f.model->store().values().data(), g.data(), g.size(), 1e-5,
                                  &where, kFloor);
  INFO(where);
  CHECK(err < 1e-5);
}

TEST_CASE("Hard item attention: the answer sees only the chosen slot", "[model][query]") {
  Fixture f(ScoreKind::kDot, /*hard=*/true);
  const int F = f.spec.features, S = kQuerySlots;
  for (int n = 0; n < kN; ++n) {
    const int j = f.qr.r.choice[n];
    REQUIRE(j >= 0);
    REQUIRE(j < S);
    const double* z = f.qr.z.data() + n * (F + S + f.spec.att);
    for (int k = 0; k < F; ++k) CHECK(z[k] == f.qr.f.data()[(n * S + j) * F + k]);  // c = v_j
    for (int i = 0; i < S; ++i) CHECK(z[F + i] == (i == j ? 1.0 : 0.0));
  }
  // Evaluation takes the argmax of alpha.
  f.model->Forward(f.strips.data(), f.queries.data(), kN, f.qr, LocationMode::kMean, nullptr);
  for (int n = 0; n < kN; ++n) {
    const double* a = f.qr.r.head.data() + n * S;
    CHECK(f.qr.r.choice[n] == std::max_element(a, a + S) - a);
    double sum = 0;
    for (int i = 0; i < S; ++i) sum += a[i];
    CHECK(sum == Approx(1.0));
  }
}

TEST_CASE("Query model refuses a query outside 0..9", "[model][query]") {
  Fixture f(ScoreKind::kDot, false);
  f.queries[2] = 10;
  CHECK_THROWS_WITH(f.model->Forward(f.strips.data(), f.queries.data(), kN, f.qr, LocationMode::kMean, nullptr),
                    Catch::Contains("query digit"));
}
