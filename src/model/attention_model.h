// The Recurrent Attention Model (Mnih et al. 2014) over a whole minibatch of episodes:
//
//   for t = 1..T:  pi_t = policy(W_loc h_{t-1} + b)        location network (h_0 = 0)
//                  l_t  ~ pi_t  (or its mean, or given)      Gaussian or categorical policy
//                  x_t  = sensor(image, clamp(l_t, -1, 1))   glimpse sensor
//                  g_t  = glimpse_net(x_t, clamp(l_t))       glimpse network
//                  h_t  = core(g_t, h_{t-1})                 core network (rnn | lstm)
//                  b_t  = W_b h_{t-1} + c                    baseline network (input detached)
//   logits = W_a h_T + b_a                                   action network
//
// With ModelSpec::step_logits the action network also classifies after every glimpse, z_t = W_a h_t
// + b_a for t = 1..T (one product over all steps; r.step_logits), for an auxiliary loss at every
// step and dense rewards (estimator.h); the gradient r.dstep_logits then enters h_t at every step.
//
// With a context network (ModelSpec::context > 0, DRAM, Ba et al. 2015), h_0 is not 0 but
//   h_0 = tanh(W_c v + b_c),  v = the whole canvas box-filtered to context x context pixels,
// so the first location (or read) already depends on the image. Its gradient is the one that
// reaches h_0: through the core from every later step, through the first read of a differentiable
// sensor, and, with reinforce_into_core, through the first location. With ModelSpec::context_fade
// = F > 0 the context is a head start that is taken away: h_0 = s tanh(W_c v + b_c) with
// s = max(0, 1 - progress / F) (SetInputs), so from the fraction F of training on h_0 = 0 and the
// model is RAM's again (the context parameters then get no gradient).
//
// The location and baseline networks read h detached: Backward sends the action loss through the
// core and glimpse networks, the REINFORCE signal (dpre) only into the location network, and the
// baseline regression only into the baseline network. Sampled locations are constants. With
// ModelSpec::reinforce_into_core the location network's input is not detached: dpre also reaches
// h_{t-1} and through it the core and glimpse networks (the baseline stays detached).
//
// With a differentiable sensor (DRAW, spatial transformer) there is no policy: the location
// network is a read network whose outputs are the sensor's read parameters, p_t = W h_{t-1} + b,
// and the classification loss reaches it, and the core through it, by backpropagation through each
// read (an interleaved per-step backward pass).
#pragma once

#include <memory>
#include <string>

#include "src/attention/sensor.h"
#include "src/model/core_network.h"
#include "src/model/glimpse_network.h"
#include "src/model/rollout.h"
#include "src/rl/location_policy.h"

namespace glimpse {

struct ModelSpec {
  int steps = 6;             // T glimpses
  int glimpse_hidden = 128;  // h_g, h_l
  int hidden = 256;          // g and the core state
  int classes = 10;
  std::string core = "rnn";
  // When true the REINFORCE signal also flows from the location network into h_{t-1}, and so into
  // the core and glimpse networks, as in Mnih et al. 2014, whose hybrid loss trains all parameters;
  // false detaches the location network's input, as most reimplementations do.
  bool reinforce_into_core = false;
  int context = 0;  // side of the context network's view of the canvas (0: no context network, h_0 = 0)
  // With a context network: the fraction of training over which h_0 fades linearly to 0 (0: never).
  double context_fade = 0;
  bool step_logits = false;  // classify after every glimpse (r.step_logits), not only after the last
};

// kSample: draw each location; kMean: the policy's greedy location (LocationPolicy::Greedy: the mean
// of a Gaussian, the most probable cell of a categorical policy); kGiven: reuse r.loc and r.choice.
enum class LocationMode { kSample, kMean, kGiven };

template <class T>
class AttentionModel {
 public:
  // Registers and allocates all parameters; Init() draws them. policy is null exactly when the
  // sensor is differentiable. context_view: the sensor of the context network's view (output
  // size V; its read parameters are ignored), required exactly when spec.context > 0. encoder: the
  // glimpse network's image path for the sensor's glimpse (null: RAM's fc, FcEncoder).
  AttentionModel(const ModelSpec& spec, std::unique_ptr<Sensor<T>> sensor, std::unique_ptr<LocationPolicy<T>> policy,
                 std::unique_ptr<Sensor<T>> context_view = nullptr,
                 std::unique_ptr<GlimpseEncoder<T>> encoder = nullptr);

  void Init(Rng& rng);

