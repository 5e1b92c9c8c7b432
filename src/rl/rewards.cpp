// The registered rewards of --reward: one line per kind.
#include "src/rl/reward.h"

namespace glimpse {

// The kinds, each defined in its own file.
RewardKind TerminalRewardKind();  // terminal_reward.cpp
RewardKind DenseRewardKind();     // dense_reward.cpp

const Registry<RewardKind>& Rewards() {
  static const Registry<RewardKind> registry("reward", {
                                                           TerminalRewardKind(),
                                                           DenseRewardKind(),
                                                       });
  return registry;
}

}  // namespace glimpse
