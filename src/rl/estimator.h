// REINFORCE estimators for the location policy, inside RAM's hybrid loss (Mnih et al. 2014, 3.2):
//
//   action:    cross-entropy of the action network at h_T         -> action, core, glimpse networks
//   reinforce: -(1/N) sum_n sum_t A_{t,n} log pi(l_{t,n})          -> location network only
//   entropy:   -beta (1/N) sum_n sum_t H(pi_{t,n})                 -> location network only
//   baseline:  (1/(T N)) sum (b_{t,n} - R'_n)^2 (learned only)     -> baseline network only
//
// with R'_n the reward (1 if the class is right), or with --reward-norm (R_n - mean R) / std R over
// the batch, and A_{t,n} = R'_n - b_{t,n}, the baseline a constant of the gradient, chosen among the
// registered kinds (baseline.h: none, learned, average, loo).
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
#include "src/rl/trace.h"

namespace glimpse {

struct EstimatorConfig {
  std::string baseline = "learned";  // a registered baseline (Baselines())
  double action_weight = 1.0;   // weight of the cross-entropy
  double rl_weight = 1.0;       // weight of the REINFORCE term
  double baseline_weight = 1.0;  // weight of the learned baseline's regression
  double entropy = 0.0;         // beta of the entropy bonus
  bool reward_norm = false;
  int samples = 1;              // M: consecutive rows per image (loo needs M >= 2)
};

struct LossReport {
  double total = 0, action = 0, reinforce = 0, baseline = 0;
  double entropy = 0;  // mean policy entropy per step
  double reward = 0;   // mean reward = accuracy of the sampled episodes
};

template <class T>
class Estimator {
 public:
  // policy null (a differentiable sensor): only the cross-entropy; there is nothing to REINFORCE.
  Estimator(const EstimatorConfig& cfg, const LocationPolicy<T>* policy)
      : cfg_(cfg), policy_(policy), baseline_(Baselines().Get(cfg.baseline).make(cfg.samples)) {}

  // Reads the trace r, labels (N) and reward (N) in {0, 1}; writes the signals s (sized by the
  // model: probs, dlogits (N, C), dpre (T N, K), dbaseline (T N, 1)). The baseline's state moves on
  // by one batch (State() before and SetState() after undo that, for probe batches).
  LossReport Compute(const PolicyTrace<T>& r, const std::int32_t* labels, const T* reward, LossSignals<T>& s) {
    const int N = r.rows, TT = r.steps, C = static_cast<int>(r.logits.shape(1));
    const int K = static_cast<int>(r.head.shape(1));
    LossReport rep;
    rep.action = SoftmaxCrossEntropyForward(r.logits.data(), labels, N, C, s.probs.data());
    SoftmaxCrossEntropyBackward(s.probs.data(), labels, N, C, static_cast<T>(cfg_.action_weight),
                                s.dlogits.data());
    if (policy_ == nullptr) {
      std::fill(s.dpre.begin(), s.dpre.end(), T(0));
      std::fill(s.dbaseline.begin(), s.dbaseline.end(), T(0));
      double s = 0;
      for (int n = 0; n < N; ++n) s += reward[n];
      rep.reward = s / N;
      rep.total = cfg_.action_weight * rep.action;
      return rep;
    }
    // Rewards R' (normalised or not).
    rnorm_.resize(N);
    double mean = 0, var = 0;
    for (int n = 0; n < N; ++n) mean += reward[n];
    mean /= N;
    for (int n = 0; n < N; ++n) var += (reward[n] - mean) * (reward[n] - mean);
    const double sd = std::sqrt(var / N);
    for (int n = 0; n < N; ++n)
      rnorm_[n] = cfg_.reward_norm ? (reward[n] - mean) / (sd + 1e-6) : static_cast<double>(reward[n]);
    double rmean = 0;
    for (int n = 0; n < N; ++n) rmean += rnorm_[n];
    rmean /= N;
    // REINFORCE and entropy.
    std::fill(s.dpre.begin(), s.dpre.end(), T(0));
    const T k = static_cast<T>(-cfg_.rl_weight / N), ke = static_cast<T>(-cfg_.entropy / N);
    baseline_->Begin(rnorm_, cfg_.samples);
    double reinforce = 0, entropy = 0;
    for (int t = 1; t <= TT; ++t) {
      const Index row0 = static_cast<Index>(t - 1) * N;
      for (int n = 0; n < N; ++n) {
        const Index i = row0 + n;
        const T* head = r.head.data() + i * K;
        const T* loc = r.loc.data() + 2 * i;
        T* dpre = s.dpre.data() + i * K;
        const std::int32_t choice = r.choice[i];
        const double adv = rnorm_[n] - baseline_->Value(n, r.baseline.data()[i]);
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
    // The learned baseline regresses R'.
    const bool learned = baseline_->learned();
    if (learned) {
      double sum = 0;
      const std::size_t TN = static_cast<std::size_t>(TT) * N;
      const T kb = static_cast<T>(cfg_.baseline_weight * 2.0 / static_cast<double>(TN));
      for (std::size_t i = 0; i < TN; ++i) {
        const double d = static_cast<double>(r.baseline.data()[i]) - rnorm_[i % N];
        sum += d * d;
        s.dbaseline.data()[i] = kb * static_cast<T>(d);
      }
      rep.baseline = sum / static_cast<double>(TN);
    } else {
      std::fill(s.dbaseline.begin(), s.dbaseline.end(), T(0));
    }
    baseline_->End(rmean);
    rep.reward = mean;
    rep.total = cfg_.action_weight * rep.action + cfg_.rl_weight * rep.reinforce -
                cfg_.entropy * rep.entropy * TT + (learned ? cfg_.baseline_weight * rep.baseline : 0.0);
    return rep;
  }

  // The baseline's state between batches (the moving average), by name: what a checkpoint keeps.
  std::map<std::string, double> State() const { return baseline_->State(); }
  void SetState(const std::map<std::string, double>& state) { baseline_->SetState(state); }
  const EstimatorConfig& config() const { return cfg_; }

 private:
  EstimatorConfig cfg_;
  const LocationPolicy<T>* policy_;
  std::unique_ptr<Baseline> baseline_;
  std::vector<double> rnorm_;
};

}  // namespace glimpse
