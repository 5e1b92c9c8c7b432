// RAM's reward: 1 if the answer after the last glimpse is right, else 0, and every step's return is
// that reward (Mnih et al. 2014). An agent that names several objects in turn (DRAM) rewards each
// object it names right: step t's return is then the reward to go it hands over (Outcome).
#include "src/rl/reward.h"

namespace glimpse {

RewardKind TerminalRewardKind() {
  RewardKind k;
  k.name = "terminal";
  k.help = "RAM: 1 if the final answer is right, else 0, the return of every step";
  k.make = [](const Settings&) -> ReturnsFn {
    return [](const Outcome& o, std::vector<double>& G) {
      const std::size_t N = static_cast<std::size_t>(o.rows);
      G.resize(N * o.steps);
      if (o.reward_to_go) {
        G = *o.reward_to_go;
        return;
      }
      for (std::size_t i = 0; i < G.size(); ++i) G[i] = (*o.correct)[i % N];
    };
  };
  return k;
}

}  // namespace glimpse
