// REINFORCE estimators for the location policy, inside RAM's hybrid loss (Mnih et al. 2014, 3.2):
//
//   action:    cross-entropy of the action network at h_T         -> action, core, glimpse networks
//   step:      w_s (1/(T-1)) sum_{t<T} cross-entropy at h_t        -> the same (--step-loss w_s > 0 only)
//   reinforce: -(1/N) sum_n sum_t A_{t,n} log pi(l_{t,n})          -> location network only
//   entropy:   -beta (1/N) sum_n sum_t H(pi_{t,n})                 -> location network only
//   baseline:  (1/(T N)) sum (b_{t,n} - G'_{t,n})^2 (learned only) -> baseline network only
//
// with G_{t,n} the return of step t (reward.h, --reward: RAM's terminal 0/1 reward at every step, or
// dense rewards), G' = G or, with --reward-norm, G normalised over the batch at each step (mean 0,
// std 1), and A_{t,n} = G'_{t,n} - b_{t,n}, the baseline a constant of the gradient, chosen among the
// registered kinds (baseline.h: none, learned, average, loo, self-critical). The self-critical
// baseline compares with the greedy episode's returns, which Compute takes as an argument
// (GreedyReturns makes them from the greedy episode's trace).
// Rows whose location is the policy's expectation (semi-sampling) carry no REINFORCE gradient.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "src/core/error.h"
#include "src/nn/softmax_xent.h"
#include "src/rl/baseline.h"
#include "src/rl/location_policy.h"
#include "src/rl/reward.h"
#include "src/rl/trace.h"

namespace glimpse {

struct EstimatorConfig {
  std::string baseline = "learned";  // a registered baseline (Baselines())
  double action_weight = 1.0;        // weight of the cross-entropy
  double rl_weight = 1.0;            // weight of the REINFORCE term
  double baseline_weight = 1.0;      // weight of the learned baseline's regression
  double entropy = 0.0;              // beta of the entropy bonus
  bool reward_norm = false;
  int samples = 1;                  // M: consecutive rows per image (loo needs M >= 2)
  double step_loss = 0.0;           // weight of the cross-entropy after glimpses 1..T-1 (needs step logits)
  std::string reward = "terminal";  // a registered reward (reward.h)
  ReturnsFn returns;                // its returns under the run's options; null: the kind's defaults
};

struct LossReport {
  double total = 0, action = 0, reinforce = 0, baseline = 0;
  double step = 0;     // mean cross-entropy after glimpses 1..T-1 (with step logits)
  double entropy = 0;  // mean policy entropy per step
  double reward = 0;   // mean reward = accuracy of the sampled episodes
};

template <class T>
class Estimator {
 public:
  // policy null (a differentiable sensor): only the cross-entropy; there is nothing to REINFORCE.
  Estimator(const EstimatorConfig& cfg, const LocationPolicy<T>* policy)
      : cfg_(cfg), policy_(policy), baseline_(Baselines().Get(cfg.baseline).make(cfg.samples)) {
    const RewardKind& reward = Rewards().Get(cfg.reward);
    if (!cfg_.returns) cfg_.returns = reward.make(Settings{});
    per_step_ = reward.per_step;
  }

  // True when Compute needs the greedy episodes' returns (the self-critical baseline).
  bool needs_greedy() const { return policy_ != nullptr && baseline_->greedy(); }
  // The returns G (T N) of the greedy (policy-mean) episodes of the rows the next Compute scores, into
  // `out`: r their trace, reward (N) their 0/1 rewards. Compute's argument `greedy`.
  void GreedyReturns(const PolicyTrace<T>& r, const std::int32_t* labels, const T* reward, std::vector<double>& out) {
    Returns(r, labels, reward, out);
  }

