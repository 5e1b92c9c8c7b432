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
  // random numbers of a sampled rollout, drawn before the steps in step-then-row order
  std::vector<double> noise;           // (T N, policy noise_size) see LocationPolicy::DrawNoise
  std::vector<std::uint8_t> expected;  // (T N) 1: semi-sampling takes the expected location
  Mat<T> head;      // (T N, K) location policy head (Gaussian: tanh means; categorical: probs)
  Mat<T> loc;       // (T N, 2) locations l_t: drawn, the policy's expectation, or given
  std::vector<std::int32_t> choice;  // (T N) categorical cell, kContinuous, or kExpected
  Mat<T> read;      // (T N, 2) what the sensor and the glimpse net saw: l_t clamped to [-1, 1]
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
  Mat<T> dpre;       // (T N, K) gradient at the location network's pre-activations
  Mat<T> dbaseline;  // (T N, 1)
  Mat<T> dH;         // ((T+1) N, H)
  Mat<T> dg;         // (T N, H)
  Mat<T> dhg, dhl;   // (T N, Gh)
  // Differentiable sensors: the images read (not owned; valid until the episode is reset), the
  // gradient at each glimpse, and the sensor's gradient at its read parameters.
  const T* images = nullptr;
  int height = 0, width = 0;
  Mat<T> dx;         // (T N, D)
  Mat<T> dread;      // (N, P)

  T* block(Mat<T>& m, int t) { return m.data() + static_cast<Index>(t - 1) * rows * m.shape(1); }
  const T* block(const Mat<T>& m, int t) const {
    return m.data() + static_cast<Index>(t - 1) * rows * m.shape(1);
  }
};

}  // namespace glimpse
