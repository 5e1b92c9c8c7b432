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
  // The sensor for a canvas of height x width pixels.
  std::function<std::unique_ptr<Sensor<T>>(const ExperimentConfig&, int height, int width)> make;
};

// Every registered attention: one declaration and one line each in attentions.cpp.
// T: float (training) or double (checks).
template <class T>
const Registry<AttentionKind<T>>& Attentions();

}  // namespace glimpse
