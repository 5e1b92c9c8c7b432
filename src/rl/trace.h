// What the REINFORCE estimators read and write, as two value types owned by rl (the model's
// Rollout holds both; src/model/rollout.h):
//   PolicyTrace: the forward pass's record of an episode batch, read-only to the estimator;
//   LossSignals: the gradients the loss sends back to the model, written only by the estimator.
// Step t = 1..T occupies rows [(t-1) N, t N) of each (T N, .) tensor; N = images x samples.
#pragma once

#include <cstdint>
#include <vector>

#include "src/core/tensor.h"

namespace glimpse {

template <class T>
struct PolicyTrace {
  int steps = 0, rows = 0;           // T, N
  Mat<T> head;                       // (T N, K) location policy head (Gaussian: tanh means; categorical: probs)
  Mat<T> loc;                        // (T N, 2) locations l_t: drawn, the policy's expectation, or given
  std::vector<std::int32_t> choice;  // (T N) categorical cell, kContinuous, or kExpected
  Mat<T> baseline;                   // (T N, 1) b_t predicted from h_{t-1} (the learned baseline's input)
  Mat<T> logits;                     // (N, C) action network on h_T
  // With a classifier at every step (ModelSpec::step_logits): the action network on h_1 .. h_T,
  // whose last block equals logits; otherwise 0 rows.
  Mat<T> step_logits;  // (T N, C)
  // An agent that names several objects in turn (DRAM) and scores each itself: every step's reward
  // to go, the number of objects from the step's own on that the episode named right; empty: the
  // reward is the final answer's.
  std::vector<double> reward_to_go;  // (T N) or empty
};

template <class T>
struct LossSignals {
  Mat<T> probs;         // (N, C) softmax of the logits
  Mat<T> dlogits;       // (N, C) gradient at the logits (with step logits: unused, zero)
  Mat<T> dstep_logits;  // (T N, C) with step logits: the gradient at every step's logits, the final loss's included
  Mat<T> dpre;          // (T N, K) gradient at the location network's pre-activations
  Mat<T> dbaseline;     // (T N, 1) gradient at the baseline predictions
};

}  // namespace glimpse
