// A Gaussian location policy whose standard deviation is learned from the state (issue 24): the
// location network gives four pre-activations per row, two for the mean and two for the std,
//   mu_d    = tanh(a_d)                                   d = x, y
//   sigma_d = s0 exp(L tanh(b_d / L)),  L = ln 10         s0 = --std, the start (b = 0)
// so each sigma stays within a decade of --std, smoothly (no clamp to stop its gradient).
//   log pi(l) = sum_d [ -(l_d - mu_d)^2 / (2 sigma_d^2) - log sigma_d - log(2 pi) / 2 ]
//   d log pi / d a_d = (l_d - mu_d) / sigma_d^2 (1 - mu_d^2)
//   d log pi / d b_d = ((l_d - mu_d)^2 / sigma_d^2 - 1) (1 - u_d^2),  u_d = log(sigma_d / s0) / L
// The entropy, sum_d log(sigma_d sqrt(2 pi e)), now depends on b, so --entropy pushes sigma up.
// Head (N, 4): mu_x, mu_y, sigma_x, sigma_y.
#pragma once

#include <cmath>

#include "src/core/error.h"
#include "src/rl/location_policy.h"

namespace glimpse {

template <class T>
class LearnedStdPolicy : public LocationPolicy<T> {
 public:
  static constexpr double kDecade = 2.302585092994046;  // L = ln 10

  explicit LearnedStdPolicy(double start_std) : s0_(start_std) {
    Check(start_std > 0, "learned-std policy: expected a positive starting std, found ", start_std);
  }
  std::string name() const override { return "learned-std"; }
  int head_size() const override { return 4; }

  void Activate(const T* pre, int rows, T* head) const override {
    for (int n = 0; n < rows; ++n) {
      const T* a = pre + 4 * n;
      T* h = head + 4 * n;
      const double b0 = a[2], b1 = a[3];  // read before writing: head may alias pre
      h[0] = std::tanh(a[0]), h[1] = std::tanh(a[1]);
      h[2] = static_cast<T>(s0_ * std::exp(kDecade * std::tanh(b0 / kDecade)));
      h[3] = static_cast<T>(s0_ * std::exp(kDecade * std::tanh(b1 / kDecade)));
    }
  }
  void Mean(const T* head, int rows, T* loc) const override {
    for (int n = 0; n < rows; ++n) loc[2 * n] = head[4 * n], loc[2 * n + 1] = head[4 * n + 1];
  }
  int noise_size() const override { return 2; }
  void DrawNoise(int rows, Rng& rng, double* noise) const override {
    for (int i = 0; i < 2 * rows; ++i) noise[i] = rng.Normal();
  }
  void Place(const T* head, int rows, const double* noise, T* loc, std::int32_t* choice) const override {
    for (int n = 0; n < rows; ++n) {
      const T* h = head + 4 * n;
      loc[2 * n] = h[0] + h[2] * static_cast<T>(noise[2 * n]);
      loc[2 * n + 1] = h[1] + h[3] * static_cast<T>(noise[2 * n + 1]);
      choice[n] = LocationPolicy<T>::kContinuous;
    }
  }
  double LogProb(const T* h, const T* l, std::int32_t) const override {
    constexpr double kHalfLog2Pi = 0.91893853320467274178;
    double s = 0;
    for (int d = 0; d < 2; ++d) {
      const double sd = h[2 + d], z = (static_cast<double>(l[d]) - h[d]) / sd;
      s += -0.5 * z * z - std::log(sd) - kHalfLog2Pi;
    }
    return s;
  }
  void AddScore(const T* h, const T* l, std::int32_t, T coef, T* dpre) const override {
    for (int d = 0; d < 2; ++d) {
      const double sd = h[2 + d], diff = static_cast<double>(l[d]) - h[d];
      dpre[d] += coef * static_cast<T>(diff / (sd * sd) * (1.0 - double(h[d]) * h[d]));
      dpre[2 + d] += coef * static_cast<T>((diff * diff / (sd * sd) - 1.0) * StdSlope(sd));
    }
  }
  double Entropy(const T* h) const override {
    constexpr double kHalfLog2PiE = 1.4189385332046727;  // log(sqrt(2 pi e))
    return std::log(static_cast<double>(h[2])) + std::log(static_cast<double>(h[3])) + 2 * kHalfLog2PiE;
  }
  void AddEntropyGrad(const T* h, T coef, T* dpre) const override {
    for (int d = 0; d < 2; ++d) dpre[2 + d] += coef * static_cast<T>(StdSlope(h[2 + d]));
  }

 private:
  // d log sigma / d b = 1 - u^2, u = tanh(b / L) = log(sigma / s0) / L.
  double StdSlope(double sd) const {
    const double u = std::log(sd / s0_) / kDecade;
    return 1.0 - u * u;
  }
  double s0_;
};

}  // namespace glimpse
