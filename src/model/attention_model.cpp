#include "src/model/attention_model.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "src/model/cores.h"
#include "src/model/fc_encoder.h"
#include "src/nn/softmax_xent.h"

namespace glimpse {

template <class T>
AttentionModel<T>::AttentionModel(const ModelSpec& spec, std::unique_ptr<Sensor<T>> sensor,
                                  std::unique_ptr<LocationPolicy<T>> policy, std::unique_ptr<Sensor<T>> context_view,
                                  std::unique_ptr<GlimpseEncoder<T>> encoder)
    : spec_(spec),
      sensor_(std::move(sensor)),
      policy_(std::move(policy)),
      P_(sensor_->param_size()),
      D_(sensor_->glimpse_size()),
      K_(policy_ ? policy_->head_size() : sensor_->param_size()),
      glimpse_(store_, "glimpse",
               encoder ? std::move(encoder) : std::make_unique<FcEncoder<T>>(D_, spec.glimpse_hidden), P_,
               spec.glimpse_hidden, spec.hidden),
      core_(Cores<T>().Get(spec.core).make(store_, "core", spec.hidden, spec.hidden)),
      location_(store_, "location.fc", spec.hidden, K_),
      action_(store_, "action.fc", spec.hidden, spec.classes),
      baseline_(store_, "baseline.fc", spec.hidden, 1),
      context_view_(std::move(context_view)) {
  CheckRange(spec.steps, 1, 1024, "glimpses per episode");
  Check((spec.context > 0) == (context_view_ != nullptr), "a context network needs its view sensor, and only it");
  sensor_->RegisterParams(store_, "sensor");
  if (context_view_) context_ = Linear<T>(store_, "context.fc", context_view_->glimpse_size(), spec.hidden);
  if (policy_) CheckEq(P_, 2, "read parameters of a hard-attention sensor (a location)");
  store_.Allocate();
}

template <class T>
void AttentionModel<T>::Init(Rng& rng) {
  glimpse_.Init(rng);
  core_->Init(rng);
  location_.Init(rng);
  sensor_->InitParams(rng);
  const std::vector<T> start = sensor_->InitialParams();
  if (!start.empty()) {  // the read network starts at the sensor's chosen read (e.g. identity)
    CheckEq(static_cast<int>(start.size()), K_, "initial read parameters");
    store_.InitConstant(location_.weight(), T(0));
    std::copy(start.begin(), start.end(), store_.value(location_.bias()));
  }
  action_.Init(rng);
  baseline_.Init(rng);
  if (context_view_) context_.Init(rng);
}

template <class T>
void AttentionModel<T>::Prepare(int rows, Rollout<T>& r) const {
  const auto TN = static_cast<std::size_t>(spec_.steps) * rows, N = static_cast<std::size_t>(rows);
  const auto P = static_cast<std::size_t>(P_), Hd = static_cast<std::size_t>(spec_.hidden),
             Gh = static_cast<std::size_t>(spec_.glimpse_hidden), C = static_cast<std::size_t>(spec_.classes);
  r.steps = spec_.steps;
  r.rows = rows;
  EnsureShape(r.head, TN, static_cast<std::size_t>(K_));
  EnsureShape(r.loc, TN, P);
  r.choice.resize(TN);
  EnsureShape(r.read, TN, P);
  EnsureShape(r.x, TN, static_cast<std::size_t>(D_));
  EnsureShape(r.hg, TN, Gh);
  EnsureShape(r.hl, TN, Gh);
  EnsureShape(r.glimpse_cache, TN, static_cast<std::size_t>(glimpse_.cache_size()));
  if (r.glimpse_scratch.size() < glimpse_.scratch_size()) r.glimpse_scratch.resize(glimpse_.scratch_size());
  EnsureShape(r.g, TN, Hd);
  core_->Prepare(spec_.steps, rows, r.core);
  EnsureShape(r.baseline, TN, 1);
  EnsureShape(r.logits, N, C);
  EnsureShape(r.probs, N, C);
  r.actions.resize(N);
  EnsureShape(r.dlogits, N, C);
  EnsureShape(r.step_logits, spec_.step_logits ? TN : 0, C);
  EnsureShape(r.dstep_logits, spec_.step_logits ? TN : 0, C);
  EnsureShape(r.dpre, TN, static_cast<std::size_t>(K_));
  EnsureShape(r.dbaseline, TN, 1);
  EnsureShape(r.dH, TN + N, Hd);
  EnsureShape(r.dg, TN, Hd);
  EnsureShape(r.dhg, TN, Gh);
  EnsureShape(r.dhl, TN, Gh);
  if (!policy_) {
    EnsureShape(r.dx, TN, static_cast<std::size_t>(D_));
    EnsureShape(r.dread, N, P);
  }
  if (context_view_) {
    EnsureShape(r.context_view, N, static_cast<std::size_t>(context_view_->glimpse_size()));
    EnsureShape(r.dcontext, N, Hd);
  }
}

template <class T>
void AttentionModel<T>::ContextForward(Rollout<T>& r) const {
  if (!context_view_) return;
  if (r.context_cache.of != context_view_.get())
    r.context_cache.cache = context_view_->MakeCache(), r.context_cache.of = context_view_.get();
  context_view_->Prepare(r.images, r.rows, r.height, r.width, r.context_cache.cache.get());
  context_view_->Read(r.images, r.rows, r.height, r.width, /*params=*/nullptr, r.context_view.data(),
                      r.context_cache.cache.get());
  T* h0 = r.core.h_at(0);
  const std::size_t n = static_cast<std::size_t>(r.rows) * spec_.hidden;
  context_.Forward(r.context_view.data(), r.rows, h0);
  TanhForward(h0, n, h0);
  r.context_scale = context_scale_;
  if (context_scale_ != T(1))
    for (std::size_t i = 0; i < n; ++i) h0[i] *= context_scale_;
  r.core.given_h0 = true;
}

template <class T>
void AttentionModel<T>::SetInputs(const StepInputs& inputs) {
  sensor_->SetInputs(inputs);
  if (spec_.context_fade > 0)
    context_scale_ = static_cast<T>(std::max(0.0, 1.0 - inputs.progress / spec_.context_fade));
}

template <class T>
void AttentionModel<T>::ContextBackward(Rollout<T>& r) const {
  if (!context_view_) return;
  const std::size_t n = static_cast<std::size_t>(r.rows) * spec_.hidden;
  const T* h0 = r.core.h_at(0);
  const T* dh0 = r.dH.data();  // block 0
  // h_0 = s tanh(u): dh_0/du = s (1 - tanh^2 u) = s - h_0^2 / s (exactly 1 - h_0^2 without a fade), and 0
  // once s = 0.
  const T s = r.context_scale;
  T* du = r.dcontext.data();
  if (s == T(0))
    std::fill(du, du + n, T(0));
  else
    for (std::size_t i = 0; i < n; ++i) du[i] = dh0[i] * (s - h0[i] * h0[i] / s);
  context_.BackwardParams(r.context_view.data(), r.dcontext.data(), r.rows);
}

template <class T>
void AttentionModel<T>::Forward(const T* images, int rows, int height, int width, Rollout<T>& r, LocationMode mode,
                                Rng* rng, double semi_sampling) const {
  mode = Resolve(mode);
  Check(mode != LocationMode::kSample || rng != nullptr, "sampling locations needs an Rng");
  if (mode == LocationMode::kSample) DrawNoise(rows, *rng, semi_sampling, r);
  ForwardDrawn(images, rows, height, width, r, mode);
}

template <class T>
void AttentionModel<T>::DrawNoise(int rows, Rng& rng, double semi_sampling, Rollout<T>& r) const {
  const auto TN = static_cast<std::size_t>(spec_.steps) * rows;
  const int Z = noise_size();
  r.noise.resize(TN * Z);
  r.expected.assign(TN, 0);
  if (!policy_) {  // a differentiable read draws only its reparameterisation noise, if any
    const bool gumbel = sensor_->read_noise().kind == ReadNoise::Kind::kGumbel;
    for (double& z : r.noise) z = gumbel ? -std::log(-std::log(std::max(rng.Uniform(), 1e-300))) : rng.Normal();
    return;
  }
  for (int t = 0; t < spec_.steps; ++t) {
    const std::size_t first = static_cast<std::size_t>(t) * rows;
    policy_->DrawNoise(rows, rng, r.noise.data() + first * Z);
    if (semi_sampling > 0)
      for (int n = 0; n < rows; ++n) r.expected[first + n] = rng.Bernoulli(semi_sampling) ? 1 : 0;
  }
}

template <class T>
void AttentionModel<T>::ForwardDrawn(const T* images, int rows, int height, int width, Rollout<T>& r,
                                     LocationMode mode) const {
  const auto TN = static_cast<std::size_t>(spec_.steps) * rows;
  if (mode == LocationMode::kSample)
    Check(r.noise.size() == TN * noise_size() && r.expected.size() == TN,
          "ForwardDrawn(kSample) needs DrawNoise for the same number of rows");
  const bool noisy_reads = !policy_ && sensor_->read_noise().on() && mode != LocationMode::kMean;
  if (noisy_reads) Check(r.noise.size() == TN * P_, "a noisy read needs its noise drawn (DrawNoise) for these rows");
  if (mode == LocationMode::kGiven)
    Check(r.rows == rows && r.steps == spec_.steps, "kGiven needs a rollout of the same shape");
  Prepare(rows, r);
  r.images = images, r.height = height, r.width = width;
  auto timed = [this](auto&& sensor_call) {  // adds the sensor's time to *sensor_seconds_ if set
    if (!sensor_seconds_) return sensor_call();
    const auto t0 = std::chrono::steady_clock::now();
    sensor_call();
    *sensor_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  if (r.sensor.of != sensor_.get())  // once per rollout and sensor
    r.sensor.cache = sensor_->MakeCache(), r.sensor.of = sensor_.get();
  timed([&] { sensor_->Prepare(images, rows, height, width, r.sensor.cache.get()); });
  ContextForward(r);
  const std::size_t nP = static_cast<std::size_t>(rows) * P_;
  for (int t = 1; t <= spec_.steps; ++t) {
    T* head = r.block(r.head, t);
    T* loc = r.block(r.loc, t);
    T* read = r.block(r.read, t);
    const std::size_t first = static_cast<std::size_t>(t - 1) * rows;
    std::int32_t* choice = r.choice.data() + first;
    location_.Forward(r.core.h_at(t - 1), rows, head);
    if (!policy_) {  // differentiable sensor: the read network's outputs are the read parameters
      std::copy(head, head + nP, loc);
      std::copy(head, head + nP, read);
      if (noisy_reads) {  // reparameterised: read = p + scale z (d read / d p = 1)
        const double* eps = r.noise.data() + first * P_;
        const T sd = static_cast<T>(sensor_->read_noise().scale);
        for (std::size_t i = 0; i < nP; ++i) read[i] += sd * static_cast<T>(eps[i]);
      }
      std::fill(choice, choice + rows, LocationPolicy<T>::kExpected);
    } else {
      policy_->Activate(head, rows, head);
      if (mode == LocationMode::kSample) {
        policy_->Place(head, rows, r.noise.data() + first * policy_->noise_size(), loc, choice);
        for (int n = 0; n < rows; ++n)
          if (r.expected[first + n]) {
            policy_->Mean(head + static_cast<Index>(n) * K_, 1, loc + 2 * n);
            choice[n] = LocationPolicy<T>::kExpected;
          }
      } else if (mode == LocationMode::kMean) {
        policy_->Greedy(head, rows, loc);
        std::fill(choice, choice + rows, LocationPolicy<T>::kExpected);
      }
      for (std::size_t i = 0; i < nP; ++i) read[i] = std::clamp(loc[i], T(-1), T(1));
    }
    timed([&] { sensor_->Read(images, rows, height, width, read, r.block(r.x, t), r.sensor.cache.get()); });
    glimpse_.Forward(r.block(r.x, t), read, rows, r.block(r.hg, t), r.block(r.hl, t), r.block(r.g, t),
                     {r.glimpse_cache.data(), static_cast<Index>(TN), static_cast<Index>(first)},
                     r.glimpse_scratch.data());
    core_->Step(t, r.block(r.g, t), r.core);
  }
  // Baselines b_t from h_{t-1}, t = 1..T: one product over all steps.
  baseline_.Forward(r.core.h_at(0), spec_.steps * rows, r.baseline.data());
  const int C = spec_.classes;
  if (spec_.step_logits) {  // z_1 .. z_T in one product; the answer is z_T
    action_.Forward(r.core.h_at(1), spec_.steps * rows, r.step_logits.data());
    const T* last = r.block(r.step_logits, spec_.steps);
    std::copy(last, last + static_cast<Index>(rows) * C, r.logits.data());
  } else {
    action_.Forward(r.core.h_at(spec_.steps), rows, r.logits.data());
  }
  for (int n = 0; n < rows; ++n) {
    const T* z = r.logits.data() + static_cast<Index>(n) * C;
    r.actions[n] = static_cast<std::int32_t>(std::max_element(z, z + C) - z);
  }
}

template <class T>
void AttentionModel<T>::Backward(Rollout<T>& r) const {
  if (!policy_) {
    BackwardThroughReads(r);
    return;
  }
  const int N = r.rows, TT = r.steps, TN = TT * N;
  // Action loss -> h_T (every h_t with step logits) -> back through the core and the glimpse network.
  ActionBackward(r);
  // REINFORCE (and entropy) -> the location network, whose input rows are h_0..h_{T-1}; with
  // reinforce_into_core also into dh_{t-1} before the core's pass (h_0's share is unused),
  // otherwise h_{t-1} is detached.
  location_.Backward(r.core.h_at(0), r.dpre.data(), TN, spec_.reinforce_into_core ? r.dH.data() : nullptr,
                     /*accumulate_dx=*/true);
  core_->Backward(r.g.data(), r.dH.data(), r.core, r.dg.data());
  ContextBackward(r);
  glimpse_.Backward(r.x.data(), r.read.data(), r.hg.data(), r.hl.data(), r.g.data(), r.dg.data(), TN, r.dhg.data(),
                    r.dhl.data(), nullptr, nullptr, {r.glimpse_cache.data(), TN, 0}, r.glimpse_scratch.data());
  // Baseline regression -> baseline network only.
  baseline_.BackwardParams(r.core.h_at(0), r.dbaseline.data(), TN);
}

template <class T>
void AttentionModel<T>::ActionBackward(Rollout<T>& r) const {
  const Index N = r.rows, TT = r.steps, H = spec_.hidden;
  std::fill(r.dH.begin(), r.dH.end(), T(0));
  if (spec_.step_logits)
    action_.Backward(r.core.h_at(1), r.dstep_logits.data(), static_cast<int>(TT * N), r.dH.data() + N * H);
  else
    action_.Backward(r.core.h_at(TT), r.dlogits.data(), static_cast<int>(N), r.dH.data() + TT * N * H);
}

template <class T>
void AttentionModel<T>::BackwardThroughReads(Rollout<T>& r) const {
  const int N = r.rows, TT = r.steps;
  const Index H = spec_.hidden;
  ActionBackward(r);
  for (int t = TT; t >= 1; --t) {
    // dh_t is complete here: step t+1's read has added its share.
    core_->BackwardStep(t, r.dH.data(), r.core);
    T* dg = r.block(r.dg, t);
    core_->BackwardInputStep(t, r.core, dg);
    T* dp = r.block(r.dpre, t);  // gradient at the read parameters p_t: from h_l ...
    glimpse_.Backward(r.block(r.x, t), r.block(r.read, t), r.block(r.hg, t), r.block(r.hl, t), r.block(r.g, t), dg, N,
                      r.block(r.dhg, t), r.block(r.dhl, t), r.block(r.dx, t), dp,
                      {r.glimpse_cache.data(), static_cast<Index>(TT) * N, static_cast<Index>(t - 1) * N},
                      r.glimpse_scratch.data());
    // ... and through the read itself.
    sensor_->Backward(r.images, N, r.height, r.width, r.block(r.read, t), r.block(r.dx, t), r.dread.data(), nullptr,
                      r.sensor.cache.get());
    const std::size_t nP = static_cast<std::size_t>(N) * P_;
    for (std::size_t i = 0; i < nP; ++i) dp[i] += r.dread.data()[i];
    if (t > 1 || context_view_) location_.BackwardInput(dp, N, r.dH.data() + (t - 1) * N * H, /*accumulate=*/true);
  }
  ContextBackward(r);
  core_->BackwardParams(r.g.data(), r.core, nullptr);
  location_.BackwardParams(r.core.h_at(0), r.dpre.data(), TT * N);
}

template class AttentionModel<float>;
template class AttentionModel<double>;

}  // namespace glimpse