  // Reads the trace r, labels (N) and reward (N) in {0, 1}; writes the signals s (sized by the
  // model: probs, dlogits (N, C), dpre (T N, K), dbaseline (T N, 1)). greedy: GreedyReturns of the
  // same rows, needed by the self-critical baseline only (needs_greedy). state: the baseline's state
  // before this batch, which Compute replaces by the next one (null: StartState(), the next one
  // discarded).
  LossReport Compute(const PolicyTrace<T>& r, const std::int32_t* labels, const T* reward, LossSignals<T>& s,
                     const std::vector<double>* greedy_returns = nullptr, BaselineState* state = nullptr) {
    const int N = r.rows, TT = r.steps, C = static_cast<int>(r.logits.shape(1));
    const int K = static_cast<int>(r.head.shape(1));
    const bool steps = HasStepLogits(r);
    Check(steps || (cfg_.step_loss == 0 && !per_step_), "--step-loss and --reward dense need a model that ",
          "classifies after every glimpse");
    LossReport rep;
    rep.action = SoftmaxCrossEntropyForward(r.logits.data(), labels, N, C, s.probs.data());
    SoftmaxCrossEntropyBackward(s.probs.data(), labels, N, C, static_cast<T>(cfg_.action_weight), s.dlogits.data());
    if (steps) rep.step = StepLosses(r, labels, s);
    double mean = 0;
    for (int n = 0; n < N; ++n) mean += reward[n];
    mean /= N;
    rep.reward = mean;
    rep.total = cfg_.action_weight * rep.action + cfg_.step_loss * rep.step;
    if (policy_ == nullptr) {
      std::fill(s.dpre.begin(), s.dpre.end(), T(0));
      std::fill(s.dbaseline.begin(), s.dbaseline.end(), T(0));
      return rep;
    }
    // Returns G' (normalised or not) and the greedy episode's, normalised alike.
    Returns(r, labels, reward, returns_);
    const bool greedy = baseline_->greedy();
    Check(!greedy || (greedy_returns && greedy_returns->size() == returns_.size()),
          "the self-critical baseline needs the greedy episodes' returns of the same rows (GreedyReturns)");
    if (greedy) greedy_ = *greedy_returns;  // normalised below alike, the caller's copy left as it is
    for (int t = 0; t < TT; ++t)
      Normalise(returns_.data() + static_cast<std::size_t>(t) * N, N,
                greedy ? greedy_.data() + static_cast<std::size_t>(t) * N : nullptr);
    // REINFORCE and entropy.
    std::fill(s.dpre.begin(), s.dpre.end(), T(0));
    const T k = static_cast<T>(-cfg_.rl_weight / N), ke = static_cast<T>(-cfg_.entropy / N);
    BaselineState start;  // empty: no allocation unless the caller passes no state
    if (!state) start = baseline_->Start(), state = &start;
    baseline_->Begin(returns_, N, cfg_.samples, greedy ? greedy_ : none_, *state);
    double reinforce = 0, entropy = 0;
    for (int t = 1; t <= TT; ++t) {
      const Index row0 = static_cast<Index>(t - 1) * N;
      for (int n = 0; n < N; ++n) {
        const Index i = row0 + n;
        const T* head = r.head.data() + i * K;
        const T* loc = r.loc.data() + 2 * i;
        T* dpre = s.dpre.data() + i * K;
        const std::int32_t choice = r.choice[i];
        const double adv = returns_[i] - baseline_->Value(i, r.baseline.data()[i]);
        if (choice != LocationPolicy<T>::kExpected) {
          reinforce -= adv * policy_->LogProb(head, loc, choice);
          policy_->AddScore(head, loc, choice, k * static_cast<T>(adv), dpre);
        }
        const double h = policy_->Entropy(head);
        entropy += h;
        if (cfg_.entropy > 0) policy_->AddEntropyGrad(head, ke, dpre);
      }
    }
    rep.reinforce = reinforce / N;
    rep.entropy = entropy / (static_cast<double>(N) * TT);
    // The learned baseline regresses G'.
    const bool learned = baseline_->learned();
    if (learned) {
      double sum = 0;
      const std::size_t TN = static_cast<std::size_t>(TT) * N;
      const T kb = static_cast<T>(cfg_.baseline_weight * 2.0 / static_cast<double>(TN));
      for (std::size_t i = 0; i < TN; ++i) {
        const double d = static_cast<double>(r.baseline.data()[i]) - returns_[i];
        sum += d * d;
        s.dbaseline.data()[i] = kb * static_cast<T>(d);
      }
      rep.baseline = sum / static_cast<double>(TN);
    } else {
      std::fill(s.dbaseline.begin(), s.dbaseline.end(), T(0));
    }
    double gmean = 0;  // the episode's return: step 1's
    for (int n = 0; n < N; ++n) gmean += returns_[n];
    baseline_->End(gmean / N, *state);
    rep.total = rep.total + cfg_.rl_weight * rep.reinforce - cfg_.entropy * rep.entropy * TT +
                (learned ? cfg_.baseline_weight * rep.baseline : 0.0);
    return rep;
  }

