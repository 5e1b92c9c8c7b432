// Finite-difference gradient checking in double precision.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "src/core/rng.h"

namespace glimpse::test {

// Relative error of an analytic derivative a against a numeric one n. The floor keeps derivatives
// that are zero up to round-off from counting as large relative errors.
inline double RelError(double a, double n, double floor = 1e-6) {
  return std::abs(a - n) / std::max({std::abs(a), std::abs(n), floor});
}

// Largest relative error over x[0..n) of `analytic` against central differences of loss().
// loss() must read x; x is restored afterwards.
// `floor` is the smallest denominator of the relative error: derivatives far below it are compared
// absolutely, since central differences resolve them only to about 1e-16 |loss| / eps.
inline double MaxGradError(const std::function<double()>& loss, double* x, const double* analytic, std::size_t n,
                           double eps = 1e-5, std::string* where = nullptr, double floor = 1e-6) {
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double keep = x[i];
    x[i] = keep + eps;
    const double lp = loss();
    x[i] = keep - eps;
    const double lm = loss();
    x[i] = keep;
    const double num = (lp - lm) / (2 * eps);
    const double e = RelError(analytic[i], num, floor);
    if (e > worst) {
      worst = e;
      if (where)
        *where = "index " + std::to_string(i) + ": analytic " + std::to_string(analytic[i]) + " numeric " +
                 std::to_string(num);
    }
  }
  return worst;
}

// Fills p[0..n) with U(-scale, scale), keeping |value| >= margin (away from ReLU's kink).
inline void FillRandom(double* p, std::size_t n, Rng& rng, double scale = 1.0, double margin = 0.0) {
  for (std::size_t i = 0; i < n; ++i) {
    double v;
    do v = rng.Uniform(-scale, scale);
    while (std::abs(v) < margin);
    p[i] = v;
  }
}

// Weighted sum sum_i w_i y_i: a scalar loss whose gradient with respect to y is w.
inline double Dot(const double* w, const double* y, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += w[i] * y[i];
  return s;
}

}  // namespace glimpse::test
