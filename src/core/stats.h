// Summary statistics over runs that differ only in their seed: n, mean, sample standard deviation and
// the half-width of a 95% confidence interval of the mean (Student's t).
#pragma once

#include <cmath>
#include <vector>

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

}  // namespace glimpse
