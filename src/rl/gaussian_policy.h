// RAM's Gaussian location policy (Mnih et al. 2014, section 4): mu = tanh(pre), l ~ N(mu, std^2 I),
// fixed std.
//   log pi(l | mu) = sum_d [ -(l_d - mu_d)^2 / (2 std^2) - log std - log(2 pi) / 2 ]
//   d log pi / d pre_d = (l_d - mu_d) / std^2 * (1 - mu_d^2)
// The entropy, sum_d log(std sqrt(2 pi e)), does not depend on the parameters.
#pragma once

#include <cmath>

#include "src/core/error.h"
#include "src/core/settings.h"
#include "src/nn/activations.h"
#include "src/rl/location_policy.h"

namespace glimpse {

// --std, owned by the Gaussian policy kind (gaussian_policy.cpp); learned-std starts from it.
extern const KindOption<double> kPolicyStd;

template <class T>
class GaussianPolicy : public LocationPolicy<T> {
 public:
  explicit GaussianPolicy(double std) : std_(static_cast<T>(std)) {
    Check(std > 0, "Gaussian policy: expected a positive std, found ", std);
  }
  std::string name() const override { return "gaussian"; }
  int head_size() const override { return 2; }
  T std() const { return std_; }

  void Activate(const T* pre, int rows, T* head) const override {
    TanhForward(pre, static_cast<std::size_t>(rows) * 2, head);
  }
  void Mean(const T* head, int rows, T* loc) const override {
    std::copy(head, head + static_cast<std::size_t>(rows) * 2, loc);
  }
  // Noise: two standard normal deviates per row, l = mu + std z.
  int noise_size() const override { return 2; }
  void DrawNoise(int rows, Rng& rng, double* noise) const override {
    for (int i = 0; i < 2 * rows; ++i) noise[i] = rng.Normal();
  }
  void Place(const T* head, int rows, const double* noise, T* loc, std::int32_t* choice) const override {
    for (int n = 0; n < rows; ++n) {
      loc[2 * n] = head[2 * n] + std_ * static_cast<T>(noise[2 * n]);
      loc[2 * n + 1] = head[2 * n + 1] + std_ * static_cast<T>(noise[2 * n + 1]);
      choice[n] = LocationPolicy<T>::kContinuous;
    }
  }
  double LogProb(const T* mu, const T* l, std::int32_t) const override {
    constexpr double kHalfLog2Pi = 0.91893853320467274178;
    double s = 0;
    for (int d = 0; d < 2; ++d) {
      const double z = (static_cast<double>(l[d]) - mu[d]) / std_;
      s += -0.5 * z * z - std::log(static_cast<double>(std_)) - kHalfLog2Pi;
    }
    return s;
  }
  void AddScore(const T* mu, const T* l, std::int32_t, T coef, T* dpre) const override {
    for (int d = 0; d < 2; ++d) dpre[d] += coef * (l[d] - mu[d]) / (std_ * std_) * (T(1) - mu[d] * mu[d]);
  }
  double Entropy(const T*) const override {
    return 2 * (std::log(static_cast<double>(std_)) + 1.4189385332046727);  // log(sqrt(2 pi e))
  }
  void AddEntropyGrad(const T*, T, T*) const override {}

 private:
  T std_;
};

}  // namespace glimpse
