// Unbiasedness of the REINFORCE estimators on problems with a closed-form expected gradient.
//
// Each test fills a one-step PolicyTrace as the model would (policy head from fixed parameters, drawn
// locations, rewards from a known reward function), runs Estimator::Compute, and reads the
// REINFORCE gradient it wrote at the location network's pre-activations (LossSignals::dpre, which is the
// gradient of the *loss*: minus the gradient of expected reward). Averaged over many batches it
// must match the exact gradient within a few standard errors, for every baseline. A baseline that
// needs the greedy episode (self-critical) gets it: the policy's greedy location (the most probable
// cell of a categorical policy), scored by the same reward function with its own draws.
#include <catch2/catch.hpp>

#include "src/rl/categorical_policy.h"
#include "src/rl/estimator.h"
#include "src/rl/gaussian_policy.h"

using namespace glimpse;

namespace {

constexpr int kRows = 64;  // rows per batch (images x samples)
double semi_p_ = 0.0;      // semi-sampling probability used by Estimate (0 except in its own test)

// A one-step trace of kRows rows with K head outputs (logits are irrelevant here), and the signals.
PolicyTrace<double> OneStep(int K) {
  PolicyTrace<double> r;
  r.steps = 1;
  r.rows = kRows;
  r.head.resize({kRows, static_cast<std::size_t>(K)});
  r.loc.resize({kRows, 2});
  r.choice.resize(kRows);
  r.baseline = xt::zeros<double>({kRows, 1});
  r.logits = xt::zeros<double>({kRows, 2});
  return r;
}
LossSignals<double> Signals(int K) {
  LossSignals<double> s;
  s.probs.resize({kRows, 2});
  s.dlogits.resize({kRows, 2});
  s.dpre.resize({kRows, static_cast<std::size_t>(K)});
  s.dbaseline.resize({kRows, 1});
  return s;
}

struct Stats {
  std::vector<double> sum, sq;
  int n = 0;
  explicit Stats(int k) : sum(k, 0.0), sq(k, 0.0) {}
  void Add(const std::vector<double>& g) {
    for (std::size_t i = 0; i < g.size(); ++i) sum[i] += g[i], sq[i] += g[i] * g[i];
    ++n;
  }
  double Mean(int i) const { return sum[i] / n; }
  double StdErr(int i) const { return std::sqrt((sq[i] / n - Mean(i) * Mean(i)) / (n - 1)); }
};

// Runs `batches` batches; returns per-batch estimates of d E[R] / d pre (summed over rows / N, i.e.
// the gradient of the batch-mean objective), with reward(loc, choice, rng).
template <class RewardFn>
Stats Estimate(const LocationPolicy<double>& pol, const std::vector<double>& pre, EstimatorConfig cfg,
               RewardFn reward_of, int batches, double learned_b = 0.3) {
  const int K = pol.head_size();
  PolicyTrace<double> r = OneStep(K);
  LossSignals<double> sig = Signals(K);
  Estimator<double> est(cfg, &pol);
  Rng rng(17, "estimator-test");
  std::vector<double> head(K), reward(kRows);
  pol.Activate(pre.data(), 1, head.data());
  std::vector<std::int32_t> labels(kRows, 0);
  Stats s(K);
  std::vector<double> noise;
  PolicyTrace<double> greedy = OneStep(K);
  std::vector<double> greedy_reward(kRows), greedy_returns;
  const auto* categorical = dynamic_cast<const CategoricalPolicy<double>*>(&pol);
  BaselineState state = est.StartState();  // carried from batch to batch, as the trainer does
  for (int b = 0; b < batches; ++b) {
    if (est.needs_greedy()) {
      for (int n = 0; n < kRows; ++n) {
        std::copy(head.begin(), head.end(), greedy.head.data() + n * K);
        pol.Greedy(head.data(), 1, greedy.loc.data() + 2 * n);
        greedy.choice[n] = categorical
                               ? static_cast<std::int32_t>(std::max_element(head.begin(), head.end()) - head.begin())
                               : LocationPolicy<double>::kExpected;
        greedy_reward[n] = reward_of(greedy.loc.data() + 2 * n, greedy.choice[n], rng);
      }
      est.GreedyReturns(greedy, labels.data(), greedy_reward.data(), greedy_returns);
    }
    for (int n = 0; n < kRows; ++n) {
      std::copy(head.begin(), head.end(), r.head.data() + n * K);
      pol.Sample(head.data(), 1, rng, noise, r.loc.data() + 2 * n, r.choice.data() + n);
      if (semi_p_ > 0 && rng.Uniform() < semi_p_) {
        pol.Mean(head.data(), 1, r.loc.data() + 2 * n);
        r.choice[n] = LocationPolicy<double>::kExpected;
      }
      reward[n] = reward_of(r.loc.data() + 2 * n, r.choice[n], rng);
      r.baseline.data()[n] = learned_b;
    }
    est.Compute(r, labels.data(), reward.data(), sig, est.needs_greedy() ? &greedy_returns : nullptr, &state);
    std::vector<double> g(K, 0.0);
    for (int n = 0; n < kRows; ++n)
      for (int k = 0; k < K; ++k) g[k] -= sig.dpre.data()[n * K + k];  // loss gradient -> reward gradient
    s.Add(g);
  }
  return s;
}

}  // namespace

