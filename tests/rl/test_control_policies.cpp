// The control policies (uniform, centre): where they look, and that they give REINFORCE nothing.
#include <catch2/catch.hpp>
#include <cmath>

#include "src/rl/centre_policy.h"
#include "src/rl/policies.h"
#include "src/rl/uniform_policy.h"

using namespace glimpse;

TEST_CASE("Uniform policy: locations cover [-1, 1]^2 evenly whatever the head, with a zero score",
          "[rl][policy][control]") {
  const UniformPolicy<double> pol;
  CHECK_FALSE(pol.has_mean());
  constexpr int kRows = 40000;
  std::vector<double> head(2 * kRows, 0.9), loc(2 * kRows), noise;  // a head far from the centre
  std::vector<std::int32_t> choice(kRows);
  Rng rng(4, "test");
  pol.Sample(head.data(), kRows, rng, noise, loc.data(), choice.data());
  double mean[2] = {0, 0}, sq[2] = {0, 0};
  int quadrant[4] = {0, 0, 0, 0};
  for (int n = 0; n < kRows; ++n) {
    for (int d = 0; d < 2; ++d) {
      REQUIRE(std::abs(loc[2 * n + d]) <= 1.0);
      mean[d] += loc[2 * n + d] / kRows;
      sq[d] += loc[2 * n + d] * loc[2 * n + d] / kRows;
    }
    ++quadrant[(loc[2 * n] > 0) + 2 * (loc[2 * n + 1] > 0)];
  }
  for (int d = 0; d < 2; ++d) {
    CHECK(std::abs(mean[d]) < 0.02);               // U(-1, 1): mean 0, sd of the mean 0.003
    CHECK(sq[d] == Approx(1.0 / 3).margin(0.01));  // variance 1/3
  }
  for (int q : quadrant) CHECK(std::abs(q - kRows / 4) < 600);  // sd 87
  std::vector<double> dpre(2, 0.0);
  pol.AddScore(head.data(), loc.data(), choice[0], 1.0, dpre.data());
  pol.AddEntropyGrad(head.data(), 1.0, dpre.data());
  CHECK(dpre == std::vector<double>{0.0, 0.0});
  CHECK(pol.LogProb(head.data(), loc.data(), choice[0]) == Approx(std::log(0.25)));
  CHECK(pol.Entropy(head.data()) == Approx(std::log(4.0)));
}

TEST_CASE("Centre policy: every location is the centre, drawn without randomness", "[rl][policy][control]") {
  const CentrePolicy<double> pol;
  CHECK(pol.has_mean());
  CHECK(pol.noise_size() == 0);
  const double head[6] = {0.5, -0.7, 1, 1, -1, 0.2};
  double loc[6] = {9, 9, 9, 9, 9, 9};
  std::int32_t choice[3];
  std::vector<double> noise;
  Rng rng(5, "test"), untouched(5, "test");
  pol.Sample(head, 3, rng, noise, loc, choice);
  for (double v : loc) CHECK(v == 0.0);
  CHECK(rng.Next() == untouched.Next());  // it drew nothing
  double dpre[2] = {0, 0};
  pol.AddScore(head, loc, choice[0], 1.0, dpre);
  CHECK(dpre[0] == 0.0);
  CHECK(dpre[1] == 0.0);
}

TEST_CASE("The control policies are registered kinds", "[rl][policy][control]") {
  CHECK(Policies<float>().Find("uniform") != nullptr);
  CHECK(Policies<float>().Find("centre") != nullptr);
}
