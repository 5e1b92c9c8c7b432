// The statistics over seeds (src/core/stats.h) against hand-computed values; glimpse.stats calls the
// same functions (tests/scripts/test_python_tools.sh checks the IQM against SciPy's trim_mean).
#include <catch2/catch.hpp>
#include <cmath>

#include "src/core/error.h"
#include "src/core/stats.h"

using namespace glimpse;

TEST_CASE("Summarize gives n, mean, sample std and Student's 95% half-width", "[core][stats]") {
  const SeedStats s = Summarize({1, 2, 3, 4});
  CHECK(s.n == 4);
  CHECK(s.mean == Approx(2.5));
  CHECK(s.std == Approx(std::sqrt(5.0 / 3)));               // ((1.5^2 + 0.5^2) 2) / 3
  CHECK(s.ci95 == Approx(3.182 * std::sqrt(5.0 / 3) / 2));  // t(3) s / sqrt(4)
  CHECK(std::isnan(Summarize({7}).std));
}

TEST_CASE("The interquartile mean cuts floor(n / 4) values from each end", "[core][stats]") {
  CHECK(InterquartileMean({5, 1, 9, 2, 7, 3}) == 4.25);  // sorted 1 2 3 5 7 9, cut 1 each side: (2+3+5+7)/4
  CHECK(InterquartileMean({1, 2, 3, 4}) == 2.5);         // (2+3)/2
  CHECK(InterquartileMean({1, 2, 30}) == 11);            // n = 3 cuts nothing: the mean
  CHECK(std::isnan(InterquartileMean({})));
}

TEST_CASE("Quantile interpolates linearly between order statistics, as NumPy's percentile", "[core][stats]") {
  const std::vector<double> v = {1, 2, 3, 4};
  CHECK(Quantile(v, 0) == 1);
  CHECK(Quantile(v, 1) == 4);
  CHECK(Quantile(v, 0.25) == Approx(1.75));  // position 0.75: 1 + 0.75 (2 - 1)
  CHECK(Quantile(v, 0.975) == Approx(3.925));
}

TEST_CASE("The bootstrap interval resamples within strata from a seeded stream", "[core][stats]") {
  // Constant values: every resample gives the value.
  const Interval c = BootstrapInterval({0.2, 0.2, 0.2}, Statistic::kMean);
  CHECK(c.lo == Approx(0.2).margin(1e-15));
  CHECK(c.hi == Approx(0.2).margin(1e-15));
  // Two strata that each hold one value twice: every resample keeps each stratum's runs, mean 0.5.
  const Interval s = BootstrapInterval({0, 0, 1, 1}, Statistic::kMean, {0, 0, 1, 1});
  CHECK(s.lo == 0.5);
  CHECK(s.hi == 0.5);
  // One stratum: the mean of 2 draws from {0, 1} is 0, 0.5 or 1 with probabilities 1/4, 1/2, 1/4, so
  // the 2.5% and 97.5% quantiles of 10,000 resamples are 0 and 1.
  const Interval u = BootstrapInterval({0, 1}, Statistic::kMean);
  CHECK(u.lo == 0);
  CHECK(u.hi == 1);
  // Seeded: the same call gives the same interval, inside the values' range.
  const Interval a = BootstrapInterval({0.1, 0.4, 0.2, 0.9, 0.3}, Statistic::kIqm, {}, 500, 3);
  const Interval b = BootstrapInterval({0.1, 0.4, 0.2, 0.9, 0.3}, Statistic::kIqm, {}, 500, 3);
  CHECK((a.lo == b.lo && a.hi == b.hi));
  CHECK(a.lo >= 0.1);
  CHECK(a.hi <= 0.9);
  CHECK(a.lo < a.hi);
  CHECK(std::isnan(BootstrapInterval({}, Statistic::kMean).lo));
  CHECK_THROWS_AS(BootstrapInterval({1, 2}, Statistic::kMean, {0}), Error);
  CHECK_THROWS_AS(BootstrapInterval({1, 2}, Statistic::kMean, {}, 0), Error);
}
