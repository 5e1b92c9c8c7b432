// A control, not a learner: the location is uniform over the canvas, l ~ U([-1, 1]^2), whatever the
// state. With the retina it is the "random-location" control of issue 20: what a glimpse sequence
// is worth without a learned policy. The location network's outputs are ignored (its parameters get
// no gradient), log pi(l) = log(1/4) everywhere, and the score d log pi / d pre is zero, so the
// REINFORCE term vanishes whatever the baseline.
//
// has_mean() is false: the expectation (the centre) is not what this policy does, so evaluation
// samples instead (AttentionModel::Resolve); semi-sampling rows take the centre.
#pragma once

#include <cmath>

#include "src/rl/location_policy.h"

namespace glimpse {

template <class T>
class UniformPolicy : public LocationPolicy<T> {
 public:
  std::string name() const override { return "uniform"; }
  int head_size() const override { return 2; }
  bool has_mean() const override { return false; }
  void Activate(const T* pre, int rows, T* head) const override {
    std::copy(pre, pre + static_cast<std::size_t>(rows) * 2, head);
  }
  void Mean(const T*, int rows, T* loc) const override {
    std::fill(loc, loc + static_cast<std::size_t>(rows) * 2, T(0));
  }
  // Noise: two U(0, 1) deviates per row, l = 2u - 1.
  int noise_size() const override { return 2; }
  void DrawNoise(int rows, Rng& rng, double* noise) const override {
    for (int i = 0; i < 2 * rows; ++i) noise[i] = rng.Uniform();
  }
  void Place(const T*, int rows, const double* noise, T* loc, std::int32_t* choice) const override {
    for (int i = 0; i < 2 * rows; ++i) loc[i] = static_cast<T>(2 * noise[i] - 1);
    std::fill(choice, choice + rows, LocationPolicy<T>::kContinuous);
  }
  double LogProb(const T*, const T*, std::int32_t) const override { return -std::log(4.0); }
  void AddScore(const T*, const T*, std::int32_t, T, T*) const override {}
  double Entropy(const T*) const override { return std::log(4.0); }
  void AddEntropyGrad(const T*, T, T*) const override {}
};

}  // namespace glimpse