namespace {

// A one-step bandit over the cells of a categorical policy: the reward of cell k is Bernoulli(q_k).
// E[R] = sum_k pi_k q_k, so d E[R] / d pre_j = pi_j (q_j - E[R]); every baseline must match it.
void CheckBanditUnbiased(const CategoricalPolicy<double>& pol, const std::vector<double>& pre,
                         const std::vector<double>& q) {
  const int K = pol.head_size();
  REQUIRE(static_cast<int>(pre.size()) == K);
  REQUIRE(static_cast<int>(q.size()) == K);
  std::vector<double> pi(K);
  pol.Activate(pre.data(), 1, pi.data());
  double er = 0;
  for (int k = 0; k < K; ++k) er += pi[k] * q[k];
  auto reward = [&](const double*, std::int32_t k, Rng& rng) { return rng.Bernoulli(q[k]) ? 1.0 : 0.0; };
  for (const BaselineKind& kind : Baselines()) {  // every registered baseline
    INFO(kind.name);
    EstimatorConfig cfg;
    cfg.baseline = kind.name;
    cfg.samples = 4;
    const Stats s = Estimate(pol, pre, cfg, reward, 3000);
    for (int j = 0; j < K; ++j) {
      const double exact = pi[j] * (q[j] - er);
      INFO("j " << j << " mean " << s.Mean(j) << " exact " << exact << " se " << s.StdErr(j));
      CHECK(std::abs(s.Mean(j) - exact) < 4 * s.StdErr(j) + 1e-12);
    }
  }
}

}  // namespace

TEST_CASE("Categorical bandit: every baseline gives an unbiased gradient", "[rl][estimator][unbiased]") {
  // One step over a 2 x 2 grid.
  CheckBanditUnbiased(CategoricalPolicy<double>(2), {0.3, -0.4, 0.9, 0.0}, {0.2, 0.9, 0.5, 0.7});
}

TEST_CASE("Item choice over a 5 x 1 grid (strip5's hard attention): unbiased for every baseline",
          "[rl][estimator][unbiased]") {
  // The query model draws one of five slots from softmax(e); slot k answers right with probability q_k.
  const CategoricalPolicy<double> pol(5, 1);
  REQUIRE(pol.head_size() == 5);
  CHECK(pol.CellY(3) == 0.0);
  CHECK(pol.CellX(0) == Approx(-0.8));
  CheckBanditUnbiased(pol, {0.5, -1.0, 0.2, 1.1, -0.3}, {0.1, 0.3, 0.95, 0.6, 0.4});
}

TEST_CASE("Gaussian policy with a quadratic reward: unbiased for every baseline", "[rl][estimator][unbiased]") {
  // R(l) = -|l - c|^2, l ~ N(mu, s^2 I), mu = tanh(pre): E[R] = -|mu - c|^2 - 2 s^2 and
  // d E[R] / d pre_d = -2 (mu_d - c_d) (1 - mu_d^2).
  const double sd = 0.3, c[2] = {0.5, -0.2};
  const GaussianPolicy<double> pol(sd);
  const std::vector<double> pre = {-0.3, 0.6};
  auto reward = [&](const double* l, std::int32_t, Rng&) {
    return -((l[0] - c[0]) * (l[0] - c[0]) + (l[1] - c[1]) * (l[1] - c[1]));
  };
  for (const BaselineKind& kind : Baselines()) {  // every registered baseline
    INFO(kind.name);
    EstimatorConfig cfg;
    cfg.baseline = kind.name;
    cfg.samples = 8;
    const Stats s = Estimate(pol, pre, cfg, reward, 3000, -0.5);
    for (int d = 0; d < 2; ++d) {
      const double mu = std::tanh(pre[d]);
      const double exact = -2 * (mu - c[d]) * (1 - mu * mu);
      INFO("d " << d << " mean " << s.Mean(d) << " exact " << exact << " se " << s.StdErr(d));
      CHECK(std::abs(s.Mean(d) - exact) < 4 * s.StdErr(d));
    }
  }
}

TEST_CASE("Baselines reduce variance on the bandit without moving the mean", "[rl][estimator]") {
  const CategoricalPolicy<double> pol(2);
  const std::vector<double> pre = {0.3, -0.4, 0.9, 0.0};
  const double q[4] = {0.6, 0.9, 0.7, 0.8};  // high rewards: plain REINFORCE is noisy
  auto reward = [&](const double*, std::int32_t k, Rng& rng) { return rng.Bernoulli(q[k]) ? 1.0 : 0.0; };
  EstimatorConfig none, loo;
  none.baseline = "none";
  loo.baseline = "loo";
  loo.samples = 8;
  const Stats a = Estimate(pol, pre, none, reward, 2000), b = Estimate(pol, pre, loo, reward, 2000);
  for (int j = 0; j < 4; ++j) {
    CHECK(b.StdErr(j) < 0.8 * a.StdErr(j));
    CHECK(std::abs(a.Mean(j) - b.Mean(j)) < 4 * std::hypot(a.StdErr(j), b.StdErr(j)));
  }
}

