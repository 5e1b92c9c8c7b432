// The registered attention mechanisms of --attention: each names its sensor (sensor.h) and, for hard
// attention, the registered location policy (src/rl/policies.h) that chooses where it looks. A kind
// without a policy is a differentiable read, trained by backpropagation through each read.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "src/attention/sensor.h"
#include "src/core/registry.h"

namespace glimpse {

template <class T>
struct AttentionKind : KindInfo {
  std::string policy;  // hard attention: the registered location policy; empty: a differentiable read
  bool hard() const { return !policy.empty(); }
  // True when the sensor reads wherever any registered policy says, so --policy may replace its own.
  bool any_policy = false;
  // True when the read's backward pass is a surrogate gradient (Gumbel straight-through: biased by
  // design), so finite differences of the forward cannot check it; its own test measures the bias.
  bool straight_through = false;
  // The sensor for a canvas of height x width pixels.
  std::function<std::unique_ptr<Sensor<T>>(const ExperimentConfig&, int height, int width)> make;
};

// The location policy that a configuration's hard attention k runs: --policy, or k's own.
template <class T>
const std::string& PolicyOf(const AttentionKind<T>& k, const ExperimentConfig& c) {
  return c.policy.empty() ? k.policy : c.policy;
}

// Every registered attention: one declaration and one line each in attentions.cpp.
// T: float (training) or double (checks).
template <class T>
const Registry<AttentionKind<T>>& Attentions();

}  // namespace glimpse
