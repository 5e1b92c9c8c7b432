// Location policies: score and entropy gradients against finite differences; sampling frequencies.
#include <catch2/catch.hpp>

#include "src/rl/categorical_policy.h"
#include "src/rl/gaussian_policy.h"
#include "src/rl/learned_std_policy.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

// For one row: checks AddScore against d log pi(l) / d pre and AddEntropyGrad against dH / d pre.
void CheckPolicyGradients(const LocationPolicy<double>& pol, std::vector<double> pre, Rng& rng) {
  const int K = pol.head_size();
  std::vector<double> head(K), loc(2);
  std::int32_t choice;
  std::vector<double> noise;
  pol.Activate(pre.data(), 1, head.data());
  pol.Sample(head.data(), 1, rng, noise, loc.data(), &choice);
  std::vector<double> score(K, 0.0), dent(K, 0.0);
  pol.AddScore(head.data(), loc.data(), choice, 1.0, score.data());
  pol.AddEntropyGrad(head.data(), 1.0, dent.data());
  auto logp = [&] {
    std::vector<double> h(K);
    pol.Activate(pre.data(), 1, h.data());
    return pol.LogProb(h.data(), loc.data(), choice);
  };
  auto ent = [&] {
    std::vector<double> h(K);
    pol.Activate(pre.data(), 1, h.data());
    return pol.Entropy(h.data());
  };
  CHECK(MaxGradError(logp, pre.data(), score.data(), K) < 1e-6);
  CHECK(MaxGradError(ent, pre.data(), dent.data(), K) < 1e-6);
}

}  // namespace

TEST_CASE("Gaussian policy: score and entropy gradients", "[rl][policy][gradcheck]") {
  Rng rng(1, "test");
  const GaussianPolicy<double> pol(0.3);
  CheckPolicyGradients(pol, {0.4, -1.1}, rng);
  CHECK(pol.Entropy(nullptr) == Approx(2 * std::log(0.3 * std::sqrt(2 * M_PI * M_E))));
  CHECK_THROWS_WITH(GaussianPolicy<double>(-0.1), Catch::Contains("positive std"));
}

TEST_CASE("Learned-std policy: score and entropy gradients in the mean and the std", "[rl][policy][gradcheck]") {
  Rng rng(4, "test");
  const LearnedStdPolicy<double> pol(0.1);
  CHECK(pol.head_size() == 4);
  for (const std::vector<double>& pre :
       {std::vector<double>{0.4, -1.1, 0.0, 0.0}, std::vector<double>{-0.2, 0.7, 1.3, -2.1},
        std::vector<double>{0.9, 0.1, -4.0, 6.0}})
    CheckPolicyGradients(pol, pre, rng);
  // sigma starts at --std and stays within a decade of it; the entropy is that of the two sigmas.
  double head[4];
  const double start[4] = {0, 0, 0, 0}, far[4] = {0, 0, 50, -50};
  pol.Activate(start, 1, head);
  CHECK(head[2] == Approx(0.1));
  CHECK(pol.Entropy(head) == Approx(2 * std::log(0.1 * std::sqrt(2 * M_PI * M_E))));
  pol.Activate(far, 1, head);
  CHECK(head[2] == Approx(1.0));
  CHECK(head[3] == Approx(0.01));
  // Draws follow N(mu, sigma^2) per coordinate.
  const double pre[4] = {0.5, -0.5, 1.0, -1.0};
  pol.Activate(pre, 1, head);
  std::vector<double> noise;
  double loc[2], m[2] = {0, 0}, v[2] = {0, 0};
  std::int32_t choice;
  const int n = 40000;
  for (int i = 0; i < n; ++i) {
    pol.Sample(head, 1, rng, noise, loc, &choice);
    for (int d = 0; d < 2; ++d) m[d] += loc[d] / n, v[d] += (loc[d] - head[d]) * (loc[d] - head[d]) / n;
  }
  for (int d = 0; d < 2; ++d) {
    CHECK(std::abs(m[d] - head[d]) < 4 * head[2 + d] / std::sqrt(n));
    CHECK(std::sqrt(v[d]) == Approx(head[2 + d]).epsilon(0.02));
  }
  CHECK_THROWS_WITH(LearnedStdPolicy<double>(0), Catch::Contains("positive starting std"));
}

TEST_CASE("Categorical policy: the greedy location is the most probable cell, not the mean", "[rl][policy]") {
  const CategoricalPolicy<double> pol(2);
  const double head[4] = {0.4, 0.1, 0.1, 0.4};  // two equal modes at opposite corners: mean (0, 0)
  double mean[2], greedy[2];
  pol.Mean(head, 1, mean);
  pol.Greedy(head, 1, greedy);
  CHECK(mean[0] == Approx(0.0).margin(1e-15));
  CHECK(greedy[0] == pol.CellX(0));  // the first of equals
  CHECK(greedy[1] == pol.CellY(0));
  const GaussianPolicy<double> gauss(0.2);
  const double mu[2] = {0.3, -0.6};
  gauss.Greedy(mu, 1, greedy);
  CHECK(greedy[0] == 0.3);
  CHECK(greedy[1] == -0.6);
}

TEST_CASE("Categorical policy: score and entropy gradients", "[rl][policy][gradcheck]") {
  Rng rng(2, "test");
  const CategoricalPolicy<double> pol(3);
  CHECK(pol.head_size() == 9);
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<double> pre(9);
    FillRandom(pre.data(), 9, rng, 2.0);
    CheckPolicyGradients(pol, pre, rng);
  }
}

TEST_CASE("Categorical policy: grid centres, expectation and sampling frequencies", "[rl][policy]") {
  const CategoricalPolicy<double> pol(2);
  CHECK(pol.CellX(0) == -0.5);
  CHECK(pol.CellY(0) == -0.5);
  CHECK(pol.CellX(3) == 0.5);
  CHECK(pol.CellY(2) == 0.5);
  const double head[4] = {0.1, 0.2, 0.3, 0.4};
  double loc[2];
  pol.Mean(head, 1, loc);
  CHECK(loc[0] == Approx(0.1 * -0.5 + 0.2 * 0.5 + 0.3 * -0.5 + 0.4 * 0.5));
  CHECK(loc[1] == Approx(-0.5 * 0.3 + 0.5 * 0.7));
  Rng rng(3, "test");
  std::vector<int> counts(4, 0);
  const int n = 40000;
  std::vector<double> noise;
  for (int i = 0; i < n; ++i) {
    std::int32_t k;
    pol.Sample(head, 1, rng, noise, loc, &k);
    counts[k]++;
    CHECK(loc[0] == pol.CellX(k));
  }
  for (int k = 0; k < 4; ++k) CHECK(std::abs(counts[k] / double(n) - head[k]) < 0.01);
}