TEST_CASE("The moving-average baseline's state is a value the caller holds", "[rl][estimator]") {
  // b <- 0.9 b + 0.1 mean G_1 after each batch; Compute reads b from the state it is given and
  // writes the next one there, so the same state in gives the same gradient (a probe batch passes a
  // copy and leaves the run's state as it was).
  const CategoricalPolicy<double> pol(2);
  EstimatorConfig cfg;
  cfg.baseline = "average";
  Estimator<double> est(cfg, &pol);
  const BaselineState start = est.StartState();
  REQUIRE(start.size() == 1);
  CHECK(start.at("baseline_average") == 0.0);
  PolicyTrace<double> r = OneStep(4);
  LossSignals<double> s = Signals(4);
  std::vector<std::int32_t> labels(kRows, 0);
  std::vector<double> reward(kRows);
  for (int n = 0; n < kRows; ++n) {
    for (int k = 0; k < 4; ++k) r.head.data()[n * 4 + k] = 0.25;
    r.choice[n] = n % 4;
    reward[n] = n % 3 == 0 ? 1.0 : 0.0;
  }
  double mean = 0;
  for (const double x : reward) mean += x / kRows;
  BaselineState state = {{"baseline_average", 0.5}};
  est.Compute(r, labels.data(), reward.data(), s, nullptr, &state);
  const std::vector<double> first(s.dpre.begin(), s.dpre.end());
  CHECK(state.at("baseline_average") == Approx(0.9 * 0.5 + 0.1 * mean));
  BaselineState again = {{"baseline_average", 0.5}};
  est.Compute(r, labels.data(), reward.data(), s, nullptr, &again);
  CHECK(std::vector<double>(s.dpre.begin(), s.dpre.end()) == first);  // same state in, same gradient
  est.Compute(r, labels.data(), reward.data(), s, nullptr, &state);   // the next batch's b differs
  CHECK(std::vector<double>(s.dpre.begin(), s.dpre.end()) != first);
}

TEST_CASE("Entropy bonus adds exactly beta times the entropy gradient", "[rl][estimator]") {
  const CategoricalPolicy<double> pol(2);
  const std::vector<double> pre = {0.3, -0.4, 0.9, 0.0};
  auto zero = [](const double*, std::int32_t, Rng&) { return 0.0; };
  EstimatorConfig cfg;
  cfg.baseline = "none";
  cfg.entropy = 0.5;
  const Stats s = Estimate(pol, pre, cfg, zero, 3);
  std::vector<double> pi(4), dh(4, 0.0);
  pol.Activate(pre.data(), 1, pi.data());
  pol.AddEntropyGrad(pi.data(), 1.0, dh.data());
  for (int j = 0; j < 4; ++j) CHECK(s.Mean(j) == Approx(0.5 * dh[j]));
}

TEST_CASE("Semi-sampling scales the expected gradient by 1 - p", "[rl][estimator]") {
  // Rows that take the expected location carry no REINFORCE term.
  const CategoricalPolicy<double> pol(2);
  const std::vector<double> pre = {0.3, -0.4, 0.9, 0.0};
  const double q[4] = {0.2, 0.9, 0.5, 0.7};
  auto reward = [&](const double*, std::int32_t k, Rng& rng) {
    return k < 0 ? 0.5 : (rng.Bernoulli(q[k]) ? 1.0 : 0.0);
  };
  std::vector<double> pi(4);
  pol.Activate(pre.data(), 1, pi.data());
  double er = 0;
  for (int k = 0; k < 4; ++k) er += pi[k] * q[k];
  EstimatorConfig cfg;
  cfg.baseline = "none";
  semi_p_ = 0.5;
  const Stats s = Estimate(pol, pre, cfg, reward, 3000);
  semi_p_ = 0.0;
  for (int j = 0; j < 4; ++j) {
    const double exact = 0.5 * pi[j] * (q[j] - er);
    CHECK(std::abs(s.Mean(j) - exact) < 4 * s.StdErr(j));
  }
}

TEST_CASE("Estimator configuration errors", "[rl][estimator]") {
  const CategoricalPolicy<double> pol(2);
  EstimatorConfig cfg;
  cfg.baseline = "loo";
  cfg.samples = 1;
  CHECK_THROWS_WITH(Estimator<double>(cfg, &pol), Catch::Contains("--samples of at least 2"));
  cfg.baseline = "ema";
  CHECK_THROWS_WITH(Estimator<double>(cfg, &pol),
                    Catch::Contains("option --baseline: expected none|learned|average|loo"));
}
