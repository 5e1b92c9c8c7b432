// The one interface behind every hard-attention location policy (REINFORCE learns it).
//
// The location network maps h_{t-1} (N, H) to K pre-activations per row; the policy turns them into
// its "head" (N, K) (Gaussian: tanh means; categorical: softmax probabilities over a grid), draws a
// location l (N, 2) in [-1, 1]^2, and gives the score d log pi(l) / d pre for REINFORCE. A choice
// index per row identifies a categorical draw; kExpected marks a row whose location was replaced by
// the policy's expected location (semi-sampling), which carries no REINFORCE gradient.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/core/rng.h"

namespace glimpse {

template <class T>
class LocationPolicy {
 public:
  static constexpr std::int32_t kContinuous = -1;  // a Gaussian draw
  static constexpr std::int32_t kExpected = -2;    // the expected location, not a draw

  virtual ~LocationPolicy() = default;
  virtual std::string name() const = 0;
  virtual int head_size() const = 0;  // K
  // False for a policy whose expectation is not what it does (the uniform control): evaluation and
  // the logged trajectories then sample it (AttentionModel::Resolve) instead of taking Mean.
  virtual bool has_mean() const { return true; }
  // pre (N, K) -> head (N, K); may alias.
  virtual void Activate(const T* pre, int rows, T* head) const = 0;
  // Expected location of each row: head (N, K) -> loc (N, 2) (semi-sampling's replacement).
  virtual void Mean(const T* head, int rows, T* loc) const = 0;
  // The deterministic location that evaluation (M = 1) and the greedy episode take: head (N, K) ->
  // loc (N, 2). The mean, except where the mean is not a place the policy can go (categorical: the
  // weighted average of the cell centres; its greedy location is the most probable cell's centre).
  virtual void Greedy(const T* head, int rows, T* loc) const { Mean(head, rows, loc); }
  // What Greedy takes, in words (evaluation's description).
  virtual std::string greedy_name() const { return "policy mean"; }
  // A draw is split in two so that the random numbers can be drawn for a whole batch in row order
  // and the rows then processed in any grouping (data-parallel shards) with the same result:
  // noise_size() deviates per row; DrawNoise fills noise (N, noise_size) from rng in row order;
  // Place turns each row's noise into its draw: loc (N, 2) and choice (N).
  virtual int noise_size() const = 0;
  virtual void DrawNoise(int rows, Rng& rng, double* noise) const = 0;
  virtual void Place(const T* head, int rows, const double* noise, T* loc, std::int32_t* choice) const = 0;
  // One draw per row (DrawNoise then Place); noise is the caller's buffer, sized here (no
  // allocation once it is large enough).
  void Sample(const T* head, int rows, Rng& rng, std::vector<double>& noise, T* loc, std::int32_t* choice) const {
    noise.resize(static_cast<std::size_t>(rows) * noise_size());
    DrawNoise(rows, rng, noise.data());
    Place(head, rows, noise.data(), loc, choice);
  }
  // log pi(l | head) of one row (choice != kExpected).
  virtual double LogProb(const T* head, const T* loc, std::int32_t choice) const = 0;
  // dpre (K) += coef * d log pi(l) / d pre for one row (choice != kExpected).
  virtual void AddScore(const T* head, const T* loc, std::int32_t choice, T coef, T* dpre) const = 0;
  // Entropy of one row's distribution, and dpre (K) += coef * dH / d pre.
  virtual double Entropy(const T* head) const = 0;
  virtual void AddEntropyGrad(const T* head, T coef, T* dpre) const = 0;
};

}  // namespace glimpse
