// A rollout: every step's tensors of one batch of episodes, as a value (docs/architecture.md).
// Step t = 1..T occupies rows [(t-1) N, t N) of each (T N, .) tensor; N = images x samples.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/attention/sensor.h"
#include "src/model/core_network.h"
#include "src/rl/trace.h"

namespace glimpse {

// A rollout's sensor cache (Sensor::MakeCache) and the sensor that made it. A copy starts empty:
// its sensor makes a fresh cache the first time it runs on the copy.
struct SensorCacheSlot {
  std::unique_ptr<SensorCache> cache;
  const void* of = nullptr;  // the sensor that made `cache`
  SensorCacheSlot() = default;
  SensorCacheSlot(const SensorCacheSlot&) {}
  SensorCacheSlot& operator=(const SensorCacheSlot&) {
    cache.reset(), of = nullptr;
    return *this;
  }
  SensorCacheSlot(SensorCacheSlot&&) = default;
  SensorCacheSlot& operator=(SensorCacheSlot&&) = default;
};

// The policy's trace (head, loc, choice, baseline, logits, steps, rows) and the loss's signals
// (probs, dlogits, dpre, dbaseline) are the rl types it derives from; the rest is the model's own.
template <class T>
struct Rollout : PolicyTrace<T>, LossSignals<T> {
  using PolicyTrace<T>::steps;
  using PolicyTrace<T>::rows;
  // forward
  // random numbers of a sampled rollout, drawn before the steps in step-then-row order
  std::vector<double> noise;           // (T N, policy noise_size) see LocationPolicy::DrawNoise
  std::vector<std::uint8_t> expected;  // (T N) 1: semi-sampling takes the expected location
  Mat<T> read;                         // (T N, 2) what the sensor and the glimpse net saw: l_t clamped to [-1, 1]
  Mat<T> x;                            // (T N, D) glimpses
  Mat<T> hg, hl;                       // (T N, Gh) glimpse network hiddens
  Mat<T> glimpse_cache;                // (T N, cache_size()) the image path's activations (layer-major: CacheRows)
  std::vector<T> glimpse_scratch;      // (GlimpseEncoder::scratch_size())
  Mat<T> g;                            // (T N, H) glimpse network outputs = core inputs
  CoreCache<T> core;
  std::vector<std::int32_t> actions;  // (N) argmax of probs
  // backward scratch
  Mat<T> dH;        // ((T+1) N, H)
  Mat<T> dg;        // (T N, H)
  Mat<T> dhg, dhl;  // (T N, Gh)
  // Differentiable sensors: the images read (not owned; valid until the episode is reset), the
  // gradient at each glimpse, and the sensor's gradient at its read parameters.
  const T* images = nullptr;
  int height = 0, width = 0;
  Mat<T> dx;               // (T N, D)
  Mat<T> dread;            // (N, P)
  SensorCacheSlot sensor;  // the sensor's tables for this batch and its scratch (Sensor::Prepare)
  // The context network (AttentionModel, ModelSpec::context > 0): its view of each canvas, the
  // view sensor's scratch, and the gradient at its pre-activation.
  Mat<T> context_view;  // (N, V)
  Mat<T> dcontext;      // (N, H)
  SensorCacheSlot context_cache;
  T context_scale = 1;  // the fade's s when this rollout ran forward (h_0 = s tanh(.))

  T* block(Mat<T>& m, int t) { return m.data() + static_cast<Index>(t - 1) * rows * m.shape(1); }
  const T* block(const Mat<T>& m, int t) const { return m.data() + static_cast<Index>(t - 1) * rows * m.shape(1); }
};

}  // namespace glimpse
