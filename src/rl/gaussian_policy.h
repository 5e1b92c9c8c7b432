// RAM's Gaussian location policy: l ~ N(mu, std^2 I) per coordinate, fixed std
// (Mnih et al. 2014, section 4: "the location network outputs the mean of the location policy").
//   log pi(l | mu) = sum_d [ -(l_d - mu_d)^2 / (2 std^2) - log std - log(2 pi) / 2 ]
//   d log pi / d mu_d = (l_d - mu_d) / std^2
// The sample is a constant for backpropagation; REINFORCE reaches mu only through log pi.
#pragma once

#include <cmath>
#include <cstddef>

#include "src/core/rng.h"

namespace glimpse {

template <class T>
struct GaussianPolicy {
  T std;

  // l = mu + std * eps, eps ~ N(0, 1); n values.
  void Sample(const T* mu, std::size_t n, Rng& rng, T* l) const {
    for (std::size_t i = 0; i < n; ++i) l[i] = mu[i] + std * static_cast<T>(rng.Normal());
  }

  // log pi of one P-dimensional location.
  double LogProb(const T* l, const T* mu, int dims) const {
    constexpr double kHalfLog2Pi = 0.91893853320467274178;
    double s = 0;
    for (int d = 0; d < dims; ++d) {
      const double z = (static_cast<double>(l[d]) - mu[d]) / std;
      s += -0.5 * z * z - std::log(static_cast<double>(std)) - kHalfLog2Pi;
    }
    return s;
  }

  // d log pi / d mu for one coordinate.
  T ScoreMean(T l, T mu) const { return (l - mu) / (std * std); }
};

}  // namespace glimpse
