// The baseline of the REINFORCE estimator (estimator.h): b in the advantage A = R' - b.
//
// A Baseline is one registered kind (Baselines(), baselines.cpp). Per batch the estimator calls
// Begin with the rewards, then Value for every (step, row), then End; a baseline with state (the
// moving average) keeps it inside and exposes it through State / SetState, which the estimator's
// checkpoint saves and restores. Baselines never change the expected gradient (tested).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "src/core/registry.h"

namespace glimpse {

class Baseline {
 public:
  virtual ~Baseline() = default;
  // rewards R' (N), rows n = i M + m holding sample m of image i.
  virtual void Begin(const std::vector<double>& /*rewards*/, int /*samples*/) {}
  // b for image-sample n at one step; predicted: the model's baseline network's output there.
  virtual double Value(int n, double predicted) const = 0;
  // True when the model's baseline network regresses R' (a third loss term).
  virtual bool learned() const { return false; }
  // After the batch: mean_reward = mean of R'.
  virtual void End(double /*mean_reward*/) {}
  // State carried from batch to batch (checkpointed under these names; absent names keep the start).
  virtual std::map<std::string, double> State() const { return {}; }
  virtual void SetState(const std::map<std::string, double>& /*state*/) {}
};

struct BaselineKind : KindInfo {
  std::function<std::unique_ptr<Baseline>(int samples)> make;  // samples: M episodes per image
};

// --baseline: every registered baseline, one declaration and one line each in baselines.cpp.
const Registry<BaselineKind>& Baselines();

}  // namespace glimpse