  // Runs T steps on images (N, H, W). kSample draws l_t from the policy with `rng`, except that with
  // probability `semi_sampling` a row takes the policy's expected location instead; kMean always
  // takes the greedy location; kGiven reuses r.loc and r.choice as they are (gradient checks).
  // A policy without a mean (the uniform control: LocationPolicy::has_mean) samples in kMean mode
  // too (see Resolve), so its rng must then be given as well.
  void Forward(const T* images, int rows, int height, int width, Rollout<T>& r, LocationMode mode, Rng* rng,
               double semi_sampling = 0.0) const;
  // The mode Forward runs: kMean becomes kSample for a policy that has no mean.
  LocationMode Resolve(LocationMode mode) const {
    return mode == LocationMode::kMean && policy_ && !policy_->has_mean() ? LocationMode::kSample : mode;
  }

  // Forward in two parts: DrawNoise fills r.noise and r.expected for `rows` episodes from rng in
  // the order Forward consumes them (step by step; in each step the policy's deviates for every
  // row, then one semi-sampling draw per row when semi_sampling > 0; a differentiable read with
  // read noise (Sensor::read_noise) draws P deviates (normal or Gumbel) per row and step instead, added to its
  // read parameters in kSample and kGiven, not in kMean); ForwardDrawn then runs the
  // steps, kSample taking its draws from r.noise / r.expected. Forward(kSample) is exactly the two
  // in turn; a data-parallel caller draws for the whole batch and hands each shard its rows.
  void DrawNoise(int rows, Rng& rng, double semi_sampling, Rollout<T>& r) const;
  void ForwardDrawn(const T* images, int rows, int height, int width, Rollout<T>& r, LocationMode mode) const;

  // Back-propagates r.dlogits (with step logits r.dstep_logits), r.dpre and r.dbaseline (set by an
  // Estimator) into the gradients
  // (accumulating; call store().ZeroGrad() first).
  void Backward(Rollout<T>& r) const;

  // Deviates per row and step in r.noise: the policy's, a noisy read's P, or 0.
  int noise_size() const {
    return policy_ ? policy_->noise_size() : (sensor_->read_noise().on() ? sensor_->param_size() : 0);
  }
  // The step's inputs (the training progress, ...) for the sensor (Sensor::SetInputs) and the context fade.
  void SetInputs(const StepInputs& inputs);
  T context_scale() const { return context_scale_; }  // s of the context fade: 1 without one
  ParamStore<T>& store() { return store_; }
  const ParamStore<T>& store() const { return store_; }
  const ModelSpec& spec() const { return spec_; }
  const Sensor<T>& sensor() const { return *sensor_; }
  const LocationPolicy<T>* policy() const { return policy_.get(); }  // null: differentiable sensor
  // The tensors whose gradient depends on the episode's draws, for the gradient-variance diagnostic:
  // the location network under a policy (REINFORCE) or under a noisy differentiable read (pathwise,
  // Gumbel: backpropagation through the draw); none for a deterministic read.
  std::vector<ParamId> PolicyParams() const {
    return policy_ || sensor_->read_noise().on() ? location_.params() : std::vector<ParamId>{};
  }
  // When set, Forward adds the seconds spent in the sensor to *seconds (profiling).
  void set_sensor_timer(double* seconds) { sensor_seconds_ = seconds; }
  // Parameter name prefixes of each sub-network, for tests and diagnostics.
  static constexpr const char* kGlimpse = "glimpse.";
  static constexpr const char* kCore = "core.";
  static constexpr const char* kLocation = "location.";
  static constexpr const char* kAction = "action.";
  static constexpr const char* kBaseline = "baseline.";
  static constexpr const char* kContext = "context.";

 private:
  void Prepare(int rows, Rollout<T>& r) const;
  void ActionBackward(Rollout<T>& r) const;  // the classification loss's gradient into r.dH
  void BackwardThroughReads(Rollout<T>& r) const;
  void ContextForward(Rollout<T>& r) const;   // h_0 from the context network (when there is one)
  void ContextBackward(Rollout<T>& r) const;  // its parameters' gradient from dh_0 (block 0 of r.dH)

  ModelSpec spec_;
  ParamStore<T> store_;
  std::unique_ptr<Sensor<T>> sensor_;
  std::unique_ptr<LocationPolicy<T>> policy_;
  int P_, D_, K_;
  GlimpseNetwork<T> glimpse_;
  std::unique_ptr<CoreNetwork<T>> core_;
  Linear<T> location_, action_, baseline_;
  std::unique_ptr<Sensor<T>> context_view_;  // null: no context network
  Linear<T> context_;                        // (V -> hidden), registered only with a context network
  T context_scale_ = 1;                      // s in h_0 = s tanh(W_c v + b_c) (SetInputs)
  double* sensor_seconds_ = nullptr;
};

}  // namespace glimpse