  // The baseline's state before the first batch (Compute's `state`; its names are what a checkpoint
  // keeps).
  BaselineState StartState() const { return baseline_->Start(); }
  const EstimatorConfig& config() const { return cfg_; }

 private:
  static bool HasStepLogits(const PolicyTrace<T>& r) {
    return r.step_logits.shape(0) == static_cast<std::size_t>(r.steps) * r.rows && r.steps > 0;
  }
  // Cross-entropy of every row after every glimpse into step_ce_ (T N) and softmax into step_probs_.
  void StepCrossEntropy(const PolicyTrace<T>& r, const std::int32_t* labels) {
    const int N = r.rows, C = static_cast<int>(r.step_logits.shape(1));
    const std::size_t TN = static_cast<std::size_t>(r.steps) * N;
    step_ce_.resize(TN);
    step_probs_.resize(TN * C);
    for (std::size_t i = 0; i < TN; ++i)
      step_ce_[i] =
          SoftmaxCrossEntropyForward(r.step_logits.data() + i * C, labels + i % N, 1, C, step_probs_.data() + i * C);
  }
  // The step loss (the mean cross-entropy after glimpses 1..T-1) and the gradient at every step's
  // logits: w_s / (T - 1) per earlier step, the action weight at step T (which replaces dlogits).
  double StepLosses(const PolicyTrace<T>& r, const std::int32_t* labels, LossSignals<T>& s) {
    const int N = r.rows, TT = r.steps, C = static_cast<int>(r.step_logits.shape(1));
    StepCrossEntropy(r, labels);
    double loss = 0;
    for (int t = 1; t <= TT; ++t) {
      const std::size_t first = static_cast<std::size_t>(t - 1) * N;
      const double w = t == TT ? cfg_.action_weight : cfg_.step_loss / (TT - 1);
      SoftmaxCrossEntropyBackward(step_probs_.data() + first * C, labels, N, C, static_cast<T>(w),
                                  s.dstep_logits.data() + first * C);
      if (t < TT)
        for (int n = 0; n < N; ++n) loss += step_ce_[first + n];
    }
    std::fill(s.dlogits.begin(), s.dlogits.end(), T(0));
    return TT > 1 ? loss / (static_cast<double>(N) * (TT - 1)) : 0.0;
  }
  // The returns G (T N) of a trace (reward.h).
  void Returns(const PolicyTrace<T>& r, const std::int32_t* labels, const T* reward, std::vector<double>& G) {
    correct_.resize(r.rows);
    for (int n = 0; n < r.rows; ++n) correct_[n] = static_cast<double>(reward[n]);
    Outcome o;
    o.steps = r.steps, o.rows = r.rows, o.classes = static_cast<int>(r.logits.shape(1));
    o.correct = &correct_;
    if (!r.reward_to_go.empty()) {
      Check(r.reward_to_go.size() == static_cast<std::size_t>(r.steps) * r.rows, "a reward to go per step and row");
      o.reward_to_go = &r.reward_to_go;
    }
    if (per_step_) {
      Check(HasStepLogits(r), "--reward ", cfg_.reward, " needs the classifier after every glimpse (--step-loss > 0)");
      StepCrossEntropy(r, labels);
      o.step_ce = &step_ce_;
    }
    cfg_.returns(o, G);
  }
  // With --reward-norm, g (N) <- (g - mean g) / std g, and `also` (N, may be null) by the same.
  void Normalise(double* g, int N, double* also) const {
    if (!cfg_.reward_norm) return;
    double mean = 0, var = 0;
    for (int n = 0; n < N; ++n) mean += g[n];
    mean /= N;
    for (int n = 0; n < N; ++n) var += (g[n] - mean) * (g[n] - mean);
    const double sd = std::sqrt(var / N);
    for (int n = 0; n < N; ++n) g[n] = (g[n] - mean) / (sd + 1e-6);
    if (also)
      for (int n = 0; n < N; ++n) also[n] = (also[n] - mean) / (sd + 1e-6);
  }

  EstimatorConfig cfg_;
  const LocationPolicy<T>* policy_;
  std::unique_ptr<Baseline> baseline_;
  bool per_step_ = false;
  std::vector<double> returns_, greedy_, none_, correct_, step_ce_;  // (T N), (T N), empty, (N), (T N)
  std::vector<T> step_probs_;                                        // (T N, C)
};

}  // namespace glimpse
