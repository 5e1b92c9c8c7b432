#include "src/train/agent.h"

#include <algorithm>
#include <cmath>

#include "src/train/make_kinds.h"

namespace glimpse {

AgentKind ImageAgentKind();  // image_agent.cpp
AgentKind QueryAgentKind();  // query_agent.cpp
AgentKind DramAgentKind();   // dram_agent.cpp

EstimatorConfig EstimatorConfigFor(const ExperimentConfig& cfg) {
  EstimatorConfig ec;
  ec.baseline = cfg.baseline;
  ec.rl_weight = cfg.rl_weight;
  ec.entropy = cfg.entropy;
  ec.reward_norm = cfg.reward_norm;
  ec.samples = cfg.samples;
  ec.step_loss = cfg.step_loss;
  ec.reward = cfg.reward;
  ec.returns = MakeReturns(cfg);
  return ec;
}

void AddProbabilities(const float* z, int classes, double* avg) {
  constexpr int kMaxClasses = 128;
  CheckRange(classes, 1, kMaxClasses, "classes");
  double p[kMaxClasses];
  const float mx = *std::max_element(z, z + classes);
  double s = 0;
  for (int c = 0; c < classes; ++c) s += (p[c] = std::exp(static_cast<double>(z[c] - mx)));
  for (int c = 0; c < classes; ++c) avg[c] += p[c] / s;
}

const Registry<AgentKind>& Agents() {
  static const Registry<AgentKind> registry("agent", {
                                                         ImageAgentKind(),
                                                         QueryAgentKind(),
                                                         DramAgentKind(),
                                                     });
  return registry;
}

}  // namespace glimpse
