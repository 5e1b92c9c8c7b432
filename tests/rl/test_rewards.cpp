// Rewards and returns (reward.h): the terminal reward at every step, dense rewards as cross-entropy
// reductions with their discount, and the estimator weighing each step's score by that step's
// return; the self-critical baseline's contract (its unbiasedness is in test_estimators.cpp).
#include <catch2/catch.hpp>
#include <cmath>

#include "src/rl/estimator.h"
#include "src/rl/gaussian_policy.h"
#include "src/train/make_kinds.h"

using namespace glimpse;

namespace {

Settings WithDiscount(double gamma) { return Settings({{"discount", std::to_string(gamma)}}); }

}  // namespace

TEST_CASE("Terminal reward: the final answer's 0/1 at every step", "[rl][reward]") {
  const std::vector<double> correct = {1, 0, 1};
  Outcome o;
  o.steps = 2, o.rows = 3, o.classes = 10, o.correct = &correct;
  std::vector<double> G;
  Rewards().Get("terminal").make(Settings{})(o, G);
  CHECK(G == std::vector<double>{1, 0, 1, 1, 0, 1});
}

TEST_CASE("Dense reward: cross-entropy reductions, summed with the discount", "[rl][reward]") {
  // Two rows, three steps; CE_0 = log C.
  const double C = 4, L = std::log(C);
  const std::vector<double> ce = {1.2, 0.9,   // t = 1
                                  0.7, 1.1,   // t = 2
                                  0.2, 1.3};  // t = 3
  const std::vector<double> correct = {1, 0};
  Outcome o;
  o.steps = 3, o.rows = 2, o.classes = 4, o.correct = &correct, o.step_ce = &ce;
  for (const double gamma : {1.0, 0.5, 0.0}) {
    INFO("gamma " << gamma);
    std::vector<double> G;
    Rewards().Get("dense").make(WithDiscount(gamma))(o, G);
    REQUIRE(G.size() == 6);
    for (int n = 0; n < 2; ++n) {
      const double r1 = L - ce[n], r2 = ce[n] - ce[2 + n], r3 = ce[2 + n] - ce[4 + n];
      CHECK(G[4 + n] == Approx(r3));
      CHECK(G[2 + n] == Approx(r2 + gamma * r3));
      CHECK(G[n] == Approx(r1 + gamma * r2 + gamma * gamma * r3));
      if (gamma == 1.0) CHECK(G[n] == Approx(L - ce[4 + n]));  // telescopes: log C - CE_T
    }
  }
  // The discount's range is its row's; needing the classifier after every glimpse is the kind's rule.
  const RewardKind& dense = Rewards().Get("dense");
  REQUIRE(dense.options.size() == 1);
  CHECK_THROWS_WITH(dense.options[0].canonical("1.5"), Catch::Contains("--discount: expected a number in [0, 1]"));
  CHECK(dense.options[0].canonical("0.50") == "0.5");
  SharedFacts facts;
  CHECK_THROWS_WITH(dense.validate(WithDiscount(1), facts), Catch::Contains("give --step-loss"));
  facts.step_loss = 1;
  CHECK_NOTHROW(dense.validate(WithDiscount(1), facts));
}

