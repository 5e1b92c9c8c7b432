// The baseline of the REINFORCE estimator (estimator.h): b in the advantage A = G - b.
//
// A Baseline is one registered kind (Baselines(), baselines.cpp). Per batch the estimator calls
// Begin with the returns and the state before the batch, then Value for every (step, row), then
// End, which writes the next state; a baseline with state (the moving average) keeps none of it
// between batches: the caller holds it (the trainer, which checkpoints it), so a probe batch that
// must not move it simply passes a copy. Baselines never change the expected gradient (tested).
// Returns G (T N): entry i = (t-1) N + n is the return that weighs step t's score of row n (the
// terminal reward: R'_n at every t; dense rewards: the sum of the rewards from step t on; rewards.h).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "src/core/registry.h"

namespace glimpse {

// The state a baseline carries from batch to batch, by name (checkpointed as scalars under them).
using BaselineState = std::map<std::string, double>;

class Baseline {
 public:
  virtual ~Baseline() = default;
  // returns G (T N) of N = returns.size() / T rows, rows n = i M + m holding sample m of image i;
  // greedy: the returns of the greedy episodes of the same rows (T N), given exactly when greedy();
  // state: the state before this batch (Start() before the first).
  virtual void Begin(const std::vector<double>& /*returns*/, int /*rows*/, int /*samples*/,
                     const std::vector<double>& /*greedy*/, const BaselineState& /*state*/) {}
  // b at entry i = (t-1) N + n; predicted: the model's baseline network's output there.
  virtual double Value(std::size_t i, double predicted) const = 0;
  // True when the model's baseline network regresses G (a third loss term).
  virtual bool learned() const { return false; }
  // True when Begin needs the returns of the greedy (policy-mean) episode of every row.
  virtual bool greedy() const { return false; }
  // After the batch: the next state into `state` (which held the one Begin was given), from
  // mean_return = the batch's mean of G at step 1 (the whole episode's return).
  virtual void End(double /*mean_return*/, BaselineState& /*state*/) const {}
  // The state before the first batch; its names are the ones a checkpoint keeps.
  virtual BaselineState Start() const { return {}; }
};

struct BaselineKind : KindInfo {
  std::function<std::unique_ptr<Baseline>(int samples)> make;  // samples: M episodes per image
};

// --baseline: every registered baseline, one declaration and one line each in baselines.cpp.
const Registry<BaselineKind>& Baselines();

}  // namespace glimpse
