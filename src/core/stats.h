// Summary statistics over runs that differ only in their seed: n, mean, sample standard deviation and
// the half-width of a 95% confidence interval of the mean (Student's t); the interquartile mean and
// percentile bootstrap intervals (rliable: Agarwal et al. 2021). glimpse summarize prints them and
// glimpse.stats (Python) calls these same functions through glimpse._core.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "src/core/error.h"
#include "src/core/rng.h"

namespace glimpse {

struct SeedStats {
  int n = 0;
  double mean = NAN, std = NAN;  // std: sample standard deviation (n - 1); NaN for n < 2
  double ci95 = NAN;             // mean +- ci95 is the 95% interval; NaN for n < 2
};

// The two-sided 95% quantile of Student's t with df degrees of freedom (1.96 beyond 30).
inline double Student95(int df) {
  static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                             2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                             2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  return df >= 1 && df <= 30 ? t[df - 1] : 1.96;
}

inline SeedStats Summarize(const std::vector<double>& v) {
  SeedStats s;
  s.n = static_cast<int>(v.size());
  if (s.n == 0) return s;
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / s.n;
  if (s.n < 2) return s;
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.std = std::sqrt(ss / (s.n - 1));
  s.ci95 = Student95(s.n - 1) * s.std / std::sqrt(static_cast<double>(s.n));
  return s;
}

// The interquartile mean: the mean of the values left after the lowest and the highest floor(n / 4)
// are cut (rliable's IQM; scipy.stats.trim_mean(v, 0.25)). NaN for no values.
inline double InterquartileMean(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t k = v.size() / 4;
  double sum = 0;
  for (std::size_t i = k; i < v.size() - k; ++i) sum += v[i];
  return sum / static_cast<double>(v.size() - 2 * k);
}

// The q-quantile (q in [0, 1]) of ascending values, interpolated linearly between order statistics at
// position q (n - 1) (NumPy's default percentile). NaN for no values.
inline double Quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return NAN;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const std::size_t i = static_cast<std::size_t>(std::floor(pos));
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (pos - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

enum class Statistic { kMean, kIqm };

struct Interval {
  double lo = NAN, hi = NAN;
};

// The percentile bootstrap interval (two-sided, `level`) of the statistic of the values: each of
// `draws` resamples draws as many values as each stratum holds, with replacement, from that stratum
// (strata: one label per value, e.g. its task; empty: one stratum), from the stream Rng(seed,
// "bootstrap"), so the same call gives the same interval. NaN bounds for no values.
inline Interval BootstrapInterval(const std::vector<double>& v, Statistic statistic,
                                  const std::vector<int>& strata = {}, int draws = 10000, std::uint64_t seed = 0,
                                  double level = 0.95) {
  Interval out;
  Check(strata.empty() || strata.size() == v.size(), "bootstrap: expected one stratum label per value (", v.size(),
        "), found ", strata.size());
  Check(draws >= 1 && level > 0 && level < 1, "bootstrap: expected draws >= 1 and a level in (0, 1), found ", draws,
        " and ", level);
  if (v.empty()) return out;
  std::map<int, std::vector<std::size_t>> groups;  // stratum -> indices of its values
  for (std::size_t i = 0; i < v.size(); ++i) groups[strata.empty() ? 0 : strata[i]].push_back(i);
  Rng rng(seed, "bootstrap");
  std::vector<double> resample(v.size()), values(static_cast<std::size_t>(draws));
  for (double& value : values) {
    std::size_t j = 0;
    for (const auto& [label, idx] : groups)
      for (std::size_t k = 0; k < idx.size(); ++k) resample[j++] = v[idx[rng.UniformInt(idx.size())]];
    value = statistic == Statistic::kIqm ? InterquartileMean(resample) : Summarize(resample).mean;
  }
  std::sort(values.begin(), values.end());
  out.lo = Quantile(values, (1 - level) / 2);
  out.hi = Quantile(values, 1 - (1 - level) / 2);
  return out;
}

}  // namespace glimpse