TEST_CASE("Estimator with dense rewards: each step's score weighed by its own return", "[rl][reward][estimator]") {
  // One row, two steps, fixed locations; no baseline: dpre_t = -(1/N) G_t d log pi(l_t) / d pre.
  const GaussianPolicy<double> pol(0.3);
  const int T = 2, N = 1, C = 3;
  PolicyTrace<double> r;
  r.steps = T, r.rows = N;
  r.head = xt::xtensor<double, 2>({{0.2, -0.1}, {0.4, 0.3}});
  r.loc = xt::xtensor<double, 2>({{0.5, 0.0}, {0.1, 0.6}});
  r.choice = {LocationPolicy<double>::kContinuous, LocationPolicy<double>::kContinuous};
  r.baseline = xt::zeros<double>({T * N, 1});
  r.step_logits = xt::xtensor<double, 2>({{0.1, 0.5, -0.2}, {1.5, -0.3, 0.2}});
  r.logits = xt::xtensor<double, 2>({{1.5, -0.3, 0.2}});
  LossSignals<double> s;
  s.probs.resize({N, C}), s.dlogits.resize({N, C}), s.dstep_logits.resize({T * N, C});
  s.dpre.resize({T * N, 2}), s.dbaseline.resize({T * N, 1});
  EstimatorConfig ec;
  ec.baseline = "none";
  ec.step_loss = 1;
  ec.reward = "dense";
  Estimator<double> est(ec, &pol);
  const std::int32_t label = 0;
  const double reward = 1;
  const LossReport rep = est.Compute(r, &label, &reward, s);
  auto ce = [&](int t) {
    const double* z = r.step_logits.data() + t * C;
    double m = std::max({z[0], z[1], z[2]}), sum = 0;
    for (int c = 0; c < C; ++c) sum += std::exp(z[c] - m);
    return -(z[label] - m - std::log(sum));
  };
  const double G1 = std::log(3.0) - ce(1), G2 = ce(0) - ce(1);
  CHECK(rep.step == Approx(ce(0)));  // the mean CE over steps 1..T-1
  CHECK(rep.action == Approx(ce(1)));
  for (int t = 0; t < T; ++t) {
    const double G = t == 0 ? G1 : G2;
    for (int d = 0; d < 2; ++d) {
      const double mu = r.head(t, d), l = r.loc(t, d);
      CHECK(s.dpre(t, d) == Approx(-G * (l - mu) / 0.09 * (1 - mu * mu)));
    }
  }
  // The final loss's gradient moved into the last step's block of dstep_logits.
  for (int c = 0; c < C; ++c) CHECK(s.dlogits(0, c) == 0);
  double sum = 0;
  for (int c = 0; c < C; ++c) sum += s.dstep_logits(1, c);
  CHECK(sum == Approx(0).margin(1e-12));  // softmax - onehot sums to 0
  CHECK(s.dstep_logits(1, 0) < 0);
}

TEST_CASE("Self-critical baseline needs the greedy episode of the same rows", "[rl][estimator]") {
  const GaussianPolicy<double> pol(0.3);
  EstimatorConfig ec;
  ec.baseline = "self-critical";
  Estimator<double> est(ec, &pol);
  CHECK(est.needs_greedy());
  PolicyTrace<double> r;
  r.steps = 1, r.rows = 2;
  r.head = xt::zeros<double>({2, 2});
  r.loc = xt::zeros<double>({2, 2});
  r.choice = {LocationPolicy<double>::kContinuous, LocationPolicy<double>::kContinuous};
  r.baseline = xt::zeros<double>({2, 1});
  r.logits = xt::zeros<double>({2, 2});
  LossSignals<double> s;
  s.probs.resize({2, 2}), s.dlogits.resize({2, 2}), s.dpre.resize({2, 2}), s.dbaseline.resize({2, 1});
  const std::int32_t labels[2] = {0, 1};
  const double sampled[2] = {1, 0}, greedy[2] = {1, 1};
  CHECK_THROWS_WITH(est.Compute(r, labels, sampled, s), Catch::Contains("GreedyReturns"));
  r.loc(0, 0) = 0.3;  // row 0 moved right, row 1 stayed
  std::vector<double> g;
  est.GreedyReturns(r, labels, greedy, g);
  est.Compute(r, labels, sampled, s, &g);
  // A = R - R_greedy: row 0 gets 0 (as good as greedy), row 1 gets -1.
  CHECK(s.dpre(0, 0) == Approx(0.0).margin(1e-15));
  CHECK(s.dpre(1, 0) == Approx(0.0).margin(1e-15));  // l = mu there: a zero score
  r.loc(1, 1) = -0.2;
  est.Compute(r, labels, sampled, s, &g);  // the same greedy returns, passed again: the same advantage
  CHECK(s.dpre(1, 1) == Approx(-(1.0 / 2) * -1.0 * (-0.2) / 0.09));  // -(1/N) A score
  const std::vector<double> other_rows(1, 1.0);
  CHECK_THROWS_WITH(est.Compute(r, labels, sampled, s, &other_rows), Catch::Contains("same rows"));
  EstimatorConfig plain;
  CHECK_FALSE(Estimator<double>(plain, &pol).needs_greedy());
}
