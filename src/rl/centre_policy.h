// A control, not a learner: every glimpse is at the centre of the canvas, l = (0, 0), whatever the
// state ("fixed-centre" control of issue 20; with the whole-canvas sensor, the location is unused).
// The location network's outputs are ignored. The policy is a point mass: it draws nothing, its
// score is zero and its entropy and log-probability are reported as 0.
#pragma once

#include "src/rl/location_policy.h"

namespace glimpse {

template <class T>
class CentrePolicy : public LocationPolicy<T> {
 public:
  std::string name() const override { return "centre"; }
  int head_size() const override { return 2; }
  void Activate(const T* pre, int rows, T* head) const override {
    std::copy(pre, pre + static_cast<std::size_t>(rows) * 2, head);
  }
  void Mean(const T*, int rows, T* loc) const override {
    std::fill(loc, loc + static_cast<std::size_t>(rows) * 2, T(0));
  }
  int noise_size() const override { return 0; }
  void DrawNoise(int, Rng&, double*) const override {}
  void Place(const T* head, int rows, const double*, T* loc, std::int32_t* choice) const override {
    Mean(head, rows, loc);
    std::fill(choice, choice + rows, LocationPolicy<T>::kContinuous);
  }
  double LogProb(const T*, const T*, std::int32_t) const override { return 0.0; }
  void AddScore(const T*, const T*, std::int32_t, T, T*) const override {}
  double Entropy(const T*) const override { return 0.0; }
  void AddEntropyGrad(const T*, T, T*) const override {}
};

}  // namespace glimpse
