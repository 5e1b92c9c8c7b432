// REINFORCE estimators for the location policy, inside RAM's hybrid loss (Mnih et al. 2014, 3.2):
//
//   action:    cross-entropy of the action network at h_T         -> action, core, glimpse networks
//   reinforce: -(1/N) sum_n sum_t A_{t,n} log pi(l_{t,n})          -> location network only
//   entropy:   -beta (1/N) sum_n sum_t H(pi_{t,n})                 -> location network only
//   baseline:  (1/(T N)) sum (b_{t,n} - R'_n)^2 (learned only)     -> baseline network only
//
// with R'_n the reward (1 if the class is right), or with --reward-norm (R_n - mean R) / std R over
// the batch, and A_{t,n} = R'_n - b_{t,n}, the baseline a constant of the gradient:
//   none:    b = 0                                   (plain REINFORCE, Williams 1992)
//   learned: b_{t,n} = W_b h_{t-1} + c               (RAM)
//   average: b = exponential moving average of mean R', b <- 0.9 b + 0.1 mean R' after each step
//            (Show, Attend and Tell)
//   loo:     b_n = mean of R' over the other M - 1 samples of the same image (leave-one-out;
//            Kool et al. 2019), rows n = i M + m hold sample m of image i
// Rows whose location is the policy's expectation (semi-sampling) carry no REINFORCE gradient.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "src/core/error.h"
#include "src/model/rollout.h"
#include "src/nn/mse.h"
#include "src/nn/softmax_xent.h"
#include "src/rl/location_policy.h"

namespace glimpse {

enum class BaselineKind { kNone, kLearned, kAverage, kLeaveOneOut };

inline BaselineKind ParseBaseline(const std::string& s) {
  if (s == "none") return BaselineKind::kNone;
  if (s == "learned") return BaselineKind::kLearned;
  if (s == "average") return BaselineKind::kAverage;
  if (s == "loo") return BaselineKind::kLeaveOneOut;
  Fail("unknown baseline '", s, "': expected none, learned, average or loo");
}

struct EstimatorConfig {
  BaselineKind baseline = BaselineKind::kLearned;
  double action_weight = 1.0;   // weight of the cross-entropy
  double rl_weight = 1.0;       // weight of the REINFORCE term
  double baseline_weight = 1.0;  // weight of the learned baseline's regression
  double entropy = 0.0;         // beta of the entropy bonus
  bool reward_norm = false;
  int samples = 1;              // M: consecutive rows per image (loo needs M >= 2)
  double average_decay = 0.9;
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
  Estimator(const EstimatorConfig& cfg, const LocationPolicy<T>* policy) : cfg_(cfg), policy_(policy) {
    Check(cfg.baseline != BaselineKind::kLeaveOneOut || cfg.samples >= 2,
          "the leave-one-out baseline needs --samples of at least 2, found ", cfg.samples);
  }

  // labels (N), reward (N) in {0, 1}. Writes r.dlogits, r.dpre, r.dbaseline.
  LossReport Compute(Rollout<T>& r, const std::int32_t* labels, const T* reward) {
    const int N = r.rows, TT = r.steps, C = static_cast<int>(r.logits.shape(1));
    const int K = static_cast<int>(r.head.shape(1));
    LossReport rep;
    rep.action = SoftmaxCrossEntropyForward(r.logits.data(), labels, N, C, r.probs.data());
    SoftmaxCrossEntropyBackward(r.probs.data(), labels, N, C, static_cast<T>(cfg_.action_weight),
                                r.dlogits.data());
    if (policy_ == nullptr) {
      std::fill(r.dpre.begin(), r.dpre.end(), T(0));
      std::fill(r.dbaseline.begin(), r.dbaseline.end(), T(0));
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
    std::fill(r.dpre.begin(), r.dpre.end(), T(0));
    const T k = static_cast<T>(-cfg_.rl_weight / N), ke = static_cast<T>(-cfg_.entropy / N);
    const int M = cfg_.samples;
    double reinforce = 0, entropy = 0;
    for (int t = 1; t <= TT; ++t) {
      const Index row0 = static_cast<Index>(t - 1) * N;
      for (int n = 0; n < N; ++n) {
        const Index i = row0 + n;
        const T* head = r.head.data() + i * K;
        const T* loc = r.loc.data() + 2 * i;
        T* dpre = r.dpre.data() + i * K;
        const std::int32_t choice = r.choice[i];
        const double adv = rnorm_[n] - Baseline(r, i, n, M);
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
    if (cfg_.baseline == BaselineKind::kLearned) {
      double s = 0;
      const std::size_t TN = static_cast<std::size_t>(TT) * N;
      const T kb = static_cast<T>(cfg_.baseline_weight * 2.0 / static_cast<double>(TN));
      for (std::size_t i = 0; i < TN; ++i) {
        const double d = static_cast<double>(r.baseline.data()[i]) - rnorm_[i % N];
        s += d * d;
        r.dbaseline.data()[i] = kb * static_cast<T>(d);
      }
      rep.baseline = s / static_cast<double>(TN);
    } else {
      std::fill(r.dbaseline.begin(), r.dbaseline.end(), T(0));
    }
    if (cfg_.baseline == BaselineKind::kAverage)
      average_ = cfg_.average_decay * average_ + (1 - cfg_.average_decay) * rmean;
    rep.reward = mean;
    rep.total = cfg_.action_weight * rep.action + cfg_.rl_weight * rep.reinforce -
                cfg_.entropy * rep.entropy * TT +
                (cfg_.baseline == BaselineKind::kLearned ? cfg_.baseline_weight * rep.baseline : 0.0);
    return rep;
  }

  double average() const { return average_; }
  void set_average(double a) { average_ = a; }
  const EstimatorConfig& config() const { return cfg_; }

 private:
  // b for row i (step block offset included) of image-sample n.
  double Baseline(const Rollout<T>& r, Index i, int n, int M) const {
    switch (cfg_.baseline) {
      case BaselineKind::kLearned: return r.baseline.data()[i];
      case BaselineKind::kAverage: return average_;
      case BaselineKind::kLeaveOneOut: {
        const int first = n - n % M;
        double s = 0;
        for (int m = 0; m < M; ++m) s += rnorm_[first + m];
        return (s - rnorm_[n]) / (M - 1);
      }
      default: return 0.0;
    }
  }

  EstimatorConfig cfg_;
  const LocationPolicy<T>* policy_;
  std::vector<double> rnorm_;
  double average_ = 0.0;
};

}  // namespace glimpse
