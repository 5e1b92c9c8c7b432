// The reward of an episode and the returns REINFORCE weighs each step's score with (estimator.h).
//
// A reward is one registered kind (Rewards(), rewards.cpp; --reward). It turns a batch's outcome into
// returns G (T N), entry i = (t-1) N + n for step t of row n:
//   terminal (RAM, Mnih et al. 2014): R_n = 1 if the answer after the last glimpse is right, else 0;
//     G_{t,n} = R_n at every step. A sequential agent (DRAM) that names J objects in turn hands over
//     its own returns instead (PolicyTrace::reward_to_go): the objects named right from step t's on.
//   dense: r_{t,n} = CE_{t-1,n} - CE_{t,n}, the reduction of the classifier's cross-entropy (nats) that
//     glimpse t brought (CE_0 = log C, knowing nothing); G_{t,n} = sum_{s >= t} gamma^(s-t) r_{s,n}
//     (--discount gamma). With gamma = 1, G_t = CE_{t-1} - CE_T: the final log-likelihood, less a
//     term that glimpse t cannot change.
#pragma once

#include <functional>
#include <vector>

#include "src/core/registry.h"

namespace glimpse {

// One batch's outcome, as the estimator hands it to a reward.
struct Outcome {
  int steps = 0, rows = 0, classes = 0;               // T, N, C
  const std::vector<double>* correct = nullptr;       // (N) 1 if the final answer is right, else 0
  const std::vector<double>* step_ce = nullptr;       // (T N) cross-entropy after each glimpse (per_step kinds)
  const std::vector<double>* reward_to_go = nullptr;  // (T N) a sequential agent's returns, or null
};

// Writes the returns (T N) of an outcome.
using ReturnsFn = std::function<void(const Outcome&, std::vector<double>& returns)>;

struct RewardKind : KindInfo {
  bool per_step = false;                           // needs the classifier after every glimpse (--step-loss > 0)
  std::function<ReturnsFn(const Settings&)> make;  // the returns under the kind's own options
};

// --reward: every registered reward, one declaration and one line each in rewards.cpp.
const Registry<RewardKind>& Rewards();

}  // namespace glimpse
