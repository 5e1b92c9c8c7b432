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

// The shared sensor options a read is made with (src/train/make_kinds.h fills it from the
// configuration) and the canvas it reads.
struct SensorShape {
  int patch = 8;                   // --patch: g, the read's side at its finest scale
  int scales = 1;                  // --scales: k
  int grid = 4;                    // --grid: N x N candidate centres (categorical, soft, gumbel)
  double unit_pixels = 0;          // --unit-pixels: pixels per unit of location (0 = half the canvas)
  int attention_dim = 64;          // --attention-dim (soft): query and key size
  std::string score = "additive";  // --score (soft): additive | dot | scaled-dot
  int height = 0, width = 0;       // the canvas, pixels
};

template <class T>
struct AttentionKind : KindInfo {
  std::string policy;  // hard attention: the registered location policy; empty: a differentiable read
  bool hard() const { return !policy.empty(); }
  // True when the sensor reads wherever any registered policy says, so --policy may replace its own.
  bool any_policy = false;
  // True when the read's backward pass is a surrogate gradient (Gumbel straight-through: biased by
  // design), so finite differences of the forward cannot check it; its own test measures the bias.
  bool straight_through = false;
  // The sensor of this kind's settings with the shared shape.
  std::function<std::unique_ptr<Sensor<T>>(const Settings&, const SensorShape&)> make;
};

// Every registered attention: one declaration and one line each in attentions.cpp.
// T: float (training) or double (checks).
template <class T>
const Registry<AttentionKind<T>>& Attentions();

}  // namespace glimpse
