// RAM's hybrid loss (Mnih et al. 2014, section 3.2; DESIGN.md section 2) on a rollout:
//   action:    cross-entropy of the action network at h_T      -> action, core, glimpse networks
//   reinforce: -(1/N) sum_n sum_t A_{t,n} log pi(l_t | mu_t)    -> location network only
//              A_{t,n} = R_n - b_{t,n}, the baseline detached, R_n = 1 if the class is right
//   baseline:  (1/(T N)) sum (b_{t,n} - R_n)^2                  -> baseline network only
// Writes the gradient signals r.dlogits, r.dmu, r.dbaseline that AttentionModel::Backward consumes.
#pragma once

#include <cstdint>

#include "src/model/rollout.h"
#include "src/nn/mse.h"
#include "src/nn/softmax_xent.h"
#include "src/rl/gaussian_policy.h"

namespace glimpse {

struct LossWeights {
  double action = 1.0;
  double reinforce = 1.0;
  double baseline = 1.0;  // 0 disables the learned baseline (then A = R)
};

struct LossReport {
  double total = 0, action = 0, reinforce = 0, baseline = 0;
  double reward = 0;  // mean reward = accuracy of the sampled episodes
};

// labels (N); reward (N) in {0, 1}.
template <class T>
LossReport HybridLoss(Rollout<T>& r, const std::int32_t* labels, const T* reward,
                      const GaussianPolicy<T>& policy, const LossWeights& w) {
  const int N = r.rows, TT = r.steps, C = static_cast<int>(r.logits.shape(1));
  const int P = static_cast<int>(r.mu.shape(1));
  LossReport rep;
  rep.action = SoftmaxCrossEntropyForward(r.logits.data(), labels, N, C, r.probs.data());
  SoftmaxCrossEntropyBackward(r.probs.data(), labels, N, C, static_cast<T>(w.action), r.dlogits.data());

  const bool use_baseline = w.baseline > 0;
  const T k = static_cast<T>(-w.reinforce / N);
  double reinforce = 0;
  for (int t = 1; t <= TT; ++t) {
    const T* mu = r.block(r.mu, t);
    const T* loc = r.block(r.loc, t);
    const T* b = r.block(r.baseline, t);
    T* dmu = r.block(r.dmu, t);
    for (int n = 0; n < N; ++n) {
      const T adv = reward[n] - (use_baseline ? b[n] : T(0));
      reinforce -= adv * policy.LogProb(loc + n * P, mu + n * P, P);
      for (int d = 0; d < P; ++d) dmu[n * P + d] = k * adv * policy.ScoreMean(loc[n * P + d], mu[n * P + d]);
    }
  }
  rep.reinforce = reinforce / N;

  if (use_baseline) {
    // Targets: R_n for every step.
    double s = 0;
    const std::size_t TN = static_cast<std::size_t>(TT) * N;
    const T kb = static_cast<T>(w.baseline * 2.0 / static_cast<double>(TN));
    for (int t = 1; t <= TT; ++t) {
      const T* b = r.block(r.baseline, t);
      T* db = r.block(r.dbaseline, t);
      for (int n = 0; n < N; ++n) {
        const double d = static_cast<double>(b[n]) - reward[n];
        s += d * d;
        db[n] = kb * (b[n] - reward[n]);
      }
    }
    rep.baseline = s / static_cast<double>(TN);
  } else {
    std::fill(r.dbaseline.begin(), r.dbaseline.end(), T(0));
  }
  double rs = 0;
  for (int n = 0; n < N; ++n) rs += reward[n];
  rep.reward = rs / N;
  rep.total = w.action * rep.action + w.reinforce * rep.reinforce + w.baseline * rep.baseline;
  return rep;
}

}  // namespace glimpse
