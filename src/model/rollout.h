// A rollout: every step's tensors of one batch of episodes, as a value (DESIGN.md section 1).
// Step t = 1..T occupies rows [(t-1) N, t N) of each (T N, .) tensor; N = images x samples.
#pragma once

#include <cstdint>
#include <vector>

#include "src/model/core_network.h"

namespace glimpse {

template <class T>
struct Rollout {
  int steps = 0, rows = 0;
  // forward
  Mat<T> mu;        // (T N, P) policy mean of the read parameters
  Mat<T> loc;       // (T N, P) sampled locations l_t (or the mean, or given)
  Mat<T> read;      // (T N, P) what the sensor and the glimpse net saw: l_t clamped to [-1, 1]
  Mat<T> x;         // (T N, D) glimpses
  Mat<T> hg, hl;    // (T N, Gh) glimpse network hiddens
  Mat<T> g;         // (T N, H) glimpse network outputs = core inputs
  CoreCache<T> core;
  Mat<T> baseline;  // (T N, 1) b_t predicted from h_{t-1}
  Mat<T> logits;    // (N, C) action network on h_T
  Mat<T> probs;     // (N, C)
  std::vector<std::int32_t> actions;  // (N) argmax of probs
  // gradient signals (set by the loss) and backward scratch
  Mat<T> dlogits;    // (N, C)
  Mat<T> dmu;        // (T N, P) gradient at mu
  Mat<T> dbaseline;  // (T N, 1)
  Mat<T> dH;         // ((T+1) N, H)
  Mat<T> dg;         // (T N, H)
  Mat<T> dhg, dhl;   // (T N, Gh)
  Mat<T> dmu_pre;    // (T N, P)

  T* block(Mat<T>& m, int t) { return m.data() + static_cast<Index>(t - 1) * rows * m.shape(1); }
  const T* block(const Mat<T>& m, int t) const {
    return m.data() + static_cast<Index>(t - 1) * rows * m.shape(1);
  }
};

}  // namespace glimpse
